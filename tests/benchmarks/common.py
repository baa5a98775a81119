"""Helpers shared by the benchmarks: output folder, machine description, README sections."""

from __future__ import annotations

import os
import platform
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = HERE / "out"  # gitignored: cached data folders and raw results
README = HERE / "README.md"

if str(ROOT) not in sys.path:  # `python tests/benchmarks/bench_x.py` works from anywhere
    sys.path.insert(0, str(ROOT))


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
        mem = f", {kb / 1024 / 1024:.0f} GB RAM"
    except (OSError, AttributeError):
        pass
    import lancedb

    return (
        f"{cpu}, {os.cpu_count()} cores (shared){mem}; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}; lancedb {lancedb.__version__}"
    )


def git_rev() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def pct(values: list[float], q: float) -> float:
    """Percentile by linear interpolation (q in 0..100)."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[max(0, min(98, round(q) - 1))]


def write_section(name: str, markdown: str) -> None:
    """Replace the block between ``<!-- BEGIN name -->`` and ``<!-- END name -->`` in the
    README (appending it if absent), so each bench can be run alone and update its figures."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    block = f"{begin}\n{markdown.rstrip()}\n{end}"
    text = README.read_text(encoding="utf-8") if README.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    text = (
        pattern.sub(lambda _m: block, text)
        if pattern.search(text)
        else text.rstrip() + "\n\n" + block + "\n"
    )
    README.write_text(text, encoding="utf-8")
