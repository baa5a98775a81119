"""lexmem-cli, run as a user would (a subprocess), against a temp data folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop_app.cli", "--data-dir", str(data), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )


@pytest.fixture(scope="module")
def demo_data(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("cli") / "data"
    proc = cli(data, "demo")
    assert proc.returncode == 0, proc.stderr
    assert "示例案件" in proc.stdout and "8999" in proc.stdout
    return data


def test_demo_then_search_stats_export_roundtrip(demo_data, tmp_path):
    stats = json.loads(cli(demo_data, "stats").stdout)
    # 26 case notes (one is the defence's contrary claim, the demo conflict) + 2 global preferences
    assert stats["notes"] == stats["index_rows"] == 28
    case = "张三诉某电商平台买卖合同纠纷（示例）"
    hits = json.loads(
        cli(demo_data, "--json", "search", "检测报告说屏幕是什么问题", "--case", case).stdout
    )
    assert "出厂缺陷" in hits[0]["content"]

    exported = tmp_path / "case.jsonl"
    assert cli(demo_data, "export", str(exported), "--case", case).returncode == 0
    fresh = tmp_path / "fresh"
    proc = cli(fresh, "import", str(exported))
    assert proc.returncode == 0, proc.stderr
    # the case notes come back in a new case; the global preferences are not in a case export
    assert json.loads(cli(fresh, "stats").stdout)["notes"] == 26

    markdown = tmp_path / "case.md"
    assert (
        cli(demo_data, "export", str(markdown), "--case", case, "--format", "markdown").returncode
        == 0
    )
    # one language per file (issue 15, item 3): Chinese unless asked
    assert "## 证据\n" in markdown.read_text(encoding="utf-8")
    assert "Evidence" not in markdown.read_text(encoding="utf-8")
    english = tmp_path / "case-en.md"
    assert (
        cli(demo_data, "export", str(english), "--case", case, "--format", "markdown", "--lang", "en").returncode
        == 0
    )
    assert "## Evidence\n" in english.read_text(encoding="utf-8")


def test_add_and_rebuild_index(tmp_path):
    data = tmp_path / "data"
    added = json.loads(cli(data, "add", "以后回复都先给结论").stdout)
    assert added["action"] == "added" and added["category"] == "偏好"
    assert json.loads(cli(data, "add", "以后回复都先给结论。").stdout)["action"] == "unchanged"
    assert cli(data, "rebuild-index").returncode == 0
    hits = json.loads(cli(data, "--json", "search", "回复先说结论").stdout)
    assert hits[0]["id"] == added["id"]


def test_bad_import_is_all_or_nothing(tmp_path):
    data = tmp_path / "data"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"case": {"name": "坏文件"}}\n{"content": "第一条是好的"}\n{"content": "第二条也好"}\n{"content": 42}\n',
        encoding="utf-8",
    )
    proc = cli(data, "import", str(bad))
    assert proc.returncode == 2
    assert "第 4 行" in proc.stderr and "line 4" in proc.stderr
    stats = json.loads(cli(data, "stats").stdout)
    assert stats["notes"] == 0 and stats["cases"] == 0
    bad.write_text('{"content": "ok"}\n{not json}\n', encoding="utf-8")
    proc = cli(data, "import", str(bad))
    assert proc.returncode == 2 and "第 2 行" in proc.stderr
    assert json.loads(cli(data, "stats").stdout)["notes"] == 0


def test_backup_list_and_restore(tmp_path):
    data = tmp_path / "data"
    kept = json.loads(cli(data, "add", "备份之前就有的记录").stdout)
    proc = cli(data, "backup")
    assert proc.returncode == 0 and "backups" in proc.stdout
    later = json.loads(cli(data, "add", "备份之后才添加的记录").stdout)
    listed = json.loads(cli(data, "--json", "list-backups").stdout)
    assert [b["kind"] for b in listed] == ["manual"]
    proc = cli(data, "restore", "latest")
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(cli(data, "--json", "search", "记录", "-k", "5").stdout)
    assert [h["id"] for h in hits] == [kept["id"]]  # the later note is gone, the index agrees
    assert later["id"] not in {h["id"] for h in hits}
    # the database replaced by the restore was kept as a backup of its own
    assert "pre-restore" in {
        b["kind"] for b in json.loads(cli(data, "--json", "list-backups").stdout)
    }


def test_add_with_event_date_and_source_shows_them_in_search(tmp_path):
    data = tmp_path / "data"
    proc = cli(
        data,
        "add",
        "一审开庭，地点在朝阳法院第三法庭",
        "--event-date",
        "2024-07-15",
        "--source-kind",
        "法院认定",
    )
    assert proc.returncode == 0, proc.stderr
    hit = json.loads(cli(data, "--json", "search", "什么时候开庭").stdout)[0]
    assert (hit["event_date"], hit["source_kind"]) == ("2024-07-15", "法院认定")
    plain = cli(data, "search", "什么时候开庭").stdout
    assert "2024-07-15 一审开庭" in plain


def test_maintain_proposes_then_accepts_one_kind(tmp_path):
    data = tmp_path / "data"
    source = tmp_path / "case.jsonl"
    lines = [
        {"case": {"name": "体检案"}},
        {"content": "月薪8000元", "created_at": "2025-01-05T02:00:00+00:00"},
        {"content": "月薪9500元", "created_at": "2025-03-05T02:00:00+00:00"},
        {"content": "开庭时间定于2025年6月1日", "created_at": "2025-03-01T02:00:00+00:00"},
    ]
    source.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), "utf-8")
    assert cli(data, "import", str(source)).returncode == 0

    proc = cli(data, "--json", "maintain", "--case", "体检案")
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    kinds = {item["kind"]: [n["content"] for n in item["notes"]] for item in found["items"]}
    assert kinds["update"] == ["月薪8000元", "月薪9500元"]
    assert kinds["passed"] == ["开庭时间定于2025年6月1日"]
    assert "duplicate" not in kinds and found["accepted"] == []

    proc = cli(data, "--json", "maintain", "--case", "体检案", "--accept-all", "update")
    assert proc.returncode == 0, proc.stderr
    done = json.loads(proc.stdout)
    assert len(done["accepted"]) == 1 and done["skipped"] == []

    proc = cli(data, "maintain", "--case", "体检案")
    assert proc.returncode == 0, proc.stderr
    assert "可能更新" not in proc.stdout and "日期已过" in proc.stdout
    assert "开庭时间定于2025年6月1日" in proc.stdout

    proc = cli(data, "maintain", "--case", "没有这个案")
    assert proc.returncode == 2 and "找不到案件" in proc.stderr


def test_import_doc(tmp_path, embedder):
    from desktop_app.memory import MemoryEngine

    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        eng.create_case("租赁纠纷")
    source = tmp_path / "租赁合同 #1.md"
    source.write_text("# 租赁合同\n\n月租金为人民币8500元。\n\n押金两个月。\n", encoding="utf-8")
    proc = cli(data, "--json", "import-doc", str(source), "--case", "租赁纠纷")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert (doc["name"], doc["kind"], doc["passages"]) == ("租赁合同 #1.md", "text", 3)
    assert doc["extraction"] == "waiting"

    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    proc = cli(data, "import-doc", str(empty), "--case", "租赁纠纷")
    assert proc.returncode == 2
    assert "文件是空的" in proc.stderr and "empty" in proc.stderr
    proc = cli(data, "import-doc", str(source), "--case", "没有这个案件")
    assert proc.returncode == 2 and "找不到案件" in proc.stderr


def test_search_returns_the_case_documents_passages_with_where_they_come_from(tmp_path, embedder):
    # issue 17: `search` returns passages as well as notes, each hit saying where it comes from
    from desktop_app.memory import MemoryEngine

    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("租赁纠纷")
        eng.add_note("承租人每月按时交租", case_id=case.id)
        other = eng.create_case("另一案")
    source = tmp_path / "租赁合同.md"
    source.write_text("# 租赁合同\n\n月租金为人民币8500元。\n\n押金两个月。\n", encoding="utf-8")
    assert cli(data, "import-doc", str(source), "--case", "租赁纠纷").returncode == 0

    hits = json.loads(cli(data, "--json", "search", "月租金多少", "--case", "租赁纠纷").stdout)
    passages = [h for h in hits if h.get("kind") == "passage"]
    assert passages and passages[0]["document"] == "租赁合同.md"
    assert "8500" in passages[0]["content"] and passages[0]["page"] >= 1
    assert any(h.get("kind") == "note" for h in hits)
    plain = cli(data, "search", "月租金多少", "--case", "租赁纠纷").stdout
    assert "租赁合同.md" in plain and "8500" in plain
    # never from another case
    elsewhere = json.loads(cli(data, "--json", "search", "月租金多少", "--case", other.name).stdout)
    assert not [h for h in elsewhere if h.get("kind") == "passage"]
