"""``lexmem-cli``: the memory engine from a terminal, through the public API only."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from desktop_app.core.errors import DataFolderLockedError, LexMemError

#: commands that only read: beside the running app they open the folder read-only (no
#: writer lock, no index repair); alone they open it as usual
READ_ONLY_COMMANDS = frozenset({"stats", "cases", "search", "export", "backup"})


def _default_data_dir() -> Path:
    from desktop_app.core.paths import default_data_dir

    return default_data_dir()


def _resolve_case(engine, case: str | None) -> str | None:
    """A case given by id or by (unique) name; None means the global scope."""
    if not case:
        return None
    cases = engine.list_cases(include_archived=True)
    for c in cases:
        if c.id == case:
            return c.id
    named = [c for c in cases if c.name == case]
    if len(named) == 1:
        return named[0].id
    raise LexMemError(
        f"no unique case named {case!r}", user_message=f"找不到案件：{case} / No such case: {case}"
    )


def _print(obj: object, as_json: bool) -> None:
    if as_json:
        print(json.dumps(obj, ensure_ascii=False, indent=2, default=str))
    elif isinstance(obj, list):
        for line in obj:
            print(line)
    else:
        print(obj)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lexmem-cli", description="LexMem 律记 — memory engine CLI"
    )
    parser.add_argument(
        "--data-dir", type=Path, default=None, help="data folder (default: the app's)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("stats", help="counts of cases, notes, links, jobs")
    sub.add_parser("cases", help="list the cases")
    demo = sub.add_parser("demo", help="load the bundled demo case (once) and show it")
    demo.add_argument("--query", default="电脑是什么时候买的？花了多少钱？")

    add = sub.add_parser("add", help="add one note")
    add.add_argument("content")
    add.add_argument("--case", help="case id or name (default: global scope)")
    add.add_argument("--category")
    add.add_argument("--event-date", help="when the fact happened, e.g. 2024-07-15")
    add.add_argument("--source-kind", help="当事人陈述 / 对方主张 / 证据显示 / 法院认定 / 律师判断 / 偏好")

    search = sub.add_parser("search", help="hybrid search in a case (plus global notes)")
    search.add_argument("query")
    search.add_argument("--case")
    search.add_argument("-k", type=int, default=5)

    imp = sub.add_parser("import", help="import notes from JSON Lines (all or nothing)")
    imp.add_argument("path", type=Path)
    imp.add_argument("--case", help="target case; default: the file's case header")

    doc = sub.add_parser(
        "import-doc", help="import a case document (PDF, DOCX, PNG/JPG, TXT/Markdown)"
    )
    doc.add_argument("path", type=Path)
    doc.add_argument("--case", required=True, help="case id or name")

    exp = sub.add_parser("export", help="export a case's notes")
    exp.add_argument("path", type=Path)
    exp.add_argument("--case")
    exp.add_argument("--format", choices=["jsonl", "markdown"], default="jsonl")
    exp.add_argument(
        "--lang", choices=["zh_CN", "en"], default="zh_CN", help="the Markdown file's language"
    )

    maintain = sub.add_parser(
        "maintain", help="memory check-up of a case: propose (and optionally accept) clean-ups"
    )
    maintain.add_argument("--case", required=True, help="case id or name")
    maintain.add_argument(
        "--accept-all",
        choices=["stale", "duplicate", "update", "passed"],
        action="append",
        default=[],
        metavar="KIND",
        help="accept every proposed item of this kind (stale, duplicate, update, passed)",
    )

    sub.add_parser("rebuild-index", help="rebuild the search index from the database")
    sub.add_parser("backup", help="snapshot the database into the backups folder")
    sub.add_parser("list-backups", help="list the database snapshots")
    restore = sub.add_parser("restore", help="restore the database from a snapshot")
    restore.add_argument("which", help="a path, a file name from list-backups, or 'latest'")
    delete = sub.add_parser(
        "delete-case",
        help="delete a case with everything in it, also from every backup (asks for --yes)",
    )
    delete.add_argument("case", help="case id or name")
    delete.add_argument("--yes", action="store_true", help="really delete (cannot be undone)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from desktop_app.memory import MemoryEngine

    data_dir = args.data_dir or _default_data_dir()
    if args.command in ("list-backups", "restore"):
        # These must work when the database is damaged, so they never open the engine.
        # A restore takes the folder's writer lock: it refuses while the app runs.
        try:
            return _backups_without_engine(data_dir, args)
        except LexMemError as exc:
            print(f"错误 / error: {exc.user_message}", file=sys.stderr)
            print(f"  ({exc})", file=sys.stderr)
            return 2

    def progress(done: int, total: int) -> None:
        print(f"\r  {done}/{total}", end="" if done < total else "\n", file=sys.stderr)

    try:
        try:
            engine = MemoryEngine.open(data_dir, progress=progress)
        except DataFolderLockedError:
            if args.command not in READ_ONLY_COMMANDS:
                raise
            engine = MemoryEngine.open(data_dir, read_only=True)
        with engine:
            return _run(engine, args)
    except LexMemError as exc:
        print(f"错误 / error: {exc.user_message}", file=sys.stderr)
        print(f"  ({exc})", file=sys.stderr)
        return 2


def _run(engine, args) -> int:
    if args.command == "stats":
        s = engine.stats()
        _print(
            {
                "data_dir": str(engine.data_dir),
                "cases": s.cases,
                "notes": s.notes_total,
                "active": s.notes_active,
                "links": s.links,
                "pending_jobs": s.pending_jobs,
                "index_rows": s.index_rows,
                "embedder": s.embedder_id,
            },
            True,
        )
    elif args.command == "cases":
        rows = [
            {"id": c.id, "name": c.name, "archived": c.archived, "notes": engine.count_notes(c.id)}
            for c in engine.list_cases(include_archived=True)
        ]
        _print(
            rows if args.json else [f"{r['id']}  {r['name']}  ({r['notes']} notes)" for r in rows],
            args.json,
        )
    elif args.command == "demo":
        demo_case = next((c for c in engine.list_cases() if c.name.endswith("（示例）")), None)
        if demo_case is None:
            from desktop_app.core.resources import demo_path

            results = engine.import_jsonl(demo_path())
            demo_case = engine.get_case(results[0].note.case_id)
            print(f"已载入示例案件 / demo case loaded: {demo_case.name} ({len(results)} notes)")
        print(f"案件 / case: {demo_case.name}\n问 / query: {args.query}")
        _print_hits(engine.search(args.query, case_id=demo_case.id, k=5), args.json)
    elif args.command == "add":
        r = engine.add_note(
            args.content,
            case_id=_resolve_case(engine, args.case),
            category=args.category,
            event_date=args.event_date,
            source_kind=args.source_kind,
        )
        _print(
            {
                "id": r.note.id,
                "action": r.action,
                "category": r.note.category,
                "keywords": r.note.keywords,
                "linked": r.linked,
            },
            True,
        )
    elif args.command == "search":
        case_id = _resolve_case(engine, args.case)
        # a case's documents answer too (passages are never global, never another case's)
        passages = engine.search_passages(args.query, case_id, k=args.k) if case_id else []
        _print_hits(engine.search(args.query, case_id=case_id, k=args.k), args.json, passages)
    elif args.command == "import":
        results = engine.import_jsonl(args.path, case_id=_resolve_case(engine, args.case))
        added = sum(r.action == "added" for r in results)
        print(f"导入 {len(results)} 条，新增 {added} 条 / imported {len(results)}, {added} new")
    elif args.command == "import-doc":
        _import_document(engine, args)
    elif args.command == "export":
        case_id = _resolve_case(engine, args.case)
        if args.format == "markdown":
            count = engine.export_markdown(args.path, case_id, args.lang)
        else:
            count = engine.export_jsonl(args.path, case_id)
        print(f"导出 {count} 条 / exported to {args.path}")
    elif args.command == "backup":
        info = engine.backups.snapshot("manual")
        print(f"已备份 / backed up: {info.path} ({info.size} bytes)")
    elif args.command == "maintain":
        _maintain(engine, args)
    elif args.command == "rebuild-index":
        print(f"重建索引 {engine.rebuild_index()} 条 / index rebuilt")
    elif args.command == "delete-case":
        return _delete_case(engine, args)
    return 0


def _import_document(engine, args) -> None:
    case_id = _resolve_case(engine, args.case)
    if case_id is None:
        raise LexMemError("no case given", user_message="请指定案件。 / Name a case.")

    def progress(done: int, total: int, phase: str) -> None:
        print(f"\r  {phase} {done}/{total}", end="" if done < total else "\n", file=sys.stderr)

    doc = engine.import_document(case_id, args.path, progress=progress)
    if args.json:
        _print(
            {
                "id": doc.id,
                "name": doc.name,
                "kind": doc.kind,
                "pages": doc.pages,
                "passages": doc.passages,
                "ocr": doc.ocr,
                "extraction": doc.extraction,
            },
            True,
        )
        return
    print(
        f"已导入「{doc.name}」：{doc.pages} 页，{doc.passages} 段 / "
        f"imported “{doc.name}”: {doc.pages} pages, {doc.passages} passages"
    )


def _delete_case(engine, args) -> int:
    case_id = _resolve_case(engine, args.case)
    if case_id is None:
        raise LexMemError("no case given", user_message="请指定案件。 / Name a case.")
    c = engine.case_contents(case_id)
    summary = (
        f"案件「{c.case.name}」：{c.notes} 条记忆、{c.conversations} 个对话（{c.messages} 条消息）、"
        f"{c.jobs} 个待办任务，以及它在 {c.backups} 个备份中的内容 / "
        f"case “{c.case.name}”: {c.notes} notes, {c.conversations} conversations "
        f"({c.messages} messages), {c.jobs} pending jobs, and its content in {c.backups} backups"
    )
    if not args.yes:
        print(f"将永久删除 / would delete for good: {summary}")
        print("确认删除请加 --yes（无法撤销） / add --yes to delete (cannot be undone)")
        return 1
    report = engine.delete_case(case_id)
    print(f"已删除 / deleted: {summary}")
    if report.complete:
        print("数据文件夹中已找不到该案件的文字 / its text is in no file of the data folder")
        return 0
    for place in [*map(str, report.still_holding), *report.live_places]:
        print(f"仍含有该案件的文字 / still holds its text: {place}", file=sys.stderr)
    return 3


#: how each kind of check-up item reads in the terminal
_KIND_LABELS = {
    "stale": "久未使用 / stale",
    "duplicate": "疑似重复 / duplicate",
    "update": "可能更新 / possible update",
    "passed": "日期已过 / date passed",
    # listed, never accepted in bulk: the lawyer picks which note holds (in the app)
    "conflict": "待处理的冲突 / open conflict",
}


def _maintain(engine, args) -> None:
    case_id = _resolve_case(engine, args.case)
    proposal = engine.run_maintenance(case_id)
    rows = []
    for item in proposal.items:
        notes = [engine.get_note(i) for i in item.note_ids]
        rows.append(
            {
                "id": item.id,
                "kind": item.kind,
                "score": item.score,
                "event_date": item.event_date.isoformat() if item.event_date else None,
                "notes": [{"id": n.id, "content": n.content} for n in notes],
            }
        )
    accept = [r["id"] for r in rows if r["kind"] in set(args.accept_all)]
    outcome = engine.accept_maintenance(accept) if accept else None
    if args.json:
        _print(
            {
                "items": rows,
                "seconds": round(proposal.seconds, 3),
                "accepted": list(outcome.applied) if outcome else [],
                "skipped": list(outcome.skipped) if outcome else [],
            },
            True,
        )
        return
    print(f"记忆体检 / memory check-up: {len(rows)} 项 / items ({proposal.seconds:.2f} s)")
    for r in rows:
        extra = f" {r['event_date']}" if r["event_date"] else ""
        extra += f" sim={r['score']:.3f}" if r["score"] is not None else ""
        print(f"[{_KIND_LABELS[r['kind']]}]{extra}  {r['id']}")
        for n in r["notes"]:
            print(f"    {n['content']}")
    if outcome is not None:
        print(
            f"已接受 {len(outcome.applied)} 项，跳过 {len(outcome.skipped)} 项（已变更） / "
            f"accepted {len(outcome.applied)}, skipped {len(outcome.skipped)} (changed)"
        )


def _backups_without_engine(data_dir: Path, args) -> int:
    from desktop_app.memory.backups import list_backups, resolve_backup, restore_database

    if args.command == "list-backups":
        rows = [
            {"name": b.name, "kind": b.kind, "size": b.size, "created_at": b.created_at.isoformat()}
            for b in list_backups(data_dir)
        ]
        if args.json:
            _print(rows, True)
        else:
            for r in rows or [
                {"name": "（没有备份 / no backups）", "kind": "", "size": "", "created_at": ""}
            ]:
                print(f"{r['created_at']}  {r['kind']:<12} {r['size']:>10}  {r['name']}")
        return 0
    backup = resolve_backup(data_dir, args.which)
    kept = restore_database(data_dir, backup)
    print(f"已从 {backup.name} 恢复 / restored from {backup.name}")
    if kept is not None:
        print(f"原数据库已保留为 / the previous database was kept as: {kept}")
    print("下次打开时会校正索引 / the index is reconciled at the next open")
    return 0


def _print_hits(hits, as_json: bool, passages=()) -> None:
    rows = [
        {
            "kind": "note",
            "score": round(h.score, 4),
            "id": h.note.id,
            "category": h.note.category,
            "content": h.note.content,
            "event_date": h.note.event_date,
            "source_kind": h.note.source_kind,
            "vector_rank": h.parts.vector_rank,
            "text_rank": h.parts.text_rank,
            "link_bonus": round(h.parts.link_bonus, 4),
            "pinned": h.parts.pinned,
        }
        for h in hits
    ]
    passage_rows = [
        {
            "kind": "passage",
            "score": round(p.score, 4),
            "id": p.passage.id,
            "document": p.document_name,
            "page": p.passage.page,
            "citation": p.citation,
            "content": p.passage.text,
        }
        for p in passages
    ]
    if as_json:
        _print(rows + passage_rows, True)
        return
    for r in rows:
        why = []
        if r["vector_rank"]:
            why.append(f"语义#{r['vector_rank']}")
        if r["text_rank"]:
            why.append(f"全文#{r['text_rank']}")
        if r["link_bonus"]:
            why.append("关联")
        if r["pinned"]:
            why.append("置顶")
        when = f"{r['event_date']} " if r["event_date"] else ""
        print(f"{r['score']:.3f}  [{r['category']}] {when}{r['content']}  ({', '.join(why)})")
    for r in passage_rows:  # where each comes from: the document and its page
        print(f"{r['score']:.3f}  《{r['document']}》p{r['page']} {r['content']}")


if __name__ == "__main__":
    sys.exit(main())
