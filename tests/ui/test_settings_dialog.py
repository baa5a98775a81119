"""Settings: provider + models from the endpoint, key only in the keyring, memory params,
backup and restore."""

from __future__ import annotations

import json

from desktop_app.core.settings import Settings
from desktop_app.ui import llm_setup
from desktop_app.ui.settings.dialog import SettingsDialog

SECRET = "sk-test-Secret-0123456789abcdef"


def test_provider_models_key_and_memory_params(
    qtbot, make_host, memory_keyring, llm_server, tmp_path, ui_model
):
    from desktop_app.ui.main_window import MainWindow

    host = make_host(llm=None, settings=Settings(language="en"))
    host._llm_factory = llm_setup.build_llm  # the real path: settings + keyring → client
    win = MainWindow(host)
    qtbot.addWidget(win)
    dlg = SettingsDialog(host, win)
    qtbot.addWidget(dlg)
    dlg.applied.connect(win._settings_applied)
    dlg.show()
    dlg.provider.setCurrentIndex(dlg.provider.findData("custom"))
    dlg.base_url.setText(llm_server.base_url)
    dlg.api_key.setText(SECRET)
    assert dlg.api_key.echoMode() == dlg.api_key.EchoMode.Password
    dlg.test_button.click()
    qtbot.waitUntil(lambda: dlg.chat_model.count() == 2, timeout=10_000)
    assert "Connected" in dlg.test_result.text()
    dlg.chat_model.setCurrentText("fake-chat")
    dlg.memory_model.setCurrentText("fake-memory")
    dlg.max_memories.setValue(7)
    dlg.recall_threshold.setValue(0.45)
    dlg.theme.setCurrentIndex(dlg.theme.findData("dark"))
    with qtbot.waitSignal(host.llmChanged, timeout=10_000):
        dlg.save_button.click()
    assert host.llm is not None and host.settings.chat_model == "fake-chat"
    assert host.settings.max_memories == 7 and host.settings.theme == "dark"
    assert SECRET in memory_keyring.store.values()
    text = (host.data_dir / "settings.json").read_text(encoding="utf-8")
    assert SECRET not in text and json.loads(text)["recall_threshold"] == 0.45
    assert host.engine.llm is host.llm  # the engine got the new client
    from PySide6.QtWidgets import QApplication

    from desktop_app.ui import theme

    theme.apply(QApplication.instance(), "light")  # leave the look as the other tests expect


def test_backup_and_restore(qtbot, make_host, tmp_path):
    host = make_host()
    case = host.engine.create_case("c")
    host.engine.add_note("备份之前就有的记忆", case_id=case.id)
    dlg = SettingsDialog(host)
    qtbot.addWidget(dlg)
    target = tmp_path / "b" / "backup.sqlite3"
    dlg.backup_to(target)
    qtbot.waitUntil(lambda: "written" in dlg.data_result.text(), timeout=10_000)
    assert target.exists()
    host.engine.add_note("备份之后才加的记忆", case_id=case.id)
    assert host.engine.count_notes(case.id) == 2
    dlg.restore_from(target)
    qtbot.waitUntil(lambda: dlg.data_result.text() == "Restored.", timeout=30_000)
    assert host.state == "ready" and host.engine.count_notes(case.id) == 1
    from desktop_app.memory.backups import list_backups

    # the replaced database is kept as a backup of its own
    assert "pre-restore" in {b.kind for b in list_backups(host.data_dir)}


def test_about_is_reachable_from_settings(qtbot, make_host, monkeypatch):
    from desktop_app.ui import about

    shown = []
    monkeypatch.setattr(about.AboutDialog, "exec", lambda self: shown.append(self.windowTitle()) or 0)
    host = make_host()
    dlg = SettingsDialog(host)
    qtbot.addWidget(dlg)
    dlg.about_button.click()
    assert len(shown) == 1
