"""First start on an empty data folder prints nothing on stderr: lance used to warn
``WARN lance::dataset::write::insert] No existing dataset at …, it will be created``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FIRST_START = """
import sys
from desktop_app.memory import MemoryEngine
engine = MemoryEngine.open(sys.argv[1])
case = engine.create_case("首次启动")
engine.add_note("原告于2021年3月1日入职。", case_id=case.id)
assert engine.search("入职", case_id=case.id, k=1)
engine.close()
"""


def test_first_open_of_an_empty_data_folder_prints_nothing_on_stderr(tmp_path):
    data = tmp_path / "data"
    proc = subprocess.run(
        [sys.executable, "-c", FIRST_START, str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert list(data.rglob("*.lance")), "the index was not created: nothing was tested"
    assert "No existing dataset" not in proc.stderr
    assert [line for line in proc.stderr.splitlines() if "WARN" in line] == []
