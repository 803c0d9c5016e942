"""What a resume checks of its run directory before anything slow or costly: the ledger's rows, the
benchmark file and the run's identity.

A resume ran the gates' check, the model check (which imports Inspect AI and creates each model: a local
provider loads its weights then) and the selftest, and only then, holding the run's lock, read its benchmark
file and its rows: a benchmark file changed since the run started, or a ledger refused as edited, was said
after seconds to minutes of work that could not change the answer (red team round 12 of the trust paths).
These conditions depend only on files already on disk, so they are checked first, with the same checks and
words the run itself uses (``check_resume``, the report's reading of every row); the run checks them again
under its lock, since the files may change in between.
"""

from __future__ import annotations

from putnam_solver.core.provers import get_prover
from putnam_solver.run.campaign import RunSettings
from putnam_solver.run.campaign._settings import check_resume, ledger_settings
from putnam_solver.run.report.data import load_run

UNJUDGED_TOOLCHAIN = ""
"""The toolchain fingerprint of the settings compared here: not part of a run's identity (a resume on an
upgraded toolchain records the new one), and computing it runs the tools."""


def check_before_start(run: RunSettings) -> None:
    """InputError, LedgerError or BenchmarkError when resuming ``run`` would be refused for what its
    directory or its benchmark file holds: a row that is not one ``putnam solve`` writes, a benchmark file
    that changed since the run started, a selection that no longer resolves to the run's problems."""
    stored = load_run(run.run_dir).settings
    benchmark, selected = run.selection.load()
    prover = get_prover(run.config.prover)
    settings = ledger_settings(run, benchmark, selected, prover.suffix, UNJUDGED_TOOLCHAIN)
    check_resume(run.run_dir, stored, settings, resume=True, allow=False)
