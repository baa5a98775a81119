"""Crash consistency: SIGKILL a process that is ingesting and editing through the engine.

    python tests/benchmarks/bench_reliability.py [--trials 20] [--seed 1] [--keep DIR]

A child process opens the engine on one data folder (kept across trials, so every trial
also recovers from the previous kill) and adds, batch-adds, edits and deletes notes as fast
as it can.  It appends one line to a log *after* each call returns, with fsync, so the log
lists exactly what the engine promised: ``A id token`` (added), ``U id v`` (edit returned),
``D id`` (deleted); intents ``u id v`` / ``d id`` are logged *before* the call, because a
call cut by the kill may or may not have committed.  The parent kills the child at a random
moment (mostly while it writes, sometimes while it opens and repairs), then:

1. ``PRAGMA integrity_check`` on the database (WAL included) must say ``ok``;
2. it opens the engine (recording the repair time) and every note whose add returned must be
   there, with the last returned edit or the one in flight, and every returned delete gone;
3. the index must be reconciled: as many index rows as notes, and a search for each note's
   unique token finds it (all notes of this trial, plus a sample of older ones).

Prints a Markdown summary and writes ``out/reliability.json``.  ``run_crash_trials`` is also
what ``tests/reliability/test_rel_crash.py`` runs (5 trials) in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

READY = "READY"
SENTENCES = [
    "原告于{d}日向被告支付货款",
    "被告在{d}日的聊天记录中承认产品存在缺陷",
    "证人称{d}日曾见到原告在店内理论",
    "The defendant replied on day {d} that the warranty had expired",
    "鉴定报告第{d}页指出主板存在进水痕迹",
    "双方于{d}日签订补充协议约定退货条件",
]


# ------------------------------------------------------------------------------ the child


def _child(data_dir: str, log_path: str, seed: int) -> None:
    """Ingest and edit until killed; log each returned call durably."""
    from desktop_app.memory import MemoryEngine

    rng = random.Random(seed)
    log = open(log_path, "a", encoding="utf-8")

    def note(line: str) -> None:
        log.write(line + "\n")
        log.flush()
        os.fsync(log.fileno())

    eng = MemoryEngine.open(data_dir)
    cases = eng.list_cases()
    case_id = cases[0].id if cases else eng.create_case("崩溃测试").id
    live = [n.id for n in eng.list_notes(case_id)]
    # Warm up first (jieba's dictionary, the embedder, LanceDB's search path take seconds on
    # first use), so that the kill window falls on writes rather than on start-up.
    from desktop_app.memory import construction

    construction.construct_offline("原告于三月五日向被告支付货款", None)
    eng.search("预热", case_id=case_id, k=1)
    note(f"{READY} {seed}")
    counter = 0

    def content(token: str, version: int) -> str:
        text = rng.choice(SENTENCES).format(d=rng.randint(1, 28))
        return f"{text}（修订{version}） {token}" if version else f"{text} {token}"

    while True:
        r = rng.random()
        if r < 0.45 or len(live) < 5:
            counter += 1
            token = f"zq{seed}n{counter}"
            res = eng.add_note(content(token, 0), case_id=case_id)
            live.append(res.note.id)
            note(f"A {res.note.id} {token}")
        elif r < 0.65:
            batch = []
            for _ in range(rng.randint(2, 6)):
                counter += 1
                batch.append(f"zq{seed}n{counter}")
            results = eng.add_notes([{"content": content(t, 0), "case_id": case_id} for t in batch])
            for t, res in zip(batch, results, strict=True):
                live.append(res.note.id)
                note(f"A {res.note.id} {t}")
        elif r < 0.92:
            target = rng.choice(live)
            current = eng.get_note(target).content
            token = current.rsplit(" ", 1)[-1]
            version = rng.randint(1, 10**6)
            note(f"u {target} {version}")
            eng.update_note(target, content=content(token, version))
            note(f"U {target} {version}")
        else:
            target = live.pop(rng.randrange(len(live)))
            note(f"d {target}")
            eng.delete_note(target)
            note(f"D {target}")


# ------------------------------------------------------------------------------ the parent


@dataclass
class TrialResult:
    trial: int
    phase: str  # "writing" or "opening" (killed while the child opened and repaired)
    killed_after_s: float
    ops_logged: int
    integrity: str
    notes_expected: int
    notes_checked_by_search: int
    reopen_s: float
    failures: list[str] = field(default_factory=list)


@dataclass
class CrashReport:
    trials: int
    failures: int
    results: list[TrialResult]
    seconds: float

    def markdown(self) -> str:
        reopen = [r.reopen_s for r in self.results]
        ops = sum(r.ops_logged for r in self.results)
        opening = sum(r.phase == "opening" for r in self.results)
        lines = [
            "| crash trials (SIGKILL) | killed while writing / while opening | failed | "
            "calls logged as returned | notes verified (search) | reopen + repair, median / max |",
            "|---|---|---|---|---|---|",
            f"| {self.trials} | {self.trials - opening} / {opening} | {self.failures} | {ops} | "
            f"{sum(r.notes_checked_by_search for r in self.results)} | "
            f"{statistics.median(reopen):.2f} s / {max(reopen):.2f} s |",
        ]
        bad = [f for r in self.results for f in r.failures]
        if bad:
            lines += ["", "Failures:", *[f"- {f}" for f in bad[:20]]]
        return "\n".join(lines)


def _parse_log(path: Path) -> dict:
    added: dict[str, str] = {}  # id -> token
    version: dict[str, int] = {}  # id -> last returned edit
    inflight: dict[str, int] = {}  # id -> edit in flight at the kill
    deleted: set[str] = set()
    deleting: set[str] = set()
    lines = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) < 2 or parts[0] == READY:
            continue
        lines += 1
        kind, note_id = parts[0], parts[1]
        if kind == "A":
            added[note_id] = parts[2]
        elif kind == "u":
            inflight[note_id] = int(parts[2])
        elif kind == "U":
            version[note_id] = int(parts[2])
            inflight.pop(note_id, None)
        elif kind == "d":
            deleting.add(note_id)
        elif kind == "D":
            deleted.add(note_id)
            deleting.discard(note_id)
    return {
        "added": added,
        "version": version,
        "inflight": inflight,
        "deleted": deleted,
        "deleting": deleting,
        "lines": lines,
    }


def _wait_ready(log: Path, seed: int, proc: subprocess.Popen, timeout: float) -> bool:
    end = time.monotonic() + timeout
    marker = f"{READY} {seed}"
    while time.monotonic() < end:
        if proc.poll() is not None:
            return False
        if log.exists() and marker in log.read_text(encoding="utf-8"):
            return True
        time.sleep(0.02)
    return False


def _version_of(content: str) -> int:
    if "（修订" not in content:
        return 0
    return int(content.split("（修订", 1)[1].split("）", 1)[0])


def _verify(
    data: Path, log: Path, trial: int, seen: set[str], rng: random.Random, embedder, sample_old: int
) -> TrialResult:
    from desktop_app.core.errors import NoteNotFoundError
    from desktop_app.memory import MemoryEngine

    result = TrialResult(trial, "", 0.0, 0, "", 0, 0, 0.0)
    db = data / "lexmem.sqlite3"
    conn = sqlite3.connect(db)
    try:
        result.integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()
    if result.integrity != "ok":
        result.failures.append(f"trial {trial}: integrity_check = {result.integrity}")
    state = _parse_log(log)
    result.ops_logged = state["lines"]
    t0 = time.perf_counter()
    eng = MemoryEngine.open(data, embedder=embedder)
    result.reopen_s = time.perf_counter() - t0
    try:
        case_id = eng.list_cases()[0].id
        live = {i: t for i, t in state["added"].items() if i not in state["deleted"]}
        result.notes_expected = len(live)
        present: dict[str, str] = {}
        for note_id, token in live.items():
            try:
                content = eng.get_note(note_id).content
            except NoteNotFoundError:
                if note_id not in state["deleting"]:
                    result.failures.append(
                        f"trial {trial}: committed note {note_id} ({token}) lost"
                    )
                continue
            present[note_id] = token
            allowed = {state["version"].get(note_id, 0)}
            if note_id in state["inflight"]:
                allowed.add(state["inflight"][note_id])
            if _version_of(content) not in allowed:
                result.failures.append(
                    f"trial {trial}: note {token} has edit {_version_of(content)}, expected {allowed}"
                )
        for note_id in state["deleted"]:
            try:
                eng.get_note(note_id)
                result.failures.append(f"trial {trial}: deleted note {note_id} is back")
            except NoteNotFoundError:
                pass
        stats = eng.stats()
        if stats.index_rows != stats.notes_total:
            result.failures.append(
                f"trial {trial}: index rows {stats.index_rows} != notes {stats.notes_total}"
            )
        fresh = [i for i in present if i not in seen]
        old = [i for i in present if i in seen]
        to_search = fresh + rng.sample(old, min(sample_old, len(old)))
        for note_id in to_search:
            hits = [h.note.id for h in eng.search(present[note_id], case_id=case_id, k=5)]
            if note_id not in hits:
                result.failures.append(f"trial {trial}: search misses {present[note_id]}")
        for note_id in sorted(state["deleted"])[:10]:
            token = state["added"].get(note_id)
            hits = eng.search(token, case_id=case_id, k=5) if token else []
            if note_id in [h.note.id for h in hits]:
                result.failures.append(f"trial {trial}: deleted note {token} still found")
        result.notes_checked_by_search = len(to_search)
        seen.update(present)
    finally:
        eng.close()
    return result


def run_crash_trials(
    trials: int = 20,
    *,
    seed: int = 1,
    data_dir: Path | None = None,
    kill_window: tuple[float, float] = (0.3, 4.0),
    opening_share: float = 0.2,
    sample_old: int = 30,
    embedder=None,
    progress=None,
) -> CrashReport:
    """Run ``trials`` kill/reopen cycles on one data folder; see the module docstring."""
    from desktop_app.memory import default_embedder

    embedder = embedder or default_embedder()
    rng = random.Random(seed)
    own_tmp = None
    if data_dir is None:
        own_tmp = tempfile.TemporaryDirectory(prefix="lexmem-crash-")
        data_dir = Path(own_tmp.name)
    data = Path(data_dir) / "data"
    log = Path(data_dir) / "committed.log"
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    results: list[TrialResult] = []
    seen: set[str] = set()
    started = time.perf_counter()
    try:
        for trial in range(1, trials + 1):
            child_seed = seed * 1000 + trial
            # stderr to a file, not a pipe: LanceDB warns a lot, and a full pipe nobody reads
            # would block the child (and the trial would measure nothing)
            errlog = Path(data_dir) / f"child-{trial}.stderr"
            with errlog.open("wb") as err_fh:
                proc = subprocess.Popen(
                    [sys.executable, __file__, "child", str(data), str(log), str(child_seed)],
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=err_fh,
                )
            opening = trial > 1 and rng.random() < opening_share
            if opening:
                # kill while the child imports, opens and repairs after the previous kill
                time.sleep(rng.uniform(0.5, 4.0))
                phase = "opening"
            else:
                if not _wait_ready(log, child_seed, proc, timeout=120):
                    err = (
                        proc.stderr.read().decode(errors="replace")
                        if proc.poll() is not None
                        else ""
                    )
                    proc.kill()
                    proc.wait()
                    raise RuntimeError(f"child never became ready: {err[-2000:]}")
                phase = "writing"
                time.sleep(rng.uniform(*kill_window))
            t_kill = time.perf_counter()
            if proc.poll() is not None:  # it died on its own: that is a failure of its own
                err = errlog.read_text(errors="replace")
                raise RuntimeError(f"child exited early ({proc.returncode}): {err[-2000:]}")
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            errlog.unlink()
            if not (data / "lexmem.sqlite3").exists():
                continue  # killed before the database existed: nothing was promised
            res = _verify(data, log, trial, seen, rng, embedder, sample_old)
            res.phase = phase
            res.killed_after_s = round(t_kill - started, 2)
            results.append(res)
            if progress:
                progress(res)
    finally:
        if own_tmp is not None:
            own_tmp.cleanup()
    return CrashReport(
        trials=len(results),
        failures=sum(bool(r.failures) for r in results),
        results=results,
        seconds=time.perf_counter() - started,
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "child":
        _child(argv[1], argv[2], int(argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="run in this folder and keep it")
    parser.add_argument(
        "--issue14",
        action="store_true",
        help="the forget / temp-copy / merge kill trials and damage figures (issue 14) instead",
    )
    parser.add_argument("--issue14-trials", type=int, default=10, help="kills per operation")
    args = parser.parse_args(argv)
    from tests.benchmarks.common import OUT, git_rev, machine

    if args.issue14:
        from desktop_app.memory import default_embedder
        from tests.benchmarks.reliability_trials import run

        t0 = time.perf_counter()
        md = run(args.issue14_trials, args.seed, default_embedder())
        md += f"\n\n({time.perf_counter() - t0:.0f} s, {machine()}, {git_rev()})"
        print(md)
        from tests.benchmarks.common import write_section

        write_section(
            "reliability-issue14",
            "## Forget, crashes and damage (bench_reliability.py --issue14, issue 14)\n\n"
            "`python tests/benchmarks/bench_reliability.py --issue14` — each kill is SIGKILL of a "
            "real child process at a chosen point (tests/reliability/crash_child.py); every "
            "check after it is a byte scan of every file in the data folder plus SQL.\n\n" + md,
        )
        return 0

    def show(r: TrialResult) -> None:
        mark = "FAIL" if r.failures else "ok"
        print(
            f"trial {r.trial:3d} [{r.phase:7s}] {mark}: {r.ops_logged} calls logged, "
            f"{r.notes_expected} notes, {r.notes_checked_by_search} searched, "
            f"reopen {r.reopen_s:.2f} s",
            flush=True,
        )
        for f in r.failures:
            print("   ", f, flush=True)

    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    report = run_crash_trials(args.trials, seed=args.seed, data_dir=args.keep, progress=show)
    md = report.markdown()
    print()
    print(md)
    print(f"\n({report.seconds:.0f} s, {machine()}, {git_rev()})")
    OUT.mkdir(exist_ok=True)
    (OUT / "reliability.json").write_text(
        json.dumps(
            {"machine": machine(), "rev": git_rev(), **asdict(report)},
            ensure_ascii=False,
            indent=1,
        ),
        encoding="utf-8",
    )
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
