"""证据目录 (evidence list): arrange a case's evidence and export it as a Word document."""

from desktop_app.ui.evidence.dialog import EvidenceDialog, open_evidence_dialog
from desktop_app.ui.evidence.model import EvidenceListModel

__all__ = ["EvidenceDialog", "EvidenceListModel", "open_evidence_dialog"]
