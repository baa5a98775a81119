"""The scenario bench_llm_costs measures, kept runnable against any version of the app, so the
design before and after issue 13's cost work are measured by the same steps in the same run:

1. every note of the demo case added by hand, one by one, ``wait=True`` (a manual add);
2. one chat turn: the reply with memory injected, then the turn's knowledge — five items —
   extracted and taken into memory, ``wait=True``.

It uses only the engine's public API and the tree's own scripted server and model
(``tests/fakes``), so a worktree of an older commit runs it unchanged::

    PYTHONPATH=<tree> python llm_cost_scenario.py <tree> <json_schema|deepseek> <out.json>
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

TURN_ITEMS = [
    {
        "content": "原告张三于2024年3月15日购买笔记本电脑，价格8999元",
        "category": "时间线",
        "scope": "case",
    },
    {"content": "笔记本电脑屏幕出现花屏", "category": "事实", "scope": "case"},
    {"content": "原告三次联系客服均被推诿", "category": "事实", "scope": "case"},
    {"content": "原告保存了与客服的聊天记录截图", "category": "证据", "scope": "case"},
    {"content": "原告要求被告退还货款8999元", "category": "诉求", "scope": "case"},
]
QUESTION = (
    "我是原告张三，2024年3月15日购买了8999元的笔记本电脑，屏幕花屏，联系客服三次被推诿，"
    "聊天记录都截图了，我想让对方退款"
)
REPLY = "好的，我们可以依据《消费者权益保护法》第二十四条主张退货并要求退还货款8999元。"


#: what tells the steps apart when the schema is pasted into the prompt (json_object mode, as
#: DeepSeek needs), for the step names of both designs
_PASTED_SCHEMA_MARKERS = (
    ('"decisions"', "memory_decisions"),  # after: decision and evolution in one call
    ('"neighbour_updates"', "memory_evolution"),  # before: evolution alone
    ('"merged_content"', "memory_decision"),  # before: decision alone
    ('"scope"', "knowledge_extraction"),
    ('"keywords"', "note_construction"),
)


def _by_pasted_schema(model):
    """Let the tree's scripted model answer in json_object mode too: name the step the way
    json_schema mode would (older fakes only read it from there)."""

    def respond(body: dict):
        fmt = body.get("response_format") or {}
        system = body["messages"][0]["content"] if body.get("messages") else ""
        if fmt.get("type") != "json_schema":
            step = next((n for marker, n in _PASTED_SCHEMA_MARKERS if marker in system), None)
            if step is not None:
                body = {
                    **body,
                    "response_format": {"type": "json_schema", "json_schema": {"name": step}},
                }
        return model(body)

    return respond


def run(tree: Path, mode: str) -> dict:
    sys.path.insert(0, str(tree / "tests"))
    from fakes.llm_server import FakeLLMServer
    from fakes.scripted_model import ScriptedModel

    from desktop_app.chat.memory_message import format_memories
    from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
    from desktop_app.memory import MemoryEngine, default_embedder

    # the same notes for every tree: the demo case of the tree this file is in
    demo_file = (
        Path(__file__).resolve().parents[2] / "resources" / "demo" / "zhang_san_laptop.jsonl"
    )
    demo = [
        json.loads(line)
        for line in demo_file.read_text("utf-8").splitlines()
        if line.strip() and "case" not in json.loads(line)
    ]
    model = ScriptedModel()
    model.extract_items = [dict(item) for item in TURN_ITEMS]
    per_add: list[dict] = []
    responder = _by_pasted_schema(model)
    with FakeLLMServer(responder=responder, json_schema=mode != "deepseek") as srv:
        with tempfile.TemporaryDirectory() as tmp:
            meter = TokenMeter()
            llm = LLMClient(
                srv.config(), mode_cache=JsonModeCache(), meter=meter, sleep=lambda s: 0
            )
            with MemoryEngine.open(Path(tmp) / "data", embedder=default_embedder(), llm=llm) as eng:
                case = eng.create_case("demo")
                for item in demo:
                    before = srv.stats()
                    eng.add_note(
                        item["content"], case_id=case.id, category=item.get("category"), wait=True
                    )
                    after = srv.stats()
                    per_add.append({k: after[k] - before[k] for k in after})
                by_purpose = {p: meter.get(p) for p in ("construct", "decide", "evolve")}
                before = srv.stats()
                recall = eng.recall_for_chat(QUESTION, case.id)
                messages = [
                    {"role": "system", "content": "你是律师助理。"},
                    {"role": "system", "content": format_memories(recall.notes, "zh_CN")},
                    {"role": "user", "content": QUESTION},
                ]
                srv.push(REPLY)
                llm.chat(messages)
                after_reply = srv.stats()
                results = eng.ingest_turn(QUESTION, REPLY, case_id=case.id, wait=True)
                after = srv.stats()
    turn = {k: after[k] - before[k] for k in after}
    memory = {k: after[k] - after_reply[k] for k in after}
    calls = [c["calls"] for c in per_add]
    tokens = [c["total_tokens"] for c in per_add]
    return {
        "mode": mode,
        "adds": len(per_add),
        "add_calls_median": statistics.median(calls),
        "add_calls_max": max(calls),
        "add_tokens_median": statistics.median(tokens),
        "add_tokens_mean": statistics.fmean(tokens),
        "add_tokens_max": max(tokens),
        "by_purpose": {
            p: {"calls": u.calls, "tokens": u.total_tokens} for p, u in by_purpose.items()
        },
        "turn": turn,
        "turn_memory": memory,
        "turn_items": len(TURN_ITEMS),
        "turn_actions": [r.action for r in results],
    }


if __name__ == "__main__":
    tree, mode, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    out.write_text(json.dumps(run(tree, mode), ensure_ascii=False), encoding="utf-8")
