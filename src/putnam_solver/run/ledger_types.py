"""What SQLite holds in a ledger handed over, checked against the types putnam writes, before anything reads it.

Every reader checks the values it uses (ids by the id grammar, numbers as integers, JSON within bounds:
``ledger_rows``), but SQLite lets an edit store any value in any column, and Python's ``sqlite3`` returns it
as what it is: a BLOB as ``bytes``, text that is not UTF-8 as a decoding error, a column dropped as "no such
column". Red team round 8 of the trust paths: ``putnam report``, ``export`` and ``audit`` ended in
"unexpected TypeError/OperationalError ... a bug in putnam" on a ledger whose ``transcript`` or ``error`` was
a BLOB, or whose ``candidate`` was not UTF-8. So when a ledger is opened, every column of every table putnam
defines must exist and hold no storage class putnam never writes there (``typeof``), and text is decoded
strictly (``ledger_rows.strict_text``); anything else refuses the ledger whole, by table and column.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache
from pathlib import Path

from putnam_solver.run.ledger_rows import EDITED, LedgerError

REFUSED = {"INTEGER": ("blob",), "REAL": ("blob",), "TEXT": ("blob", "integer", "real")}
"""The storage classes (``typeof``) no column of each declared type holds as putnam writes it. Text in a
number column is left to the readers, which refuse it with what the number is (``checked_number``...);
a number cannot reach a TEXT column of putnam's schema (SQLite stores it as text), only of one redeclared."""


@cache
def expected_columns(schema: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """Each table's columns and declared types, as a fresh ledger made from ``schema`` has them."""
    fresh = sqlite3.connect(":memory:")
    try:
        fresh.executescript(schema)
        tables = [row[0] for row in fresh.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: tuple((c[1], str(c[2]).upper()) for c in fresh.execute(f'PRAGMA table_info("{t}")')) for t in tables}
    finally:
        fresh.close()


def check_stored_types(db: sqlite3.Connection, path: Path, schema: str) -> None:
    """LedgerError naming the table and column where ``db`` lacks a column putnam defines or holds a value
    of another storage class than putnam writes there (see the module docstring)."""
    for table, columns in expected_columns(schema).items():
        present = {row[1] for row in db.execute(f'PRAGMA table_info("{table}")')}
        for name, declared in columns:
            if name not in present:
                raise LedgerError(f"{path}: table {table} has no column {name}; {EDITED}")
            refused = REFUSED.get(declared.split()[0] if declared else "", ())
            if not refused:
                continue
            marks = ", ".join("?" * len(refused))
            found = db.execute(
                f'SELECT typeof("{name}") FROM "{table}" WHERE typeof("{name}") IN ({marks}) LIMIT 1', refused
            ).fetchone()
            if found is not None:
                raise LedgerError(
                    f"{path}: {table}.{name} holds a {found[0]} value, where putnam writes {declared}; {EDITED}"
                )


SCHEMA_OBJECTS = ("table", "index")
"""What putnam creates in a ledger (its tables and the indexes of their keys); a trigger or a view it never
creates."""


def check_schema_objects(db: sqlite3.Connection, path: Path) -> None:
    """LedgerError naming the first trigger or view ``db`` holds, before any statement reads or writes a
    table: putnam creates neither. A trigger runs the editor's SQL inside putnam's own writes (red team round
    13: one that deletes each new ``audits`` row made an audit's rejection of a forged pass vanish as it was
    recorded); a view named like a table stands in for it (``CREATE TABLE IF NOT EXISTS`` keeps it), its
    rows computed, and with an ``INSTEAD OF`` trigger every write to it dropped. Stored values are checked
    row by row; code run on reading and writing cannot be, so it is refused whole."""
    marks = ", ".join("?" * len(SCHEMA_OBJECTS))
    found = db.execute(
        f"SELECT type, name FROM sqlite_master WHERE type NOT IN ({marks}) ORDER BY type, name LIMIT 1",
        SCHEMA_OBJECTS,
    ).fetchone()
    if found is not None:
        kind, name = found
        raise LedgerError(
            f"{path}: holds the {kind} {str(name)[:80]!r}, which putnam never creates (SQL that runs on reading "
            f"or writing the ledger); {EDITED}"
        )
    for kind, name, text in db.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL"):
        if words := sorted(CLAUSES & {w.upper() for w in re.findall(r"[A-Za-z_]+", str(text))}):
            raise LedgerError(
                f"{path}: the {kind} {str(name)[:80]!r} is declared with {', '.join(words)}, which putnam never "
                f"writes (a clause that changes what putnam's own writes do); {EDITED}"
            )


CLAUSES = frozenset({"CHECK", "CONFLICT", "COLLATE", "GENERATED", "WITHOUT"})
"""Words of SQLite's table and index grammar that putnam's schema never uses (a test reads every table and
index of a fresh and a migrated ledger for them): ``ON CONFLICT IGNORE`` or ``REPLACE`` drops or replaces a
row putnam inserts without an error (red team round 13: an ``audits`` table with ``UNIQUE (attempt_id) ON
CONFLICT IGNORE`` kept an earlier audit's acceptance as the newest when a later audit rejected the pass), a
``CHECK`` fails putnam's writes, ``COLLATE`` changes which ids a query or a key finds equal, a generated
column or ``WITHOUT ROWID`` changes what a row and its id are. In an edited ledger a name or a default value
spelled like one is refused too: nothing putnam wrote spells them."""
