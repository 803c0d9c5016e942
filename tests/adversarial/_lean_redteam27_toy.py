"""The toy no-answer problem red team 27 verifies on the real Lean 4.35 kernel (``tests/toylean``)."""

from __future__ import annotations

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates

NAME = "toy_nat_solution"
THEOREM = "theorem toy_nat : Eq toy_nat_solution toy_nat_solution :="
STATEMENT = f"abbrev {NAME} : Nat := sorry\n-- 1\n{THEOREM} sorry\n"
PROBLEM = "toy_nat"


def verify_full(bench: Benchmark, text: str) -> Verdict:
    """Every gate of the full profile on ``text`` (no-answer), each run even after a failure."""
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    return run_gates(LeanProver(), bench, bench.problems[PROBLEM], text.encode(), Track.NO_ANSWER, options)


def gate_outcome(verdict: Verdict, gate_id: str) -> tuple[str, str]:
    """The status and detail of gate ``gate_id`` in ``verdict``."""
    (found,) = [g for g in verdict.gates if g.id == gate_id]
    return found.status.value, found.detail
