"""PyInstaller entry script.

The spec does not point at ``desktop_app/__main__.py`` directly: PyInstaller would put that
script's folder (``desktop_app/``) on the search path, and its sub-packages (``core``, ``ui``,
``memory``...) would then shadow or duplicate as top-level modules.  Importing the package
from here keeps every module under its real ``desktop_app.`` name.
"""

import multiprocessing
import sys

from desktop_app.__main__ import main

if __name__ == "__main__":
    # a helper process (memory/construction_pool.py) is this same executable started with
    # multiprocessing's arguments: it must run the helper, not open a second window
    multiprocessing.freeze_support()
    sys.exit(main())
