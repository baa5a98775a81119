"""GraphView: the Graph tab.  It does not own the engine: the main window gives it a
:class:`Graph` and saved positions, and listens to its signals."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFileDialog, QLabel, QSplitter, QVBoxLayout, QWidget

from desktop_app.memory.types import Graph

from .canvas import GraphCanvas
from .compat import guard_none_refcount
from .controls import GraphControls
from .detail import DetailPanel, DetailsLoader, HistoryProvider, NoteProvider
from .export import export_image
from .layout import LayoutParams, arrange_unlinked, seed_positions
from .model import Filters, GraphModel
from .render import Frame
from .worker import LayoutRunner

log = logging.getLogger(__name__)


class GraphView(QWidget):
    """The memory map of one case.

    Signals:
      noteSelected(str)      a node was clicked ("" when the selection was cleared)
      noteActivated(str)     a node was double-clicked (or "Edit" pressed): open it in Notes
      positionsChanged(dict) {note_id: (x, y)} after a layout settles or a node is dragged;
                             pass it to ``engine.save_graph_positions(case_id, ...)``
      layoutFinished()       the background layout has settled
    """

    noteSelected = Signal(str)
    noteActivated = Signal(str)
    positionsChanged = Signal(dict)
    layoutFinished = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        note_provider: NoteProvider | None = None,
        history_provider: HistoryProvider | None = None,
        layout_params: LayoutParams | None = None,
    ) -> None:
        guard_none_refcount()  # before the first paint: see compat.py
        super().__init__(parent)
        self.layout_params = layout_params or LayoutParams()
        self.controls = GraphControls(self)
        self.canvas = GraphCanvas(self)
        self.details = DetailPanel(self)
        self.details.note_provider = note_provider
        self.details.history_provider = history_provider
        self.status = QLabel(self)
        self.status.setStyleSheet("color:#777; padding:0 6px")
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.canvas)
        split.addWidget(self.details)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 280])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.controls)
        lay.addWidget(split, 1)
        lay.addWidget(self.status)

        self.runner = LayoutRunner(self)
        self.runner.progressed.connect(self._on_layout_progress)
        self.runner.finished.connect(self._on_layout_finished)

        self._model: GraphModel | None = None
        self._pos = np.zeros((0, 2))
        self._filters = Filters()
        self._search = ""
        self._focus: str | None = None
        self._hops = 0
        self._selected: str | None = None
        self._auto_fit = True  # follow the settling layout until the user zooms or pans
        self._size_by = "degree"
        self._group_by = "category"

        c = self.controls
        c.filtersChanged.connect(self._on_controls_filters)
        c.searchChanged.connect(self.set_search)
        c.hopsChanged.connect(self._on_hops)
        c.sizeByChanged.connect(self.set_size_by)
        c.groupByChanged.connect(self.set_group_by)
        c.fitRequested.connect(self.fit)
        c.relayoutRequested.connect(self.relayout)
        c.exportRequested.connect(self._export_dialog)
        self.canvas.nodeClicked.connect(self._on_clicked)
        self.canvas.nodeDoubleClicked.connect(self._on_double_clicked)
        self.canvas.nodeDragged.connect(self._on_dragged)
        self.canvas.viewChanged.connect(self._stop_auto_fit)
        self.details.editRequested.connect(self.noteActivated)
        self.details.focusRequested.connect(lambda nid: self.focus_on(nid, max(self._hops, 1)))
        self.set_graph(Graph())

    # -- data in ------------------------------------------------------------------------
    def set_providers(
        self, note_provider: NoteProvider | None, history_provider: HistoryProvider | None = None
    ) -> None:
        """Where the detail panel gets a note's keywords, context and history (e.g.
        ``engine.get_note`` and ``engine.note_history``)."""
        self.details.note_provider = note_provider
        self.details.history_provider = history_provider

    def set_details_loader(self, loader: DetailsLoader | None) -> None:
        """Load a clicked note's details off the UI thread (the app's way: an engine call in
        a worker); takes precedence over the synchronous providers."""
        self.details.details_loader = loader

    def set_graph(
        self, graph: Graph, positions: Mapping[str, tuple[float, float]] | None = None
    ) -> None:
        """Show ``graph``.  Notes with a saved position keep it; the others are placed near
        their linked neighbours by a background layout that animates into view."""
        self.runner.cancel()
        model = GraphModel(graph, self._size_by)
        model.set_group_by(self._group_by)
        self._model = model
        known = model.known_positions(positions)
        seeded, _ = seed_positions(
            model.n, model.edges, known, k=self.layout_params.k, seed=self.layout_params.seed
        )
        # unlinked notes always sit in their category's grid (saved or not): at once, even
        # when every linked note has a saved position and no layout runs
        self._pos = arrange_unlinked(
            seeded, model.linked, model.group, self.layout_params.k, model.order
        )
        self._focus = None
        self._selected = None
        self.details.show_node(None)
        self._auto_fit = True
        self._refresh(fit=True)
        if model.n > 1 and np.isnan(known).any():
            self._start_layout(known)
        self._update_status()

    def clear(self) -> None:
        self.set_graph(Graph())

    def positions(self) -> dict[str, tuple[float, float]]:
        return self._model.positions_dict(self._pos) if self._model else {}

    def relayout(self) -> None:
        """Lay the whole map out afresh (forgets saved positions)."""
        if self._model is not None and self._model.n > 1:
            self._auto_fit = True
            self._start_layout(None)

    def is_laying_out(self) -> bool:
        return self.runner.running

    # -- filters, search, focus ---------------------------------------------------------
    def filters(self) -> Filters:
        return Filters(
            set(self._filters.categories), set(self._filters.statuses), set(self._filters.kinds)
        )

    def set_filters(
        self,
        categories: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
    ) -> None:
        """Show only these categories / statuses / link kinds (None leaves one unchanged)."""
        f = self._filters
        if categories is not None:
            f.categories = set(categories)
        if statuses is not None:
            f.statuses = set(statuses)
        if kinds is not None:
            f.kinds = set(kinds)
        self.controls.set_filters(f)
        self._refresh()

    def set_search(self, text: str) -> int:
        """Highlight the notes matching ``text`` (others fade); returns the match count."""
        self._search = text.strip()
        if self.controls.search.text().strip() != self._search:
            self.controls.search.blockSignals(True)
            self.controls.search.setText(text)
            self.controls.search.blockSignals(False)
        self._refresh()
        f = self.canvas.frame
        return int(f.highlighted.sum()) if f is not None else 0

    def focus_on(self, note_id: str, hops: int = 1) -> None:
        """Show only the note and what lies within ``hops`` links of it."""
        if self._model is None or note_id not in self._model.index:
            return
        self._focus = note_id
        self._hops = max(1, min(hops, 2))
        self.controls.hops.blockSignals(True)
        self.controls.hops.setCurrentIndex(self._hops)
        self.controls.hops.blockSignals(False)
        self.select(note_id)
        self._refresh()
        self.canvas.fit()

    def clear_focus(self) -> None:
        self._focus = None
        self._hops = 0
        self.controls.hops.blockSignals(True)
        self.controls.hops.setCurrentIndex(0)
        self.controls.hops.blockSignals(False)
        self._refresh()
        self.canvas.fit()

    def select(self, note_id: str | None) -> None:
        """Select a note (as a click would, without emitting noteSelected)."""
        m = self._model
        i = m.index.get(note_id, -1) if (m is not None and note_id) else -1
        self._selected = note_id if i >= 0 else None
        if self.canvas.frame is not None:
            self.canvas.frame.selected = i
            self.canvas.update()
        self.details.show_node(m.node(i) if (m is not None and i >= 0) else None)

    def set_size_by(self, metric: str) -> None:
        """Size nodes by "degree" (links) or "retrievals"."""
        self._size_by = metric
        if self._model is not None:
            self._model.set_size_by(metric)
            self.canvas.invalidate_hits()
            self.canvas.update()

    def set_group_by(self, by: str) -> None:
        """Group the notes without links by "category" or by "time" (event month); the
        linked notes stay where they are."""
        self._group_by = by
        m = self._model
        if m is None:
            return
        m.set_group_by(by)
        self._pos = arrange_unlinked(self._pos, m.linked, m.group, self.layout_params.k, m.order)
        self.canvas.set_positions(self._pos)
        self.canvas.fit()
        self.positionsChanged.emit(self.positions())

    def fit(self) -> None:
        self.canvas.fit()

    def export_image(self, path: str | Path) -> bool:
        """Write the current (filtered) map as PNG or SVG, by the file suffix."""
        if self.canvas.frame is None:
            return False
        return export_image(self.canvas.frame, path)

    def selected_note(self) -> str | None:
        return self._selected

    # -- internals ----------------------------------------------------------------------
    def _refresh(self, fit: bool = False) -> None:
        m = self._model
        if m is None:
            return
        nodes = m.node_mask(self._filters)
        if self._focus is not None and self._hops > 0:
            kinds = m.edge_mask(self._filters, np.ones(m.n, bool))
            nodes &= m.neighbourhood([m.index[self._focus]], self._hops, kinds)
        edges = m.edge_mask(self._filters, nodes)
        hits = m.search(self._search) & nodes if self._search else np.zeros(m.n, bool)
        dimmed = ~hits if self._search else np.zeros(m.n, bool)
        old = self.canvas.frame
        frame = Frame(
            model=m,
            pos=self._pos,
            node_visible=nodes,
            edge_visible=edges,
            dimmed=dimmed,
            highlighted=hits,
            selected=m.index.get(self._selected, -1) if self._selected else -1,
            hovered=old.hovered if (old is not None and old.model is m) else -1,
        )
        self.canvas.set_frame(frame)
        if fit:
            self.canvas.fit()

    def _start_layout(self, known: np.ndarray | None) -> None:
        m = self._model
        assert m is not None
        self.runner.start(
            m.n, m.edges, m.strength, known, self.layout_params, m.group, m.order
        )
        self._update_status()

    def _on_layout_progress(self, pos: np.ndarray) -> None:
        if self._model is None or len(pos) != self._model.n:
            return
        self._pos = pos
        self.canvas.set_positions(pos)
        if self._auto_fit:
            self.canvas.fit()

    def _on_layout_finished(self, pos: np.ndarray) -> None:
        self._on_layout_progress(pos)
        self._update_status()
        if self._model is not None and len(pos) == self._model.n:
            self.positionsChanged.emit(self.positions())
        self.layoutFinished.emit()

    def _on_controls_filters(self) -> None:
        self._filters = self.controls.filters()
        self._refresh()

    def _on_hops(self, hops: int) -> None:
        if hops == 0:
            self.clear_focus()
        elif self._selected:
            self.focus_on(self._selected, hops)
        else:
            self._hops = hops

    def _on_clicked(self, i: int) -> None:
        m = self._model
        nid = m.ids[i] if (m is not None and i >= 0) else None
        self.select(nid)
        self.noteSelected.emit(nid or "")

    def _on_double_clicked(self, i: int) -> None:
        if self._model is not None and 0 <= i < self._model.n:
            self.noteActivated.emit(self._model.ids[i])

    def _on_dragged(self, _i: int) -> None:
        # the canvas moved the node inside the frame's array, which is our array
        self._pos = self.canvas.frame.pos if self.canvas.frame is not None else self._pos
        self.positionsChanged.emit(self.positions())

    def _stop_auto_fit(self) -> None:
        self._auto_fit = False

    def _export_dialog(self, fmt: str) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export graph"), f"graph.{fmt}", f"{fmt.upper()} (*.{fmt})"
        )
        if path:
            if not path.lower().endswith(f".{fmt}"):
                path += f".{fmt}"
            if not self.export_image(path):
                log.warning("graph export to %s failed", path)

    def _update_status(self) -> None:
        m = self._model
        if m is None or m.n == 0:
            self.status.setText(self.tr("No notes in this case yet."))
            return
        current = m.current_count()
        if current == m.n:
            text = self.tr("{n} notes · {e} links").format(n=m.n, e=len(m.edges))
        else:
            # the map also shows replaced and expired notes: say how many are current, the
            # number the notes list and the status bar give
            text = self.tr("{n} notes, {c} of them current · {e} links").format(
                n=m.n, c=current, e=len(m.edges)
            )
        if self.runner.running:
            text += " · " + self.tr("laying out…")
        self.status.setText(text)

    def closeEvent(self, event: object) -> None:
        self.runner.cancel()
        super().closeEvent(event)
