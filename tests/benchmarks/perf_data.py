"""Deterministic Chinese/English note texts for the performance benchmarks, and a cache of
their vectors (embedding 100k texts takes minutes on 2 cores; done once, kept in out/)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np

from tests.benchmarks.common import OUT

_PEOPLE = ["张三", "李四", "王丽", "赵强", "陈敏", "刘洋", "周杰", "吴芳", "郑浩", "孙悦"]
_GOODS = [
    "笔记本电脑",
    "冰箱",
    "洗衣机",
    "手机",
    "空调",
    "电动车",
    "沙发",
    "热水器",
    "电视机",
    "相机",
]
_EVENTS = [
    "{p}于{d}购买{g}一台，价款{a}元",
    "{g}使用{n}周后出现故障，{p}多次联系客服未果",
    "证据：{p}提供的{g}购物发票，金额{a}元，开票日期{d}",
    "{p}要求被告退还货款{a}元并赔偿损失{b}元",
    "《消费者权益保护法》第{n}条适用于{g}质量纠纷",
    "{d}{p}向人民法院提交起诉状，请求判令退款{a}元",
    "客服在{d}承诺三个工作日内为{p}更换{g}，但未兑现",
    "{p}希望以后的文书都用简体中文并附上法条原文",
    "房东扣留{p}押金{a}元，租赁合同约定提前{n}天通知",
    "{p}的劳动合同约定月薪{a}元，公司拖欠工资{n}个月",
]


def texts(n: int, seed: int = 7) -> list[str]:
    """n distinct notes, about half Chinese (legal templates) and half English (LoCoMo turns
    with a distinguishing suffix)."""
    from tests.benchmarks.locomo_data import load

    rng = random.Random(seed)
    english = [it["content"] for conv in load()[0] for it in conv]
    out: list[str] = []
    for i in range(n):
        if i % 2 == 0:
            out.append(_legal_note(rng, i))
        else:
            out.append(f"{rng.choice(english)} (note {i})")
    return out


def legal_texts(n: int, seed: int = 7) -> list[str]:
    """n Chinese legal notes from the same templates, without the LoCoMo half (which needs
    the dataset beside the checkout)."""
    rng = random.Random(seed)
    return [_legal_note(rng, i) for i in range(n)]


def _legal_note(rng: random.Random, i: int) -> str:
    tpl = rng.choice(_EVENTS)
    day = f"{rng.randint(2019, 2025)}年{rng.randint(1, 12)}月{rng.randint(1, 28)}日"
    return (
        tpl.format(
            p=rng.choice(_PEOPLE),
            g=rng.choice(_GOODS),
            d=day,
            a=rng.randint(500, 99999),
            b=rng.randint(100, 9999),
            n=rng.randint(1, 60),
        )
        + f"（记录{i}）"
    )


def queries(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    zh = [
        "客服拖延维修怎么办",
        "购买电脑的发票金额",
        "押金没有退还",
        "拖欠工资的证据",
        "起诉状什么时候交的",
        "三倍赔偿的法律依据",
        "手机坏了要求退款",
        "文书格式偏好",
    ]
    en = [
        "When did Caroline go to the support group?",
        "What does Melanie like to paint?",
        "Where did they go camping last summer?",
        "What job does John want?",
    ]
    # Every query distinct: the embedder must really run for each (repeating a handful of
    # strings measured 1 ms "embeddings" instead of ~15-25 ms).
    topics = ["art", "work", "family", "travel", "music", "school", "sports", "pets"]
    out = []
    for i in range(n):
        if i % 2 == 0:
            out.append(f"{rng.choice(_PEOPLE)}的{rng.choice(_GOODS)}：{rng.choice(zh)}")
        else:
            out.append(f"{rng.choice(en)} ({rng.choice(topics)}, {i})")
    return out


#: texts really embedded; beyond this, vectors are derived (see :func:`vectors`)
EMBED_LIMIT = 10_000


def vectors(all_texts: list[str], embedder, log=print) -> np.ndarray:
    """Vectors of ``all_texts`` (a prefix of texts(N)), cached in out/ by count.

    Only the first EMBED_LIMIT texts are embedded (embedding 100k texts on 2 shared cores
    took ~40 min); note i beyond that gets the vector of note i mod EMBED_LIMIT plus
    Gaussian noise (sigma 0.03 per dimension), renormalised: cosine to its source ~0.7,
    so the copies link like related notes, not duplicates.  Search, open and disk costs
    do not depend on the values; the ingest-throughput figure is measured separately
    with the real embedder.
    """
    OUT.mkdir(parents=True, exist_ok=True)
    if len(all_texts) > EMBED_LIMIT:
        base = vectors(all_texts[:EMBED_LIMIT], embedder, log)
        rng = np.random.default_rng(5)
        out = np.vstack([base] * (len(all_texts) // EMBED_LIMIT + 1))[: len(all_texts)].copy()
        out[EMBED_LIMIT:] += rng.normal(0, 0.03, size=out[EMBED_LIMIT:].shape).astype(np.float32)
        out /= np.linalg.norm(out, axis=1, keepdims=True)
        return out
    path = OUT / f"perf_vectors_{len(all_texts)}.npy"
    for candidate in sorted(
        OUT.glob("perf_vectors_*.npy"), key=lambda p: -int(p.stem.split("_")[-1])
    ):
        if int(candidate.stem.split("_")[-1]) >= len(all_texts):
            return np.load(candidate, mmap_mode="r")[: len(all_texts)].astype(np.float32)
    t = time.perf_counter()
    chunks = []
    for start in range(0, len(all_texts), 2048):
        chunks.append(embedder.embed(all_texts[start : start + 2048]))
        log(
            f"  embedded {start + len(chunks[-1])}/{len(all_texts)} ({time.perf_counter() - t:.0f} s)"
        )
    out = np.vstack(chunks).astype(np.float32)
    np.save(path, out)
    return out


class LookupEmbedder:
    """Returns cached vectors for the generated notes (so building the 100k folders does
    not re-embed), and really embeds anything else — the queries of the latency runs."""

    def __init__(self, inner, table: dict[str, np.ndarray]) -> None:
        self.inner, self.table = inner, table
        self.id, self.dim = inner.id, inner.dim

    def embed(self, batch: list[str]) -> np.ndarray:
        if batch and all(t in self.table for t in batch):
            return np.vstack([self.table[t] for t in batch])
        return self.inner.embed(batch)


def folder_ready(path: Path) -> bool:
    return (path / "READY").exists()
