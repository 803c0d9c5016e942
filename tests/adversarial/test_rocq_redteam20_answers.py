"""Round 20 (Rocq, no-answer): padding over MathComp's numbers, and MathComp function answers.

1. **A copy padded with a true fact over MathComp's reals (G4).** Round 19 reads each atom of the answer
   that a small tactic proves (refutes) as ``True`` (``False``), but the tactic's arithmetic (``lra``,
   ``nra``) is for Coq's reals, and algebra-tactics is not installed: ``putnam_1977_a2`` (``R : realType``)
   answered ``fun a b c d => 0 <= a * a /\\ <the question's condition>`` (or ``a * b = b * a /\\ ..``, or
   ``a * a < 0 \\/ ..``) passed G4 with real proofs. Worse, the tactic's ``auto`` succeeded without solving,
   so nothing after it in ``first`` was ever tried. ``restated.MATHCOMP_FACTS`` now proves, with
   MathComp's own lemmas, that sums and products of squares, norms and ``1`` are ``>= 0``, refutes such a
   term ``< 0`` and ``e < e``, and knows the ring's basic identities (``auto`` must solve or step aside).
   An honest answer beside such a fact still passes.
2. **``putnam_1962_a2``'s restatement step near its limit.** The step's ``Timeout`` (20 s) is wall time, and
   the step spent 5.7-6.7 s of processor time on the official answer (Coq 8.16.1), nearly all of it in one
   failing pass of the one-point ``setoid_rewrite``s over the theorem with its measure ``mu`` unfolded; on a
   host with a load of 9 on 2 cores the wall time passed 20 s. Out of time is an ``error`` (never a refusal,
   never cached); the statement's definitions are now unfolded after those rewrites: 3.2-4.0 s.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.cache import reusable
from putnam_solver.core.provers.rocq import answer_env, loaded_facts, restated
from putnam_solver.core.verify import GateStatus
from tests.adversarial.test_rocq_redteam14 import vacuous, verdict
from tests.adversarial.test_rocq_redteam19_answers import COPY_1977, SPIN
from tests.adversarial.test_rocq_restated import RESTATES, answered, g4, official
from tests.helpers import needs_coq, thinned

OFFICIAL_1977 = "((c = -a /\\ d = b) \\/ (c = -b /\\ d = a))"
BESIDE = (
    "Proof. intros a b c d ha hb hc hd; unfold putnam_1977_a2_solution; split; "
    "[ intros H; split; [ {fact} | exact H ] | intros [_ H]; exact H ]. Qed."
)
OR_ELSE = (
    "Proof. intros a b c d ha hb hc hd; unfold putnam_1977_a2_solution; split; "
    "[ intros H; right; exact H | intros [H | H]; [ exfalso; {refute} | exact H ] ]. Qed."
)
SQUARE = "rewrite -GRing.expr2; exact: Num.Theory.sqr_ge0"
PADDED = {
    "a square is nonnegative": (f"0 <= a * a /\\ {COPY_1977}", BESIDE.format(fact=SQUARE)),
    "a sum of a square, a norm and 1": (
        f"0 <= a ^+ 2 * `|b| + 1 /\\ {COPY_1977}",
        BESIDE.format(
            fact="apply: Num.Theory.addr_ge0; [ apply: Num.Theory.mulr_ge0; [ exact: Num.Theory.sqr_ge0 "
            "| exact: Num.Theory.normr_ge0 ] | exact: Num.Theory.ler01 ]"
        ),
    ),
    "commutativity": (f"a * b = b * a /\\ {COPY_1977}", BESIDE.format(fact="exact: GRing.mulrC")),
    "a negative square refuted": (
        f"a * a < 0 \\/ {COPY_1977}",
        OR_ELSE.format(refute="by rewrite Order.TotalTheory.ltNge -GRing.expr2 Num.Theory.sqr_ge0 in H"),
    ),
    "a strict reflexive order refuted": (
        f"a < a \\/ {COPY_1977}",
        OR_ELSE.format(refute="by rewrite Order.POrderTheory.ltxx in H"),
    ),
}
"""Each passed G4 before (its proof is real, so only the restatement check can refuse it)."""


@needs_coq
@pytest.mark.parametrize(("body", "proof"), thinned(PADDED, every=2))
def test_a_copy_beside_a_decided_fact_over_mathcomp_reals_is_refused(body: str, proof: str) -> None:
    result = g4("putnam_1977_a2", answered("putnam_1977_a2", f"fun a b c d => {body}", proof))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


HONEST = {
    "beside a square": f"fun a b c d => 0 <= a * a /\\ {OFFICIAL_1977}",
    "beside commutativity": f"fun a b c d => {OFFICIAL_1977} /\\ a * b = b * a",
    "behind a refuted disjunct": f"fun a b c d => a * a < 0 \\/ {OFFICIAL_1977}",
    "beside a fact the tactic cannot decide": f"fun a b c d => (0 <= a \\/ a < 0) /\\ {OFFICIAL_1977}",
}


@needs_coq
@pytest.mark.parametrize("answer", thinned(HONEST, every=2))
def test_the_official_answer_beside_a_fact_over_mathcomp_reals_passes(answer: str) -> None:
    result = g4("putnam_1977_a2", answered("putnam_1977_a2", answer))
    assert result.status is GateStatus.PASSED, result.detail


@needs_coq
def test_the_mathcomp_facts_out_of_time_are_an_error_not_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The MathComp part runs under the same step ``Timeout``: out of time is an ``error``."""
    spun = loaded_facts.FACT.replace("first [ nonneg () ", f"first [ {SPIN} ")
    assert spun != loaded_facts.FACT
    monkeypatch.setattr(loaded_facts, "FACT", spun)
    monkeypatch.setattr(restated, "FACTS_SECONDS", 2)
    body, proof = PADDED["a square is nonnegative"]
    result = g4("putnam_1977_a2", answered("putnam_1977_a2", f"fun a b c d => {body}", proof))
    assert result.status is GateStatus.ERROR and "stating the pinned theorem" in result.detail, result.detail


def test_the_mathcomp_facts_are_found_by_what_the_file_loads() -> None:
    """Round 44: one definition for every statement, its lemmas looked up when it runs (``loaded_facts``)."""
    sentences = loaded_facts.fact_sentences(restated.MATHCOMP_FACT)
    assert not any(s.startswith("Require") for s in sentences) and "Env.get" in "".join(sentences)
    assert restated.MATHCOMP_FACT in restated.FACT_TACTIC and "solve [ auto ]" in restated.FACT_TACTIC


def _spinning(monkeypatch: pytest.MonkeyPatch) -> None:
    """The restatement step made to run out of its time, as a loaded host made it."""
    monkeypatch.setattr(answer_env, "restating_tactic", lambda *_: SPIN)
    monkeypatch.setattr(answer_env, "STEP_SECONDS", 2)


@needs_coq
def test_the_restatement_step_out_of_time_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    _spinning(monkeypatch)
    result = g4("putnam_1962_a2", official("putnam_1962_a2"))
    assert result.status is GateStatus.ERROR, result.detail
    assert "checking whether the answer restates the question did not finish" in result.detail


@needs_coq
def test_a_verdict_whose_restatement_step_ran_out_of_time_is_never_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    _spinning(monkeypatch)
    v = verdict(vacuous("3"))
    assert v.status == "error" and not reusable(v), [(g.id, g.status, g.detail) for g in v.gates]


def test_the_statement_definitions_are_unfolded_after_the_one_point_rewrites() -> None:
    from putnam_solver.core.provers.rocq.statement_shape import parse_statement
    from tests.helpers import COQ_BENCH, pinned

    statement = parse_statement(pinned(COQ_BENCH).problems["putnam_1962_a2"].formal_statement, "putnam_1962_a2")
    tactic = restated.restating_tactic(statement, "M", "S")
    first = tactic.split("| assert", 1)[0]
    assert first.index("setoid_rewrite") < first.index("Putnam.Reference.mu")
