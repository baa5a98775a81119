"""The words models use for the memory steps' enum values, in Chinese and English.

Registered with the LLM layer's tolerant validation (:func:`desktop_app.llm.register_synonyms`):
a model answering ``MODIFY`` or ``更新`` for UPDATE, ``fact`` for 事实 or ``本案`` for case is
understood at once instead of costing a retry. Only words that mean one value are listed —
``MERGE`` (UPDATE or SUPERSEDE?), ``DELETE`` (nothing is deleted here) or ``时间`` (a date or
the timeline?) stay errors, answered with a retry.
"""

from __future__ import annotations

from desktop_app.llm.schema import register_synonyms

ACTION_SYNONYMS: dict[str, tuple[str, ...]] = {
    "ADD": ("add", "new", "create", "insert", "新增", "添加", "增加", "新建", "新记录", "加入"),
    "UPDATE": (
        "modify",
        "edit",
        "revise",
        "refine",
        "amend",
        "更新",
        "修改",
        "修订",
        "补充",
        "完善",
        "编辑",
    ),
    "SUPERSEDE": (
        "replace",
        "override",
        "overwrite",
        "invalidate",
        "supersedes",
        "取代",
        "替代",
        "替换",
        "覆盖",
        "推翻",
        "作废",
        "失效",
    ),
    # a dispute between sources (the client says one thing, an exhibit another): both stay
    "CONFLICT": (
        "contradict",
        "contradicts",
        "contradiction",
        "conflicts",
        "dispute",
        "disputed",
        "矛盾",
        "冲突",
        "争议",
        "相互矛盾",
    ),
    "NOOP": (
        "none",
        "no-op",
        "no op",
        "no_op",
        "skip",
        "ignore",
        "nothing",
        "duplicate",
        "keep",
        "无",
        "无操作",
        "不操作",
        "忽略",
        "跳过",
        "不变",
        "重复",
        "已存在",
    ),
}

CATEGORY_SYNONYMS: dict[str, tuple[str, ...]] = {
    "事实": ("fact", "facts", "案件事实", "事实陈述"),
    "证据": ("evidence", "proof", "证据材料", "证明"),
    "法条": (
        "statute",
        "law",
        "legal provision",
        "regulation",
        "法律条文",
        "法律规定",
        "法规",
        "条文",
    ),
    "诉求": ("claim", "claims", "demand", "诉讼请求", "请求", "主张"),
    "时间线": ("timeline", "chronology", "时间轴", "时间顺序"),
    "偏好": ("preference", "preferences", "用户偏好", "喜好", "习惯"),
}

SCOPE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "case": ("this case", "case-specific", "本案", "案件", "本案件", "当前案件"),
    "global": ("general", "all cases", "user", "全局", "通用", "所有案件", "跨案件"),
}


def register() -> None:
    for table in (ACTION_SYNONYMS, CATEGORY_SYNONYMS, SCOPE_SYNONYMS):
        for canonical, words in table.items():
            register_synonyms(canonical, words)


register()
