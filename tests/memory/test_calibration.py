"""Re-measures the similarity bands the link thresholds were calibrated on (embedder.py)."""

from __future__ import annotations

import numpy as np

from desktop_app.memory.types import MemoryConfig

PARAPHRASES = [
    ("原告张三购买了笔记本电脑", "张三买了一台手提电脑"),
    ("客服三次推诿", "售后客服多次推脱责任"),
    ("屏幕出现花屏", "显示屏花屏了"),
    ("被告拒绝退款", "商家不同意退钱"),
]
DISTINCT = [
    ("原告张三购买了笔记本电脑", "租赁合同约定提前一个月通知"),
    ("屏幕出现花屏", "原告要求三倍赔偿"),
    ("客服三次推诿", "依据消费者权益保护法第二十四条"),
    ("被告拒绝退款", "开庭时间定于六月一日"),
]
NEAR_IDENTICAL_DIFFERENT = [("月薪8000元", "月薪9500元")]


def _sims(embedder, pairs):
    left = embedder.embed([a for a, _ in pairs])
    right = embedder.embed([b for _, b in pairs])
    return np.sum(left * right, axis=1)


def test_bands_match_the_configured_thresholds(embedder):
    cfg = MemoryConfig()
    para, distinct = _sims(embedder, PARAPHRASES), _sims(embedder, DISTINCT)
    near = _sims(embedder, NEAR_IDENTICAL_DIFFERENT)
    assert distinct.max() < cfg.link_threshold, distinct
    assert np.median(para) >= cfg.link_threshold, para
    # a near-identical but different fact is flagged as a possible duplicate, not merged
    assert near.min() >= cfg.duplicate_threshold, near
    assert para.max() < 1.0
