"""LLM calls and tokens of the agentic pipeline, and tokens injected per chat turn.

1. Per ``add_note`` and per chat turn: the demo case is written note by note through the
   engine with the scripted model (``tests/fakes/scripted_model.py``) behind the real
   ``openai`` client; the scripted server counts calls and (estimated) tokens.
2. Injection on LoCoMo: every conversation ingested (one note per turn, no LLM); for each
   scored question the memory system message ``recall_for_chat`` builds is measured in
   tokens, with the evidence recall of the injected notes, against sending the whole
   conversation (what a chat without memory would have to send).

Run: ``python tests/benchmarks/bench_llm_costs.py [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from desktop_app.chat.memory_message import format_memories
from tests.benchmarks.common import ROOT, machine, write_section

sys.path.insert(0, str(ROOT / "tests"))  # the fakes package, as the tests import it

from fakes.llm_server import FakeLLMServer
from fakes.scripted_model import ScriptedModel

from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter, estimate_tokens
from desktop_app.memory import MemoryEngine, default_embedder
from tests.benchmarks.harness import MemoEmbedder
from tests.benchmarks.locomo_data import load


def pipeline_costs() -> dict:
    demo = [
        json.loads(line)
        for line in (ROOT / "resources" / "demo" / "zhang_san_laptop.jsonl")
        .read_text("utf-8")
        .splitlines()
        if line.strip() and "case" not in json.loads(line)
    ]
    model = ScriptedModel()
    model.extract_items = [
        {
            "content": "原告张三于2024年3月15日购买笔记本电脑，价格8999元",
            "category": "时间线",
            "scope": "case",
        },
        {"content": "笔记本电脑屏幕出现花屏", "category": "事实", "scope": "case"},
        {"content": "原告三次联系客服均被推诿", "category": "事实", "scope": "case"},
    ]
    per_add: list[dict] = []
    with FakeLLMServer(responder=model) as srv, tempfile.TemporaryDirectory() as tmp:
        meter = TokenMeter()
        llm = LLMClient(srv.config(), mode_cache=JsonModeCache(), meter=meter, sleep=lambda s: None)
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
            # one chat turn: the reply (with memory injected) + extraction + enrichment
            before = srv.stats()
            question = (
                "我是原告张三，2024年3月15日购买了8999元的笔记本电脑，屏幕花屏，联系客服三次被推诿"
            )
            recall = eng.recall_for_chat(question, case.id)
            messages = [
                {"role": "system", "content": "你是律师助理。"},
                {"role": "system", "content": format_memories(recall.notes, "zh_CN")},
                {"role": "user", "content": question},
            ]
            srv.push("好的，我们可以依据《消费者权益保护法》第二十四条主张退货。")
            reply = llm.chat(messages).text
            eng.ingest_turn(question, reply, case_id=case.id, wait=True)
            after = srv.stats()
            turn = {k: after[k] - before[k] for k in after}
    calls = [c["calls"] for c in per_add]
    tokens = [c["total_tokens"] for c in per_add]
    return {
        "adds": len(per_add),
        "calls_median": statistics.median(calls),
        "calls_max": max(calls),
        "tokens_median": statistics.median(tokens),
        "tokens_mean": statistics.fmean(tokens),
        "by_purpose": {
            p: {"calls": u.calls, "tokens": u.total_tokens} for p, u in by_purpose.items()
        },
        "turn": turn,
    }


def injection_costs(quick: bool) -> dict:
    conversations, questions, _dropped = load()
    if quick:
        conversations = conversations[:2]
        questions = [q for q in questions if q.sample < 2]
    embedder = MemoEmbedder(default_embedder())
    rows = []
    whole = []
    with tempfile.TemporaryDirectory() as tmp:
        with MemoryEngine.open(Path(tmp) / "data", embedder=embedder) as eng:
            cases = []
            for n, items in enumerate(conversations):
                case = eng.create_case(f"locomo-{n}")
                eng.add_notes([{**it, "case_id": case.id} for it in items], enrich=False)
                cases.append(case.id)
                whole.append(sum(estimate_tokens(it["content"]) + 4 for it in items))
            eng.optimize()
            for max_memories in (5, 10, 20):
                eng.set_config(replace(eng.config, max_memories=max_memories))
                injected, recalls = [], []
                start = time.perf_counter()
                for q in questions:
                    recall = eng.recall_for_chat(q.text, cases[q.sample])
                    injected.append(estimate_tokens(format_memories(recall.notes, "zh_CN")))
                    found = {n.source for n in recall.notes}
                    recalls.append(sum(e in found for e in q.evidence) / len(q.evidence))
                rows.append(
                    {
                        "max_memories": max_memories,
                        "tokens_median": statistics.median(injected),
                        "tokens_mean": statistics.fmean(injected),
                        "evidence_recall": statistics.fmean(recalls),
                        "ms_per_recall": (time.perf_counter() - start) * 1000 / len(questions),
                    }
                )
    return {
        "questions": len(questions),
        "whole_history_tokens_mean": statistics.fmean(whole),
        "rows": rows,
    }


def markdown(p: dict, inj: dict, quick: bool) -> str:
    lines = [
        "## LLM calls and tokens (bench_llm_costs.py)",
        "",
        f"`python tests/benchmarks/bench_llm_costs.py{' --quick' if quick else ''}` — {machine()}.",
        "Tokens are the scripted server's estimates (CJK character ≈ 1 token, other text ≈ 4 characters),",
        "the same rule the client uses when an endpoint reports no usage.",
        "",
        f"**Per `add_note`** (the {p['adds']} demo notes, one by one, `wait=True`): median "
        f"{p['calls_median']} LLM calls (max {p['calls_max']}: construction, decision, evolution — "
        "decision and evolution are skipped when a note has no neighbour), median "
        f"{p['tokens_median']:.0f} tokens (mean {p['tokens_mean']:.0f}). By step over all adds: "
        + ", ".join(
            f"{k} {v['calls']} calls / {v['tokens']} tokens" for k, v in p["by_purpose"].items()
        )
        + ".",
        "",
        f"**Per chat turn** (reply with memory injected + extraction of 3 items + their enrichment): "
        f"{p['turn']['calls']} calls, {p['turn']['total_tokens']} tokens "
        f"({p['turn']['prompt_tokens']} prompt / {p['turn']['completion_tokens']} completion).",
        "",
        f"**Injected per turn on LoCoMo** ({inj['questions']} questions of categories 1–4; "
        f"whole conversation ≈ {inj['whole_history_tokens_mean']:.0f} tokens on average):",
        "",
        "| max_memories | injected tokens median | mean | evidence recall of the injected notes | ms per recall |",
        "|---|---|---|---|---|",
    ]
    for r in inj["rows"]:
        lines.append(
            f"| {r['max_memories']} | {r['tokens_median']:.0f} | {r['tokens_mean']:.0f} | "
            f"{r['evidence_recall']:.3f} | {r['ms_per_recall']:.1f} |"
        )
    lines += [
        "",
        "A-MEM reports ≈ 2.5k tokens per turn against ≈ 17k for the full history. Recall here is",
        "the share of a question's evidence turns among the injected notes (the threshold may",
        "inject fewer than `max_memories`).",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="two LoCoMo conversations only")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    p = pipeline_costs()
    inj = injection_costs(args.quick)
    text = markdown(p, inj, args.quick)
    print(text)
    if not args.no_write:
        write_section("llm_costs", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
