"""The options only Lean's gates read."""

from __future__ import annotations

from dataclasses import dataclass

from putnam_solver.core.submission import ProverOptions, bounds, decides


@dataclass(frozen=True)
class LeanOptions(ProverOptions):
    """Lean's gate options (``VerifyOptions.of(LeanOptions)``)."""

    statement_by_elaboration: bool = decides(False)
    """Opt-in: a theorem differing from the pinned one as text is left to G6 (README; G2 evidence)."""
    kernels: tuple[str, ...] = decides(("lean",))
    """Kernels G6 requires to accept: ``lean`` always, ``nanoda`` adds comparator's external kernel."""
    unsafe_comparator: bool = decides(False)
    """Run G6 even where comparator's README conditions (unprivileged, no AF_UNIX) cannot be met."""
    comparator_timeout_seconds: float = bounds(3600.0, why="G6 past its time limit is an error, never cached")
    """G6's own time limit: comparator builds, exports and replays a Mathlib project in one run."""
    comparator_memory_mb: int | None = bounds(None, why="G6 out of memory is an error, never cached")
    """G6's address-space cap per process; None scales it with the cores (see comparator.py)."""
