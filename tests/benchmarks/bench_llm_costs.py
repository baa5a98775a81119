"""LLM calls and tokens of the agentic pipeline — today's design against the one before it,
in the same run — and tokens injected per chat turn.

1. Per manual ``add_note`` and per chat turn (reply + five knowledge items): the scenario in
   llm_cost_scenario.py, run by this tree and by a git worktree of ``--baseline`` (default:
   the commit before issue 13's cost work), each against its own scripted server and model
   (``tests/fakes``), with json_schema (OpenAI, Ollama, LM Studio) and with the schema pasted
   into the prompt (json_object, as DeepSeek needs).  The scripted server counts calls and
   (estimated) tokens.
2. Injection on LoCoMo: every conversation ingested (one note per turn, no LLM); for each
   scored question the memory system message ``recall_for_chat`` builds is measured in
   tokens, with the evidence recall of the injected notes, against sending the whole
   conversation (what a chat without memory would have to send).

Run: ``python tests/benchmarks/bench_llm_costs.py [--quick] [--baseline REV]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from desktop_app.chat.memory_message import format_memories
from desktop_app.llm import estimate_tokens
from desktop_app.memory import MemoryEngine, default_embedder
from tests.benchmarks.common import ROOT, machine, write_section
from tests.benchmarks.harness import MemoEmbedder
from tests.benchmarks.locomo_data import load

#: the design before issue 13's cost work (three calls per note, one per step)
BASELINE = "53954a3"
SCENARIO = Path(__file__).resolve().with_name("llm_cost_scenario.py")
MODES = ("json_schema", "deepseek")


def _scenario(tree: Path, mode: str) -> dict:
    """Run the scenario with ``tree``'s code (its own process: its modules, its fakes)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run(
            [sys.executable, str(SCENARIO), str(tree), mode, str(out)],
            cwd=tree,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return json.loads(out.read_text("utf-8"))


def pipeline_costs(baseline: str | None) -> dict:
    """{"after": {mode: result}, "before": {mode: result} or None, "baseline": rev}."""
    after = {mode: _scenario(ROOT, mode) for mode in MODES}
    before = None
    if baseline:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "baseline"
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(tree), baseline],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
            try:
                before = {mode: _scenario(tree, mode) for mode in MODES}
            finally:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(tree)],
                    cwd=ROOT,
                    check=False,
                    capture_output=True,
                )
    return {"after": after, "before": before, "baseline": baseline}


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


def _cost_rows(p: dict) -> list[str]:
    rows = []
    for mode in MODES:
        label = "json_schema" if mode == "json_schema" else "schema in the prompt (DeepSeek)"
        for when in ("before", "after"):
            r = (p[when] or {}).get(mode)
            if r is None:
                continue
            design = f"before ({p['baseline']})" if when == "before" else "after (this tree)"
            rows.append(
                f"| {label} | {design} | {r['add_calls_median']:g} (max {r['add_calls_max']}) | "
                f"{r['add_tokens_median']:.0f} (max {r['add_tokens_max']}) | "
                f"{r['turn']['calls']} ({r['turn_memory']['calls']}) | "
                f"{r['turn']['total_tokens']} ({r['turn_memory']['total_tokens']}) |"
            )
    return rows


def markdown(p: dict, inj: dict, quick: bool) -> str:
    after = p["after"]["json_schema"]
    lines = [
        "## LLM calls and tokens (bench_llm_costs.py)",
        "",
        f"`python tests/benchmarks/bench_llm_costs.py{' --quick' if quick else ''}` — {machine()}.",
        "Both designs ran in this one run, each with its own scripted server and model",
        "(tests/benchmarks/llm_cost_scenario.py; the baseline from a git worktree). Tokens are the",
        "scripted server's estimates (CJK character ≈ 1 token, other text ≈ 4 characters), the rule",
        "the client uses when an endpoint reports no usage; with json_schema the schema travels in",
        "`response_format`, which the estimate does not count.",
        "",
        f"**Manual add**: the {after['adds']} demo notes added by hand one by one (`wait=True`). "
        f"**Chat turn**: the reply with memory injected, then the turn's {after['turn_items']} "
        "knowledge items taken into memory (in brackets: the memory part alone, without the reply).",
        "Targets (issue 13): a manual add ≤ 2 calls and ≤ 1.5k tokens; a 5-item turn ≤ 3 calls and ≤ 5k tokens.",
        "",
        "| structured output | design | calls per add, median | tokens per add, median | calls per 5-item turn | tokens per 5-item turn |",
        "|---|---|---|---|---|---|",
        *_cost_rows(p),
        "",
        "Where the tokens went after the change (json_schema, all adds): "
        + ", ".join(
            f"{k} {v['calls']} calls / {v['tokens']} tokens"
            for k, v in after["by_purpose"].items()
            if v["calls"]
        )
        + ". Before, each note cost three calls (construction, decision, evolution), every prompt"
        " carried its rules twice (Chinese and English) and a turn's items were each decided"
        " against their siblings. Now extraction returns each item constructed, one call decides"
        " and evolves all new notes of a turn, and every prompt is in the content's language.",
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
        "inject fewer than `max_memories`). Each injected note now also names its event date,",
        "its source and its recording day.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="two LoCoMo conversations only")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--baseline", default=BASELINE, help="commit of the design to compare with ('' for none)"
    )
    args = parser.parse_args()
    p = pipeline_costs(args.baseline or None)
    inj = injection_costs(args.quick)
    text = markdown(p, inj, args.quick)
    print(text)
    if not args.no_write:
        write_section("llm_costs", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
