"""How a note names the document page it came from: ``doc:<document_id>#p<page>``."""

from __future__ import annotations

import re

_SOURCE = re.compile(r"^doc:([A-Za-z0-9_\-]{1,64})#p(\d{1,6})$")


def document_source(document_id: str, page: int) -> str:
    return f"doc:{document_id}#p{page}"


def document_source_prefix(document_id: str) -> str:
    return f"doc:{document_id}#"


def document_job_prefix(document_id: str) -> str:
    """The dedupe keys of a document's extraction jobs start with this."""
    return f"extract:doc:{document_id}:"


def parse_document_source(source: str | None) -> tuple[str, int] | None:
    """(document id, page) of a note's source, or None when it is not a document page."""
    match = _SOURCE.match(source or "")
    return (match.group(1), int(match.group(2))) if match else None
