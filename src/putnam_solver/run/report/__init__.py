"""What a run shows its user: the output files derived from the ledger, live progress views and the HTML
report (``putnam report``)."""

from putnam_solver.run.report.data import ReportError, RunData, headline, load_run
from putnam_solver.run.report.html import REPORT_NAME, build, report_after_run, write_comparison, write_report
from putnam_solver.run.report.progress import (
    AttemptEvent,
    LogLineProgress,
    ProgressSink,
    RichProgress,
    Totals,
)
from putnam_solver.run.report.summary import write_outputs

__all__ = [
    "REPORT_NAME",
    "AttemptEvent",
    "LogLineProgress",
    "ProgressSink",
    "ReportError",
    "RichProgress",
    "RunData",
    "Totals",
    "build",
    "headline",
    "load_run",
    "report_after_run",
    "write_comparison",
    "write_outputs",
    "write_report",
]
