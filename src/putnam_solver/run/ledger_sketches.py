"""The sketches of a run's attempts (the agent's informal-first stage), in a table of their own.

Every ``sketch`` call of an attempt leaves its informal proof and its formal skeleton (lemma statements
with holes). The ledger stores it when it is made, before the skeleton is even checked, and completes
the row as the call goes on: how many holes the skeleton has, how many its sub-attempts proved, and the
SHA-256 of the file pasted together from the skeleton and its proved lemmas when that file passed the
fast gates. Each write is one transaction of its own, so a sketch outlives whatever stops its attempt
(Ctrl-C, a run budget, a crash, ``kill -9``): an interrupted attempt, which has no row in ``attempts``,
still leaves its sketches, and the campaign offers the latest sketch of a problem to its later
campaigns. A row names its attempt by campaign, problem, sample and the attempt's run key (the
``key`` note of its stored attempt; its sub-attempts' ``parent``).

Like every row, a sketch is checked as it is read (``ledger_rows``): ids, bounded text, a skeleton whose
hash is the one stored, hole counts that are counts, and a hash that is a hash.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from putnam_solver.run.ledger_clock import ledger_now
from putnam_solver.run.ledger_rows import (
    EDITED,
    LedgerError,
    checked_id,
    checked_number,
    checked_sample,
    sha256_text,
)

MAX_SKETCH_CHARS = 20_000
"""The most characters of an informal proof or a skeleton (the agent keeps no longer ones)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS sketches (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL REFERENCES campaigns(number), problem TEXT NOT NULL,
    sample INTEGER NOT NULL, attempt_key TEXT NOT NULL, call_index INTEGER NOT NULL,
    informal_proof TEXT NOT NULL, skeleton TEXT NOT NULL, skeleton_sha256 TEXT NOT NULL,
    holes INTEGER, proved INTEGER, assembled_sha256 TEXT, recorded_at TEXT NOT NULL,
    UNIQUE (attempt_key, call_index));
"""

COLUMNS = (
    "id, campaign, problem, sample, attempt_key, call_index, informal_proof, skeleton, skeleton_sha256, holes, "
    "proved, assembled_sha256, recorded_at"
)

MIGRATE_FROM_2 = """
INSERT INTO sketches (campaign, problem, sample, attempt_key, call_index, informal_proof, skeleton,
    skeleton_sha256, recorded_at)
SELECT a.campaign, a.problem, a.sample, COALESCE(n.value, 'attempt-' || s.attempt_id), 1, s.informal_proof,
    s.skeleton, s.skeleton_sha256, a.recorded_at
FROM sketches_v2 s JOIN attempts a ON a.id = s.attempt_id
LEFT JOIN attempt_notes n ON n.attempt_id = s.attempt_id AND n.key = 'key'
ORDER BY s.attempt_id
"""
"""Version 2 kept the last sketch of an attempt with an outcome (``attempt_id``); each becomes the first
call of its attempt, its hole counts unknown."""

_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class SketchMade:
    """One ``sketch`` call as its attempt reports it, first when it is made and again as it goes on:
    ``holes`` once the skeleton was checked, ``proved`` as its sub-attempts prove them, ``assembled_sha256``
    once the skeleton with every hole proved passed the fast gates."""

    problem: str
    sample: int
    attempt_key: str
    call_index: int
    informal_proof: str
    skeleton: str
    holes: int | None = None
    proved: int | None = None
    assembled_sha256: str | None = None


SketchCallback = Callable[[SketchMade], None]
"""Stores a sketch call as it is made and as it goes on (``CampaignJob.on_sketch``)."""


@dataclass(frozen=True, kw_only=True)
class SketchRow(SketchMade):
    """A stored sketch call: ``SketchMade`` with its row id, campaign, the skeleton's hash and when it was
    first stored."""

    id: int
    campaign: int
    skeleton_sha256: str
    recorded_at: str


def upsert_sketch(db: sqlite3.Connection, campaign: int, made: SketchMade) -> None:
    """Store a sketch call, or complete the stored row of the same call (its counts and assembled hash;
    its texts never change); texts longer than ``MAX_SKETCH_CHARS`` are cut so that they read back."""
    informal, skeleton = made.informal_proof[:MAX_SKETCH_CHARS], made.skeleton[:MAX_SKETCH_CHARS]
    db.execute(
        f"INSERT INTO sketches ({COLUMNS.removeprefix('id, ')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (attempt_key, call_index) DO UPDATE SET holes = excluded.holes, proved = excluded.proved, "
        "assembled_sha256 = excluded.assembled_sha256",
        (
            campaign,
            made.problem,
            made.sample,
            made.attempt_key,
            made.call_index,
            informal,
            skeleton,
            sha256_text(skeleton),
            made.holes,
            made.proved,
            made.assembled_sha256,
            ledger_now(db),
        ),
    )


def sketch_row(r: tuple[Any, ...], where: str) -> SketchRow:
    """One row as read, or LedgerError: ids, bounded texts, counts and hashes are checked."""
    at = f"{where}: sketch {r[0]!r}"
    checked_number(r[0], at), checked_number(r[1], at), checked_id(r[2], at), checked_sample(r[3], at)
    checked_number(r[5], at)
    for text in (r[4], *r[6:9], r[12]):
        if not isinstance(text, str) or len(text) > MAX_SKETCH_CHARS:
            raise LedgerError(f"{at}: not text of at most {MAX_SKETCH_CHARS:,} characters; {EDITED}")
    if sha256_text(r[7]) != r[8]:
        raise LedgerError(f"{at}: the skeleton does not have its stored hash; {EDITED}")
    holes, proved = (None if n is None else checked_number(n, at) for n in r[9:11])
    if (holes is not None and holes < 0) or (proved is not None and not 0 <= proved <= (holes or 0)):
        raise LedgerError(f"{at}: {proved!r} of {holes!r} holes proved is not a count; {EDITED}")
    if r[11] is not None and not (isinstance(r[11], str) and _SHA256.fullmatch(r[11])):
        raise LedgerError(f"{at}: the assembled file's hash {r[11]!r} is not a SHA-256; {EDITED}")
    return SketchRow(
        r[2],
        r[3],
        r[4],
        r[5],
        r[6],
        r[7],
        holes,
        proved,
        r[11],
        id=r[0],
        campaign=r[1],
        skeleton_sha256=r[8],
        recorded_at=r[12],
    )
