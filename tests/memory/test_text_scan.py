"""The scan behind "forget": distinctive terms, and a term found even where a byte scan
cannot see it (split across SQLite overflow pages)."""

from __future__ import annotations

import random
import sqlite3
import string

from desktop_app.memory.text_scan import distinctive_terms, index_forms, scan_file, scan_folder


def test_distinctive_terms_are_clauses_and_long_tokens_not_what_others_state():
    text = "证人赵六的真实住址是翡翠路Vellichor巷七号，电话13800138000。原告"
    terms = distinctive_terms([text], stated_elsewhere=lambda t: t == "电话13800138000")
    assert text in terms and "证人赵六的真实住址是翡翠路Vellichor巷七号" in terms
    assert "Vellichor" in terms and "13800138000" in terms
    assert "原告" not in terms  # too short to prove anything
    assert "电话13800138000" not in terms  # another surviving note states it
    assert index_forms("翡翠路Vellichor") == ["翡翠 翠路 vellichor"]


def test_a_term_split_across_overflow_pages_is_still_found(tmp_path):
    rng = random.Random(7)
    text = "".join(rng.choice(string.ascii_letters) for _ in range(30_000))
    db = tmp_path / "copy.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (id TEXT, content TEXT)")
    conn.execute("INSERT INTO notes VALUES ('a', ?)", (text,))
    conn.execute("INSERT INTO notes VALUES ('b', 'short row')")
    conn.commit()
    conn.close()
    blob = db.read_bytes()
    split = next(
        text[i : i + 16] for i in range(len(text) - 16) if text[i : i + 16].encode() not in blob
    )  # a piece that straddles a page boundary: invisible to a byte scan
    found = scan_file(db, [split])
    assert found is not None and found.where == "notes"
    assert scan_file(db, ["short row"]).where == "bytes"
    assert scan_file(db, ["not there at all"]) is None
    assert [h.path for h in scan_folder(tmp_path, [split])] == [db]
