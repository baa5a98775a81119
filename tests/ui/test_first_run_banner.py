"""The first-run banner describes the demo case that the button loads (issue 15, item 4):
it called it 一起劳动争议, while the demo is 张三's laptop sales dispute."""

from __future__ import annotations

import json

import pytest

from desktop_app.core.resources import demo_path
from desktop_app.ui import i18n
from desktop_app.ui.chat.view import ChatView


@pytest.fixture
def zh():
    i18n.install("zh_CN")
    yield
    i18n.install("en")


def _demo_case() -> dict:
    first = demo_path().read_text(encoding="utf-8").splitlines()[0]
    return json.loads(first)["case"]


def test_banner_names_the_demo_case(qtbot, make_host, zh):
    case = _demo_case()
    assert "买卖合同纠纷" in case["name"] and "笔记本电脑" in case["description"]
    host = make_host(llm=None)
    view = ChatView(host)
    qtbot.addWidget(view)
    view.show()
    text = view.banner_label.text()
    assert view.banner.isVisible() and "示例案件" in text
    assert "劳动" not in text
    assert "张三" in text and "笔记本电脑" in text and "买卖合同纠纷" in text
