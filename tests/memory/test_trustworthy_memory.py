"""Issue 12, findings 1–4: the memory never loses or misorders a fact.

Each finding was seen with the scripted OpenAI-compatible server playing a careless model
(``ScriptedModel``), the real client, real SQLite and LanceDB; so are these tests.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta, timezone

import pytest
from fakes.llm_server import FakeLLMServer
from fakes.scripted_model import ScriptedModel

from desktop_app.core.errors import StorageError
from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
from desktop_app.memory import MemoryEngine

CST = timezone(timedelta(hours=8))


def _alias_of(shown: dict[int, str], text: str) -> int | None:
    return next((n for n, content in shown.items() if text in content), None)


@pytest.fixture
def model():
    return ScriptedModel()


@pytest.fixture
def server(model):
    with FakeLLMServer(responder=model) as srv:
        yield srv


@pytest.fixture
def eng(tmp_path, embedder, server):
    llm = LLMClient(
        server.config(), mode_cache=JsonModeCache(), meter=TokenMeter(), sleep=lambda s: None
    )
    engine = MemoryEngine.open(tmp_path / "data", embedder=embedder, llm=llm)
    yield engine
    engine.close()


@pytest.fixture
def shanghai(monkeypatch):
    """The user's zone is UTC+8 (the machine's TZ), as on a lawyer's laptop in China."""
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# -- finding 1: a NOOP answer never deletes what the user wrote ------------------------------


def test_a_noop_answer_keeps_the_users_note_and_links_it_as_a_duplicate(eng, model):
    case = eng.create_case("李四案")
    signed = eng.add_note("被告李四于2024年3月16日签收了律师函", case_id=case.id, wait=True)
    # the careless model: "already known" for a note that says the opposite
    model.decide_rules.append(
        lambda note, shown: (
            {"action": "NOOP", "target": _alias_of(shown, "签收了律师函")}
            if "没有签收" in note
            else None
        )
    )
    denied = eng.add_note("被告李四没有签收律师函", case_id=case.id, wait=True)
    kept = eng.get_note(denied.note.id)  # raised NoteNotFoundError before the fix
    assert kept.content == "被告李四没有签收律师函" and kept.status == "active"
    assert eng.get_note(signed.note.id).status == "active"
    assert denied.action == "duplicate" and denied.target_id == signed.note.id
    assert any(
        link.kind == "duplicate" and link.dst == signed.note.id for link in eng.links_of(kept.id)
    )


def test_a_noop_without_a_target_keeps_the_note_too(eng, model):
    case = eng.create_case("李四案")
    eng.add_note("被告李四于2024年3月16日签收了律师函", case_id=case.id, wait=True)
    model.quirks.add("noop")  # every decision NOOP, target null
    denied = eng.add_note("被告李四没有签收律师函", case_id=case.id, wait=True)
    assert eng.get_note(denied.note.id).content == "被告李四没有签收律师函"
    assert denied.action == "added"
    assert eng.count_notes(case.id) == 2


def test_only_identical_normalised_text_is_dropped(eng):
    case = eng.create_case("李四案")
    first = eng.add_note("被告李四于2024年3月16日签收了律师函", case_id=case.id, wait=True)
    again = eng.add_note("被告李四于2024年3月16日签收了律师函。 ", case_id=case.id, wait=True)
    assert again.action == "unchanged" and again.note.id == first.note.id
    assert eng.count_notes(case.id) == 1


# -- finding 2: an older note never supersedes a newer one; a retry never re-decides ---------


def test_an_older_note_never_supersedes_a_newer_one(eng, model):
    case = eng.create_case("工资案")
    raised = eng.add_note(
        "原告月薪调整为9500元",
        case_id=case.id,
        created_at=datetime(2024, 6, 1, 10, 0, tzinfo=CST),
        wait=True,
    )
    # a fact typed in late, about an earlier time; the careless model says it replaces
    # the newer one
    model.decide_rules.append(
        lambda note, shown: (
            {"action": "SUPERSEDE", "target": _alias_of(shown, "9500")}
            if "8000" in note and _alias_of(shown, "9500")
            else None
        )
    )
    older = eng.add_note(
        "原告月薪8000元",
        case_id=case.id,
        created_at=datetime(2024, 1, 10, 10, 0, tzinfo=CST),
        wait=True,
    )
    assert eng.get_note(raised.note.id).status == "active"  # was superseded before the fix
    # the model saw two values of one thing over time: the earlier one is history
    assert older.action == "outdated" and older.target_id == raised.note.id
    assert eng.get_note(older.note.id).status == "superseded"
    assert eng.recall_for_chat("原告月薪多少", case.id).notes[0].id == raised.note.id


def test_a_retried_job_resumes_and_never_decides_again(eng, model, monkeypatch):
    case = eng.create_case("工资案")
    payroll = eng.add_note(
        "原告工资每月由公司银行转账发放",
        case_id=case.id,
        created_at=datetime(2024, 1, 5, 9, 0, tzinfo=CST),
        wait=True,
    )
    asked_about_8000: list[dict[int, str]] = []

    def decide(note: str, shown: dict[int, str]) -> dict | None:
        if "8000" not in note:
            return None
        asked_about_8000.append(dict(shown))
        if len(asked_about_8000) == 1:
            return {"action": "ADD", "target": None}
        # asked again later, the careless model lets the old value replace the new one
        newer = _alias_of(shown, "9500")
        return {"action": "SUPERSEDE", "target": newer} if newer else None

    model.decide_rules.append(decide)
    model.evolve_answer = lambda prompt, shown: {
        "links": (
            [{"target": _alias_of(shown, "转账发放"), "reason": "同一工资事项"}]
            if "8000" in prompt and _alias_of(shown, "转账发放")
            else []
        ),
        "tags": None,
        "neighbour_updates": [],
    }
    # the step after the decision fails once (a full disk, a crash): the job is retried
    real_link = eng.link_notes
    failures = []

    def flaky_link(*args, **kwargs):
        if not failures:
            failures.append(args)
            raise StorageError("disk full")
        return real_link(*args, **kwargs)

    monkeypatch.setattr(eng, "link_notes", flaky_link)
    old = eng.add_note(
        "原告月薪8000元",
        case_id=case.id,
        created_at=datetime(2024, 1, 10, 10, 0, tzinfo=CST),
        wait=True,
    )
    assert failures and eng.pending_jobs() == 1
    # a newer value arrives before the retry
    new = eng.add_note(
        "原告月薪调整为9500元",
        case_id=case.id,
        created_at=datetime(2024, 6, 1, 10, 0, tzinfo=CST),
        wait=True,
    )
    eng.retry_jobs_now()
    eng.run_pending_jobs()
    assert eng.pending_jobs() == 0 and eng.job_counts().failed == 0
    assert len(asked_about_8000) == 1  # resumed from the stored decision
    assert eng.get_note(new.note.id).status == "active"
    assert eng.get_note(old.note.id).status == "active"
    assert any(link.dst == payroll.note.id for link in eng.links_of(old.note.id))


def test_the_decision_prompt_shows_both_event_dates_and_no_latest_claim(eng, server):
    case = eng.create_case("工资案")
    eng.add_note(
        "原告月薪调整为9500元",
        case_id=case.id,
        created_at=datetime(2024, 6, 1, 10, 0, tzinfo=CST),
        wait=True,
    )
    eng.add_note(
        "2024年1月原告月薪8000元",
        case_id=case.id,
        created_at=datetime(2024, 6, 20, 10, 0, tzinfo=CST),
        wait=True,
    )
    decisions = [
        r for r in server.chat_requests if "9500" in r.user and "8000" in r.user
    ]
    assert decisions, "the second note was decided against the first"
    request = decisions[0]
    assert "最新情况" not in request.system + request.user
    assert "2024-06-01" in request.user  # the neighbour's date
    assert "2024-01" in request.user  # the new note's event date, not its typing date


# -- finding 3: siblings of one turn are not each other's neighbours; the report is exact ----


def test_items_of_one_turn_are_not_decided_against_each_other(eng, model):
    case = eng.create_case("工资案")
    model.extract_items = [
        {"content": "原告入职时月薪8000元", "category": "事实", "scope": "case"},
        {"content": "原告月薪于2024年6月调整为9500元", "category": "事实", "scope": "case"},
    ]
    shown_to_model: list[str] = []

    def careless(note: str, shown: dict[int, str]) -> dict | None:
        shown_to_model.extend(shown.values())
        other = next((n for n, c in shown.items() if "月薪" in c and c not in note), None)
        return {"action": "SUPERSEDE", "target": other} if other else None

    model.decide_rules.append(careless)
    results = eng.ingest_turn(
        "原告入职时月薪8000元，2024年6月调整为9500元", "好的", case_id=case.id, wait=True
    )
    contents = [r.note.content for r in results]
    assert contents == ["原告入职时月薪8000元", "原告月薪于2024年6月调整为9500元"]
    assert not any("月薪" in shown for shown in shown_to_model)  # no sibling shown
    for result in results:  # the report says what happened to each item
        stored = eng.get_note(result.note.id)
        assert result.action == "added" and stored.status == "active"
        assert stored.context  # every item was built


# -- finding 4: relative dates resolve in the user's zone ------------------------------------


def test_relative_dates_are_resolved_in_the_users_local_time(eng, server, shanghai):
    case = eng.create_case("c")
    typed_at = datetime(2024, 3, 16, 7, 30, tzinfo=CST)  # early morning in Beijing
    eng.add_note("用户昨天说不喜欢冗长回复", case_id=case.id, created_at=typed_at, wait=True)
    construction = server.chat_requests[0]
    assert "2024-03-16 07:30" in construction.user  # was "2024-03-15 23:30 (+00:00)"
    assert "23:30" not in construction.user


def test_an_extracted_note_is_stamped_with_the_real_instant(tmp_path, embedder, shanghai):
    from desktop_app.chat import ChatPipeline

    model = ScriptedModel()
    model.extract_items = [{"content": "仲裁开庭定于2024年7月15日", "category": "时间线", "scope": "case"}]

    class OneReply:
        def stream_chat(self, messages, cancel=None):
            yield "好的。"

    with FakeLLMServer(responder=model) as srv:
        llm = LLMClient(srv.config(), mode_cache=JsonModeCache(), sleep=lambda s: None)
        with MemoryEngine.open(tmp_path / "data", embedder=embedder, llm=llm) as engine:
            case = engine.create_case("c")
            conv = engine.create_conversation(case.id, "t")
            pipe = ChatPipeline(engine, OneReply())
            outcome = pipe.run_turn(conv.id, case.id, "仲裁开庭定于2024年7月15日")
            learned = pipe.extract(outcome)
            assert learned
            stamped = learned[0].note.created_at
            assert abs(stamped - datetime.now(UTC)) < timedelta(minutes=5)  # was 8 h ahead
