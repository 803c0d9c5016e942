"""putnambench-solver: run LLM agents on formal benchmarks and count only proofs the gates verify.

The trusted core (``benchmark``, ``sandbox``, ``provers``, ``verify``) imports nothing from the agent
layer, so verification and audits work without Inspect AI installed.
"""

from putnam_solver.benchmark import Benchmark, BenchmarkError, Problem, load_benchmark
from putnam_solver.provers import Prover, get_prover
from putnam_solver.verify import (
    Gate,
    GateResult,
    GateStatus,
    InputError,
    Profile,
    Track,
    Verdict,
    VerifyOptions,
    run_gates,
)

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
