"""Opt-in live test against a real endpoint (skipped by default).

Configure:
  LEXMEM_LIVE_BASE_URL   e.g. https://api.deepseek.com/v1 or http://127.0.0.1:11434/v1
  LEXMEM_LIVE_MODEL      e.g. deepseek-chat or qwen2.5:7b
  LEXMEM_LIVE_PROVIDER   optional preset id (deepseek, openai, ollama, lmstudio; default custom)
The API key is read from the OS keyring only — service "LexMem", user name
``key_id_for(provider, base_url)`` (``api-key/deepseek``, or ``api-key/custom/<base url>``) —
e.g. ``python -c "from desktop_app.core.secrets import SecretStore; SecretStore().set('api-key/deepseek', input())"``.
Keys from environment variables are deliberately not supported.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta, timezone

import pytest

from desktop_app.core.secrets import SecretStore
from desktop_app.llm import LLMClient, LLMConfig, get_preset, key_id_for
from desktop_app.memory.agentic import construct_note, decide, extract_knowledge
from desktop_app.memory.types import CATEGORIES

pytestmark = pytest.mark.live

SEED = "我是原告张三，2024年3月15日购买了8999元的笔记本电脑，屏幕花屏，联系客服三次被推诿"
T = datetime(2024, 3, 16, 10, 0, tzinfo=timezone(timedelta(hours=8)))
CJK = re.compile("[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def live_llm():
    base_url = os.environ.get("LEXMEM_LIVE_BASE_URL")
    model = os.environ.get("LEXMEM_LIVE_MODEL")
    if not base_url or not model:
        pytest.skip("live test: set LEXMEM_LIVE_BASE_URL and LEXMEM_LIVE_MODEL to run it")
    provider = os.environ.get("LEXMEM_LIVE_PROVIDER", "custom")
    preset = get_preset(provider)
    key = SecretStore().get(key_id_for(provider, base_url))
    if preset.needs_key and not key:
        pytest.skip(f"live test: no key in the keyring under {key_id_for(provider, base_url)!r}")
    client = LLMClient(
        LLMConfig(
            base_url=base_url,
            api_key=key,
            chat_model=model,
            timeout=120,
            json_mode_hint=preset.json_mode_hint,
        )
    )
    yield client
    print("live token usage:", client.meter.totals())
    client.close()


def test_live_construct_seed(live_llm):
    c = construct_note(live_llm, SEED, T)
    assert c.category in CATEGORIES
    assert c.keywords and CJK.search(c.context), "a Chinese note stays Chinese"
    assert "8999" in c.context + " ".join(c.keywords)


def test_live_construct_keeps_negation_and_resolves_dates(live_llm):
    c = construct_note(live_llm, "用户昨天说不喜欢冗长回复", T)
    assert "不" in c.context
    assert "15" in c.context  # 昨天 relative to 2024-03-16


def test_live_extract_seed_dialogue(live_llm):
    items = extract_knowledge(live_llm, SEED, "明白了。您可以依据《消费者权益保护法》主张退货。", T)
    assert len(items) >= 3, items
    text = " | ".join(i.content for i in items)
    assert "8999" in text and "花屏" in text and "客服" in text
    assert all(i.scope == "case" for i in items if i.category != "偏好")


def test_live_small_talk_and_preference(live_llm):
    assert extract_knowledge(live_llm, "谢谢，辛苦了！", "不客气，随时为您服务。", T) == []
    prefs = extract_knowledge(
        live_llm, "以后所有文档都用Markdown格式", "好的，以后都用Markdown。", T
    )
    assert prefs and all(p.scope == "global" for p in prefs)


def test_live_decide_contradiction(live_llm):
    d = decide(live_llm, "当事人不同意调解", [("n1", "当事人同意调解", T - timedelta(days=3))])
    assert d.action == "SUPERSEDE" and d.target_id == "n1"
