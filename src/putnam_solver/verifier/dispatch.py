"""Where gate work runs: here (the default) or on another backend such as a Ray cluster.

Every caller that verifies a candidate (``putnam verify``, the agent's ``check``, ``goals`` and ``submit``,
``putnam audit``) hands the work to a ``Verifier`` instead of calling the pipeline itself, so that one
object decides where it runs. ``LOCAL`` runs it in the calling thread (callers keep their own thread
pools); ``putnam_solver.cluster.ray.RayVerifier`` runs it as a task on a cluster node and returns the node's
verdict only after checking it is a verdict on exactly the inputs sent. A verifier is called from many
threads at once.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Protocol

from putnam_solver.core.code_identity import plugin_code
from putnam_solver.core.verify import Track, Verdict, VerifyOptions, run_gates
from putnam_solver.kits.interactive import ProofState
from putnam_solver.kits.sessions import CheckOutcome, SessionPool, check_file, proof_state
from putnam_solver.verifier.prepare import prepare_problem

if TYPE_CHECKING:
    from putnam_solver.core.benchmark import Benchmark, Problem
    from putnam_solver.core.provers import Prover


class Verifier(Protocol):
    """Runs the gate pipeline somewhere; thread-safe. The arguments are ``run_gates``'s and
    ``check_file``'s, so a backend can be swapped in wherever those were called."""

    name: str
    """``local`` or the backend's name, for messages and the verdict's ``ran_on``."""

    def slots(self) -> int:
        """How many verifications it runs at once (callers size their thread pools and limits by it)."""
        ...

    def verify(
        self,
        prover: Prover,
        benchmark: Benchmark,
        problem: Problem,
        candidate_bytes: bytes,
        track: Track,
        options: VerifyOptions,
        label: str = "<candidate>",
    ) -> Verdict:
        """``run_gates`` on the backend: the verdict of ``options.profile`` on these bytes."""
        ...

    def check(
        self,
        prover: Prover,
        benchmark: Benchmark,
        problem: Problem,
        candidate: str,
        track: Track,
        options: VerifyOptions,
        pool: SessionPool | None,
        label: str = "<candidate>",
        warm: bool = True,
    ) -> CheckOutcome:
        """``check_file`` on the backend (a remote one checks cold: warm sessions live here)."""
        ...

    def goals(
        self,
        prover: Prover,
        benchmark: Benchmark,
        problem: Problem,
        candidate: str,
        line: int,
        track: Track,
        options: VerifyOptions,
        pool: SessionPool,
    ) -> ProofState | str:
        """``proof_state`` on the backend (a remote one opens a session for this call only)."""
        ...

    def prepare(
        self, prover: Prover, benchmark: Benchmark, problem: Problem, track: Track, options: VerifyOptions
    ) -> dict[str, str | None]:
        """``prepare_problem`` where this backend's verifications of the problem will find what it makes."""
        ...


class LocalVerifier:
    """The pipeline in the calling thread, exactly as before there were backends."""

    name = "local"

    def slots(self) -> int:
        """One per core: compiles are CPU-bound."""
        return os.cpu_count() or 1

    verify = staticmethod(run_gates)
    check = staticmethod(check_file)
    goals = staticmethod(proof_state)
    prepare = staticmethod(prepare_problem)


LOCAL: Verifier = LocalVerifier()
"""The default verifier: gate work runs on this machine."""


def on_nodes(verifier: Verifier) -> bool:
    """Whether ``verifier`` runs gates on other machines (a cluster's nodes), whose verdicts its caller
    chose to believe for the gates only a node runs: only such a caller may reuse a cached verdict a node
    made (``VerdictCache.get``); one that verifies here trusts no node."""
    return verifier.name != LOCAL.name


def node_code(verifier: Verifier) -> str:
    """What a cached verdict a node made must name to answer a caller of ``verifier`` (``VerdictCache``'s
    ``nodes``): the code that took the node's word, by its bytes (``code_identity.plugin_code``: for
    ``--ray``, the ``cluster`` package, whose ``request`` checks a node's verdict and merges it with the
    head's own); empty for a verifier that runs gates here, which trusts no node."""
    return plugin_code(verifier) if on_nodes(verifier) else ""


AVOIDED_NODES: ContextVar[frozenset[str]] = ContextVar("putnam_avoided_nodes", default=frozenset())
"""Nodes the verifications of the current context should not run on (see ``elsewhere``)."""


@contextlib.contextmanager
def elsewhere(nodes: Iterable[str]) -> Iterator[None]:
    """Verifications in this block go to other nodes than ``nodes`` wherever the backend has one (an
    audit re-runs a pass away from the node that produced it); a backend without nodes ignores it."""
    token = AVOIDED_NODES.set(frozenset(n for n in nodes if n))
    try:
        yield
    finally:
        AVOIDED_NODES.reset(token)
