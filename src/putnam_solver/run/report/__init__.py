"""What a run shows its user: the output files derived from the ledger, and live progress views."""

from putnam_solver.run.report.progress import (
    AttemptEvent,
    LogLineProgress,
    ProgressSink,
    RichProgress,
    Totals,
)
from putnam_solver.run.report.summary import write_outputs

__all__ = ["AttemptEvent", "LogLineProgress", "ProgressSink", "RichProgress", "Totals", "write_outputs"]
