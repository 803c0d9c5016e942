"""The sketches of a run's attempts (the agent's informal-first stage), in a table of their own.

An attempt that called ``sketch`` leaves its informal proof and its formal skeleton (lemma statements
with holes); the ledger keeps the last of them beside the attempt, stored with it in one transaction,
and the campaign offers the latest sketch of a problem to its later campaigns. Like every row, a sketch
is checked as it is read (``ledger_rows``): the attempt it belongs to, text of bounded length, and a
skeleton whose hash is the one stored. The table is created on open, so ledgers written before it
existed read the same (with no sketches).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from putnam_solver.run.ledger_rows import EDITED, LedgerError, checked_id, checked_number, sha256_text

MAX_SKETCH_CHARS = 20_000
"""The most characters of an informal proof or a skeleton (the agent keeps no longer ones)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS sketches (
    attempt_id INTEGER PRIMARY KEY REFERENCES attempts(id), informal_proof TEXT NOT NULL,
    skeleton TEXT NOT NULL, skeleton_sha256 TEXT NOT NULL);
"""

QUERY = (
    "SELECT s.attempt_id, a.campaign, a.problem, s.informal_proof, s.skeleton, s.skeleton_sha256 "
    "FROM sketches s JOIN attempts a ON a.id = s.attempt_id ORDER BY a.campaign, a.problem"
)


@dataclass(frozen=True)
class SketchRow:
    """The informal proof and skeleton of the attempt ``attempt_id`` (``problem`` in ``campaign``)."""

    attempt_id: int
    campaign: int
    problem: str
    informal_proof: str
    skeleton: str
    skeleton_sha256: str


def insert_sketch(db: sqlite3.Connection, attempt_id: int, sketch: tuple[str, str] | None) -> None:
    """Store an attempt's sketch (none: nothing); one cut to ``MAX_SKETCH_CHARS`` reads back whole."""
    if sketch is None:
        return
    informal, skeleton = (text[:MAX_SKETCH_CHARS] for text in sketch)
    db.execute("INSERT INTO sketches VALUES (?, ?, ?, ?)", (attempt_id, informal, skeleton, sha256_text(skeleton)))


def sketch_row(r: tuple[Any, ...], where: str) -> SketchRow:
    """One row as read, or LedgerError: ids, bounded texts and the skeleton's hash are checked."""
    at = f"{where}: sketch of attempt {r[0]!r}"
    checked_number(r[0], at), checked_number(r[1], at), checked_id(r[2], at)
    for text in r[3:6]:
        if not isinstance(text, str) or len(text) > MAX_SKETCH_CHARS:
            raise LedgerError(f"{at}: not text of at most {MAX_SKETCH_CHARS:,} characters; {EDITED}")
    if sha256_text(r[4]) != r[5]:
        raise LedgerError(f"{at}: the skeleton does not have its stored hash; {EDITED}")
    return SketchRow(*r)
