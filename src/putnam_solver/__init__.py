"""putnambench-solver: run LLM agents on formal benchmarks and count only proofs the gates verify.

The trusted core (``putnam_solver.core``: benchmark, sandbox, provers, verify) imports nothing from the
run machinery (``putnam_solver.run``: campaigns, ledger, agent, reports), so verification and audits
work without Inspect AI installed.

Started as ``python -m putnam_solver`` (``sys.argv[0]`` is ``-m`` while Python locates the module), Python has
put the working directory first on the path, which the ``putnam`` console script does not: a ``json.py`` or
``typer.py`` in a folder of someone else's proofs, or in a run directory the user ``cd``'d into, was imported
by the harness that judges them (trust paths red team 19). So that entry goes before this package imports
anything; the module's own files are found through the package, and a ``PYTHONPATH`` the user set stays.
"""

import os
import sys

if sys.argv[:1] == ["-m"] and not sys.flags.safe_path and sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

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
