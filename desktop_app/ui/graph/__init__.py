"""The Graph view: a case's memory notes as a native-Qt, batch-painted network.

Only :class:`GraphView` is public; ``layout`` (pure numpy) can be used without Qt.
"""

from __future__ import annotations

from .layout import LayoutParams
from .model import Filters
from .view import GraphView

__all__ = ["Filters", "GraphView", "LayoutParams"]
