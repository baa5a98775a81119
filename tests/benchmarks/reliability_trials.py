"""The issue-14 trials of bench_reliability.py: forget, temporary copies, merge and damage,
each with kill -9 of a real child process (tests/reliability/crash_child.py) or real damage,
and the cost of the checks made at open.

    python tests/benchmarks/bench_reliability.py --issue14 [--trials N]
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import stat
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "tests" / "reliability" / "crash_child.py"
SECRET = "线人代号Thistledown称交易在码头三号仓"


def _child(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(CHILD), *args], env=env, capture_output=True, text=True, timeout=300
    )


def _holds(folder: Path, needles: list[str]) -> list[str]:
    out = []
    for path in folder.rglob("*"):
        if path.is_file():
            blob = path.read_bytes()
            out += [f"{n} in {path.name}" for n in needles if n.encode() in blob]
    return out


@dataclass
class Tally:
    name: str
    trials: int = 0
    ok: int = 0
    seconds: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def row(self) -> str:
        took = f"{statistics.median(self.seconds):.2f} s" if self.seconds else "—"
        return f"| {self.name} | {self.ok} of {self.trials} | {took} |"


def _folder_with_backups(base: Path, embedder, notes: int = 30, backups: int = 3):
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.backups import BackupManager

    data = base / "source"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("崩溃中遗忘")
        eng.add_notes(
            [
                {"content": f"普通记录第{i}条：证据清单第{i}项", "case_id": case.id}
                for i in range(notes)
            ]
        )
        note = eng.add_note(SECRET, case_id=case.id).note
        mgr = BackupManager(eng, keep=backups + 1)
        for _ in range(backups):
            mgr.snapshot("auto")
    return data, note.id


def forget_kill_trials(trials: int, rng: random.Random, embedder) -> Tally:
    """A forget killed at the n-th backup it rewrites (n random): after the next open, is
    the note gone from every file, and the forget reported complete?"""
    from desktop_app.memory import MemoryEngine

    tally = Tally("forget killed mid-purge → finished at the next open, 0 files hold the note")
    with tempfile.TemporaryDirectory() as tmp:
        source, note_id = _folder_with_backups(Path(tmp), embedder)
        for trial in range(trials):
            data = Path(tmp) / f"t{trial}"
            shutil.copytree(source, data)
            child = _child("forget", str(data), note_id, str(rng.randint(1, 3)))
            tally.trials += 1
            t0 = time.perf_counter()
            with MemoryEngine.open(data, embedder=embedder) as eng:
                resumed = eng.resumed_forgets
            tally.seconds.append(time.perf_counter() - t0)
            clean = not _holds(data, ["Thistledown", note_id])
            if child.returncode == -9 and resumed and resumed[0].complete and clean:
                tally.ok += 1
            shutil.rmtree(data)
    return tally


def temp_copy_trials(trials: int, rng: random.Random, embedder) -> Tally:
    """A backup or restore killed as its temporary copy exists or is renamed: is every copy
    left 0600, and gone after the next open?"""
    from desktop_app.memory import MemoryEngine

    tally = Tally("backup / restore killed → temp copy 0600 while it exists, removed at open")
    with tempfile.TemporaryDirectory() as tmp:
        source, _note = _folder_with_backups(Path(tmp), embedder, notes=10)
        for trial in range(trials):
            data = Path(tmp) / f"t{trial}"
            shutil.copytree(source, data)
            what = rng.choice(["backupearly", "backup", "restore-1", "restore-2"])
            op, _, n = what.partition("-")
            child = _child(op, str(data), n or "1")
            tally.trials += 1
            left = [p for p in data.rglob(".tmp-*") if p.is_file()]
            private = all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in left)
            with MemoryEngine.open(data, embedder=embedder):
                pass
            gone = not list(data.rglob(".tmp-*"))
            if child.returncode == -9 and left and private and gone:
                tally.ok += 1
            shutil.rmtree(data)
    return tally


def merge_kill_trials(trials: int, rng: random.Random, embedder) -> Tally:
    """A merge killed after its k-th commit (k random in 0..5): all or nothing?"""
    from desktop_app.memory import MemoryEngine

    tally = Tally("merge killed after any commit → all or nothing")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "source"
        with MemoryEngine.open(source, embedder=embedder) as eng:
            case = eng.create_case("合并")
            keep, other = (
                r.note.id
                for r in eng.add_notes(
                    [
                        {"content": "租赁合同约定月租金6500元", "case_id": case.id},
                        {"content": "合同还约定押金为两个月租金", "case_id": case.id},
                    ]
                )
            )
        for trial in range(trials):
            data = Path(tmp) / f"t{trial}"
            shutil.copytree(source, data)
            _child("merge", str(data), keep, other, str(rng.randint(0, 5)))
            tally.trials += 1
            with MemoryEngine.open(data, embedder=embedder) as eng:
                kept, folded = eng.get_note(keep), eng.get_note(other)
                whole = "\n" in kept.content and folded.status == "superseded"
                none = "\n" not in kept.content and folded.status == "active"
                tally.ok += int(whole or none)
            shutil.rmtree(data)
    return tally


def garbled_page_sweep(embedder, notes: int = 200) -> tuple[int, int, int, int]:
    """Every page of a database garbled in turn: (pages, found at open, later raw sqlite3
    errors, later mapped errors)."""
    from desktop_app.core.errors import CorruptDatabaseError, LexMemError
    from desktop_app.memory import MemoryEngine

    at_open = raw = mapped = 0
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "source"
        with MemoryEngine.open(source, embedder=embedder) as eng:
            case = eng.create_case("损坏")
            eng.add_notes(
                [
                    {"content": f"填充记录第{i}条：{'证据材料' * 30}", "case_id": case.id}
                    for i in range(notes)
                ]
            )
        pages = (source / "lexmem.sqlite3").stat().st_size // 4096
        for page in range(1, pages):
            data = Path(tmp) / "d"
            shutil.copytree(source, data)
            with (data / "lexmem.sqlite3").open("r+b") as fh:
                fh.seek(page * 4096)
                fh.write(os.urandom(4096))
            try:
                eng = MemoryEngine.open(data, embedder=embedder)
            except CorruptDatabaseError:
                at_open += 1
                shutil.rmtree(data)
                continue
            try:
                eng.search("证据材料", case_id=case.id, k=5)
                eng.list_notes(case.id)
            except LexMemError:
                mapped += 1
            except sqlite3.Error:
                raw += 1
            finally:
                try:
                    eng.close()
                except LexMemError:
                    pass
            shutil.rmtree(data)
    return pages - 1, at_open, raw, mapped


def open_checks_cost(embedder, notes: int = 10_000) -> dict[str, float]:
    """What the checks at open cost on a folder of ``notes`` notes (medians of 5)."""
    from desktop_app.core.paths import make_tree_private
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.backup_files import remove_stale_temp_copies

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        with MemoryEngine.open(data, embedder=embedder) as eng:
            case = eng.create_case("开销")
            for start in range(0, notes, 2000):
                eng.add_notes(
                    [
                        {
                            "content": f"第{i}条记录：原告于三月{i % 28 + 1}日支付货款{i}元",
                            "case_id": case.id,
                        }
                        for i in range(start, min(start + 2000, notes))
                    ]
                )
            eng.backups.snapshot("auto")
        db = data / "lexmem.sqlite3"
        quick, tree, temps, opens, unclean = [], [], [], [], []
        for _ in range(5):
            conn = sqlite3.connect(db)
            t0 = time.perf_counter()
            conn.execute("PRAGMA quick_check(3)").fetchall()
            quick.append(time.perf_counter() - t0)
            conn.close()
            t0 = time.perf_counter()
            make_tree_private(data)
            tree.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            remove_stale_temp_copies(data)
            temps.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            MemoryEngine.open(data, embedder=embedder).close()
            opens.append(time.perf_counter() - t0)
            db.with_name(db.name + ".clean-close").unlink()  # as after a crash
            t0 = time.perf_counter()
            MemoryEngine.open(data, embedder=embedder).close()
            unclean.append(time.perf_counter() - t0)
        return {
            "db_mb": db.stat().st_size / 1e6,
            "quick_check_ms": 1000 * statistics.median(quick),
            "private_modes_ms": 1000 * statistics.median(tree),
            "temp_copies_ms": 1000 * statistics.median(temps),
            "open_ms": 1000 * statistics.median(opens),
            "open_unclean_ms": 1000 * statistics.median(unclean),
        }


def forget_cost(embedder, notes: int = 1000, backups: int = 10) -> dict[str, float]:
    """Seconds for one forget and one case delete with ``backups`` backups."""
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.backups import BackupManager

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        with MemoryEngine.open(data, embedder=embedder) as eng:
            case = eng.create_case("开销")
            other = eng.create_case("另案")
            eng.add_notes(
                [{"content": f"另案记录{i}：押金{i}元", "case_id": other.id} for i in range(notes)]
            )
            ids = [
                r.note.id
                for r in eng.add_notes(
                    [{"content": f"本案记录{i}：货款{i}元", "case_id": case.id} for i in range(200)]
                )
            ]
            mgr = BackupManager(eng, keep=backups)
            for _ in range(backups):
                mgr.snapshot("auto")
            size = sum(p.stat().st_size for p in data.rglob("*") if p.is_file()) / 1e6
            t0 = time.perf_counter()
            note_report = eng.forget_note(ids[0])
            forget_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            case_report = eng.delete_case(case.id)
            case_s = time.perf_counter() - t0
        return {
            "folder_mb": size,
            "forget_s": forget_s,
            "forget_complete": note_report.complete,
            "delete_case_s": case_s,
            "delete_case_complete": case_report.complete,
            "terms_checked": case_report.terms_checked,
        }


def run(trials: int, seed: int, embedder) -> str:
    rng = random.Random(seed)
    tallies = [
        forget_kill_trials(trials, rng, embedder),
        temp_copy_trials(trials, rng, embedder),
        merge_kill_trials(trials, rng, embedder),
    ]
    pages, at_open, raw, mapped = garbled_page_sweep(embedder)
    cost = open_checks_cost(embedder)
    forget = forget_cost(embedder)
    lines = [
        "| kill -9 of a real child process | passed | reopen (median) |",
        "|---|---|---|",
        *[t.row() for t in tallies],
        "",
        f"Garbled pages: each of the {pages} pages of a 200-note database overwritten in turn — "
        f"{at_open} found at open (quick_check), {raw} raw sqlite3 errors later, "
        f"{mapped} mapped errors later.",
        "",
        f"Checks at open on {cost['db_mb']:.1f} MB (10,000 notes): quick_check "
        f"{cost['quick_check_ms']:.0f} ms, private modes {cost['private_modes_ms']:.1f} ms, "
        f"temporary copies {cost['temp_copies_ms']:.2f} ms. Whole open after a clean close "
        f"(file as LexMem left it: no quick_check) {cost['open_ms']:.0f} ms; after a crash or an "
        f"outside change (quick_check) {cost['open_unclean_ms']:.0f} ms (medians of 5).",
        "",
        f"Forget with 10 backups ({forget['folder_mb']:.0f} MB folder, 1,200 notes): one note "
        f"{forget['forget_s']:.1f} s (complete: {forget['forget_complete']}); a 200-note case "
        f"{forget['delete_case_s']:.1f} s, {forget['terms_checked']} terms checked in every file "
        f"(complete: {forget['delete_case_complete']}).",
    ]
    return "\n".join(lines)
