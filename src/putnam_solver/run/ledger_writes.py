"""How a run's results are written into the ledger's rows (``putnam_solver.run.ledger``): one attempt with its
verdict, gates, turns and notes; a lemma sub-attempt; an interruption. Each runs inside the ledger's
transaction, so an attempt and its verdict are stored together or not at all.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from putnam_solver.run.ledger_clock import ledger_now
from putnam_solver.run.ledger_rows import (
    INTERRUPTED,
    SUBATTEMPT_COLUMNS,
    AttemptRow,
    SubAttemptRow,
    sha256_text,
    subattempt_row,
)

if TYPE_CHECKING:  # only the type: importing the agent package would load Inspect AI
    from putnam_solver.run.agent.types import AttemptResult, SubAttemptResult


def effective_status(result: AttemptResult) -> tuple[str, str | None]:
    """The status to store and the error to record with it.

    ``passed`` is stored only when the attempt carries an accepted verdict for exactly its candidate's
    bytes; anything else reported as passed is stored as an ``error`` that says why (fail closed).
    """
    if result.status != "passed":
        return result.status, result.error
    verdict = result.verdict
    if result.candidate is None or verdict is None or not verdict.accepted:
        return "error", "reported as passed without an accepted verdict; not counted"
    if verdict.candidate_sha256 != sha256_text(result.candidate):
        return (
            "error",
            "reported as passed, but the accepted verdict is for other candidate bytes; not counted",
        )
    return "passed", result.error


def insert_attempt(db: sqlite3.Connection, campaign: int, result: AttemptResult) -> AttemptRow | None:
    status, error = effective_status(result)
    candidate_sha = sha256_text(result.candidate) if result.candidate is not None else None
    transcript = str(result.transcript) if result.transcript is not None else None
    recorded_at = ledger_now(db)
    cursor = db.execute(
        "INSERT INTO attempts (campaign, problem, status, turns, input_tokens, output_tokens, "
        "cost_dollars, candidate, candidate_sha256, reviewer_feedback, error, transcript, recorded_at, sample) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (campaign, problem, sample) DO NOTHING",
        (
            campaign,
            result.problem,
            status,
            result.turns,
            result.input_tokens,
            result.output_tokens,
            result.cost_dollars,
            result.candidate,
            candidate_sha,
            result.reviewer_feedback,
            error,
            transcript,
            recorded_at,
            result.sample,
        ),
    )
    if cursor.rowcount == 0:
        return None
    attempt_id = int(cursor.lastrowid or 0)
    # The row returned holds the verdict as stored (JSON round trip), so evidence written from it now is
    # byte for byte what ``attempts()`` gives when the evidence is rebuilt after a crash.
    stored = dump_json(result.verdict.to_json()) if result.verdict is not None else None
    verdict = json.loads(stored) if stored is not None else None
    if verdict is not None:
        db.execute(
            "INSERT INTO verdicts VALUES (?, ?, ?, ?)",
            (attempt_id, verdict["status"], verdict["candidate_sha256"], stored),
        )
        db.executemany(
            "INSERT INTO gates VALUES (?, ?, ?, ?, ?, ?)",
            [(attempt_id, i, g["id"], g["name"], g["status"], g["detail"]) for i, g in enumerate(verdict["gates"])],
        )
    db.executemany(
        "INSERT INTO turns VALUES (?, ?, ?)",
        [(attempt_id, i, dump_json(t)) for i, t in enumerate(result.turn_log)],
    )
    notes = {"key": getattr(result, "key", None), "plan": getattr(result, "plan", None)}
    db.executemany("INSERT INTO attempt_notes VALUES (?, ?, ?)", [(attempt_id, k, v) for k, v in notes.items() if v])
    return AttemptRow(
        attempt_id,
        campaign,
        result.problem,
        status,
        result.turns,
        result.input_tokens,
        result.output_tokens,
        result.cost_dollars,
        result.candidate,
        candidate_sha,
        result.reviewer_feedback,
        error,
        transcript,
        verdict,
        recorded_at,
        result.sample,
    )


def insert_subattempt(db: sqlite3.Connection, campaign: int, result: SubAttemptResult) -> SubAttemptRow:
    """Store one sub-attempt; ``passed`` only with an accepted verdict for exactly its lemma file."""
    candidate_sha = sha256_text(result.candidate) if result.candidate is not None else None
    verdict = json.loads(dump_json(result.verdict.to_json())) if result.verdict is not None else None
    status, error = result.status, result.error
    if status == "passed" and (
        verdict is None or verdict["status"] != "accepted" or verdict["candidate_sha256"] != candidate_sha
    ):
        status, error = "error", "reported as proved without an accepted verdict for its bytes; not kept"
    values = (
        campaign,
        result.problem,
        result.parent,
        result.lemma,
        status,
        result.turns,
        result.input_tokens,
        result.output_tokens,
        result.cost_dollars,
        result.statement,
        sha256_text(result.statement),
        result.candidate,
        candidate_sha,
        result.lemma_text,
        dump_json(verdict) if verdict is not None else None,
        error,
        ledger_now(db),
    )
    cursor = db.execute(
        f"INSERT INTO subattempts ({SUBATTEMPT_COLUMNS.removeprefix('id, ')}) VALUES ({', '.join('?' * len(values))})",
        values,
    )
    return subattempt_row((int(cursor.lastrowid or 0), *values), "the ledger")


def insert_interruption(db: sqlite3.Connection, campaign: int, result: AttemptResult) -> AttemptRow:
    transcript = str(result.transcript) if result.transcript is not None else None
    values = (result.turns, result.input_tokens, result.output_tokens, result.cost_dollars, result.error, transcript)
    cursor = db.execute(
        "INSERT INTO interruptions (campaign, problem, turns, input_tokens, output_tokens, cost_dollars, error, "
        "transcript, recorded_at, sample) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (campaign, result.problem, *values, ledger_now(db), result.sample),
    )
    row_id = int(cursor.lastrowid or 0)
    head = (row_id, campaign, result.problem, INTERRUPTED, *values[:4], None, None, None, *values[4:])
    return AttemptRow(*head, None, "", result.sample)


def dump_json(value: Any) -> str:
    """JSON with stable key order; values JSON cannot hold (paths, enums) are stored as text."""
    return json.dumps(value, sort_keys=True, default=str)
