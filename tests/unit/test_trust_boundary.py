"""The trusted core loads no agent, Inspect AI, asyncio or network code.

`putnam verify` and `putnam audit` must work without the run machinery, and the code that decides a
verdict must be small enough to audit: a fresh interpreter imports the core and both provers, builds
every gate, and then no forbidden module may be loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.helpers import REPO

CORE_IMPORTS = """
import json, sys
import putnam_solver.core.benchmark, putnam_solver.core.sandbox, putnam_solver.core.verify
import putnam_solver.verifier.candidates, putnam_solver.selftest.runner, putnam_solver.bundles.bundle, putnam_solver.doctor
from putnam_solver.core.provers import get_prover, prover_names
for name in prover_names():
    get_prover(name).gates()
print(json.dumps(sorted(sys.modules)))
"""
FORBIDDEN_ROOTS = ("inspect_ai", "inspect_swe", "asyncio", "ssl", "http", "httpx", "urllib3", "requests", "axle")
RUN_MACHINERY = ("putnam_solver.run", "putnam_solver.cli")


def test_the_core_and_both_provers_load_no_agent_async_or_network_module() -> None:
    done = subprocess.run([sys.executable, "-c", CORE_IMPORTS], cwd=REPO, capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout)
    forbidden = [m for m in loaded if m.split(".")[0] in FORBIDDEN_ROOTS or m.startswith(RUN_MACHINERY)]
    assert forbidden == []
