"""Memory check-up (issue 16): precision and recall of each proposal kind, and the pass's
time, on a synthetic case of 10k notes with planted near-duplicates, possible updates
(same wording, another figure), stale orphans and passed hearings/deadlines.

    python -m tests.benchmarks.bench_maintenance [--notes 10000] [--runs 3]

Everything is real: SQLite, LanceDB, the USE-m3 embedder, notes added through add_notes
(so the links the ingestion makes are the ones the stale rule sees).  Ground truth:

* duplicate / update: the planted pairs (a background pair the pass proposes counts as a
  false positive, even if a reader might agree with it);
* passed: the planted notes with a pending word and a past date (negatives planted beside
  them: the same wording with a future date, and "已于…开庭" which states the past);
* stale: the planted old notes that are orphans by the rule's own terms, checked with an
  independent SQL query (old, no link in either direction, not pinned, not a preference);
  planted old-but-pinned and old preference notes must not be proposed;
* conflict: pairs of background notes linked as contradicting (what the model's decision
  writes; offline ingestion never does), open; planted beside them, conflicts already
  settled ("both hold") and conflicts whose one note was expired must not be proposed, nor
  a conflict between the other case's notes.

Another case holds copies of the planted texts: no item may name one of its notes.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.common import OUT, git_rev, machine, write_section

NOW = datetime.now(UTC)
RECENT_DAYS = 60
OLD = NOW - timedelta(days=200)

_SURNAMES = "张王李赵陈刘杨黄周吴徐孙胡朱高林何郭马罗"
_GIVEN = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "涛", "明"]
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
_PLACES = [
    "北京市海淀区",
    "上海市浦东新区",
    "广州市天河区",
    "深圳市南山区",
    "杭州市西湖区",
    "成都市武侯区",
]
_COMPANIES = ["某电商公司", "某物业公司", "某科技公司", "某建筑公司", "某餐饮公司", "某物流公司"]
BACKGROUND = [
    "{p}于{d}在{c}购买{g}一台，价款{a}元",
    "{g}使用{n}周后出现故障，{p}多次联系{c}客服未果",
    "{p}提供的{g}购物发票显示金额{a}元",
    "{p}要求{c}退还货款{a}元并赔偿损失{b}元",
    "{p}的住所地在{l}",
    "{c}的住所地在{l}，法定代表人为{q}",
    "{p}与{c}签订劳动合同，约定月薪{a}元",
    "{c}拖欠{p}工资{n}个月，共计{a}元",
    "{p}向{q}借款{a}元，约定年利率{n}%",
    "{q}出具借条一张，载明借款金额{a}元",
    "房东{q}扣留{p}押金{a}元未退",
    "{p}在{l}租住房屋，月租金{a}元",
    "证人{q}称{d}看到{p}在{c}门口发生争执",
    "{p}的{g}经检测存在质量问题，检测费{b}元",
    "{c}在{d}向{p}发出解除劳动合同通知书",
    "{p}于{d}申请劳动仲裁",
]
#: restatements: (form A, form B) of the same fact with the same figures
RESTATE = [
    ("{p}于{d}购买了{g}一台，价款{a}元", "{d}，{p}购买了一台{g}，价款为{a}元"),
    ("{p}与{c}签订劳动合同，约定月薪{a}元", "{p}和{c}签了劳动合同，月薪约定为{a}元"),
    ("{p}的住所地在{l}", "{p}的住所地位于{l}"),
    ("{q}出具借条一张，载明借款金额{a}元", "{q}出具了一张借条，借条载明借款{a}元"),
    ("证人{q}目睹了{p}摔倒的经过", "{q}是目睹{p}摔倒经过的证人"),
]
#: possible updates: the same wording, one figure changed
UPDATE = [
    "{p}的月薪为{a}元",
    "{p}主张的违约金为{a}元",
    "{p}租住房屋的月租金为{a}元",
    "{p}借款本金为{a}元",
]
PASSED = ["{p}案开庭时间定于{d}", "{p}案举证期限截止到{d}", "{p}应于{d}前提交答辩状"]
HELD = "{p}案已于{d}开庭"
STALE = [
    "{p}曾在{l}的{c}实习{n}个月",
    "{p}的{g}曾由{c}上门保养",
    "{p}早年在{l}居住过一段时间",
]


_NAMES: list[str] = []


def _people(rng: random.Random) -> str:
    """A person not named before in this case (names that coincide would make two
    background notes about the same person: a real possible update the truth could not
    know about)."""
    if not _NAMES:
        names = [s + a + b + c for s in _SURNAMES for a in _GIVEN for b in _GIVEN for c in "一二三"]
        rng.shuffle(names)
        _NAMES.extend(names)
    return _NAMES.pop()


def _day(rng: random.Random, past: bool | None = None) -> str:
    if past is None:
        d = NOW - timedelta(days=rng.randint(30, 2000))
    elif past:
        d = NOW - timedelta(days=rng.randint(10, 400))
    else:
        d = NOW + timedelta(days=rng.randint(10, 400))
    return f"{d.year}年{d.month}月{d.day}日"


def _fill(tpl: str, rng: random.Random, **fixed) -> str:
    slots = {
        "p": _people(rng),
        "q": _people(rng),
        "g": rng.choice(_GOODS),
        "c": rng.choice(_COMPANIES),
        "l": rng.choice(_PLACES),
        "d": _day(rng),
        "a": rng.randint(1000, 999999),
        "b": rng.randint(100, 99999),
        "n": rng.randint(2, 60),
    }
    slots.update(fixed)
    return tpl.format(**slots)


def _recent(rng: random.Random) -> datetime:
    return NOW - timedelta(days=rng.uniform(0, RECENT_DAYS))


def synthetic_case(n: int, seed: int = 16):
    """(items, truth): add_notes items (index order) and the planted ground truth by index."""
    rng = random.Random(seed)
    _NAMES.clear()
    items: list[dict] = []
    truth: dict[str, list] = {
        "duplicate": [],
        "update": [],
        "passed": [],
        "stale_planted": [],
        "stale_neg": [],
    }
    seen: set[str] = set()

    def add(text: str, **kw) -> int | None:
        if text in seen:
            return None
        seen.add(text)
        items.append({"content": text, **kw})
        return len(items) - 1

    planted = n // 40  # 250 of each kind at 10k
    for _ in range(planted):
        a, b = rng.choice(RESTATE)
        fixed = {k: v for k, v in (("p", _people(rng)), ("q", _people(rng)), ("d", _day(rng)))}
        fixed |= {"a": rng.randint(1000, 999999), "g": rng.choice(_GOODS)}
        fixed |= {"c": rng.choice(_COMPANIES), "l": rng.choice(_PLACES)}
        i = add(_fill(a, rng, **fixed), created_at=_recent(rng))
        j = add(_fill(b, rng, **fixed), created_at=_recent(rng))
        if i is not None and j is not None:
            truth["duplicate"].append((i, j))
    for _ in range(planted):
        tpl, person = rng.choice(UPDATE), _people(rng)
        old_amount = rng.randint(1000, 99999)
        new_amount = old_amount + rng.randint(1, 9) * 500
        i = add(_fill(tpl, rng, p=person, a=old_amount), created_at=NOW - timedelta(days=50))
        j = add(_fill(tpl, rng, p=person, a=new_amount), created_at=NOW - timedelta(days=5))
        if i is not None and j is not None:
            truth["update"].append((i, j))
    for _ in range(planted):
        i = add(_fill(rng.choice(PASSED), rng, d=_day(rng, past=True)), created_at=OLD)
        truth["passed"].append(i)
        add(_fill(rng.choice(PASSED), rng, d=_day(rng, past=False)), created_at=_recent(rng))
        add(_fill(HELD, rng, d=_day(rng, past=True)), created_at=_recent(rng))
    for k in range(planted):
        text = _fill(rng.choice(STALE), rng)
        if k % 5 == 0:
            truth["stale_neg"].append(add(text, created_at=OLD, pinned=True))
        elif k % 5 == 1:
            truth["stale_neg"].append(add(text + "，偏好书面沟通", created_at=OLD, category="偏好"))
        else:
            truth["stale_planted"].append(add(text, created_at=OLD))
    while len(items) < n:
        add(_fill(rng.choice(BACKGROUND), rng), created_at=_recent(rng))
    rng_order = list(range(len(items)))
    return items, truth, rng_order


def _pr(predicted: set, expected: set) -> tuple[float, float, int, int]:
    hits = len(predicted & expected)
    precision = hits / len(predicted) if predicted else 1.0
    recall = hits / len(expected) if expected else 1.0
    return precision, recall, len(predicted), len(expected)


def _orphans_by_sql(engine, case_id: str, ids: list[str], cutoff: datetime) -> set[str]:
    """The planted old notes that are orphans, by a query independent of the pass."""
    store = engine._store  # the benchmark checks the pass against the database itself
    found = set()
    for note_id in ids:
        row = store.query_one(
            "SELECT status, pinned, category, created_at, last_accessed FROM notes WHERE id = ?",
            (note_id,),
        )
        links = store.query_one(
            "SELECT COUNT(*) FROM links WHERE src = ? OR dst = ?", (note_id, note_id)
        )[0]
        last = row["last_accessed"] or row["created_at"]
        if (
            row["status"] == "active"
            and not row["pinned"]
            and row["category"] != "偏好"
            and links == 0
            and datetime.fromisoformat(last) < cutoff
        ):
            found.add(note_id)
    return found


def _make_orphans(engine, note_ids: list[str]) -> set[str]:
    """Remove every link of these notes (through the public unlink): the ingestion links
    nearly every note of a templated case to a neighbour above the link threshold, so
    orphans have to be made; the other planted old notes keep their links (negatives)."""
    store = engine._store
    for note_id in note_ids:
        rows = store.query(
            "SELECT src, dst FROM links WHERE src = ? OR dst = ?", (note_id, note_id)
        )
        for r in rows:
            engine.unlink_notes(r["src"], r["dst"])
    return set(note_ids)


def _plant_conflicts(engine, ids: list[str], truth: dict, count: int) -> set[frozenset]:
    """Link ``count`` pairs of background notes as open conflicts (the truth), and beside
    them count/5 settled ones and count/5 whose one note is expired (negatives)."""
    planted = {i for v in truth.values() for x in v for i in (x if isinstance(x, tuple) else (x,))}
    background = [ids[i] for i in range(len(ids)) if i not in planted]
    rng = random.Random(17)
    chosen = rng.sample(background, 2 * (count + 2 * (count // 5)))
    pairs = [(chosen[k], chosen[k + 1]) for k in range(0, len(chosen), 2)]
    for a, b in pairs:
        engine.link_notes(a, b, kind="conflict", reason="说法相反", label="矛盾")
    open_pairs = pairs[:count]
    for a, b in pairs[count : count + count // 5]:
        engine.resolve_conflict(a, b, "both")
    for a, _b in pairs[count + count // 5 :]:
        engine.expire_note(a)
    return {frozenset(p) for p in open_pairs}


def run(n: int, runs: int, log=print) -> str:
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.embedder import default_embedder

    items, truth, _ = synthetic_case(n)
    with tempfile.TemporaryDirectory() as tmp:
        engine = MemoryEngine.open(Path(tmp) / "data", embedder=default_embedder())
        case = engine.create_case("体检基准")
        other = engine.create_case("另一案")
        t0 = time.perf_counter()
        ids: list[str] = []
        for start in range(0, len(items), 2000):
            batch = [dict(it, case_id=case.id) for it in items[start : start + 2000]]
            ids += [r.note.id for r in engine.add_notes(batch, enrich=False)]
            log(f"  added {len(ids)}/{len(items)} ({time.perf_counter() - t0:.0f} s)")
        copies = [
            dict(items[i], case_id=other.id)
            for pair in truth["duplicate"][:50] + truth["update"][:50]
            for i in pair
        ] + [dict(items[i], case_id=other.id) for i in truth["passed"][:50]]
        other_ids = {r.note.id for r in engine.add_notes(copies, enrich=False)}
        cutoff0 = NOW - timedelta(days=engine.config.maintenance_stale_days)
        orphans_before = len(
            _orphans_by_sql(engine, case.id, [ids[i] for i in truth["stale_planted"]], cutoff0)
        )
        conflict_true = _plant_conflicts(engine, ids, truth, len(truth["duplicate"]))
        other_list = sorted(other_ids)
        engine.link_notes(other_list[0], other_list[1], kind="conflict", label="矛盾")
        unlinked = _make_orphans(engine, [ids[i] for i in truth["stale_planted"][::3]])
        unlinked |= _make_orphans(engine, [ids[i] for i in truth["stale_planted"][1::3]])
        build_s = time.perf_counter() - t0
        engine.optimize()

        times = []
        for _ in range(runs):
            t = time.perf_counter()
            proposal = engine.run_maintenance(case.id, now=NOW)
            times.append(time.perf_counter() - t)
        leaked = sum(1 for it in proposal.items for i in it.note_ids if i in other_ids)
        foreign = sum(1 for it in proposal.items for i in it.note_ids if i not in set(ids))

        by_kind: dict[str, list] = {}
        for item in proposal.items:
            by_kind.setdefault(item.kind, []).append(item.note_ids)
        dup_pred = {
            frozenset(p) for g in by_kind.get("duplicate", []) for p in itertools.combinations(g, 2)
        }
        dup_true = {frozenset((ids[i], ids[j])) for i, j in truth["duplicate"]}
        upd_pred = {tuple(p) for p in by_kind.get("update", [])}
        upd_true = {(ids[i], ids[j]) for i, j in truth["update"]}
        passed_pred = {p[0] for p in by_kind.get("passed", [])}
        passed_true = {ids[i] for i in truth["passed"]}
        stale_pred = {p[0] for p in by_kind.get("stale", [])}
        cutoff = NOW - timedelta(days=engine.config.maintenance_stale_days)
        planted_stale = [ids[i] for i in truth["stale_planted"]]
        stale_true = _orphans_by_sql(engine, case.id, planted_stale, cutoff)
        stale_neg = {ids[i] for i in truth["stale_neg"]}
        linked_at_ingest = len(planted_stale) - len(stale_true)
        conflict_pred = {frozenset(p) for p in by_kind.get("conflict", [])}
        rows = {
            "duplicate": _pr(dup_pred, dup_true),
            "update": _pr(upd_pred, upd_true),
            "passed": _pr(passed_pred, passed_true),
            "stale": _pr(stale_pred, stale_true),
            "conflict": _pr(conflict_pred, conflict_true),
        }
        cfg = engine.config
        engine.close()

    lines = [
        "## Memory check-up (bench_maintenance.py, issue 16: pass ≤ 10 s at 10k notes)",
        "",
        f"`python -m tests.benchmarks.bench_maintenance --notes {n} --runs {runs}` — "
        f"{machine()}; rev {git_rev()}.",
        "",
        f"One case of {len(items)} notes (added through add_notes with the real embedder in "
        f"{build_s:.0f} s), plus {len(other_ids)} copies of planted notes in another case. "
        f"Thresholds: duplicate {cfg.maintenance_duplicate_threshold}, update "
        f"{cfg.maintenance_update_threshold}, stale after {cfg.maintenance_stale_days:.0f} days.",
        "",
        "| kind | proposed | planted | precision | recall |",
        "|---|---:|---:|---:|---:|",
    ]
    for kind, (p, r, npred, ntrue) in rows.items():
        unit = "pairs" if kind in ("duplicate", "update", "conflict") else "notes"
        lines.append(f"| {kind} ({unit}) | {npred} | {ntrue} | {p:.3f} | {r:.3f} |")
    lines += [
        "",
        f"- Pass time (run_maintenance, SQLite read + index vectors + all detectors + storing "
        f"the proposal): median {statistics.median(times):.2f} s over {runs} runs "
        f"({', '.join(f'{t:.2f}' for t in times)} s).",
        f"- Stale: {len(planted_stale)} planted old notes; the ingestion linked "
        f"{orphans_before} of them to nothing — the links of {len(unlinked)} were then removed "
        f"(the others keep theirs: old but linked, negatives); {linked_at_ingest} remain linked. "
        f"{len(stale_pred & stale_neg)} of {len(stale_neg)} old pinned/preference notes and "
        f"{len(stale_pred - stale_true)} other notes proposed.",
        f"- Conflicts: {len(conflict_true)} open pairs planted (model-style conflict links "
        f"between background notes), with {len(conflict_true) // 5} settled and "
        f"{len(conflict_true) // 5} with one note expired beside them (negatives) and one "
        f"open conflict in the other case.",
        f"- Notes of the other case in this case's proposal: {leaked}; notes outside the case: "
        f"{foreign}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    section = run(args.notes, args.runs)
    print(section)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "bench_maintenance.md").write_text(section + "\n", encoding="utf-8")
    write_section("maintenance", section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
