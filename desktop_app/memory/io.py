"""Import and export of notes: JSON Lines (round-trips) and Markdown (for reading)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_app.core.errors import InvalidInputError, split_languages, storage_os_error
from desktop_app.core.redaction import scrub_known
from desktop_app.memory.dates import parse_event_date
from desktop_app.memory.input_checks import check_created_at
from desktop_app.memory.store import to_iso
from desktop_app.memory.text import clean_content, clean_label, without_surrogates
from desktop_app.memory.types import (
    CATEGORIES,
    CATEGORY_LABELS_EN,
    SOURCE_KIND_LABELS_EN,
    SOURCE_KINDS,
    AddResult,
    Case,
    Note,
)

if TYPE_CHECKING:
    from desktop_app.memory.cases import Cases

_ALLOWED = {
    "content",
    "category",
    "created_at",
    "source",
    "tags",
    "pinned",
    "scope",
    "event_date",
    "source_kind",
}


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
        created_case = cases.create(header["name"], header["description"])
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
    # split on newlines only: str.splitlines() also splits at U+2028 and friends, which a
    # JSON string may hold unescaped, and would then call a valid line invalid
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        if not line.strip():
            continue
        obj = _parse_line(path, number, line)
        if "case" in obj and not items and header is None:
            header = _case_header(path, number, obj["case"])
            continue
        items.append(_note_item(path, number, obj))
    if not items:
        raise _bad(path, 0, "文件中没有记忆 / the file holds no notes")
    return header, items


def _parse_line(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise _bad(path, number, "不是合法的 JSON / not valid JSON") from exc
    except RecursionError as exc:  # [[[[…]]]] thousands deep
        raise _bad(path, number, "JSON 嵌套过深 / the JSON is nested too deeply") from exc
    if not isinstance(obj, dict):
        raise _bad(path, number, "每行必须是一个 JSON 对象 / each line must be a JSON object")
    if _has_invalid_text(obj):
        raise _bad(
            path,
            number,
            "含有无效字符（孤立的 Unicode 代理项，如 \\ud800） / "
            "holds an invalid character (a lone Unicode surrogate such as \\ud800)",
        )
    return obj


def _has_invalid_text(value: Any, depth: int = 0) -> bool:
    """A lone surrogate anywhere in the line (keys included): it cannot be stored."""
    if depth > 50:
        return True
    if isinstance(value, str):
        return without_surrogates(value) != value
    if isinstance(value, dict):
        return any(
            _has_invalid_text(k, depth + 1) or _has_invalid_text(v, depth + 1)
            for k, v in value.items()
        )
    if isinstance(value, list):
        return any(_has_invalid_text(v, depth + 1) for v in value)
    return False


def _case_header(path: Path, number: int, case: Any) -> dict[str, Any]:
    """The optional first line ``{"case": {"name": ..., "description": ...}}``, checked."""
    if not isinstance(case, dict):
        raise _bad(path, number, "案件信息需要 name / the case header needs a name")
    name, description = case.get("name"), case.get("description", "")
    if not isinstance(name, str) or not name.strip():
        raise _bad(path, number, "案件信息需要文字 name / the case header needs a name (text)")
    if description is not None and not isinstance(description, str):
        raise _bad(path, number, "案件说明必须是文字 / the case description must be text")
    try:
        name = clean_label(name, "case name")
    except InvalidInputError as exc:
        raise _bad(path, number, exc.user_message) from exc
    return {"name": name, "description": description or ""}


def _note_item(path: Path, number: int, obj: dict[str, Any]) -> dict[str, Any]:
    content = obj.get("content")
    if not isinstance(content, str) or not content.strip():
        raise _bad(path, number, "缺少 content 文本 / missing the content text")
    try:
        clean_content(content)
    except InvalidInputError as exc:
        raise _bad(path, number, exc.user_message) from exc
    category = obj.get("category")
    if category is not None and category not in CATEGORIES:
        raise _bad(path, number, f"未知类别：{str(category)[:40]} / unknown category: {str(category)[:40]}")
    tags = obj.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise _bad(path, number, "tags 必须是字符串列表 / tags must be a list of strings")
    scope = obj.get("scope", "case")
    if scope not in ("case", "global"):
        raise _bad(path, number, "scope 只能是 case 或 global / scope must be case or global")
    source = obj.get("source")
    if source is not None and not isinstance(source, str):
        raise _bad(path, number, "source 必须是文字 / source must be text")
    pinned = obj.get("pinned", False)
    if not isinstance(pinned, bool):
        raise _bad(path, number, "pinned 只能是 true 或 false / pinned must be true or false")
    event_date = obj.get("event_date")
    if event_date is not None and (
        not isinstance(event_date, str) or (event_date and parse_event_date(event_date) is None)
    ):
        raise _bad(path, number, f"事件日期格式错误：{str(event_date)[:40]} / bad event date: {str(event_date)[:40]}")
    source_kind = obj.get("source_kind")
    if source_kind and source_kind not in SOURCE_KINDS:
        raise _bad(path, number, f"未知来源：{str(source_kind)[:40]} / unknown source kind: {str(source_kind)[:40]}")
    item = {k: v for k, v in obj.items() if k in _ALLOWED}
    try:
        item["created_at"] = check_created_at(item.get("created_at"), f"line {number}")
    except InvalidInputError as exc:
        raise _bad(path, number, exc.user_message) from exc
    item["origin"] = "import"
    return item


def _bad(path: Path, line: int, why: str) -> InvalidInputError:
    """``why`` is "中文 / English"; the message keeps one whole sentence per language."""
    zh, en = split_languages(why)
    where_zh, where_en = (f"第 {line} 行：", f" on line {line}") if line else ("", "")
    return InvalidInputError(
        f"{path}:{line}: {why}",
        user_message=(
            f"导入失败，未写入任何内容。{where_zh}{zh} / "
            f"Import failed{where_en}; nothing was written: {en}"
        ),
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
        "event_date": note.event_date,
        "source_kind": note.source_kind,
        # informational; ignored on import (ids and derived fields are regenerated)
        "origin": note.origin,
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
    write_private(path, "\n".join(lines) + "\n")
    return len(notes)


#: the export's own words, one language per file (the interface's); the stored value
#: "archived" reads "expired", as everywhere in the app
_EXPORT_WORDS = {
    "zh_CN": {
        "global": "全局记忆", "archived": "已失效", "superseded": "已取代", "pinned": "置顶",
        "tags": "标签", "sep": "，", "colon": "：",
    },
    "en": {
        "global": "Global memories", "archived": "expired", "superseded": "superseded",
        "pinned": "pinned", "tags": "Tags", "sep": ", ", "colon": ": ",
    },
}


def write_markdown(
    path: Path, case: Case | None, notes: Sequence[Note], language: str = "zh_CN"
) -> int:
    """A readable export in ``language`` ("zh_CN" or "en"): headings, states and labels in
    that language; the notes' own text as written."""
    english = language == "en"
    words = _EXPORT_WORDS["en" if english else "zh_CN"]
    title = case.name if case else words["global"]
    out = [f"# {title}", ""]
    if case and case.description:
        out += [case.description, ""]
    for category in CATEGORIES:
        group = [n for n in notes if n.category == category]
        if not group:
            continue
        out += [f"## {CATEGORY_LABELS_EN[category] if english else category}", ""]
        for note in sorted(group, key=lambda n: (n.effective_date, n.created_at)):
            flags = [] if note.status == "active" else [words.get(note.status, note.status)]
            if note.pinned:
                flags.append(words["pinned"])
            if note.source_kind:
                kind = note.source_kind
                flags.append(SOURCE_KIND_LABELS_EN.get(kind, kind) if english else kind)
            suffix = f" ({words['sep'].join(flags)})" if flags else ""
            if not english and flags:
                suffix = f"（{words['sep'].join(flags)}）"
            date = note.effective_date
            body = note.content.replace("\n", "  \n  ")
            out.append(f"- **{date}** {body}{suffix}")
            if note.tags:
                out.append(f"  - {words['tags']}{words['colon']}{words['sep'].join(note.tags)}")
        out.append("")
    write_private(path, "\n".join(out))
    return len(notes)


def write_private(path: Path, text: str) -> None:
    """Write an export: owner-only (0600), the configured API key scrubbed should a note
    quote it, and a full disk or read-only folder reported as such."""
    data = scrub_known(text).encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
    except OSError as exc:
        raise storage_os_error(exc, path) from exc
