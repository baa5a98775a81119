"""记忆体检 (memory check-up): the proposal's table model, its review dialog, and the
periodic background check with its quiet badge in the status bar."""

from desktop_app.ui.maintenance.dialog import MaintenanceDialog
from desktop_app.ui.maintenance.model import MaintenanceRow, MaintenanceTableModel
from desktop_app.ui.maintenance.scheduler import MaintenanceScheduler

__all__ = ["MaintenanceDialog", "MaintenanceRow", "MaintenanceScheduler", "MaintenanceTableModel"]
