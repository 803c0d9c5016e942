"""What ``putnam serve`` answers for a verdict: compact by default, the whole verdict on request.

A full verdict is about 17 KB (every gate's evidence: argv, tool hashes, axiom lists, output tails); an RL
loop scoring thousands of proofs needs a few hundred bytes: the status, the gate that did not pass and its
first lines, and the hashes that identify what was judged. ``/verify`` and ``/verify/batch`` answer
:func:`compact` unless the request asks ``?full=1``; the Kimina endpoint always answers compact. Both views
start from what anyone outside the harness may see (``no_answer_view``) and leave through the server's
:class:`~putnam_solver.redact.PathRedactor`, so no answer names a path of the serving machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from putnam_solver.redact import PathRedactor
from putnam_solver.withheld import no_answer_view

MAX_ERROR_LINES = 5


def compact(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """A verdict (as a client may see it) in a few hundred bytes: status, the first gate that did not
    pass, the first lines of its detail, and the hashes that identify what was judged."""
    failing = next((g for g in verdict.get("gates", []) if g.get("status") != "passed"), None)
    return {
        "problem": verdict["problem"],
        "prover": verdict.get("prover"),
        "status": verdict["status"],
        "failing_gate": None if failing is None else f"{failing['id']} {failing['name']}",
        "errors": [] if failing is None else str(failing.get("detail", "")).splitlines()[:MAX_ERROR_LINES],
        "profile": verdict.get("profile"),
        "track": verdict.get("track"),
        "candidate_sha256": verdict["candidate_sha256"],
        "statement_sha256": verdict["statement_sha256"],
        "benchmark_pinned": verdict.get("benchmark_pinned", True),
        "cached": verdict.get("cached", False),
    }


def shown(verdict: Mapping[str, Any], redact: PathRedactor, full: bool) -> dict[str, Any]:
    """``verdict`` (``Verdict.to_json()``) as a client receives it: compact or ``full``, never with the
    official answer on no-answer nor a path of this machine."""
    public = no_answer_view(verdict)
    answer: dict[str, Any] = redact.value(public if full else compact(public))
    return answer


__all__ = ["MAX_ERROR_LINES", "compact", "shown"]
