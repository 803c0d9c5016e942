"""What a run shows its user: the output files derived from the ledger, and live progress views."""

from putnam_solver.report.progress import (
    AttemptEvent,
    LogLineProgress,
    ProgressSink,
    RichProgress,
    Totals,
)
from putnam_solver.report.summary import write_outputs

__all__ = ["AttemptEvent", "LogLineProgress", "ProgressSink", "RichProgress", "Totals", "write_outputs"]
