"""Red team round 13 of the trust paths: a run directory handed to ``putnam solve --resume``, ``report``,
``audit`` or ``export``, through its stored flags and its model names.

Stored flags: ``audits.toolchain_changed`` was read with ``bool()``, so the text ``'false'`` or the number 2
read as true and ``0.5`` too (its seal, over the flag's truth, still checked; SQLite stores ``0.0`` and
``'0'`` in an INTEGER column as the integer 0); a verdict's flags
(``allow_recursion``, ``unsafe_no_sandbox``...) were read by ``is True``, so ``"yes"`` hid a lifted rule
from the report. A flag is now 0 or 1 in a column and ``true`` or ``false`` in JSON, anything else an
edited ledger refused by file and field (``ledger_rows.checked_flag``).

Model names: a stored ``hf/some-org/model`` with no such folder here was taken on resume, and the model check
had Inspect download it from the Hugging Face hub (code and weights) for a name the user never gave. A name
of a provider that loads the model on this machine is now taken only when the resume says it again, whatever
lies here (``test_trust_paths_redteam12``'s table, now with names no folder here matches), and never from
a folder inside the run directory (``resume_checks``). Since that answer depends
on the name alone, no folder made or swapped after it changes it; and every load (the model check, each
campaign) first requires that what the name would load here is still what the run checked
(``model_names.require_same_sources``): a folder appearing or replaced in between is refused, not loaded.

SQL stored in the ledger: every row is checked as it is read, but a trigger runs the editor's SQL inside
putnam's own writes (one deleting each new ``audits`` row made an audit's rejection vanish as it was
recorded), a view named like a table stands in for it, and a table declared ``ON CONFLICT IGNORE`` drops a
row putnam inserts without an error. A ledger holding any of them, or another clause putnam's schema never
uses, is refused as it is opened, before any statement touches a table (``ledger_types.check_schema_objects``).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.run import agent
from putnam_solver.run.agent import task
from putnam_solver.run.agent.model_names import model_source, model_sources, require_same_sources
from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.campaign import stored_run
from putnam_solver.run.ledger import LEDGER_NAME, Ledger, LedgerError
from putnam_solver.run.ledger_rows import sha256_text
from putnam_solver.run.ledger_types import CLAUSES
from putnam_solver.run.resume_checks import check_resumable
from putnam_solver.run.stored_settings import parse_settings
from tests.adversarial.test_trust_paths_redteam10 import EDITED, PID, edit_settings, made_run
from tests.adversarial.test_trust_paths_redteam12 import said
from tests.helpers import sampled, sql
from tests.integration.campaign_driver import recorded_lean_settings
from tests.processes import putnam

FIX = "or start a new run with --run-dir"
"""The way out every refusal of an edited ledger names."""


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run of ``test_trust_paths_redteam10`` with one sealed audit of its attempt."""
    folder = made_run(tmp_path, monkeypatch)
    ledger = Ledger.open(folder / LEDGER_NAME)
    try:
        (attempt,) = ledger.attempts()
        verdict = {
            "problem": PID,
            "status": "rejected",
            "candidate_sha256": sha256_text("candidate"),
            "gates": [],
            "allow_recursion": False,
            "audit": {"toolchain_changed": False, "challenge_matches_run": True},
        }
        ledger.record_audit(attempt.id, verdict, "toolchain", "0" * 64, toolchain_changed=False)
    finally:
        ledger.close()
    return folder


# -- stored flags ------------------------------------------------------------------------------------------

FLAGS = {
    "toolchain_changed as text": ("UPDATE audits SET toolchain_changed='false'", "audit 1: toolchain_changed"),
    "toolchain_changed of 2": ("UPDATE audits SET toolchain_changed=2", "audit 1: toolchain_changed: 2"),
    "toolchain_changed of 0.5": ("UPDATE audits SET toolchain_changed=0.5", "audit 1: toolchain_changed: 0.5"),
    "a verdict's flag as text": (
        "UPDATE audits SET json=json_set(json, '$.allow_recursion', 'yes')",
        "the verdict's `allow_recursion`",
    ),
    "the audit record's flag as a number": (
        "UPDATE audits SET json=json_set(json, '$.audit.toolchain_changed', 1)",
        "verdict `audit.toolchain_changed`",
    ),
    "campaigns.fresh as a fraction": ("UPDATE campaigns SET fresh=0.25", "campaign 1: fresh: 0.25 is not 0 or 1"),
}


@pytest.mark.parametrize(("statement", "says"), sampled(FLAGS, {"toolchain_changed as text"}))
def test_a_stored_flag_of_another_type_is_refused_by_file_and_field(run_dir: Path, statement: str, says: str) -> None:
    """Before: ``'false'``, 2 and 0.5 read as a changed toolchain (a seal over true checked for 2 and 0.5);
    ``"yes"`` as a rule not lifted."""
    sql(run_dir, statement)
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        with pytest.raises(LedgerError) as refused:
            ledger.audits(), ledger.campaigns()
    finally:
        ledger.close()
    text = str(refused.value)
    assert str(run_dir / LEDGER_NAME) in text and says in text and EDITED in text and FIX in text, text


def test_every_reader_says_the_refusal(run_dir: Path) -> None:
    sql(run_dir, FLAGS["toolchain_changed as text"][0])
    code, stdout, stderr = putnam("report", run_dir)
    text = said(stderr)
    assert code == 2 and "toolchain_changed: 'false' is not 0 or 1 (a flag)" in text and FIX in text, stdout + stderr
    assert "bug in putnam" not in text


def test_honest_flags_read_as_written_and_their_seal_checks(run_dir: Path) -> None:
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        (attempt,) = ledger.attempts()
        (kept,) = ledger.audits()
        verdict = {"problem": PID, "status": "rejected", "candidate_sha256": attempt.candidate_sha256, "gates": []}
        changed = ledger.record_audit(attempt.id, {**verdict, "cached": True}, "t", "0" * 64, toolchain_changed=True)
        read = ledger.audits()
    finally:
        ledger.close()
    assert [(a.toolchain_changed, a.own) for a in read] == [(False, True), (True, True)]
    assert read[0] == kept and read[1].toolchain_changed is changed.toolchain_changed is True


# -- model names a resume would load on this machine ------------------------------------------------------


def test_a_stored_model_said_again_or_sent_to_a_server_is_taken(run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Valid beside: the user names the hub model again; a provider that sends the name to its server as
    text (the run's API model) resumes as it did."""
    monkeypatch.chdir(run_dir.parent)
    edit_settings(run_dir, lambda data: data["config"].update(model="openai/gpt-5.5", acceptance_profile="full"))
    stored = stored_run(run_dir)
    assert stored is not None
    check_resumable(stored, {}, None)
    edit_settings(run_dir, lambda data: data["config"].update(model="hf/some-org/model", reviewer_model="openai/x"))
    stored = stored_run(run_dir)
    assert stored is not None
    check_resumable(stored, {}, None, given_models={"--model": "hf/some-org/model"})


def test_a_model_folder_inside_the_run_directory_is_refused_even_when_named(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resume run from within the directory handed over: ``hf/some-org/model`` said again, meaning the hub,
    would load the ``some-org/model`` folder the directory ships."""
    edit_settings(run_dir, lambda data: data["config"].update(model="hf/some-org/model", acceptance_profile="full"))
    (run_dir / "some-org" / "model").mkdir(parents=True)
    monkeypatch.chdir(run_dir)
    stored = stored_run(run_dir)
    assert stored is not None
    with pytest.raises(InputError, match="lies inside the run directory") as refused:
        check_resumable(stored, {}, None, given_models={"--model": "hf/some-org/model"})
    assert "Resume from a working directory outside the run directory" in str(refused.value)
    monkeypatch.chdir(run_dir.parent)  # the same name from outside: the hub, as the user said
    check_resumable(stored, {}, None, given_models={"--model": "hf/some-org/model"})


# -- what a model name loads here: the same at the check and at every load -------------------------------

SWAPS = {
    "a folder appears": lambda here: (here / "org" / "model").mkdir(parents=True),
    "a file replaced": lambda here: _replace(here / "org" / "model" / "config.json"),
    "the folder replaced": lambda here: _swap_folder(here / "org" / "model"),
}


def _replace(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_name("planted")
    fresh.write_text('{"planted": true}')
    fresh.replace(path)


def _swap_folder(folder: Path) -> None:
    other = folder.with_name("other")
    other.mkdir()
    (other / "config.json").write_text("{}")
    folder.rename(folder.with_name("old"))
    other.rename(folder)


@pytest.mark.parametrize("swap", sampled({k: k for k in SWAPS}, {"a folder appears"}))
def test_a_model_folder_changed_after_the_check_is_not_loaded(
    swap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the check looked at the folder (or its absence), and Inspect loaded whatever was there
    seconds (the model check) or hours (a later campaign) after."""
    monkeypatch.chdir(tmp_path)
    if swap != "a folder appears":
        (tmp_path / "org" / "model").mkdir(parents=True)
        (tmp_path / "org" / "model" / "config.json").write_text("{}")
    config = dataclasses.replace(recorded_lean_settings([PID]).config, model="hf/org/model", reviewer_model=None)
    checked = model_sources((config.model, config.reviewer_model))
    require_same_sources(checked, (config.model,))  # nothing changed: loaded
    loaded: list[str] = []
    monkeypatch.setattr(task, "get_model", lambda name, **_: loaded.append(name))
    SWAPS[swap](tmp_path)
    assert model_source(config.model) != checked[config.model]
    with pytest.raises(ValueError, match="changed after the run checked it") as refused:
        agent.check_models(config, checked)
    assert "org/model" in str(refused.value) and not loaded


def test_a_model_sent_to_a_server_has_no_source_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Valid: a model named for a server loads nothing here, so no folder of its name is looked at."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "org" / "model").mkdir(parents=True)
    assert model_sources(("openai-api/org/model", "ollama/org/model", None)) == {}
    require_same_sources({}, ("openai-api/org/model",))


def test_attempts_read_as_before(run_dir: Path) -> None:
    """The attempt of the fixture, written by ``putnam solve``'s own code, still reads back whole."""
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        (attempt,) = ledger.attempts()
        ledger.record_attempts(1, [AttemptResult(PID, "rejected", 1, 1, 1, 0.0, "c", None, sample=2)])
        assert len(ledger.attempts()) == 2 and attempt.status == "rejected"
    finally:
        ledger.close()


# -- SQL stored in the ledger: triggers and views ----------------------------------------------------------

SCHEMA_EDITS = {
    "a trigger dropping each new audit": (
        "CREATE TRIGGER zz AFTER INSERT ON audits BEGIN DELETE FROM audits WHERE id = NEW.id; END",
        "the trigger 'zz'",
    ),
    "a view in place of the audits": (
        "ALTER TABLE audits RENAME TO zz_rows; CREATE VIEW audits AS SELECT * FROM zz_rows WHERE status != "
        "'rejected'; CREATE TRIGGER zz INSTEAD OF INSERT ON audits BEGIN SELECT 1; END",
        "the trigger 'zz'",
    ),
    "a view of another name": ("CREATE VIEW zz AS SELECT 1", "the view 'zz'"),
    "audits that ignore a second audit": (
        "CREATE TABLE zz (id INTEGER PRIMARY KEY, attempt_id INTEGER NOT NULL, audited_at TEXT NOT NULL, status TEXT "
        "NOT NULL, candidate_sha256 TEXT NOT NULL, toolchain TEXT NOT NULL, benchmark_sha256 TEXT NOT NULL, "
        "toolchain_changed INTEGER NOT NULL, json TEXT NOT NULL, UNIQUE (attempt_id) ON CONFLICT IGNORE); "
        "INSERT INTO zz SELECT * FROM audits; DROP TABLE audits; ALTER TABLE zz RENAME TO audits",
        "the table 'audits' is declared with CONFLICT",
    ),
    "ids equal in any case": (
        "CREATE INDEX zz ON attempts (problem COLLATE NOCASE)",
        "the index 'zz' is declared with COLLATE",
    ),
}


IN_CI = {"a trigger dropping each new audit", "audits that ignore a second audit"}


@pytest.mark.parametrize(("script", "says"), sampled(SCHEMA_EDITS, IN_CI))
def test_sql_stored_in_the_ledger_refuses_it_before_any_read_or_write(run_dir: Path, script: str, says: str) -> None:
    """Before: the trigger deleted the audit ``putnam audit`` recorded as it was inserted (``record_audit``
    returned it, the ledger held none); the view showed only the audits it chose and dropped every write; the
    conflict clause dropped a later audit's rejection, so an earlier sealed acceptance stayed the newest."""
    db = sqlite3.connect(run_dir / LEDGER_NAME)
    db.executescript(script)
    db.close()
    with pytest.raises(LedgerError) as refused:
        Ledger.open(run_dir / LEDGER_NAME)
    text = str(refused.value)
    assert str(run_dir / LEDGER_NAME) in text and says in text and EDITED in text and FIX in text, text


def test_an_index_or_a_vacuumed_copy_still_opens(run_dir: Path) -> None:
    """Valid: what a user's own ``sqlite3`` leaves (an index, a ``VACUUM``, a ``.backup`` copy) is no code."""
    sql(run_dir, "CREATE INDEX zz ON attempts (problem)")
    sql(run_dir, "VACUUM")
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        assert len(ledger.audits()) == 1 and len(ledger.attempts()) == 1
    finally:
        ledger.close()


def test_putnam_s_own_schema_uses_no_refused_clause(tmp_path: Path) -> None:
    """Valid: every table and index a fresh ledger holds passes (migrated ones: ``test_ledger_migration``)."""
    Ledger.open(tmp_path / LEDGER_NAME).close()
    db = sqlite3.connect(tmp_path / LEDGER_NAME)
    texts = [str(sql_text) for (sql_text,) in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")]
    db.close()
    assert texts and not [t for t in texts if CLAUSES & set(t.upper().replace("(", " ").split())]


# -- settings with keys putnam does not know -----------------------------------------------------------------


def _unknown_keys(data: dict) -> None:
    """Keys no putnam records, named like rules lifted: at the top, in the config, its budgets, the limits and
    the selection."""
    data.update(skip_gates=True, trusted=True)
    data["config"].update(kernel_check=False, accept_all=True, model_loader="planted/model")
    data["config"]["budgets"]["unlimited"] = True
    data["limits"]["ignore"] = 1
    data["selection"]["benchmark_dir"] = "."


def test_unknown_settings_keys_are_read_as_absent(run_dir: Path) -> None:
    """A field no longer known is dropped (an earlier putnam's settings open): so a key an editor adds is
    nothing, whatever its name says; the run reads, compares on resume and writes back as without it."""
    ((before,),) = sql(run_dir, "SELECT json FROM settings")
    edit_settings(run_dir, _unknown_keys)
    ((after,),) = sql(run_dir, "SELECT json FROM settings")
    honest, edited = parse_settings(json.loads(before), run_dir), parse_settings(json.loads(after), run_dir)
    assert "kernel_check" in after and edited == honest and edited.identity() == honest.identity()
    assert "kernel_check" not in json.dumps(edited.to_json())
