"""putnambench-solver: run LLM agents on formal benchmarks and count only proofs the gates verify.

The trusted core (``putnam_solver.core``: benchmark, sandbox, provers, verify) imports nothing from the
run machinery (``putnam_solver.run``: campaigns, ledger, agent, reports), so verification and audits
work without Inspect AI installed.
"""

from putnam_solver.core.benchmark import Benchmark, BenchmarkError, Problem, load_benchmark
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Gate, GateResult, GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates

__version__ = "0.1.0"

__all__ = [
    "Benchmark",
    "BenchmarkError",
    "Gate",
    "GateResult",
    "GateStatus",
    "InputError",
    "Problem",
    "Profile",
    "Prover",
    "Track",
    "Verdict",
    "VerifyOptions",
    "__version__",
    "get_prover",
    "load_benchmark",
    "run_gates",
]
