"""Reasoning models (issue 13, item 2): thinking is kept apart from the answer.

DeepSeek-R1 and Qwen3 (Ollama, LM Studio, vLLM) put their thinking in the content between
``<think>`` and ``</think>`` — split across chunks, left open when the budget runs out, or with
only the closing tag when the chat template already opened it — or in a ``reasoning_content``
field. The chat stores and extracts the answer only; the thinking is available apart.
"""

from __future__ import annotations

import itertools
import json

import pytest
from fakes.llm_server import FakeLLMServer, Reply
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_app.llm import JsonModeCache, LLMClient, split_reasoning

pytest_plugins = ["fakes.fixtures"]

MSG = [{"role": "user", "content": "能主张三倍赔偿吗？"}]
SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
}


def _client(srv: FakeLLMServer) -> LLMClient:
    return LLMClient(srv.config(), mode_cache=JsonModeCache(), sleep=lambda s: 0)


def test_think_split_across_chunks_is_not_part_of_the_answer(fake_llm):
    fake_llm.push(
        Reply.text(
            "",
            chunks=[
                "<thi",
                "nk>用户问欺诈",
                "赔偿，查第五十五",
                "条。</th",
                "ink>\n\n可以",
                "主张三倍赔偿。",
            ],
        )
    )
    stream = _client(fake_llm).stream_chat(MSG)
    answer = "".join(stream)
    assert answer == "可以主张三倍赔偿。"
    assert stream.text == "可以主张三倍赔偿。"
    assert stream.reasoning == "用户问欺诈赔偿，查第五十五条。"


def test_events_tell_answer_and_reasoning_apart(fake_llm):
    fake_llm.push(Reply.text("", chunks=["<think>先想", "一想</think>", "答案"]))
    stream = _client(fake_llm).stream_chat(MSG)
    events = list(stream.events())
    assert "".join(e.text for e in events if e.kind == "reasoning") == "先想一想"
    assert "".join(e.text for e in events if e.kind == "answer") == "答案"
    assert {e.kind for e in events} <= {"answer", "reasoning"}


def test_unclosed_think_at_the_end_is_reasoning_not_answer(fake_llm):
    fake_llm.push(
        Reply.text("", chunks=["<think>", "这个问题涉及", "多个法条"], finish_reason="length")
    )
    stream = _client(fake_llm).stream_chat(MSG)
    assert "".join(stream) == ""
    assert stream.reasoning == "这个问题涉及多个法条"
    assert stream.truncated and stream.result().status == "truncated"


def test_only_the_closing_tag_the_template_opened_the_block(fake_llm):
    # The chat template wrote "<think>\n" itself; the model's output starts inside the block.
    fake_llm.push(
        Reply.text("", chunks=["好的，用户", "想知道时效。\n", "</think>\n\n", "诉讼时效为三年。"])
    )
    stream = _client(fake_llm).stream_chat(MSG)
    events = list(stream.events())
    assert stream.text == "诉讼时效为三年。"
    assert stream.reasoning == "好的，用户想知道时效。"
    # what had been shown as answer is taken back, so a UI can move it under "reasoning"
    assert any(e.kind == "retract" for e in events)


def test_reasoning_content_field_is_streamed_apart(fake_llm):
    fake_llm.push(Reply.text("可以。", reasoning="先确认是否构成欺诈。"))
    stream = _client(fake_llm).stream_chat(MSG)
    assert "".join(stream) == "可以。"
    assert stream.reasoning == "先确认是否构成欺诈。"
    assert stream.result().reasoning == "先确认是否构成欺诈。"


def test_ollama_reasoning_field_name_too(fake_llm):
    fake_llm.push(Reply.text("可以。", reasoning="想想", reasoning_field="reasoning"))
    stream = _client(fake_llm).stream_chat(MSG)
    assert "".join(stream) == "可以。" and stream.reasoning == "想想"


def test_plain_chat_strips_inline_thinking(fake_llm):
    fake_llm.push(Reply.text("<think>查法条</think>\n\n三倍赔偿。"))
    result = _client(fake_llm).chat(MSG)
    assert result.text == "三倍赔偿。" and result.reasoning == "查法条"


def test_json_step_ignores_a_draft_object_before_an_orphan_closing_tag(fake_llm):
    # Only "</think>" (the template opened the block); the thinking holds a draft object.
    fake_llm.push(Reply.text('先起草 {"answer": "草稿"} 不对。</think>{"answer": "定稿"}'))
    value, _ = _client(fake_llm).complete_json("s", "u", SCHEMA, "probe")
    assert value == {"answer": "定稿"}


def test_json_step_with_reasoning_content_field(fake_llm):
    fake_llm.push(Reply.json({"answer": "是"}, reasoning='{"answer": "否"} 草稿'))
    value, _ = _client(fake_llm).complete_json("s", "u", SCHEMA, "probe")
    assert value == {"answer": "是"}


@pytest.mark.parametrize(
    ("text", "answer", "reasoning"),
    [
        ("plain answer", "plain answer", ""),
        ("<think>a</think>b", "b", "a"),
        ("<THINK>a</Think>\n\nb", "b", "a"),
        ("<think>a", "", "a"),
        ("a</think>b", "b", "a"),
        ("<think>a</think>b<think>c</think>d", "bd", "a\nc"),
        ("x < y and <thin", "x < y and <thin", ""),
    ],
)
def test_split_reasoning(text, answer, reasoning):
    assert split_reasoning(text) == (answer, reasoning)


@settings(max_examples=150, deadline=None)
@given(
    thinking=st.text(alphabet=st.characters(blacklist_characters="<>"), max_size=40),
    answer=st.text(alphabet=st.characters(blacklist_characters="<>"), min_size=1, max_size=40),
    cuts=st.lists(st.integers(min_value=0, max_value=120), max_size=8),
)
def test_any_chunking_gives_the_same_split(thinking, answer, cuts):
    from desktop_app.llm.reasoning import ThinkSplitter

    whole = f"<think>{thinking}</think>{answer}"
    points = sorted({c for c in cuts if c < len(whole)} | {0, len(whole)})
    splitter = ThinkSplitter()
    parts = [splitter.feed(whole[a:b]) for a, b in itertools.pairwise(points)]
    parts.append(splitter.finish())
    got_answer = "".join(e.text for p in parts for e in p if e.kind == "answer")
    got_thinking = "".join(e.text for p in parts for e in p if e.kind == "reasoning")
    assert got_answer == answer.lstrip()
    assert got_thinking == thinking
    assert split_reasoning(whole) == (answer.lstrip(), thinking.strip())
    assert json.dumps(got_answer)  # plain text, no markers left


# -- where a think tag counts (a Hypothesis run found '{"</THINK>": []}' read as [])


def test_a_think_tag_inside_a_json_string_is_text():
    from desktop_app.llm import extract_json

    assert extract_json('{"</THINK>": []}') == {"</THINK>": []}
    assert extract_json('{"a": "<think>x"}') == {"a": "<think>x"}
    assert extract_json('好的：{"note": "模型输出 </think> 标签", "n": 1}') == {
        "note": "模型输出 </think> 标签",
        "n": 1,
    }
    # escaped quotes do not end the string early
    assert extract_json('{"a": "say \\"</think>\\" here"}') == {"a": 'say "</think>" here'}


@pytest.mark.parametrize(
    ("text", "answer", "reasoning"),
    [
        # prose quotes are not JSON strings: the tags still count there
        ('他说"好</think>结论', "结论", '他说"好'),
        ('<think>"引号</think>答', "答", '"引号'),
        # a draft object before the lone closing tag is balanced: the tag counts
        ('起草 {"a": "b"} 不对</think>{"a": "c"}', '{"a": "c"}', '起草 {"a": "b"} 不对'),
        # inside an open object's string it does not
        ('{"k": "</think>", "v": "<think>"}', '{"k": "</think>", "v": "<think>"}', ""),
    ],
)
def test_think_tags_count_outside_json_strings_only(text, answer, reasoning):
    assert split_reasoning(text) == (answer, reasoning)


_TAGGY = st.text(alphabet=st.sampled_from(list('<>/thinkTHINK"\\{}[]:, 甲')), max_size=12)


@settings(max_examples=200, deadline=None)
@given(
    obj=st.dictionaries(_TAGGY, st.lists(_TAGGY, max_size=3) | _TAGGY, max_size=4),
    cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=6),
)
def test_any_json_object_survives_reasoning_splitting_in_any_chunking(obj, cuts):
    """Whatever its strings hold, a JSON answer is answer: whole, and streamed in any pieces."""
    from desktop_app.llm import extract_json
    from desktop_app.llm.reasoning import ThinkSplitter

    body = json.dumps(obj, ensure_ascii=False)
    assert extract_json(body) == obj
    assert split_reasoning(body) == (body, "")
    points = sorted({c for c in cuts if c < len(body)} | {0, len(body)})
    splitter = ThinkSplitter()
    events = [e for a, b in itertools.pairwise(points) for e in splitter.feed(body[a:b])]
    events += splitter.finish()
    assert "".join(e.text for e in events if e.kind == "answer") == body
    assert all(e.kind == "answer" for e in events)
