"""What a ledger's attempts must be of its own run: checked by every reader that counts them.

``putnam solve`` records an attempt only for a problem the run selected, in a campaign that selected it,
as one of that campaign's ``--samples`` samples of the problem, and never two outcomes for one sample
(``UNIQUE (campaign, problem, sample)``). A ledger handed over may break any of these with plain
``sqlite3`` (a table rebuilt without its constraint, rows copied), and each break changed a count that
does not depend on the candidate's bytes, so no re-verification catches it: a third sample copying the
one pass of a run of ``--samples 2`` raised the audited pass@1 from 0.5 to 0.667; a pass added for a
problem the run never selected made ``putnam audit`` say "audited 2 passes: 2 accepted" of a run of one
problem and entered pass@k, and ``putnam export`` wrote its proof into the bundle as the run's. So such a
ledger is refused whole (``LedgerError``), as every other edit the rows show is.
"""

from __future__ import annotations

from collections.abc import Iterable

from putnam_solver.run.ledger import Ledger
from putnam_solver.run.ledger_rows import EDITED, AttemptRow, LedgerError
from putnam_solver.run.stored_settings import StoredSettings


def check_attempts(ledger: Ledger, settings: StoredSettings) -> None:
    """Raise LedgerError when an attempt (or interruption) of ``ledger`` is not one the run could record."""
    selections = {c.number: set(c.problems) for c in ledger.campaigns()}
    selected, samples = set(settings.selected), settings.config.samples
    for row in ledger.interruptions():
        _check_row(ledger, row, "interruption", selected, selections, samples)
    _check_rows(ledger, ledger.attempts(), selected, selections, samples)


def _check_rows(
    ledger: Ledger,
    rows: Iterable[AttemptRow],
    selected: set[str],
    selections: dict[int, set[str]],
    samples: int,
) -> None:
    seen: set[tuple[int, str, int]] = set()
    for row in rows:
        _check_row(ledger, row, "attempt", selected, selections, samples)
        slot = (row.campaign, row.problem, row.sample)
        if slot in seen:
            raise LedgerError(
                f"{ledger.path}: two outcomes of sample {row.sample} of {row.problem} in campaign {row.campaign} "
                f"(a run records one); {EDITED}"
            )
        seen.add(slot)


def _check_row(
    ledger: Ledger, row: AttemptRow, kind: str, selected: set[str], selections: dict[int, set[str]], samples: int
) -> None:
    at = f"{ledger.path}: {kind} {row.id} ({row.problem}, campaign {row.campaign}, sample {row.sample})"
    if row.problem not in selected:
        raise LedgerError(f"{at}: the run did not select {row.problem}; {EDITED}")
    if row.problem not in selections.get(row.campaign, set()):
        raise LedgerError(f"{at}: campaign {row.campaign} did not select {row.problem}; {EDITED}")
    if row.sample > samples:
        raise LedgerError(f"{at}: the run drew {samples} sample(s) per problem (--samples); {EDITED}")
