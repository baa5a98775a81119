"""Everything that imports Qt: the main window, the views, the workers.  The layers below
(chat, memory, llm, core) never import from here (see .importlinter)."""
