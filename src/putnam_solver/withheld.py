"""What a no-answer verdict may show outside the harness: one redaction, used by every interface.

On the no-answer track the model must find the answer itself, so nothing it can read may hold the
official answer, the informal solution or the answer comment. The verdict as the harness records it
(cache, ledger, run directory, server log) keeps them: ``answers.*.official``, the answer check that
compares the two answers (its status tells whether the candidate's answer is the official one, its reason
may quote a compiler message about the official term), and gate evidence, which holds tool output about
the harness's own reference module (whose definition is the official answer, see
``provers/rocq/build.py``). Every response that leaves the harness on that track goes through
:func:`no_answer_view`: ``putnam serve``, ``putnam mcp``, ``putnam verify`` (text and ``--json``, unless
its operator asks for the answers), and the diagnostics a campaign carries to the next one's worker.

The redaction is by structure, never by searching for the answer's text: replacing the official text
where it appears would tell a model that wrote that text that it is the official one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NO_ANSWER = "no-answer"
WITHHELD_HASH = "withheld on the no-answer track: the pinned record it hashes holds the answer to find"
"""A hash of the pinned record is no secret from the harness but is one from a model: it confirms a
guessed answer (rebuild the record with the guess, hash it, compare), and many answers are a number or
yes/no. The challenge's hash stays: on no-answer the challenge is exactly what the model is shown."""
WITHHELD_EVIDENCE = {"withheld": "on the no-answer track a gate's evidence stays in the harness's records"}
DISPUTE_WITHHELD = "not accepted"
ERRATUM_KEPT = ("problem", "provers", "kind", "defective")
"""An erratum's free text can describe the official answer (``the solution set has only ...``)."""


def no_answer_view(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """``verdict`` (``Verdict.to_json()``) as anyone outside the harness may see it.

    With-answer verdicts are returned whole (their statement holds the answer already). On no-answer:
    each answer keeps only the candidate's own, each gate its id, name, status and detail (the provers
    write details that never quote the reference), each erratum its kind, not its text, and the
    statement's hash is withheld (``WITHHELD_HASH``)."""
    shown = dict(verdict)
    if shown.get("track") != NO_ANSWER:
        return shown
    answers = dict(verdict.get("answers") or {})
    shown["answers"] = {name: {"candidate": answer.get("candidate")} for name, answer in answers.items()}
    shown["gates"] = [{**gate, "evidence": dict(WITHHELD_EVIDENCE)} for gate in verdict.get("gates", [])]
    if "statement_sha256" in shown:
        shown["statement_sha256"] = WITHHELD_HASH
    record = dict(verdict.get("benchmark") or {})
    if "errata" in record:
        record["errata"] = [{k: e[k] for k in ERRATUM_KEPT if k in e} for e in record["errata"]]
    shown["benchmark"] = record
    return shown


def model_view(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """``no_answer_view`` for a reader that is a model (``putnam mcp``, the diagnostics carried to the
    next worker): a ``disputed`` verdict is ``not accepted`` there, without its dispute, since that says
    the model's answer is provably not the official one. Operators (``verify``, ``serve``'s callers, the
    run's records) see the dispute: it names no answer."""
    shown = no_answer_view(verdict)
    if shown.get("track") == NO_ANSWER and shown.get("status") == "disputed":
        shown = {k: v for k, v in shown.items() if k != "dispute"} | {"status": DISPUTE_WITHHELD}
    return shown


__all__ = ["model_view", "no_answer_view"]
