"""The ledger's ``audits`` rows (``putnam_solver.run.ledger``): how one is written, sealed as this account's
(``audit_seal``), and read back. Its columns are named once, here (``COLUMNS``), for the write and the read.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from putnam_solver.run import audit_seal
from putnam_solver.run.ledger_clock import ledger_now
from putnam_solver.run.ledger_rows import (
    EDITED,
    AuditRow,
    LedgerError,
    checked_flag,
    checked_time,
    verdict_column,
)
from putnam_solver.run.ledger_writes import dump_json

COLUMNS = "id, attempt_id, audited_at, status, candidate_sha256, toolchain, benchmark_sha256, toolchain_changed, json"
"""The ``audits`` table's columns, in the order ``audit_row`` reads them (the id first, the verdict's JSON last)."""


def insert_audit(
    db: sqlite3.Connection,
    attempt_id: int,
    verdict: dict[str, Any],
    toolchain: str,
    benchmark_sha256: str,
    toolchain_changed: bool,
) -> AuditRow:
    """Store one re-verification of a stored attempt (``verdict`` is ``Verdict.to_json()``), sealed."""
    at = ledger_now(db)
    status, candidate_sha = str(verdict["status"]), str(verdict["candidate_sha256"])
    stated = audit_seal.audit_stated(
        attempt_id, at, status, candidate_sha, toolchain, benchmark_sha256, toolchain_changed
    )
    made = audit_seal.seal(stated, dump_json(verdict))
    stored = {**verdict, audit_seal.SEAL: made} if made is not None else verdict
    values = (*stated[:-1], int(toolchain_changed), dump_json(stored))
    names = COLUMNS.removeprefix("id, ")
    cursor = db.execute(f"INSERT INTO audits ({names}) VALUES ({', '.join('?' * len(values))})", values)
    row_id, changed = int(cursor.lastrowid or 0), bool(toolchain_changed)
    own = made is not None
    return AuditRow(
        row_id, attempt_id, at, status, candidate_sha, toolchain, benchmark_sha256, changed, verdict, own=own
    )


def audit_row(r: tuple[Any, ...], where: str) -> AuditRow:
    """One row of ``SELECT {COLUMNS} FROM audits``; ``own`` when its seal checks."""
    at = f"{where}: audit {r[0]!r}"
    verdict = verdict_column(r[8], at) or {}
    record = verdict.get("audit", {})
    if not isinstance(record, dict):
        raise LedgerError(f"{at}: its `audit` record is not an object; {EDITED}")
    checked_time(r[2], f"{at}: audited_at")
    changed = checked_flag(r[7], f"{at}: toolchain_changed")
    for key in AUDIT_FLAGS:  # "false" as text was true to every reader that asked the record
        if key in record:
            checked_flag(record[key], f"{at}: verdict `audit.{key}`", stored_as_json=True)
    given = verdict.pop(audit_seal.SEAL, None)
    own = audit_seal.sealed(
        given, audit_seal.audit_stated(r[1], r[2], r[3], r[4], r[5], r[6], changed), dump_json(verdict)
    )
    return AuditRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], changed, verdict, own=own)


AUDIT_FLAGS = ("toolchain_changed", "challenge_matches_run")
"""The flags of an audit's own record (``Audit._audit_json``), JSON ``true`` or ``false``."""


def newest_own(audits: list[AuditRow]) -> dict[int, AuditRow]:
    """The newest of this account's audits (``AuditRow.own``) of each audited attempt, by attempt id.

    Newest by the sealed time (the ledger's clock never goes back, ``ledger_clock``), never by the row's id,
    which no seal binds: an older acceptance given an id above a newer rejection's read as the newest, so a
    pass the last audit refused counted as audited again (trust paths red team 19). Of two audits of the same
    second, one that did not accept is taken, so that a tie can only lower the count."""
    newest: dict[int, AuditRow] = {}
    for audit in audits:
        if not audit.own:
            continue
        kept = newest.get(audit.attempt_id)
        if kept is None or _order(audit) > _order(kept):
            newest[audit.attempt_id] = audit
    return newest


def _order(audit: AuditRow) -> tuple[datetime, bool]:
    return datetime.fromisoformat(audit.audited_at), audit.status != "accepted"
