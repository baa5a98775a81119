"""Case documents in the UI: the Documents tab, background import, the passage viewer."""
