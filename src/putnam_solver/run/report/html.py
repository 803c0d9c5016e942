"""``putnam report``: one static HTML file that shows what a run did, derived from its ledger alone.

The page holds the headline (solved, audited, unresolved, dollars, tokens, dollars per solved problem,
wall time), solved problems over time and over cumulative cost, the cost per problem, a year x problem
grid of the benchmark linking each problem to its evidence, the vetoed and disputed attempts, which gate
stopped how many attempts, the provider's rate limiting over time and a sortable table of every attempt
(``run_page``). ``--compare`` puts two runs side by side (``compare``). A problem whose statement the
benchmark's errata call defective is counted apart wherever "solved" is counted.

Charts are drawn by plotly. Its JavaScript bundle (from the pinned wheel, about 5 MB) is written once per
folder beside the pages, under a name that carries its version, and each page loads it by a relative
address: a page stays small, and the folder opens offline. ``inline_plotly`` puts the bundle in the page
instead, for a single file to send around. The page loads nothing remote, and links only to evidence
files of the run, relative to the page. Every number comes from the ledger
(``putnam_solver.run.report.data``); none from the evidence files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from putnam_solver.core.util import InputError
from putnam_solver.run.ledger import LEDGER_NAME, LedgerError
from putnam_solver.run.report.compare import benchmark_mismatch, judging_mismatch, render_comparison
from putnam_solver.run.report.data import NoRunRecorded, ReportError, load_run
from putnam_solver.run.report.run_page import render_report
from putnam_solver.run.report.summary import REPORT_FILE, refresh_evidence
from putnam_solver.safe_write import UnsafePath, holds, planted_link_refusal, write_under

REPORT_NAME = REPORT_FILE


def write_report(run_dir: Path, output: Path | None = None, inline_plotly: bool = False) -> Path:
    """Write the report of ``run_dir`` to ``output`` (default ``RUN_DIR/report.html``); returns its path."""
    run = load_run(run_dir)
    _refreshed(run_dir)
    target = output or run_dir / REPORT_NAME
    folder = target.resolve().parent
    _write(target, render_report(run, folder, _plotly_beside(target, inline_plotly)))
    return target


def write_comparison(
    run_a: Path,
    run_b: Path,
    output: Path | None = None,
    inline_plotly: bool = False,
    warn: Callable[[str], None] = lambda _: None,
) -> Path:
    """Write the side-by-side report of two runs (default ``RUN_A/compare-<RUN_B's name>.html``); ``warn``
    hears it when the runs are on different benchmarks or were judged differently (the page says so too)."""
    a, b = load_run(run_a), load_run(run_b)
    _refreshed(run_a)
    _refreshed(run_b)
    for mismatch in (benchmark_mismatch(a, b), judging_mismatch(a, b)):
        if mismatch:
            warn(mismatch)
    target = output or run_a / f"compare-{run_b.resolve().name}.html"
    folder = target.resolve().parent
    _write(target, render_comparison(a, b, folder, _plotly_beside(target, inline_plotly)))
    return target


def _refreshed(run_dir: Path) -> None:
    """The run's evidence folders as its ledger says (the page links them), or ReportError naming why not."""
    try:
        refresh_evidence(run_dir)
    except (LedgerError, InputError) as exc:  # the ledger refused: a writable copy would not help (red team 11)
        raise ReportError(str(exc)) from exc
    except UnsafePath as exc:  # a link planted in a folder: a copy (`cp -r`) would hold it too
        raise ReportError(planted_link_refusal(exc)) from exc
    except OSError as exc:
        raise ReportError(
            f"{run_dir}: cannot write the run's evidence folders, which the page links ({exc}); the report derives "
            "them from the ledger first. Report on a writable copy of the run directory (`cp -r`)"
        ) from exc


def build(
    run_dirs: Sequence[Path],
    compare: bool,
    output: Path | None,
    inline_plotly: bool = False,
    warn: Callable[[str], None] = lambda _: None,
) -> Path:
    """What ``putnam report`` does: one run's report, or with ``compare`` two runs side by side."""
    if compare and len(run_dirs) != 2:
        raise ReportError(f"--compare takes two run directories (RUN_A RUN_B), got {len(run_dirs)}")
    if not compare and len(run_dirs) != 1:
        raise ReportError(f"give one run directory (or --compare RUN_A RUN_B), got {len(run_dirs)}")
    if compare:
        return write_comparison(run_dirs[0], run_dirs[1], output, inline_plotly, warn)
    return write_report(run_dirs[0], output, inline_plotly)


def report_after_run(run_dir: Path) -> str:
    """Write ``RUN_DIR/report.html`` at the end of ``putnam solve``; returns the line that says where it is,
    or why it is not there ("" when the run left no ledger, or recorded no run in it)."""
    if not (run_dir / LEDGER_NAME).is_file():
        return ""
    try:
        path = write_report(run_dir)
    except NoRunRecorded:  # refused before it started (its message said why): no run, no report
        return ""
    except Exception as exc:  # the run is over and its ledger safe: a report failure must not hide its result
        return f"warning: no report.html ({type(exc).__name__}: {exc}); `putnam report {run_dir}` tries again"
    return f"report: {path} (`putnam report {run_dir}` rebuilds it at any time)"


def plotly_file_name() -> str:
    """The name of plotly's bundle beside the pages: its version in it, so that a page written by an
    older plotly keeps the bundle it was drawn for."""
    from plotly.offline import get_plotlyjs_version

    return f"plotly-{get_plotlyjs_version()}.min.js"


def _plotly_beside(target: Path, inline: bool) -> str | None:
    """Write plotly's bundle beside ``target`` unless it is there with the right bytes (once per folder);
    returns its name, or None when the page inlines it."""
    if inline:
        return None
    from plotly.offline import get_plotlyjs

    name = plotly_file_name()
    bundle = get_plotlyjs().encode("utf-8")
    path = target.parent / name
    if not holds(path, bundle):
        _write_bytes(target.parent / name, bundle)
    return name


def _write(target: Path, page: str) -> None:
    _write_bytes(target, page.encode("utf-8"))


def _write_bytes(target: Path, data: bytes) -> None:
    try:
        write_under(target.parent, target.name, data, durable=True)
    except OSError as exc:
        raise ReportError(f"{target}: cannot write the report: {exc.strerror or exc}") from exc
