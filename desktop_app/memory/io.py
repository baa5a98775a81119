"""Import and export of notes: JSON Lines (round-trips) and Markdown (for reading)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory.store import to_iso
from desktop_app.memory.text import clean_content
from desktop_app.memory.types import CATEGORIES, CATEGORY_LABELS_EN, AddResult, Case, Note

if TYPE_CHECKING:
    from desktop_app.memory.cases import Cases

_ALLOWED = {"content", "category", "created_at", "source", "tags", "pinned", "scope"}


def import_jsonl(
    path: Path,
    case_id: str | None,
    cases: Cases,
    add_notes: Callable[[list[dict[str, Any]]], list[AddResult]],
) -> list[AddResult]:
    """Load notes from JSON Lines, all or nothing (see MemoryEngine.import_jsonl): the
    file's case header creates the case when none is given, and goes again if the notes
    cannot be added."""
    header, items = parse_jsonl(path)
    created_case = None
    if case_id is None and header is not None:
        created_case = cases.create(header.get("name", ""), header.get("description", ""))
        case_id = created_case.id
    cases.check(case_id)
    for item in items:
        item["case_id"] = None if item.pop("scope", "case") == "global" else case_id
    try:
        return add_notes(items)
    except Exception:
        if created_case is not None:  # all or nothing: no empty case left behind
            cases.discard(created_case.id)
        raise


def parse_jsonl(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Parse every line before anything is written; the first bad line stops the import
    with its number.  Returns the optional case header and the note items."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InvalidInputError(
            f"{path}: {exc}", user_message=f"无法读取文件：{path} / Cannot read the file: {path}"
        ) from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _bad(path, 0, "文件不是 UTF-8 编码 / the file is not UTF-8") from exc
    header: dict[str, Any] | None = None
    items: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _bad(path, number, f"不是合法的 JSON / not valid JSON ({exc.msg})") from exc
        if not isinstance(obj, dict):
            raise _bad(path, number, "每行必须是一个 JSON 对象 / each line must be a JSON object")
        if "case" in obj and not items and header is None:
            case = obj["case"]
            if not isinstance(case, dict) or not str(case.get("name", "")).strip():
                raise _bad(path, number, "案件信息需要 name / the case header needs a name")
            header = case
            continue
        content = obj.get("content")
        if not isinstance(content, str) or not content.strip():
            raise _bad(path, number, "缺少 content 文本 / missing the content text")
        try:
            clean_content(content)
        except InvalidInputError as exc:
            raise _bad(path, number, exc.user_message) from exc
        category = obj.get("category")
        if category is not None and category not in CATEGORIES:
            raise _bad(path, number, f"未知类别 / unknown category: {category}")
        tags = obj.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise _bad(path, number, "tags 必须是字符串列表 / tags must be a list of strings")
        scope = obj.get("scope", "case")
        if scope not in ("case", "global"):
            raise _bad(path, number, "scope 只能是 case 或 global / scope must be case or global")
        item = {k: v for k, v in obj.items() if k in _ALLOWED}
        if "created_at" in item and item["created_at"] is not None:
            from datetime import datetime

            try:
                datetime.fromisoformat(str(item["created_at"]))
            except ValueError as exc:
                raise _bad(path, number, f"日期格式错误 / bad date: {item['created_at']}") from exc
        items.append(item)
    if not items:
        raise _bad(path, 0, "文件中没有记忆 / the file holds no notes")
    return header, items


def _bad(path: Path, line: int, why: str) -> InvalidInputError:
    where = f"第 {line} 行 / line {line}: " if line else ""
    return InvalidInputError(
        f"{path}:{line}: {why}",
        user_message=f"导入失败，未写入任何内容。{where}{why} / Import failed; nothing was written.",
    )


def note_to_json(note: Note) -> dict[str, Any]:
    return {
        "content": note.content,
        "category": note.category,
        "created_at": to_iso(note.created_at),
        "source": note.source,
        "tags": list(note.tags),
        "pinned": note.pinned,
        "scope": "global" if note.case_id is None else "case",
        # informational; ignored on import (ids and derived fields are regenerated)
        "id": note.id,
        "keywords": list(note.keywords),
        "context": note.context,
        "status": note.status,
    }


def write_jsonl(path: Path, case: Case | None, notes: Sequence[Note]) -> int:
    lines = []
    if case is not None:
        lines.append(
            json.dumps(
                {"case": {"name": case.name, "description": case.description}}, ensure_ascii=False
            )
        )
    lines += [json.dumps(note_to_json(n), ensure_ascii=False) for n in notes]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(notes)


#: the words the app shows for a note's state (the stored value "archived" reads "expired")
_STATUS_WORDS = {"archived": "已失效 / expired", "superseded": "已取代 / superseded"}


def write_markdown(path: Path, case: Case | None, notes: Sequence[Note]) -> int:
    title = case.name if case else "全局记忆 / Global memories"
    out = [f"# {title}", ""]
    if case and case.description:
        out += [case.description, ""]
    for category in CATEGORIES:
        group = [n for n in notes if n.category == category]
        if not group:
            continue
        out += [f"## {category} / {CATEGORY_LABELS_EN[category]}", ""]
        for note in sorted(group, key=lambda n: n.created_at):
            flags = [] if note.status == "active" else [_STATUS_WORDS.get(note.status, note.status)]
            if note.pinned:
                flags.append("置顶 / pinned")
            suffix = f" _({', '.join(flags)})_" if flags else ""
            date = note.created_at.strftime("%Y-%m-%d")
            body = note.content.replace("\n", "  \n  ")
            out.append(f"- **{date}** {body}{suffix}")
            if note.tags:
                out.append(f"  - 标签 / tags: {', '.join(note.tags)}")
        out.append("")
    path.write_text("\n".join(out), encoding="utf-8")
    return len(notes)
