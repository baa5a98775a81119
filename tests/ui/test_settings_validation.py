"""Settings refuses an unusable model setup on save and says why (issue 15, item 6): "not a
url" and empty model names were saved silently, and a malformed address read "cannot reach"."""

from __future__ import annotations

import pytest

from desktop_app.core.settings import Settings, load_settings, setup_problems
from desktop_app.core.urls import is_valid_base_url
from desktop_app.ui import i18n
from desktop_app.ui.settings.dialog import SettingsDialog


@pytest.fixture
def dialog(qtbot, make_host):
    host = make_host(llm=None, settings=Settings(language="zh_CN"))
    i18n.install("zh_CN")
    dlg = SettingsDialog(host)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.provider.setCurrentIndex(dlg.provider.findData("ollama"))  # no key needed
    yield host, dlg
    i18n.install("en")


def _settings_on_disk(host):
    from desktop_app.core.paths import settings_file

    return load_settings(settings_file(host.data_dir))


def test_a_malformed_address_is_refused_with_its_own_words(qtbot, dialog):
    host, dlg = dialog
    dlg.base_url.setText("not a url")
    dlg.save_button.click()
    assert dlg.isVisible()  # not saved, not closed
    assert "地址格式不对" in dlg.test_result.text()
    assert host.settings.base_url != "not a url"
    assert _settings_on_disk(host).base_url != "not a url"
    # the connection test says the same, instead of "cannot reach"
    dlg.test_result.clear()
    dlg.test_button.click()
    assert "地址格式不对" in dlg.test_result.text()
    assert dlg.test_button.isEnabled()  # nothing was started


def test_empty_model_names_are_refused(qtbot, dialog):
    host, dlg = dialog
    dlg.base_url.setText("http://127.0.0.1:11434/v1")
    dlg.chat_model.setCurrentText("")
    dlg.memory_model.setCurrentText("  ")
    dlg.save_button.click()
    assert dlg.isVisible()
    assert "对话模型" in dlg.test_result.text() and "记忆模型" in dlg.test_result.text()
    assert host.settings.chat_model != ""
    dlg.chat_model.setCurrentText("qwen2.5:7b")
    dlg.memory_model.setCurrentText("qwen2.5:7b")
    dlg.save_button.click()
    assert not dlg.isVisible()
    assert host.settings.base_url == "http://127.0.0.1:11434/v1" and host.settings.chat_model == "qwen2.5:7b"


def test_an_untouched_setup_does_not_block_other_changes(qtbot, make_host):
    # no model set up yet (LM Studio's preset has no model name): the theme still saves
    host = make_host(llm=None, settings=Settings(language="en", provider="lmstudio", base_url="http://127.0.0.1:1234/v1", chat_model="", memory_model=""))
    dlg = SettingsDialog(host)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.theme.setCurrentIndex(dlg.theme.findData("light"))
    dlg.save_button.click()
    assert not dlg.isVisible() and host.settings.theme == "light"


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://api.deepseek.com/v1", True),
        ("http://127.0.0.1:11434/v1", True),
        ("http://localhost:1234", True),
        ("not a url", False),
        ("api.deepseek.com/v1", False),
        ("ftp://example.com", False),
        ("http://", False),
        ("http://host:99999/v1", False),
        ("", False),
    ],
)
def test_base_url_shape(url, ok):
    assert is_valid_base_url(url) is ok


def test_setup_problems_name_each_field():
    s = Settings(base_url="nope", chat_model=" ", memory_model="")
    assert setup_problems(s) == ["base_url_malformed", "chat_model_empty", "memory_model_empty"]
    assert setup_problems(Settings()) == []
