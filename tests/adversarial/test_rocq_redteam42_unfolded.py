"""Red team 42 on the Rocq gates: a number answer that is the question up to unfolding (G4, fixed).

Measured with coqc 8.16.1. On the no-answer track G4's restatement check (``restated.py``) compared a number
answer with the expression the question asks to evaluate by syntax alone (``constr_eq``), since conversion
on numbers can evaluate the statement's arithmetic (``putnam_1986_a2``'s ``10 ^ 20000``). The question's
expression written through a library function's definition, folded or unfolded, then passed; each attack
below carries a real proof (``reflexivity``: the theorem holds by conversion) and was accepted by G4 with
the answer check ``unknown``:

- the pinned ``putnam_2020_a2``'s ``sum_n f k`` as ``sum_n_m f 0 k`` (Coquelicot's ``Hierarchy.v`` 844:
  ``Definition sum_n (a : nat -> G) n := sum_n_m a O n``), and its ``Binomial.C (k + j) j`` written out as
  ``INR (fact (k + j)) / (INR (fact j) * INR (fact (k + j - j)))`` (``Binomial.v`` 16: ``Definition C (n p :
  nat) : R := INR (fact n) / (INR (fact p) * INR (fact (n - p)))``);
- the pinned ``putnam_1962_a5``'s ``\\sum_(1 <= k < n.+1)`` as a sum over ``iota 1 (n.+1 - 1)``
  (``bigop.v`` 542: ``Definition index_iota m n := iota m (n - m)``), and its ``k ^ 2`` as ``expn_rec k 2``
  (``ssrnat.v`` 1152: ``Definition expn := nosimpl expn_rec``);
- the pinned ``putnam_1997_b1``'s sum with the theorem's let-bound ``rnd`` written inline;
- ``Rsqr 3 - 9`` as ``3 * 3 - 9`` (``RIneq.v`` 654: ``Definition Rsqr r : R := r * r``),
  ``Nat.double 21`` as ``21 + 21`` (``Init/Nat.v`` 57: ``Definition double n := n + n``), ``Z.succ 41`` as
  ``41 + 1`` (``BinIntDef.v`` 107: ``Definition succ x := x + 1``).

The check now also normalises both sides by ``cbv`` without ``fix``/``cofix`` (every definition, local
ones too, unfolded; every ``match`` on a constructor taken), the operators G4 lists left folded, and
compares them syntactically (``provers/rocq/unfolded.py``): no recursion runs, so no arithmetic is
evaluated. It runs where the statement loads no MathComp analysis or classical library (98 of the 142
pinned number answers): there, ``putnam_1980_a3``'s honest ``pi / 4`` against its integrand normalised
did not end in the step's 20 s (an ``error``, a false refusal), as ``expR``, ``ln`` and ``tan`` unfold
through long chains of transparent definitions. Before: 8 of 8 attacks accepted by G4; after: 8 of 8
refused ("restates the question"). Honest twins (the official answers of the four pinned problems and of
``putnam_1980_a3``, the same closed forms written otherwise, and the custom questions' values): 11 of 11
pass before and after (``1980_a3`` is the one the first version timed out). Every official
answer the check runs on passes (the 98, measured one by one).

A candidate's own ``Definition`` in the answer is refused already (``answer_env.own_constants``), so the
copy cannot hide behind one.

Round 43 replaced the two normal forms by a lazy comparison (unfold only where the two sides differ), which
also runs where MathComp analysis or a classical library is loaded: ``putnam_1976_b5``'s ``(x - k%:R) ^+ n``
as ``iterop n *%R (x - k%:R) 1`` (``ssralg.v`` 981) is refused there now
(``tests/adversarial/test_rocq_redteam43_lazy.py``); this file's cases keep their verdicts.

Left: a copy up to algebra or recursion (``x * x`` for ``x ^ 2``, which
needs ``pow``'s ``fix`` to run, ``INR 3`` for ``3``, ``Rpower x 2`` for ``x ^ 2``), as ``restated.py``
says; and a question whose own expression reduces without recursion to its answer's form (``Z.opp 3``
asked, ``-3`` answered) would have that answer refused, which only a trivial question can be (no pinned
one is).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, VerifyOptions
from tests.adversarial.test_rocq_restated import answered, official
from tests.helpers import COQ_BENCH, needs_coq, one_record_benchmark, pinned, rocq_submission, sampled

RESTATES = "restates the question"
PROOF = "Proof. intros; unfold {pid}_solution; reflexivity. Qed."
"""The attacker's proof: the theorem holds by conversion once the answer is unfolded."""
_RND = "(fun x => Rmin (Rabs (IZR (floor x) - x)) (Rabs (IZR (floor (x + 1)) - x)))"
PINNED_ATTACKS = {
    "sum_n as sum_n_m": (
        "putnam_2020_a2",
        "(fun k => sum_n_m (fun j => 2 ^ (k - j) * Binomial.C (k + j) j) 0 k)",
    ),
    "Binomial.C unfolded": (
        "putnam_2020_a2",
        "(fun k => sum_n (fun j => 2 ^ (k - j) * (INR (fact (k + j)) / (INR (fact j) * INR (fact (k + j - j))))) k)",
    ),
    "index_iota unfolded": (
        "putnam_1962_a5",
        "fun n : nat => \\big[addn/0]_(k <- iota 1 (n.+1 - 1)) (binomial n k * k ^ 2)",
    ),
    "expn as expn_rec": ("putnam_1962_a5", "fun n : nat => \\sum_(1 <= k < n.+1) (binomial n k * expn_rec k 2)"),
    "a let-bound function inlined": (
        "putnam_1997_b1",
        f"fun n : nat => sum_n_m (fun m => Rmin ({_RND} (INR m / (6 * INR n))) ({_RND} (INR m / (3 * INR n)))) "
        "1 (6 * n - 1)",
    ),
}
"""(problem, answer): the pinned question's expression through a library definition, folded or unfolded."""
PINNED_TWINS = {
    "2020_a2 official": ("putnam_2020_a2", None),
    "2020_a2 as Rpower": ("putnam_2020_a2", "fun k => Rpower 4 (INR k)"),
    "1962_a5 official": ("putnam_1962_a5", None),
    "1962_a5 with expn_rec": ("putnam_1962_a5", "fun n : nat => n * n.+1 * expn_rec 2 (n - 2)"),
    "1976_b5 official": ("putnam_1976_b5", None),
    "1980_a3 official": ("putnam_1980_a3", None),
    "1997_b1 official": ("putnam_1997_b1", None),
    "1997_b1 as a double halved": ("putnam_1997_b1", "fun n : nat => INR (Nat.double n) / 2"),
}
"""(problem, answer or None for the official one): the values, some written with library functions."""

RSQR = (
    "Require Import Reals.\nOpen Scope R.\nDefinition t_solution : R := {answer}.\n"
    "Theorem t : Rsqr 3 - 9 = t_solution.\n"
)
DOUBLE = "Definition t_solution : nat := {answer}.\nTheorem t : Nat.double 21 = t_solution.\n"
SUCC = (
    "Require Import ZArith.\nOpen Scope Z.\nDefinition t_solution : Z := {answer}.\n"
    "Theorem t : Z.succ 41 = t_solution.\n"
)
VALUES = {RSQR: "0", DOUBLE: "42", SUCC: "42"}
"""Each custom question with its value, the benchmark's own answer."""
CUSTOM_ATTACKS = {
    "Rsqr unfolded": (RSQR, "3 * 3 - 9"),
    "Nat.double unfolded": (DOUBLE, "21 + 21"),
    "Z.succ unfolded": (SUCC, "41 + 1"),
}
CUSTOM_TWINS = {"Rsqr's value": RSQR, "Nat.double's value": DOUBLE, "Z.succ's value": SUCC}
ADMITTED = "Proof. Admitted.\n"


def _g4_pinned(problem_id: str, candidate: str) -> GateResult:
    options = VerifyOptions(profile=Profile.FAST)
    return compile_gate(rocq_submission(pinned(COQ_BENCH), problem_id, candidate, Track.NO_ANSWER, options=options))


def _g4_custom(tmp_path: Path, statement: str, answer: str, proof: str) -> GateResult:
    bench = one_record_benchmark(tmp_path, "t", statement.format(answer=VALUES[statement]) + ADMITTED)
    candidate = statement.format(answer=answer) + proof
    options = VerifyOptions(profile=Profile.FAST)
    return compile_gate(rocq_submission(bench, "t", candidate, Track.NO_ANSWER, options=options))


@needs_coq
@pytest.mark.parametrize(("problem_id", "answer"), sampled(PINNED_ATTACKS, {"sum_n as sum_n_m", "expn as expn_rec"}))
def test_the_pinned_question_unfolded_is_refused(problem_id: str, answer: str) -> None:
    result = _g4_pinned(problem_id, answered(problem_id, answer, PROOF.format(pid=problem_id)))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, (result.status, result.detail)


@needs_coq
@pytest.mark.parametrize(("problem_id", "answer"), sampled(PINNED_TWINS, {"2020_a2 as Rpower", "1997_b1 official"}))
def test_the_pinned_value_passes(problem_id: str, answer: str | None) -> None:
    result = _g4_pinned(problem_id, official(problem_id) if answer is None else answered(problem_id, answer))
    assert result.status is GateStatus.PASSED, (result.status, result.detail)


@needs_coq
@pytest.mark.parametrize(("statement", "answer"), sampled(CUSTOM_ATTACKS, {"Rsqr unfolded"}))
def test_a_library_definition_unfolded_is_refused(tmp_path: Path, statement: str, answer: str) -> None:
    result = _g4_custom(tmp_path, statement, answer, "Proof. unfold t_solution; reflexivity. Qed.\n")
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, (result.status, result.detail)


@needs_coq
@pytest.mark.parametrize("statement", sampled(CUSTOM_TWINS, {"Nat.double's value"}))
def test_the_value_passes(tmp_path: Path, statement: str) -> None:
    result = _g4_custom(tmp_path, statement, VALUES[statement], ADMITTED)
    assert result.status is GateStatus.PASSED, (result.status, result.detail)
