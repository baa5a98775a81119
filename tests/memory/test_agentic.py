"""The agentic A-MEM steps over the real client and the scripted server.

The server cannot understand text, so its answers are scripted; what is tested is the plumbing:
prompts carry what the model needs, aliases map back to ids, bad aliases are rejected (after
one retry), answers are validated and cleaned, calls are labelled for token accounting.

Decision and evolution are one call (issue 13): its answer holds one decision per new note
(with that note's links and tags) and the neighbour updates; ``_decision`` / ``_evolution``
below script that answer for the single-note steps.
"""

from __future__ import annotations

import re
import sys
import time
from datetime import UTC, datetime, timedelta, timezone
from types import SimpleNamespace

import pytest
from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.core import resources as resources_mod
from desktop_app.core.errors import BadResponseError, InvalidInputError
from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
from desktop_app.llm import prompts as prompt_mod
from desktop_app.memory.agentic import (
    CONSTRUCT_SCHEMA,
    DECISIONS_SCHEMA,
    EXTRACT_SCHEMA,
    Construction,
    Decision,
    Item,
    NoteView,
    construct_note,
    decide,
    evolve,
    extract_knowledge,
    format_message_time,
)
from desktop_app.memory.types import CATEGORIES

# The fake_llm / fake_deepseek fixtures (also registered by tests/conftest.py, if it lists them).
pytest_plugins = ["fakes.fixtures"]

SEED = "我是原告张三，2024年3月15日购买了8999元的笔记本电脑，屏幕花屏，联系客服三次被推诿"
T = datetime(2024, 3, 16, 10, 30, tzinfo=timezone(timedelta(hours=8)))
ID_A = "note-4f1c2a9e-aaaa"
ID_B = "note-9b77e0d1-bbbb"
ID_C = "note-0c3d5e6f-cccc"


@pytest.fixture(autouse=True)
def _beijing_time(monkeypatch):
    """The user's zone is the machine's; these notes are written in Beijing (T is +08:00)."""
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _decision(action, target, merged_content, reason) -> Reply:
    """The answer of the decision-and-evolution call for one new note."""
    return Reply.json(
        {
            "decisions": [
                {
                    "note": 1,
                    "action": action,
                    "target": target,
                    "merged_content": merged_content,
                    "reason": reason,
                    "links": [],
                    "tags": None,
                }
            ],
            "neighbour_updates": [],
        }
    )


def _evolution(links, tags, neighbour_updates) -> Reply:
    """The same call's answer when only the evolution part matters (the decision: ADD)."""
    return Reply.json(
        {
            "decisions": [
                {
                    "note": 1,
                    "action": "ADD",
                    "target": None,
                    "merged_content": None,
                    "reason": "",
                    "links": [{"type": "相关", **link} for link in links],
                    "tags": tags,
                }
            ],
            "neighbour_updates": neighbour_updates,
        }
    )


def _llm(srv: FakeLLMServer) -> LLMClient:
    return LLMClient(
        srv.config(), mode_cache=JsonModeCache(), meter=TokenMeter(), sleep=lambda s: None
    )


def _assert_no_raw_ids(srv: FakeLLMServer) -> None:
    for req in srv.chat_requests:
        text = str(req.messages)
        for raw in (ID_A, ID_B, ID_C):
            assert raw not in text, "raw note ids must never reach the model"


# -- construction ---------------------------------------------------------------------------


def test_construct_note_seed(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(
        Reply.json(
            {
                "keywords": ["张三", "笔记本电脑", "8999元", "2024年3月15日", "张三"],
                "context": "原告张三于2024年3月15日以8999元购买的笔记本电脑屏幕花屏，\n联系客服三次均被推诿。",
                "tags": ["消费纠纷", "#产品质量", "消费纠纷"],
                "category": "事实",
            }
        )
    )
    c = construct_note(llm, SEED, T)
    assert isinstance(c, Construction)
    assert c.keywords == ("张三", "笔记本电脑", "8999元", "2024年3月15日")  # deduplicated
    assert c.tags == ("消费纠纷", "产品质量")
    assert "\n" not in c.context and c.category == "事实"
    req = fake_llm.requests[0]
    assert SEED in req.user
    assert "2024-03-16 10:30" in req.user and "星期六" in req.user  # one language: the note's
    assert "否定" in req.system and "相对时间" in req.system  # the rules are in the prompt
    assert req.response_format["json_schema"]["schema"] == CONSTRUCT_SCHEMA
    assert llm.meter.get("construct").calls == 1


def test_construct_relative_date_and_negation_reach_the_model(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(
        Reply.json(
            {
                "keywords": ["冗长回复"],
                "context": "用户不喜欢冗长的回复（2024年3月15日提出）。",
                "tags": ["用户偏好"],
                "category": "偏好",
            }
        )
    )
    c = construct_note(llm, "用户昨天说不喜欢冗长回复", T)
    assert "不喜欢" in c.context and c.category == "偏好"
    assert "用户昨天说不喜欢冗长回复" in fake_llm.requests[0].user


def test_construct_english_note(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(
        Reply.json(
            {
                "keywords": ["refund", "laptop"],
                "context": "The client asked for a full refund of the laptop on 2024-03-11.",
                "tags": ["consumer dispute"],
                "category": "诉求",
            }
        )
    )
    c = construct_note(llm, "Last Monday the client asked for a full refund.", T)
    assert c.context.startswith("The client") and c.category == "诉求"
    assert "Last Monday the client" in fake_llm.requests[0].user


def test_construct_invalid_category_is_retried(fake_llm):
    llm = _llm(fake_llm)
    bad = {"keywords": ["x"], "context": "c", "tags": [], "category": "闲聊"}
    good = {**bad, "category": "证据"}
    fake_llm.push(Reply.json(bad), Reply.json(good))
    assert construct_note(llm, "发票一张", T).category == "证据"
    assert "闲聊" in fake_llm.requests[1].messages[-1]["content"]


def test_construct_gives_up_cleanly(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(Reply.text("我不知道"), Reply.text("真的不知道"))
    with pytest.raises(BadResponseError):
        construct_note(llm, "发票一张", T)


def test_construct_rejects_empty_content(fake_llm):
    with pytest.raises(InvalidInputError):
        construct_note(_llm(fake_llm), "   ", T)
    assert fake_llm.calls == 0


def test_construct_through_deepseek_fallback(fake_deepseek):
    llm = _llm(fake_deepseek)
    fake_deepseek.push(
        Reply.json(
            {"keywords": ["调解"], "context": "当事人不同意调解。", "tags": [], "category": "事实"}
        )
    )
    assert construct_note(llm, "当事人不同意调解", T).context == "当事人不同意调解。"
    assert fake_deepseek.requests[-1].response_format == {"type": "json_object"}
    assert "JSON" in fake_deepseek.requests[-1].system


# -- decision -------------------------------------------------------------------------------

NEIGHBOURS = [
    (ID_A, "用户在城市乙出差", datetime(2024, 3, 1, tzinfo=UTC)),
    (ID_B, "当事人同意调解", datetime(2024, 3, 5, tzinfo=UTC)),
]


def test_decide_shows_aliases_not_ids_and_maps_back(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(_decision("SUPERSEDE", 1, None, "位置变了"))
    d = decide(llm, "用户回到城市甲", NEIGHBOURS)
    assert d == Decision("SUPERSEDE", ID_A, None, "位置变了")
    req = fake_llm.requests[0]
    assert "[1]" in req.user and "[2]" in req.user and "用户在城市乙出差" in req.user
    assert "2024-03-01" in req.user  # the model sees which note is older
    assert "1 到 2" in req.system  # the valid range is spelled out
    assert req.response_format["json_schema"]["schema"] == DECISIONS_SCHEMA
    _assert_no_raw_ids(fake_llm)
    assert llm.meter.get("decide").calls == 1


def test_decide_supersede_is_never_merged(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(
        # a model that tries to merge anyway
        _decision("SUPERSEDE", 2, "当事人同意又不同意调解", "态度反转")
    )
    d = decide(llm, "当事人不同意调解", NEIGHBOURS)
    assert d.action == "SUPERSEDE" and d.target_id == ID_B and d.merged_content is None


def test_decide_update_carries_the_merged_content(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(_decision("UPDATE", 2, " 当事人于2024年3月5日同意调解 ", "同一事实更完整"))
    d = decide(llm, "当事人3月5日表示同意调解", NEIGHBOURS)
    assert d == Decision("UPDATE", ID_B, "当事人于2024年3月5日同意调解", "同一事实更完整")


def test_decide_noop_and_add(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(
        _decision("NOOP", 2, None, "已知"),
        _decision("ADD", 1, "x", "新信息"),
    )
    assert decide(llm, "当事人同意调解。", NEIGHBOURS) == Decision("NOOP", ID_B, None, "已知")
    assert decide(llm, "合同金额8999元", NEIGHBOURS) == Decision("ADD", None, None, "新信息")


def test_decide_without_neighbours_is_add_without_a_call(fake_llm):
    d = decide(_llm(fake_llm), "新事实", [])
    assert d.action == "ADD" and d.target_id is None
    assert fake_llm.calls == 0


@pytest.mark.parametrize("alias", [3, 0, -1, 99])
def test_decide_alias_out_of_range_is_retried_then_accepted(fake_llm, alias):
    llm = _llm(fake_llm)
    fake_llm.push(
        _decision("SUPERSEDE", alias, None, "r"),
        _decision("SUPERSEDE", 1, None, "r"),
    )
    assert decide(llm, "用户回到城市甲", NEIGHBOURS).target_id == ID_A
    feedback = fake_llm.requests[1].messages[-1]["content"]
    assert f"{alias}" in feedback and "1 to 2" in feedback


def test_decide_alias_out_of_range_twice_raises_never_guesses(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(_decision("UPDATE", 3, "m", "r"), _decision("UPDATE", 3, "m", "r"))
    with pytest.raises(BadResponseError) as info:
        decide(llm, "用户回到城市甲", NEIGHBOURS)
    assert "does not exist" in str(info.value)
    assert fake_llm.calls == 2


@pytest.mark.parametrize(
    "answer",
    [
        {"action": "UPDATE", "target": None, "merged_content": "m", "reason": "r"},
        {"action": "SUPERSEDE", "target": None, "merged_content": None, "reason": "r"},
        {"action": "UPDATE", "target": 1, "merged_content": None, "reason": "r"},
        {"action": "UPDATE", "target": 1.5, "merged_content": "m", "reason": "r"},
        {"action": "MERGE", "target": 1, "merged_content": None, "reason": "r"},
    ],
    ids=["update-no-target", "supersede-no-target", "update-no-merge", "fractional", "bad-action"],
)
def test_decide_incomplete_answers_are_rejected(fake_llm, answer):
    fake_llm.push(_decision(**answer), _decision(**answer))
    with pytest.raises(BadResponseError):
        decide(_llm(fake_llm), "x", NEIGHBOURS)


def test_decide_accepts_note_objects(fake_llm):
    note = SimpleNamespace(id=ID_C, content="月薪8000元", created_at=None, context="", tags=())
    fake_llm.push(_decision("SUPERSEDE", 1, None, "r"))
    assert decide(_llm(fake_llm), "月薪9500元", [note]).target_id == ID_C
    assert "日期未知" in fake_llm.requests[0].user


# -- evolution ------------------------------------------------------------------------------

NEW = NoteView(
    "note-new",
    "张三的笔记本电脑屏幕花屏",
    T,
    context="原告张三购买的笔记本电脑出现屏幕花屏的质量问题。",
    keywords=("笔记本电脑", "花屏"),
    tags=("产品质量",),
)
EV_NEIGHBOURS = [
    NoteView(ID_A, "2024年3月15日张三以8999元购买笔记本电脑", T, "购买事实", (), ("消费纠纷",)),
    NoteView(ID_B, "张三联系客服三次被推诿", T, "", (), ("维权",)),
    NoteView(ID_C, "《消费者权益保护法》第二十四条", T, "退货规则", (), ("法条",)),
]


def test_evolve_maps_aliases_and_cleans_updates(fake_llm):
    llm = _llm(fake_llm)
    fake_llm.push(
        _evolution(
            links=[
                {"target": 1, "reason": "同一台电脑"},
                {"target": 3, "reason": "质量问题可依此退货"},
                {"target": 1, "reason": "重复"},
            ],
            tags=["产品质量", "消费纠纷"],
            neighbour_updates=[
                {
                    "target": 1,
                    "context": "购买的电脑后来屏幕花屏",
                    "tags": ["消费纠纷", "产品质量"],
                },
                {"target": 2, "context": None, "tags": None},  # no-op: dropped
                {"target": 3, "context": "退货规则", "tags": ["法条"]},  # unchanged: dropped
            ],
        )
    )
    ev = evolve(llm, NEW, EV_NEIGHBOURS)
    assert [(lk.alias, lk.target_id, lk.reason) for lk in ev.links] == [
        (1, ID_A, "同一台电脑"),
        (3, ID_C, "质量问题可依此退货"),
    ]
    assert ev.new_tags_for_note == ("产品质量", "消费纠纷")
    assert len(ev.neighbour_updates) == 1
    upd = ev.neighbour_updates[0]
    assert upd.target_id == ID_A and upd.new_context == "购买的电脑后来屏幕花屏"
    assert upd.new_tags == ("消费纠纷", "产品质量")
    req = fake_llm.requests[0]
    assert "[3]" in req.user and "退货规则" in req.user and "笔记本电脑, 花屏" in req.user
    assert req.response_format["json_schema"]["schema"] == DECISIONS_SCHEMA
    _assert_no_raw_ids(fake_llm)
    assert llm.meter.get("decide").calls == 1  # evolution rides on the decision call


def test_evolve_unchanged_tags_are_none(fake_llm):
    fake_llm.push(_evolution(links=[], tags=["产品质量"], neighbour_updates=[]))
    ev = evolve(_llm(fake_llm), NEW, EV_NEIGHBOURS)
    assert ev.links == () and ev.new_tags_for_note is None and ev.neighbour_updates == ()


@pytest.mark.parametrize(
    "bad",
    [
        {"links": [{"target": 4, "reason": "r"}], "tags": None, "neighbour_updates": []},
        {
            "links": [],
            "tags": None,
            "neighbour_updates": [{"target": 0, "context": "c", "tags": None}],
        },
    ],
    ids=["link", "update"],
)
def test_evolve_bad_alias_retried_then_rejected(fake_llm, bad):
    fake_llm.push(_evolution(**bad), _evolution(**bad))
    with pytest.raises(BadResponseError):
        evolve(_llm(fake_llm), NEW, EV_NEIGHBOURS)
    assert fake_llm.calls == 2
    assert "use 1 to 3" in fake_llm.requests[1].messages[-1]["content"]


def test_evolve_excludes_the_note_itself_and_needs_neighbours(fake_llm):
    ev = evolve(_llm(fake_llm), NEW, [NEW])
    assert ev.links == () and fake_llm.calls == 0


# -- knowledge extraction -------------------------------------------------------------------


def test_extract_seed_dialogue_into_separate_items(fake_llm):
    llm = _llm(fake_llm)
    items = [
        {"content": "原告为张三", "category": "事实", "scope": "case"},
        {
            "content": "张三于2024年3月15日以8999元购买了一台笔记本电脑",
            "category": "事实",
            "scope": "case",
        },
        {"content": "张三购买的笔记本电脑屏幕花屏", "category": "事实", "scope": "case"},
        {"content": "张三就屏幕花屏联系客服三次，均被推诿", "category": "事实", "scope": "case"},
        {
            "content": "张三购买的笔记本电脑屏幕花屏",
            "category": "事实",
            "scope": "case",
        },  # duplicate
    ]
    fake_llm.push(Reply.json({"items": items}))
    got = extract_knowledge(llm, SEED, "您好，您可以主张退货。", T)
    assert len(got) == 4 and all(isinstance(i, Item) and i.scope == "case" for i in got)
    req = fake_llm.requests[0]
    assert SEED in req.user and "您可以主张退货" in req.user and "2024-03-16" in req.user
    assert "寒暄" in req.system and "global" in req.system
    assert req.response_format["json_schema"]["schema"] == EXTRACT_SCHEMA
    assert llm.meter.get("extract").calls == 1


def test_extract_preferences_go_global(fake_llm):
    fake_llm.push(
        Reply.json(
            {
                "items": [
                    {"content": "以后所有文档都用Markdown格式", "category": "偏好", "scope": "case"}
                ]
            }
        )
    )
    got = extract_knowledge(_llm(fake_llm), "以后所有文档都用Markdown格式", "好的。", T)
    assert got == [Item("以后所有文档都用Markdown格式", "偏好", "global")]


def test_extract_small_talk_is_empty(fake_llm):
    fake_llm.push(Reply.json({"items": []}))
    assert extract_knowledge(_llm(fake_llm), "谢谢你，辛苦了", "不客气！", T) == []


def test_extract_nothing_to_read_makes_no_call(fake_llm):
    assert extract_knowledge(_llm(fake_llm), " ", "", T) == []
    assert fake_llm.calls == 0


def test_extract_bad_category_or_scope_rejected(fake_llm):
    bad = {"items": [{"content": "x", "category": "杂项", "scope": "everywhere"}]}
    fake_llm.push(Reply.json(bad), Reply.json(bad))
    with pytest.raises(BadResponseError):
        extract_knowledge(_llm(fake_llm), "x", "y", T)


def test_categories_in_schemas_match_types():
    assert CONSTRUCT_SCHEMA["properties"]["category"]["enum"] == list(CATEGORIES)
    assert EXTRACT_SCHEMA["properties"]["items"]["items"]["properties"]["category"]["enum"] == list(
        CATEGORIES
    )


# -- prompts --------------------------------------------------------------------------------


def test_message_time_format():
    # in the user's zone, in the prompt's one language
    assert format_message_time(T) == "2024-03-16 10:30 星期六 (+08:00)"
    assert format_message_time(T, "en") == "2024-03-16 10:30 Saturday (+08:00)"
    # a naive time is local time, never UTC
    assert format_message_time(datetime(2024, 3, 18, 9, 0)) == "2024-03-18 09:00 星期一 (+08:00)"
    assert format_message_time(datetime(2024, 3, 15, 23, 30, tzinfo=UTC)).startswith(
        "2024-03-16 07:30 星期六"
    )


def test_every_prompt_exists_and_renders():
    for step in ("construct", "decide", "extract"):
        for part in ("system", "user"):
            for suffix in ("", ".en"):  # Chinese and English content
                text = prompt_mod.render_prompt(f"{step}.{part}{suffix}", content="C", count=2)
                assert text and "$content" not in text and "$count" not in text


def test_prompts_are_in_one_language():
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for step in ("construct", "decide", "extract"):
        english = prompt_mod.load_prompt(f"{step}.system.en")
        # the enum values are Chinese words; nothing else in an English prompt is
        stripped = re.sub(
            r"(当事人陈述|对方主张|证据显示|法院认定|律师判断|事实|证据|法条|诉求|时间线|偏好|证明|适用|矛盾|补充|取代|相关)",
            "",
            english,
        )
        assert not cjk.search(stripped), step
        chinese = prompt_mod.load_prompt(f"{step}.system")
        assert not re.search(r"\b(the|and|you|with)\b", chinese), step


def test_prompts_found_in_a_frozen_bundle(tmp_path, monkeypatch):
    (tmp_path / "resources" / "prompts").mkdir(parents=True)
    (tmp_path / "resources" / "prompts" / "frozen_probe.md").write_text("冻结 $x", encoding="utf-8")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    monkeypatch.delenv(resources_mod.RESOURCES_ENV, raising=False)
    assert resources_mod.resources_dir("prompts") == tmp_path / "resources"
    assert prompt_mod.render_prompt("frozen_probe", x="版") == "冻结 版"


def test_prompts_dir_override_and_missing(tmp_path, monkeypatch):
    monkeypatch.setenv(resources_mod.RESOURCES_ENV, str(tmp_path / "nowhere"))
    assert resources_mod.resources_dir("prompts").name == "resources"  # falls through
    monkeypatch.setattr(resources_mod, "__file__", str(tmp_path / "a" / "b" / "resources.py"))
    with pytest.raises(FileNotFoundError):
        resources_mod.resources_dir("prompts")
