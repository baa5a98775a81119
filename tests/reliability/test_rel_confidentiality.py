"""Confidentiality: the API key reaches no file, logs are redacted, the data folder is private,
no search ever crosses cases, and a deleted note's text is in no file (database, WAL, index
versions, history, logs, backups after the purge)."""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes.keyring_backend import MemoryKeyring
from fakes.llm_server import FakeLLMServer, Reply
from fakes.scripted_model import ScriptedModel

from desktop_app.core.errors import AuthenticationError
from desktop_app.core.logging_setup import redact, setup_logging
from desktop_app.core.secrets import SecretStore
from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import BackupManager
from desktop_app.memory.text import fts_terms

API_KEY = "sk-lexmem-Confidential-7f3a9c2e1b5d4a6f8e0c"


@pytest.fixture
def logged(tmp_path) -> Iterator[Path]:
    """The app's logging (rotating file in the data folder, redacting), at DEBUG so that
    every library line that could print a request is captured."""
    data = tmp_path / "data"
    log_path = data / "logs" / "lexmem.log"
    root = logging.getLogger()
    level = root.level
    handler = setup_logging(log_path, level=logging.DEBUG)
    try:
        yield data
    finally:
        handler.flush()
        root.removeHandler(handler)
        handler.close()
        root.setLevel(level)


def _files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


def _holders(folder: Path, needles: list[str]) -> list[str]:
    found = []
    for path in _files(folder):
        blob = path.read_bytes()
        for needle in needles:
            if needle.encode("utf-8") in blob or needle.encode("utf-16-le") in blob:
                found.append(f"{needle!r} in {path.relative_to(folder)}")
    return found


def test_a_scripted_session_leaves_the_key_in_no_file(logged, embedder):
    data = logged
    secrets = SecretStore(service="LexMem-test", backend=MemoryKeyring())
    assert secrets.set("api-key/custom", API_KEY) is True
    model = ScriptedModel()
    with FakeLLMServer(api_key=API_KEY, responder=model) as srv:
        client = LLMClient(
            srv.config(api_key=secrets.get("api-key/custom")),
            mode_cache=JsonModeCache(),
            meter=TokenMeter(),
            sleep=lambda s: None,
        )
        with MemoryEngine.open(data, embedder=embedder, llm=client) as eng:
            case = eng.create_case("保密案件")
            conv = eng.create_conversation(case.id, "首次会见")
            eng.add_message(conv.id, "user", "对方拖欠货款8999元，能否起诉？")
            srv.push(Reply.text("可以起诉，建议先固定证据。"), Reply.text("一般为三年。"))
            reply = client.chat([{"role": "user", "content": "对方拖欠货款8999元，能否起诉？"}])
            eng.add_message(conv.id, "assistant", reply.text)
            streamed = client.stream_chat([{"role": "user", "content": "诉讼时效多久？"}])
            eng.add_message(conv.id, "assistant", "".join(streamed))
            eng.add_note("对方拖欠货款8999元", case_id=case.id, wait=True)
            eng.run_pending_jobs()
            BackupManager(eng).snapshot()
            # a wrong key: the error path logs too
            bad = LLMClient(srv.config(api_key=API_KEY[:-4] + "XXXX"), sleep=lambda s: None)
            with pytest.raises(AuthenticationError) as err:
                bad.chat([{"role": "user", "content": "hi"}])
            assert API_KEY not in str(err.value)
            # careless log lines somewhere in the app must still come out redacted
            log = logging.getLogger("desktop_app.test")
            log.info("configured key=%s", API_KEY)
            log.warning("request headers: {'Authorization': 'Bearer %s'}", API_KEY)
            try:
                raise RuntimeError(f"endpoint rejected api_key: {API_KEY}")
            except RuntimeError:
                log.exception("call failed")
        assert srv.chat_requests[0].authorization == f"Bearer {API_KEY}"  # it was really used
    for h in logging.getLogger().handlers:
        h.flush()
    log_text = (data / "logs" / "lexmem.log").read_text(encoding="utf-8")
    assert "***" in log_text and "call failed" in log_text
    assert _holders(data, [API_KEY, API_KEY[3:], API_KEY[-20:]]) == []
    if os.name == "posix":
        assert data.stat().st_mode & 0o777 == 0o700
        assert (data / "backups").stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize(
    "line",
    [
        f"Authorization: Bearer {API_KEY}",
        f"api_key={API_KEY}",
        f'{{"api-key": "{API_KEY}"}}',
        f"x-api-key: {API_KEY}",
        f"the key is {API_KEY} ok",
        "token=abcd1234efgh5678",
        "password: hunter2hunter2",
        "https://api.example.com/v1?key=" + "A" * 48,
    ],
)
def test_log_lines_are_redacted(line):
    out = redact(line)
    assert API_KEY not in out and "***" in out
    assert "abcd1234efgh5678" not in out and "hunter2hunter2" not in out


def test_the_data_folder_is_made_private_at_open(tmp_path, embedder):
    if os.name != "posix":
        pytest.skip("POSIX permissions")
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    MemoryEngine.open(data, embedder=embedder).close()
    assert data.stat().st_mode & 0o777 == 0o700


SECRET_V1 = "线人代号Quillfeather称交易地点在码头三号仓"
SECRET_V2 = "线人代号Quillfeather改称交易地点在码头五号仓"


def test_a_forgotten_note_is_in_no_file_at_all(logged, embedder):
    data = logged
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("遗忘")
        eng.add_notes(
            [{"content": f"普通记录{i}：证据清单第{i}项", "case_id": case.id} for i in range(6)]
        )
        note = eng.add_note(SECRET_V1, case_id=case.id).note
        eng.update_note(note.id, content=SECRET_V2)  # history holds the first wording
        eng.search("Quillfeather 码头", case_id=case.id, k=3)
        eng.optimize()  # old index versions hold it too
        mgr = BackupManager(eng)
        mgr.snapshot("auto")
        mgr.snapshot("manual")
        assert _holders(data, ["Quillfeather"])  # the scan can see it before the delete
        report = mgr.forget_note(note.id)
        assert report.complete and len(report.purged) == 2
        assert eng.stats().notes_total == 6
    for h in logging.getLogger().handlers:
        h.flush()
    needles = [
        SECRET_V1,
        SECRET_V2,
        "Quillfeather",
        "quillfeather",
        "码头三号仓",
        "码头五号仓",
        note.id,
    ]
    needles += [t for t in fts_terms(SECRET_V1 + SECRET_V2) if len(t) > 6]
    assert _holders(data, needles) == []
    assert (data / "logs" / "lexmem.log").exists()


# --------------------------------------------------------------------- cross-case leakage

VOCAB = [
    "原告",
    "被告",
    "合同",
    "押金",
    "赔偿",
    "电脑",
    "房屋",
    "工资",
    "加班",
    "证人",
    "发票",
    "调解",
    "deposit",
    "contract",
    "salary",
    "screen",
    "2024年",
    "8999元",
    "法条",
    "仲裁",
]


@pytest.fixture(scope="module")
def cases(tmp_path_factory, embedder):
    eng = MemoryEngine.open(tmp_path_factory.mktemp("leak") / "data", embedder=embedder)
    rng = random.Random(7)
    ids = []
    for n in range(4):
        case = eng.create_case(f"案件{n}")
        ids.append(case.id)
        notes = [
            {
                "content": f"{case.name}：{''.join(rng.sample(VOCAB, 4))}第{i}条",
                "case_id": case.id,
                "pinned": i == 0,
            }
            for i in range(12)
        ]
        results = eng.add_notes(notes)
        eng.expire_note(results[1].note.id)
    eng.add_notes([{"content": f"全局偏好：{''.join(rng.sample(VOCAB, 3))}"} for _ in range(5)])
    yield eng, ids
    eng.close()


def test_no_search_ever_returns_another_case(cases):
    eng, ids = cases
    rng = random.Random(20261129)
    searches = leaks = 0
    for _ in range(1000):
        scope = rng.choice([*ids, None])
        words = rng.sample(VOCAB, rng.randint(1, 4))
        if rng.random() < 0.3:  # name another case outright
            words.append(f"案件{rng.randrange(4)}")
        query = " ".join(words)
        for hit in eng.search(
            query, case_id=scope, k=rng.randint(1, 15), include_inactive=rng.random() < 0.3
        ):
            if hit.note.case_id not in (scope, None):
                leaks += 1
        searches += 1
        if rng.random() < 0.05:
            leaks += sum(
                n.case_id not in (scope, None) for n in eng.recall_for_chat(query, scope).notes
            )
    print(f"cross-case leakage: {leaks} in {searches} searches")
    assert searches >= 1000 and leaks == 0
