"""G4 compile: the candidate compiles with ``coqc`` in the sandbox, within the caps, and leaves a ``.vo``.

The verdict is the gate kit's reading of the run (``gatekit.judge_run``): a clean exit 0 with a kept
``.vo`` passes; a non-zero exit with an error coqc reported fails; a timeout, a cap or a signal is an
``error`` (not a fact about the candidate). coqc's messages are diagnostics only (see ``build``).
On the no-answer track it also compiles the answer in the challenge's environment alone (``answer_env``).
G5 (``statement``) and G6 (``coqchk``) build on the ``.vo`` of this run (``products.CANDIDATE_VO``).
"""

from __future__ import annotations

from putnam_solver.core.gatekit import guarded
from putnam_solver.core.provers.rocq.answer_env import ANSWER_ENV, answer_env_source
from putnam_solver.core.provers.rocq.build import build
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.products import CANDIDATE_VO
from putnam_solver.core.verify import GateResult, GateStatus, Submission, Track

G4 = ("G4", "compile")


def compile_gate(sub: Submission) -> GateResult:
    """G4: the candidate compiles with coqc (exit code 0 and a ``.vo``) within the caps."""

    def body() -> GateResult:
        built = sub.artifacts.get(CANDIDATE_VO, sub)
        judged = built.judgement(sub)
        if judged is not None:
            return GateResult(*G4, judged[0], f"coqc: {judged[1]}", built.evidence())
        if sub.track is Track.NO_ANSWER:
            refused = _answer_outside_environment(sub)
            if refused is not None:
                return refused
        return GateResult(*G4, GateStatus.PASSED, "coqc exit code 0", built.evidence())

    return guarded(*G4, body)


def _answer_outside_environment(sub: Submission) -> GateResult | None:
    """No-answer: the answer must elaborate without the candidate's own declarations (``answer_env``)."""
    source = answer_env_source(statement_of(sub.problem), sub.candidate)
    if source is None:
        return None
    built = build(sub, ANSWER_ENV, source)
    judged = built.judgement(sub)
    if judged is None:
        return None
    status, why = judged
    detail = (
        "the answer does not elaborate in the challenge's environment without the candidate's own "
        "declarations: it uses something the candidate defines (a helper, or a constant Coq generated for "
        f"one, such as abstract's `_subproof`); write the answer out: {why}"
        if status is GateStatus.FAILED
        else f"checking the answer in the challenge's environment: {why}"
    )
    return GateResult(*G4, status, detail, {"answer_environment": built.evidence()})
