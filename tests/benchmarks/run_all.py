"""Run every benchmark (each bench_*.py in this folder, each in its own process so one
failing or crashing bench cannot take the others down), and report which passed.

``python -m tests.benchmarks [--quick] [--only locomo,perf]`` or
``python tests/benchmarks/run_all.py``.  ``--quick`` is passed to the benches that take
it (the reduced run of the retrieval/perf benches takes < 3 min on 2 cores once the
perf folders are cached in out/).  Each bench rewrites its own section of README.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
#: retrieval first: it is the cheapest and the one most edited
ORDER = ["bench_legal_zh", "bench_locomo", "bench_perf"]
#: benches that measure a second thing under a flag: run once more with it
VARIANTS = {"bench_reliability": ["--issue14"]}


def discover() -> list[str]:
    names = sorted(p.stem for p in HERE.glob("bench_*.py"))
    return [n for n in ORDER if n in names] + [n for n in names if n not in ORDER]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", help="comma-separated names, e.g. locomo,perf")
    args = parser.parse_args(argv)
    names = discover()
    if args.only:
        wanted = {f"bench_{w.removeprefix('bench_')}" for w in args.only.split(",")}
        names = [n for n in names if n in wanted]
    failed = []
    runs = [(n, []) for n in names] + [(n, VARIANTS[n]) for n in names if n in VARIANTS]
    for name, extra in runs:
        cmd = [sys.executable, "-m", f"tests.benchmarks.{name}", *extra]
        if args.quick and '"--quick"' in (HERE / f"{name}.py").read_text(encoding="utf-8"):
            cmd.append("--quick")
        print(f"== {' '.join(cmd[1:])}", flush=True)
        t = time.perf_counter()
        rc = subprocess.run(cmd, cwd=ROOT).returncode
        print(
            f"== {name}: {'ok' if rc == 0 else f'FAILED ({rc})'} in {time.perf_counter() - t:.0f} s",
            flush=True,
        )
        if rc != 0:
            failed.append(" ".join([name, *extra]))
    if failed:
        print("failed:", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    if __package__ in (None, ""):
        sys.path.insert(0, str(ROOT))
    sys.exit(main())
