"""Settings: provider + models from the endpoint, key only in the keyring, memory params,
backup and restore."""

from __future__ import annotations

import json

from fakes.llm_server import Reply

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
    # the engine gets the new client in a worker (its hand-over writes to the database):
    # llmChanged is emitted before that lands
    qtbot.waitUntil(lambda: host.engine.llm is host.llm, timeout=10_000)
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


def _model_dialog(qtbot, host, base_url):
    dlg = SettingsDialog(host)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.provider.setCurrentIndex(dlg.provider.findData("custom"))
    dlg.base_url.setText(base_url)
    dlg.chat_model.setCurrentText("m")
    dlg.memory_model.setCurrentText("m")  # Save refuses an empty model name (issue 15, item 6)
    return dlg


def test_the_proxy_choice_is_saved_and_applied_to_the_client(
    qtbot, make_host, memory_keyring, no_dialogs, monkeypatch
):
    """Issue 13, item 7: no proxy (the default: a stale HTTP_PROXY is ignored) / this proxy
    (its password in the keyring, never in settings.json); a proxy that cannot work is
    refused at Save, in words, not at the next chat."""
    monkeypatch.setenv("HTTPS_PROXY", "http://stale-vpn.example:3128")
    host = make_host(llm=None, settings=Settings(language="en"))
    host._llm_factory = lambda s: llm_setup.build_llm(s, data_dir=host.data_dir)
    dlg = _model_dialog(qtbot, host, "https://llm.example.com/v1")
    dlg.api_key.setText(SECRET)
    assert dlg.proxy.mode.currentData() == "none"
    assert [dlg.proxy.mode.itemText(i) for i in range(3)] == ["No proxy", "System proxy", "This proxy"]
    assert not dlg.proxy.url.isVisibleTo(dlg) and "directly" in dlg.proxy.help.text()
    with qtbot.waitSignal(host.llmChanged, timeout=10_000):
        dlg.save_button.click()
    assert host.llm is not None and host.llm.proxy_url is None  # the stale variable ignored

    dlg = _model_dialog(qtbot, host, "https://llm.example.com/v1")
    dlg.proxy.mode.setCurrentIndex(dlg.proxy.mode.findData("custom"))
    assert dlg.proxy.url.isVisibleTo(dlg) and dlg.proxy.password.isVisibleTo(dlg)
    dlg.proxy.url.setText("ftp://proxy.example.com")
    dlg.save_button.click()
    assert no_dialogs["errors"] and "http, https and socks5" in no_dialogs["errors"][-1]
    assert host.settings.proxy_mode == "none" and dlg.isVisible()  # nothing saved
    dlg.proxy.url.setText("http://lawyer@127.0.0.1:3128")
    dlg.proxy.password.setText("pw-Secret-123")
    with qtbot.waitSignal(host.llmChanged, timeout=10_000):
        dlg.save_button.click()
    assert (host.settings.proxy_mode, host.settings.proxy_url) == ("custom", "http://lawyer@127.0.0.1:3128")
    assert host.llm.proxy_url == "http://lawyer:pw-Secret-123@127.0.0.1:3128"
    assert "pw-Secret-123" in memory_keyring.store.values()
    from desktop_app.core.settings import save_settings

    save_settings(host.settings, host.data_dir / "settings.json")  # what the window does
    assert "pw-Secret" not in (host.data_dir / "settings.json").read_text(encoding="utf-8")

    again = SettingsDialog(host)  # reopened: the choice is shown, the password is not
    qtbot.addWidget(again)
    assert again.proxy.mode.currentData() == "custom"
    assert again.proxy.url.text() == "http://lawyer@127.0.0.1:3128" and again.proxy.password.text() == ""


def test_a_key_over_plain_http_to_a_remote_host_is_warned_in_settings(qtbot, make_host):
    host = make_host(llm=None, settings=Settings(language="en"))
    dlg = _model_dialog(qtbot, host, "http://llm.example.com/v1")
    dlg.api_key.setText(SECRET)
    assert dlg.proxy.warning.isVisibleTo(dlg) and "unencrypted" in dlg.proxy.warning.text()
    assert "明文" not in dlg.proxy.warning.text()  # one language at a time
    for fine in ("https://llm.example.com/v1", "http://192.168.1.20:11434/v1", "http://localhost:1234/v1"):
        dlg.base_url.setText(fine)
        assert not dlg.proxy.warning.isVisibleTo(dlg), fine


def test_the_app_client_remembers_what_it_learnt_in_the_data_folder(tmp_path, fake_deepseek):
    """Issue 13, item 8, as the app wires it: the host's own client factory (no test double)
    builds through llm.factory with the data folder's settings.json, so a mode refused once
    is not paid for again after a restart."""
    from desktop_app.core.paths import settings_file
    from desktop_app.core.settings import load_settings, save_settings
    from desktop_app.ui.engine_host import EngineHost

    data_dir = tmp_path / "data"
    data_dir.mkdir()
    settings = Settings(
        provider="ollama", base_url=fake_deepseek.base_url, chat_model="fake-chat", memory_model=""
    )
    save_settings(settings, settings_file(data_dir))
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    for _restart in range(2):
        client = EngineHost(data_dir, settings)._llm_factory(settings)
        try:
            fake_deepseek.push(Reply.json({"a": 1}))
            assert client.complete_json("s", "u", schema, "probe")[0] == {"a": 1}
        finally:
            client.close()
    assert fake_deepseek.calls == 3  # one refusal, then the remembered mode straight away
    learnt = load_settings(settings_file(data_dir)).llm_endpoints
    assert learnt[fake_deepseek.base_url]["fake-chat"]["json_mode"] == "json_object"
