"""Red team 43 on the Rocq gates: a number answer that is the question unfolded, under MathComp analysis.

Measured with coqc 8.16.1. Round 42 (``test_rocq_redteam42_unfolded.py``) refused a number answer whose
equation's two sides have one normal form under ``cbv`` without ``fix``/``cofix`` (G4's operators folded),
but ran it only where the statement loads no MathComp analysis or classical library: there a full normal
form is too large (``putnam_1980_a3``'s honest ``pi / 4`` against its integrand did not normalise in 20 s).
On the other 44 pinned number answers syntactic identity alone decided, and each attack below, carrying a
real proof (``reflexivity``), was accepted by G4 with the answer check ``unknown``:

- the pinned ``putnam_1976_b5``'s ``(x - k%:R) ^+ n`` as ``iterop n *%R (x - k%:R) 1`` (``ssralg.v`` 981:
  ``Definition exp R x n := nosimpl iterop _ n (@mul R) x (one R)``), its ``\\sum_(0 <= k < n.+1)`` as a
  ``\\big`` over ``iota 0 (n.+1 - 0)`` (``bigop.v`` 542: ``index_iota m n := iota m (n - m)``), its
  ``'C(n, k)`` as ``binomial_rec n k`` (``binomial.v`` 179: ``Definition binomial := nosimpl binomial_rec``);
- the pinned ``putnam_1974_a4``'s ``2 ^ (n.-1)`` (an ``int`` power) as ``2 ^+ (n.-1)`` (``ssrint.v``
  1030: ``exprz x n := nosimpl match n with Posz n => x ^+ n | Negz n => ..``), its ``n%:R`` as ``iterop n
  +%R 1 0`` (``ssralg.v`` 700: ``natmul V x n := nosimpl iterop _ n +%R x (zero V)``), its ``'C(n, k)`` as
  ``binomial_rec n k``;
- on statements loading ``reals``, ``exp`` and ``trigo``: a let-bound function of the theorem's inlined
  (``f 3`` with ``f := fun x => x ^+ 2 + 1`` answered ``3 ^+ 2 + 1``), and ``tan`` written out (``trigo.v``
  794: ``Definition tan (x : R) := sin x / cos x``).

The check (``provers/rocq/unfolded.py``) is now lazy and runs on every number answer: Coq's conversion
algorithm in Ltac2, comparing heads and arguments and unfolding one definition at a time only where the two
sides differ (``Std.eval_cbv`` with ``rDelta := false`` and that reference alone), binders and stuck
``match``es compared part by part, ``fix``/``cofix`` never reduced, the operators never unfolded, at most
``STEPS`` comparisons (past them an Ltac2 ``throw``, which no ``first`` catches: an ``error``). Before: 8 of
8 attacks accepted by G4; after: 8 of 8 refused ("restates the question"), each in milliseconds of Ltac2.
Honest twins (the official answers of ``1976_b5``, ``1974_a4``, ``1980_a3``, ``1977_a3``, ``1986_a6``,
``2002_a1``, ``2006_a5``; ``1976_b5``'s ``n`!`` as a product, ``1974_a4``'s value with ``^``, ``1980_a3``'s
``pi / 2 / 2``; the two custom questions' values): 12 of 12 pass before and after. ``putnam_1980_a3``'s
honest ``pi / 4``, which round 42's full normalisation timed out, now differs from the integral at once.
A first version that rebuilt a ``match`` with the other side's case information to compare them raised a
Coq anomaly (``kernel/inductive.ml`` 453) on ``1976_b5 as a product``; the ``match``es are now compared by
their return clauses (which name the inductive), scrutinees and branches alone. Every official answer
passes and round 42's table is unchanged (``test_rocq_restated.py`` with ``test_rocq_redteam42_unfolded.py``:
214 of 214, ``putnam_1962_a2``'s set answer, off this check's path, after a rerun: the loaded host had timed
out its step); the verdict snapshot is unchanged.

The ``1974_a4`` answer with its own ``let``s (``let h := n./2 in ..``) was refused before already (the
restatement step's unfolding), so it is not counted.

Left: a copy up to algebra or recursion, as ``restated.py`` and round 42 say (``x * x`` for ``x ^+ 2``
needs ``iterop``'s ``fix`` to run); a copy inside a ``fix`` body (two ``fix`` terms are compared
syntactically); a copy up to eta (``fun k => F k`` for ``F``: no rule of the comparison's is eta); a copy
that only takes more than ``STEPS`` comparisons to find is an ``error``, not a pass. Copies through G4's
operators (``\\int``, ``lim``) are refused by the operator rule, not here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, VerifyOptions
from tests.adversarial.test_rocq_redteam42_unfolded import ADMITTED, PROOF, RESTATES, _g4_pinned
from tests.adversarial.test_rocq_restated import answered, official
from tests.helpers import needs_coq, one_record_benchmark, rocq_submission, sampled

_B5 = "((-1) ^+ k * 'C(n, k)%:R * (x - k%:R) ^+ n)"
_A4 = "(\\sum_(0 <= k < (n./2).+1) ((n%:R - 2 * k%:R) * 'C(n, k)%:R))"
PINNED_ATTACKS = {
    "1976_b5 ^+ as iterop": (
        "putnam_1976_b5",
        "fun n x => \\sum_(0 <= k < n.+1) ((-1) ^+ k * 'C(n, k)%:R * iterop n *%R (x - k%:R) 1)",
    ),
    "1976_b5 index_iota unfolded": ("putnam_1976_b5", f"fun n x => \\big[+%R/0]_(k <- iota 0 (n.+1 - 0)) {_B5}"),
    "1976_b5 binomial as binomial_rec": (
        "putnam_1976_b5",
        "fun n x => \\sum_(0 <= k < n.+1) ((-1) ^+ k * (binomial_rec n k)%:R * (x - k%:R) ^+ n)",
    ),
    "1974_a4 ^ as ^+": ("putnam_1974_a4", f"fun n => 1/(2 ^+ (n.-1)) * {_A4}"),
    "1974_a4 natmul unfolded": (
        "putnam_1974_a4",
        "fun n => 1/(2 ^ (n.-1)) * (\\sum_(0 <= k < (n./2).+1) ((iterop n +%R 1 0 - 2 * k%:R) * 'C(n, k)%:R))",
    ),
    "1974_a4 binomial as binomial_rec": (
        "putnam_1974_a4",
        "fun n => 1/(2 ^ (n.-1)) * (\\sum_(0 <= k < (n./2).+1) ((n%:R - 2 * k%:R) * (binomial_rec n k)%:R))",
    ),
}
"""(problem, answer): the pinned question's expression through a library definition, notation or a name."""
PINNED_TWINS = {
    "1976_b5 official": ("putnam_1976_b5", None),
    "1976_b5 as a product": ("putnam_1976_b5", "fun n _ => \\prod_(1 <= i < n.+1) i%:R"),
    "1974_a4 official": ("putnam_1974_a4", None),
    "1974_a4 with ^": ("putnam_1974_a4", "fun n => (n%:R / 2 ^ (n.-1)) * 'C(n.-1, n./2)%:R"),
    "1980_a3 official": ("putnam_1980_a3", None),
    "1980_a3 halved twice": ("putnam_1980_a3", "pi / 2 / 2"),
    "1977_a3 official": ("putnam_1977_a3", None),
    "1986_a6 official": ("putnam_1986_a6", None),
    "2002_a1 official": ("putnam_2002_a1", None),
    "2006_a5 official": ("putnam_2006_a5", None),
}
"""(problem, answer or None for the official one): the values, some written otherwise."""

HEADER = (
    "From mathcomp Require Import all_algebra all_ssreflect.\nFrom mathcomp Require Import reals exp trigo.\n"
    "Local Open Scope ring_scope.\nVariable R : realType.\nDefinition t_solution : R := {answer}.\n"
)
LET = HEADER + "Theorem t (f : R -> R := fun x => x ^+ 2 + 1) : f 3 = t_solution.\n"
TAN = HEADER + "Theorem t : tan (pi / 4) * 2 = t_solution.\n"
VALUES = {LET: "10", TAN: "2"}
"""Each custom question (a statement loading MathComp's analysis) with its value."""
CUSTOM_ATTACKS = {
    "a let-bound function inlined": (LET, "3 ^+ 2 + 1"),
    "tan unfolded": (TAN, "sin (pi / 4) / cos (pi / 4) * 2"),
}
CUSTOM_TWINS = {"the let-bound function's value": (LET, None), "tan's value": (TAN, None)}


def _g4(tmp_path: Path, question: str, answer: str | None, attack: bool) -> GateResult:
    """G4 on a pinned problem (``question`` its id) or a custom statement, answered with ``answer`` (None: the
    official answer or the custom value), proved by conversion if ``attack``, else admitted."""
    if question.startswith("putnam_"):
        proof = PROOF.format(pid=question) if attack else None
        return _g4_pinned(question, official(question) if answer is None else answered(question, answer, proof))
    bench = one_record_benchmark(tmp_path, "t", question.format(answer=VALUES[question]) + ADMITTED)
    proof = "Proof. unfold t_solution; reflexivity. Qed.\n" if attack else ADMITTED
    candidate = question.format(answer=VALUES[question] if answer is None else answer) + proof
    return compile_gate(
        rocq_submission(bench, "t", candidate, Track.NO_ANSWER, options=VerifyOptions(profile=Profile.FAST))
    )


@needs_coq
@pytest.mark.parametrize(("question", "answer"), sampled(PINNED_ATTACKS | CUSTOM_ATTACKS, {"1976_b5 ^+ as iterop"}))
def test_the_question_unfolded_is_refused(tmp_path: Path, question: str, answer: str) -> None:
    result = _g4(tmp_path, question, answer, attack=True)
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, (result.status, result.detail)


@needs_coq
@pytest.mark.parametrize(("question", "answer"), sampled(PINNED_TWINS | CUSTOM_TWINS, {"1980_a3 official"}))
def test_the_value_passes(tmp_path: Path, question: str, answer: str | None) -> None:
    result = _g4(tmp_path, question, answer, attack=False)
    assert result.status is GateStatus.PASSED, (result.status, result.detail)
