"""G4 compile: the candidate compiles with ``coqc`` in the sandbox, within the caps, and leaves a ``.vo``.

The verdict is the gate kit's reading of the run (``gatekit.judge_run``): a clean exit 0 with a kept
``.vo`` passes; a non-zero exit with an error coqc reported fails; a timeout, a cap or a signal is an
``error`` (not a fact about the candidate). coqc's messages are diagnostics only (see ``build``).
G5 (``statement``) and G6 (``coqchk``) build on the ``.vo`` of this run (``products.CANDIDATE_VO``).
"""

from __future__ import annotations

from putnam_solver.core.gatekit import guarded
from putnam_solver.core.provers.rocq.products import CANDIDATE_VO
from putnam_solver.core.verify import GateResult, GateStatus, Submission

G4 = ("G4", "compile")


def compile_gate(sub: Submission) -> GateResult:
    """G4: the candidate compiles with coqc (exit code 0 and a ``.vo``) within the caps."""

    def body() -> GateResult:
        built = sub.artifacts.get(CANDIDATE_VO, sub)
        judged = built.judgement(sub)
        if judged is not None:
            return GateResult(*G4, judged[0], f"coqc: {judged[1]}", built.evidence())
        return GateResult(*G4, GateStatus.PASSED, "coqc exit code 0", built.evidence())

    return guarded(*G4, body)
