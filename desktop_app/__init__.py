"""LexMem (律记): an offline-first legal assistant with a long-term memory."""

__version__ = "0.1.0"
APP_NAME = "LexMem"
APP_DISPLAY_NAME = "LexMem 律记"
