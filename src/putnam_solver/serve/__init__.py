"""``putnam serve``: the verification gates as an HTTP service (FastAPI on uvicorn), for programs that
need verdicts at volume. Same pipeline, pinned benchmarks and verdict cache as ``putnam verify``; API
keys from a file, per-key limits, request ids in every log line; verifications run through a
:class:`Verifier` (a thread pool handing each job to this machine's gates, or to a Ray cluster's with
``--ray``).

Needs the ``serve`` extra (``pip install 'putnambench-solver[serve]'``); nothing else imports it.
"""

from putnam_solver.api_keys import ApiKey, KeyRing, load_keys
from putnam_solver.selftest.readiness import Readiness
from putnam_solver.serve.app import create_app
from putnam_solver.serve.server import load_config, run_server
from putnam_solver.serve.service import Item, Limits, RequestError, ServeConfig, VerifyService
from putnam_solver.serve.verifier import PoolVerifier, Verifier, VerifyJob

__all__ = [
    "ApiKey",
    "Item",
    "KeyRing",
    "Limits",
    "PoolVerifier",
    "Readiness",
    "RequestError",
    "ServeConfig",
    "Verifier",
    "VerifyJob",
    "VerifyService",
    "create_app",
    "load_config",
    "load_keys",
    "run_server",
]
