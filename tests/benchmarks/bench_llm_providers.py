"""The LLM layer against providers' real behaviour (issue 13, part A), measured.

1. Stop: how long the chat worker waits after the cancel event is set (all the UI's Stop
   button does), in each phase of a streamed reply — while the server holds the headers
   (Ollama loading a model), between two slow chunks, in a TLS handshake that never
   finishes — and whether the server saw the request end.
2. Requests per memory step on endpoints that refuse something: gpt-5-like
   (``temperature=0`` refused), DeepSeek-like (``json_schema`` refused) before and after a
   restart (what was learnt kept in the settings file), a careless model (``MODIFY``, ``"2"``),
   and an answer cut off by the token budget.

Everything runs against the scripted server through the real ``openai`` client.
Run: ``python tests/benchmarks/bench_llm_providers.py [--quick] [--no-write]``.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.common import ROOT, machine, write_section

sys.path.insert(0, str(ROOT / "tests"))  # the fakes package, as the tests import it

from fakes.llm_server import FakeLLMServer, Reply
from fakes.scripted_model import ScriptedModel

from desktop_app.core.settings import Settings, save_settings
from desktop_app.llm import JsonModeCache, LLMClient, LLMConfig, settings_knowledge
from desktop_app.memory.agentic import DECIDE_SCHEMA, decide

MSG = [{"role": "user", "content": "请总结案情"}]
HEADER_DELAY = 8.0
CHUNK_DELAY = 3.0


def _client(srv: FakeLLMServer, knowledge: JsonModeCache | None = None) -> LLMClient:
    return LLMClient(
        srv.config(timeout=30), mode_cache=knowledge or JsonModeCache(), sleep=lambda s: None
    )


def _time_stop(stream, cancel: threading.Event, wait_until_ready) -> float:
    """Consume ``stream`` in a worker; once ready, set ``cancel``; seconds until it returns."""
    ended: list[float] = []
    first = threading.Event()

    def consume() -> None:
        for _ in stream:
            first.set()
        ended.append(time.monotonic())

    worker = threading.Thread(target=consume, daemon=True)
    worker.start()
    wait_until_ready(first)
    t0 = time.monotonic()
    cancel.set()
    worker.join(30)
    return ended[0] - t0


def _wait(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)


def stop_headers() -> tuple[float, bool]:
    with FakeLLMServer() as srv:
        srv.push(Reply.text("终于加载好了", delay=HEADER_DELAY))
        cancel = threading.Event()
        stream = _client(srv).stream_chat(MSG, cancel=cancel)
        took = _time_stop(stream, cancel, lambda first: _wait(lambda: srv.calls == 1))
        return took, srv.disconnected.wait(2)


def stop_chunks() -> tuple[float, bool]:
    with FakeLLMServer() as srv:
        srv.push(Reply.text("abc", chunks=["根据", "合同", "第五条"], chunk_delay=CHUNK_DELAY))
        cancel = threading.Event()
        stream = _client(srv).stream_chat(MSG, cancel=cancel)
        took = _time_stop(stream, cancel, lambda first: first.wait(10))
        return took, srv.disconnected.wait(2)


def stop_tls_handshake() -> tuple[float, bool]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(listener.accept()[0]), daemon=True).start()
    cfg = LLMConfig(
        base_url=f"https://127.0.0.1:{listener.getsockname()[1]}/v1",
        api_key="k",
        chat_model="m",
        timeout=30,
        max_retries=0,
    )
    cancel = threading.Event()
    stream = LLMClient(cfg, mode_cache=JsonModeCache()).stream_chat(MSG, cancel=cancel)
    took = _time_stop(stream, cancel, lambda first: _wait(lambda: bool(accepted)))
    closed = False
    if accepted:
        accepted[0].settimeout(2)
        try:  # the client's side was shut down: the server reads the end of the stream
            while accepted[0].recv(4096):
                pass
            closed = True
        except OSError:
            closed = False
        accepted[0].close()
    listener.close()
    return took, closed


def requests_per_step() -> dict[str, str]:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    out: dict[str, str] = {}

    with FakeLLMServer(fixed_temperature=True) as srv:
        knowledge = JsonModeCache()
        counts = []
        for _ in range(2):
            srv.reset_counts()
            srv.push(Reply.json({"a": 1}))
            _client(srv, knowledge).complete_json("s", "u", schema, "probe")
            counts.append(srv.calls)
        out["gpt-5-like (temperature=0 refused): first step / next step"] = (
            f"{counts[0]} / {counts[1]}"
        )

    with FakeLLMServer(json_schema=False) as srv, tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "settings.json"
        save_settings(
            Settings(
                provider="custom", base_url=srv.base_url, chat_model="fake-chat", memory_model=""
            ),
            path,
        )
        counts = []
        for _ in range(2):  # the second client is built as after a restart, from the file
            srv.reset_counts()
            srv.push(Reply.json({"a": 1}))
            _client(srv, settings_knowledge(path)).complete_json("s", "u", schema, "probe")
            counts.append(srv.calls)
        out["DeepSeek-like (json_schema refused): first step / after a restart"] = (
            f"{counts[0]} / {counts[1]}"
        )

    neighbours = [
        ("a", "用户在城市乙出差", datetime.now(UTC)),
        ("b", "当事人同意调解", datetime.now(UTC)),
    ]
    model = ScriptedModel(quirks={"modify", "string_numbers"})
    model.decide_rules.append(
        lambda note, shown: {"action": "UPDATE", "target": 2, "merged_content": "当事人同意调解"}
    )
    with FakeLLMServer(responder=model) as srv:
        d = decide(_client(srv), "当事人3月5日同意调解", neighbours)
        out['careless model (MODIFY, "2"): one decision'] = (
            f"{srv.calls} ({d.action} {d.target_id})"
        )

    with FakeLLMServer() as srv:
        answer = '{"action": "ADD", "target": null, "merged_content": null, "reason": "新事实"}'
        srv.push(*[Reply(content=answer, needs_tokens=4096)] * 2)  # the first is cut off
        value, _ = _client(srv).complete_json("s", "u", DECIDE_SCHEMA, "memory_decision")
        budgets = [r.body.get("max_tokens") for r in srv.chat_requests]
        out["answer cut off by the token budget (budgets sent)"] = (
            f"{srv.calls} ({', '.join(str(b) for b in budgets)}; {value['action']})"
        )
    return out


def run(runs: int) -> dict:
    phases = {
        f"server holds the headers ({HEADER_DELAY:.0f} s)": (stop_headers, HEADER_DELAY),
        f"between two chunks ({CHUNK_DELAY:.0f} s apart)": (stop_chunks, CHUNK_DELAY),
        "TLS handshake never answered": (stop_tls_handshake, 30.0),
    }
    stops = {}
    for name, (fn, waited_before) in phases.items():
        results = [fn() for _ in range(runs)]
        times = [r[0] for r in results]
        stops[name] = {
            "median_ms": 1000 * statistics.median(times),
            "max_ms": 1000 * max(times),
            "ended_on_server": sum(1 for r in results if r[1]),
            "runs": runs,
            "before_s": waited_before,
        }
    return {"stops": stops, "requests": requests_per_step()}


def markdown(data: dict, quick: bool) -> str:
    lines = [
        "## LLM layer against providers' behaviour (bench_llm_providers.py, issue 13 part A)",
        "",
        f"`python tests/benchmarks/bench_llm_providers.py{' --quick' if quick else ''}` — {machine()}.",
        "Scripted server, real `openai` client. Stop = time from setting the cancel event (what",
        "the Stop button does) until the chat worker has control back; without the fix the worker",
        "waited for the server's next bytes (the delay column) or the timeout.",
        "",
        "| phase | stop median | max | server delay (s) | delay / stop | request ended on the server |",
        "|---|---|---|---|---|---|",
    ]
    for name, s in data["stops"].items():
        ratio = s["before_s"] * 1000 / max(s["median_ms"], 0.1)
        lines.append(
            f"| {name} | {s['median_ms']:.0f} ms | {s['max_ms']:.0f} ms | {s['before_s']:.0f} | "
            f"{ratio:.0f}× | {s['ended_on_server']}/{s['runs']} |"
        )
    lines += [
        "",
        "| requests per memory step | requests |",
        "|---|---|",
    ]
    for name, value in data["requests"].items():
        lines.append(f"| {name} | {value} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="3 runs per phase instead of 7")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    data = run(3 if args.quick else 7)
    text = markdown(data, args.quick)
    print(text)
    if not args.no_write:
        write_section("llm_providers", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
