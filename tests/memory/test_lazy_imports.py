"""A new process answers its first search without loading what a search never needs: the LLM
stack (openai, httpx, pydantic's models of it: 1-3 s of imports) and jieba's dictionary (only
the add path segments Chinese).  The benchmark measures the time; this checks what loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from desktop_app.memory import MemoryEngine

ROOT = Path(__file__).resolve().parents[2]


def test_open_and_search_load_neither_the_llm_stack_nor_jieba(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("懒加载")
        eng.add_notes(
            [{"content": f"房东扣留押金{n}元 deposit", "case_id": case.id} for n in range(20)]
        )
    code = (
        "import json, sys\n"
        "from desktop_app.memory import MemoryEngine\n"
        "engine = MemoryEngine.open(sys.argv[1])\n"
        "hits = engine.search('押金 deposit', sys.argv[2], k=5)\n"
        "loaded = [m for m in ('openai', 'httpx', 'httpx2', 'jieba', 'desktop_app.llm') "
        "if m in sys.modules]\n"
        "engine.close()\n"
        "print(json.dumps({'hits': len(hits), 'loaded': loaded}))\n"
    )
    report = _run_in_a_new_process(code, data, case.id)
    assert report["hits"] >= 5  # (plus linked notes beyond k)
    assert report["loaded"] == []


def test_documents_load_their_readers_only_when_a_file_is_imported(tmp_path, embedder):
    """The PDF, Word and OCR readers (tens of MB, seconds to load) load for an import only:
    opening a folder with documents, recalling their passages and listing them load none."""
    data = tmp_path / "data"
    source = tmp_path / "a.txt"
    source.write_text("合同约定月租金为人民币8500元。\n\n押金两个月。", encoding="utf-8")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("懒加载文件")
        eng.import_document(case.id, source)
    code = (
        "import json, sys\n"
        "from desktop_app.memory import MemoryEngine\n"
        "engine = MemoryEngine.open(sys.argv[1])\n"
        "recall = engine.recall_for_chat('月租金多少', sys.argv[2])\n"
        "docs = engine.list_documents(sys.argv[2])\n"
        "loaded = [m for m in ('pypdfium2', 'docx', 'rapidocr', 'onnxruntime', 'cv2', 'PIL') "
        "if m in sys.modules]\n"
        "engine.close()\n"
        "print(json.dumps({'passages': len(recall.passages), 'docs': len(docs), "
        "'loaded': loaded}))\n"
    )
    report = _run_in_a_new_process(code, data, case.id)
    assert report["passages"] >= 1 and report["docs"] == 1
    assert report["loaded"] == []


def _run_in_a_new_process(code: str, data, case_id: str) -> dict:
    """Run ``code`` (given the data folder and case id as argv) in a fresh interpreter, where
    no test has imported anything yet, and return the JSON its last line prints."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code, str(data), case_id],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])
