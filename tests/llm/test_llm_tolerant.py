"""Tolerant validation (issue 13, item 4): coerce what is unambiguous, reject the rest, and say
which in the error text that ends up in the job.

The coercion lives in the schema layer and is driven by the schema alone (types, enums, the
registered bilingual synonyms), so every step — construction, decision, evolution, extraction,
and the batched steps to come — gets it without code of its own.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from fakes.llm_server import FakeLLMServer, Reply
from fakes.scripted_model import ScriptedModel

from desktop_app.core.errors import BadResponseError, SchemaValidationError
from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
from desktop_app.llm.schema import conform
from desktop_app.memory.agentic import (
    CONSTRUCT_SCHEMA,
    DECIDE_SCHEMA,
    EVOLVE_SCHEMA,
    EXTRACT_SCHEMA,
    NoteView,
    construct_note,
    decide,
    evolve,
    extract_knowledge,
)

pytest_plugins = ["fakes.fixtures"]

T = datetime(2024, 3, 16, 10, 30, tzinfo=timezone(timedelta(hours=8)))
NEIGHBOURS = [
    ("note-a", "用户在城市乙出差", datetime(2024, 3, 1, tzinfo=UTC)),
    ("note-b", "当事人同意调解", datetime(2024, 3, 5, tzinfo=UTC)),
]


def _batch(decision: dict) -> Reply:
    """A decision-and-evolution answer holding one decision (the shape of that call)."""
    return Reply.json(
        {
            "decisions": [{"note": 1, "links": [], "tags": None, **decision}],
            "neighbour_updates": [],
        }
    )


def _llm(srv: FakeLLMServer) -> LLMClient:
    return LLMClient(
        srv.config(), mode_cache=JsonModeCache(), meter=TokenMeter(), sleep=lambda s: 0
    )


# -- the careless model, through the real steps: one call each, not three --------------------


@pytest.mark.parametrize(
    ("quirks", "said"),
    [
        ({"modify"}, "MODIFY"),
        ({"chinese_actions"}, "更新"),
        ({"lowercase"}, "update"),
        ({"string_numbers", "modify"}, "MODIFY"),
        ({"fenced", "think_inline", "string_numbers"}, "UPDATE"),
    ],
)
def test_decision_synonyms_and_string_numbers_cost_one_call(quirks, said):
    model = ScriptedModel(quirks=quirks)
    model.decide_rules.append(
        lambda note, shown: {
            "action": "UPDATE",
            "target": 2,
            "merged_content": "当事人于3月5日同意调解",
        }
    )
    with FakeLLMServer(responder=model) as srv:
        d = decide(_llm(srv), "当事人3月5日表示同意调解", NEIGHBOURS)
        assert d.action == "UPDATE" and d.target_id == "note-b"
        assert srv.calls == 1, f"{said}: {srv.calls} calls"


def test_chinese_supersede_is_understood():
    model = ScriptedModel(quirks={"chinese_actions", "string_numbers"})
    model.decide_rules.append(lambda note, shown: {"action": "SUPERSEDE", "target": 2})
    with FakeLLMServer(responder=model) as srv:
        d = decide(_llm(srv), "当事人不同意调解", NEIGHBOURS)
        assert (d.action, d.target_id) == ("SUPERSEDE", "note-b") and srv.calls == 1


def test_construction_with_keywords_as_a_string_and_no_tags_costs_one_call():
    with FakeLLMServer(responder=ScriptedModel(quirks={"keywords_string", "missing_tags"})) as srv:
        c = construct_note(_llm(srv), "当事人不同意调解方案", T)
        assert len(c.keywords) >= 2 and all("、" not in k for k in c.keywords)
        assert c.tags == () and srv.calls == 1


def test_evolution_with_string_aliases_costs_one_call():
    model = ScriptedModel(quirks={"string_numbers"})
    model.evolve_answer = lambda prompt, shown: {
        "links": [{"target": 1, "reason": "同一交易"}],
        "tags": None,
        "neighbour_updates": [{"target": 2, "context": "客服推诿三次", "tags": None}],
    }
    views = [NoteView("a", "购买笔记本电脑", T), NoteView("b", "客服推诿", T)]
    with FakeLLMServer(responder=model) as srv:
        ev = evolve(_llm(srv), NoteView("n", "屏幕花屏", T), views)
        assert [link.target_id for link in ev.links] == ["a"]
        assert [u.target_id for u in ev.neighbour_updates] == ["b"] and srv.calls == 1


def test_extraction_scope_and_category_synonyms():
    model = ScriptedModel()
    model.extract_items = [
        {"content": "原告于2024年3月15日购买笔记本电脑", "category": "fact", "scope": "本案"},
        {"content": "用户喜欢简洁的回答", "category": "Preference", "scope": "GLOBAL"},
    ]
    with FakeLLMServer(responder=model) as srv:
        items = extract_knowledge(_llm(srv), "我买了电脑", "明白", T)
        assert [(i.category, i.scope) for i in items] == [("事实", "case"), ("偏好", "global")]
        assert srv.calls == 1


# -- what is rejected, and what the job's error says -----------------------------------------


def test_ambiguous_action_is_rejected_and_the_error_says_what_was_coerced(fake_llm):
    bad = {"action": "UPDATE_OR_SUPERSEDE", "target": "2", "merged_content": "m", "reason": "r"}
    fake_llm.push(_batch(bad), _batch(bad))
    with pytest.raises(BadResponseError) as info:
        decide(_llm(fake_llm), "x", NEIGHBOURS)
    text = str(info.value)  # this is what the job stores as its last error
    assert "UPDATE_OR_SUPERSEDE" in text and "not one of" in text
    assert "coerced" in text and "$.decisions[0].target" in text
    # the retry told the model the same
    assert "$.decisions[0].action" in fake_llm.requests[1].messages[-1]["content"]


def test_a_word_that_is_not_a_synonym_is_not_guessed(fake_llm):
    bad = {"action": "DELETE", "target": 1, "merged_content": None, "reason": "r"}
    fake_llm.push(_batch(bad), _batch(bad))
    with pytest.raises(BadResponseError):
        decide(_llm(fake_llm), "x", NEIGHBOURS)
    assert fake_llm.calls == 2


# -- the generic layer -----------------------------------------------------------------------


def test_conform_coerces_and_reports():
    value, notes = conform(
        {"action": " modify ", "target": "2", "merged_content": "m", "reason": "r"}, DECIDE_SCHEMA
    )
    assert value == {"action": "UPDATE", "target": 2, "merged_content": "m", "reason": "r"}
    assert any("$.action" in n for n in notes) and any("$.target" in n for n in notes)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("[2]", 2),
        ("#1", 1),
        (" 1 ", 1),
        (2.0, 2),
    ],
)
def test_integer_aliases_in_the_forms_models_write(given, expected):
    value, _ = conform(
        {"action": "SUPERSEDE", "target": given, "merged_content": None, "reason": ""},
        DECIDE_SCHEMA,
    )
    assert value["target"] == expected


@pytest.mark.parametrize("given", ["two", "1.5", "1 or 2", "[1, 2]", True])
def test_integer_aliases_that_are_not_numbers_are_rejected(given):
    with pytest.raises(SchemaValidationError) as info:
        conform(
            {"action": "UPDATE", "target": given, "merged_content": "m", "reason": ""},
            DECIDE_SCHEMA,
        )
    assert "$.target" in str(info.value)


def test_null_in_words_for_a_nullable_integer():
    value, notes = conform(
        {"action": "ADD", "target": "null", "merged_content": None, "reason": ""}, DECIDE_SCHEMA
    )
    assert value["target"] is None and notes


def test_missing_nullable_and_missing_plain_list_get_their_empty_value():
    value, notes = conform({"links": [], "neighbour_updates": []}, EVOLVE_SCHEMA)
    assert value["tags"] is None
    value, notes = conform(
        {"keywords": ["a"], "context": "c", "category": "事实"}, CONSTRUCT_SCHEMA
    )
    assert value["tags"] == [] and any("tags" in n for n in notes)


def test_missing_required_text_is_still_an_error():
    with pytest.raises(SchemaValidationError) as info:
        conform({"keywords": ["a"], "tags": [], "category": "事实"}, CONSTRUCT_SCHEMA)
    assert "'context'" in str(info.value)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("调解, 拒绝，退货", ["调解", "拒绝", "退货"]),
        ("调解、拒绝；退货", ["调解", "拒绝", "退货"]),
        ("单个关键词", ["单个关键词"]),
        ('["a", "b"]', ["a", "b"]),
    ],
)
def test_keywords_as_one_string(given, expected):
    value, _ = conform(
        {"keywords": given, "context": "c", "tags": [], "category": "事实"}, CONSTRUCT_SCHEMA
    )
    assert value["keywords"] == expected


def test_numbers_where_text_is_expected_and_text_where_numbers_are():
    schema = {
        "type": "object",
        "properties": {
            "amount": {"type": "number"},
            "label": {"type": "string"},
            "ok": {"type": "boolean"},
        },
        "required": ["amount", "label", "ok"],
    }
    value, notes = conform({"amount": "8999.5", "label": 8999, "ok": "true"}, schema)
    assert value == {"amount": 8999.5, "label": "8999", "ok": True} and len(notes) == 3


def test_an_extraction_answer_given_as_a_bare_list_is_wrapped():
    items = [{"content": "x", "category": "事实", "scope": "case"}]
    value, notes = conform(items, EXTRACT_SCHEMA)
    assert list(value) == ["items"] and notes
    # the item as given; the construction fields it left out are empty, not invented
    assert [{k: v for k, v in i.items() if v not in (None, [])} for i in value["items"]] == items


def test_an_unknown_category_is_rejected():
    with pytest.raises(SchemaValidationError) as info:
        conform(
            {"keywords": ["a"], "context": "c", "tags": [], "category": "杂项"}, CONSTRUCT_SCHEMA
        )
    assert "杂项" in str(info.value)


def test_a_synonym_that_fits_two_values_is_rejected():
    schema = {"type": "object", "properties": {"v": {"type": "string", "enum": ["A", "B"]}}}
    synonyms = {"A": ("both",), "B": ("both", "bee")}
    assert conform({"v": "bee"}, schema, synonyms=synonyms)[0] == {"v": "B"}
    with pytest.raises(SchemaValidationError):
        conform({"v": "both"}, schema, synonyms=synonyms)


def test_conform_never_changes_a_valid_answer():
    good = {"action": "NOOP", "target": 1, "merged_content": None, "reason": "已知"}
    assert conform(good, DECIDE_SCHEMA) == (good, [])


def test_complete_structured_reports_the_repairs(fake_llm):
    fake_llm.push(
        Reply.json({"action": "修改", "target": "[2]", "merged_content": "合并后", "reason": "r"})
    )
    result = _llm(fake_llm).complete_structured("s", "u", DECIDE_SCHEMA, "memory_decision")
    assert result.value["action"] == "UPDATE" and result.value["target"] == 2
    assert len(result.coercions) == 2 and result.mode == "json_schema"
    assert fake_llm.calls == 1
