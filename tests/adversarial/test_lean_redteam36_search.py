"""Search red team 36 (Lean, no-answer): "the least ``n`` with ``P``" answered by a bounded search that tests
the question's own ``P`` with a classical decision (Rocq's round 36: ``find (fun n => if
excluded_middle_informative (P n) ..) (seq 0 10)``). The proof then needs only a witness under the bound, and
no tactic evaluates the answer.

Probed on ``putnam_1993_b1`` and ``putnam_1967_a3`` (text profile and the full profile's G1-G3): ``List.find?``,
``List.filter``/``headD``, ``List.findIdx``, ``Finset.filter``/``card``, ``Nat.rec`` with ``if``/``if h :``,
``Fin.find``, ``Nat.findGreatest``, ``Finset.min'``/``Finset.min``/``sInf``/``List.argmin``/``WellFounded.min`` of
a filtered range, each with ``decide``, ``@decide _ (Classical.propDecidable _)``, ``Classical.dec``/``decPred``/
``decRel``, ``haveI``/``letI``, ``open Classical in``, ``open scoped Classical in``, ``(Classical.em P).by_cases``
and the candidate's own global ``open Classical`` before the solution: 35 probes. With ``P`` the statement's
property (bound name renamed, conjuncts swapped, ``k ≠ 0``, ``Set.Icc`` for ``Set.Ioo``) the copy rule refused
every one; with ``P`` multiplied out (ring arithmetic, a class the copy rule leaves) every classical decision
was accepted (the extremal operators were already refused by name). Now ``_operators.DECISION_OPERATORS`` are
refused by name, and ``open Classical in`` inside a value (whose scoped instance decides with no name to read)
by ``_answer_value.CLASSICAL_RULE``: of the 26 in-value probes the previous code accepted 20 (text and full
G1-G3 alike), this one 9, each a plain ``decide``/``if``/``filter``/``Fin.find`` with no classical source,
which Lean cannot elaborate (no instance decides the unbounded ``∃ j : ℤ``), so the full profile's G4 refuses
them. Left here: the candidate's global ``open Classical`` before the solution (a published header shape,
refused since red team 37 where the value decides: pinned below), a property the library decides by its own
noncomputable instances (``Real.decidableLT``, the instance of an official answer's ``if x < 0``), a statement
that opens ``Classical`` itself (``putnam_1964_b4``, ``2016_b2``, ``2022_a4`` have values), and the 9 plain
spellings above on the text profile.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verdict import Profile
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_verdict, putnambench_dir, sampled

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"

LEAST = "putnam_1993_b1"
# the statement's property with its fractions multiplied out, which the copy rule does not read as the
# statement's (ring arithmetic), so that only the decision refuses it
P = "(0 < k ∧ ∀ m : ℤ, 0 < m → m < 1993 → ∃ j : ℤ, (m : ℝ) * k < 1993 * j ∧ 1994 * (j : ℝ) < (m + 1) * k)"
DECISION = "a choice operator picks a value"
OPENED = "the answer opens `Classical`"

# (problem, value, what G2 must say); keys are "group: class"
SEARCHES = {
    "instance: propDecidable": (
        LEAST,
        f"((List.range 4000).find? fun k => @decide {P} (Classical.propDecidable _)).getD 0",
        DECISION,
    ),
    "instance: Classical.dec in ite": (
        LEAST,
        f"Nat.rec 0 (fun k acc => @ite _ {P} (Classical.dec _) k acc) 4000",
        DECISION,
    ),
    "instance: decRel": (
        LEAST,
        f"((List.range 4000).find? fun k => @decide {P} (Classical.decRel _ _ _)).getD 0",
        DECISION,
    ),
    "instance: haveI": (
        LEAST,
        f"haveI := Classical.propDecidable; ((List.range 4000).findIdx fun k => decide {P})",
        DECISION,
    ),
    "instance: letI decPred": (
        LEAST,
        f"letI := Classical.decPred; ((List.range 4000).filter fun k => decide {P}).headD 0",
        DECISION,
    ),
    "excluded middle: em": (
        LEAST,
        f"Nat.rec (motive := fun _ => ℕ) 0 (fun k acc => (Classical.em {P}).by_cases (fun _ => k) (fun _ => acc)) 4000",
        DECISION,
    ),
    "opened: open Classical in": (
        LEAST,
        f"open Classical in Nat.rec 0 (fun k acc => if {P} then k else acc) 4000",
        OPENED,
    ),
    "opened: open scoped Classical in": (
        LEAST,
        f"open scoped Classical in ((List.range 4000).find? fun k => decide {P}).getD 0",
        OPENED,
    ),
    "opened: a polynomial search": (
        "putnam_1967_a3",
        "open Classical in ((List.range 10).find? fun a => decide (∃ P : Polynomial ℤ, P.degree = 2 ∧ P.coeff 2 = a ∧ "
        "0 < a)).getD 0",
        OPENED,
    ),
}
HONEST = {
    "computable decide on ℕ": (LEAST, "((List.range 4000).find? fun k => decide (k * k = 9 ∧ 1993 < k)).getD 0"),
    "core's Nat.decEq": (LEAST, "if Nat.decEq 3987 3987 = isTrue rfl then 3987 else 0"),
    "if on ℝ": (LEAST, "if (2 : ℝ) < 3 then 3987 else 0"),
    "open Nat in": ("putnam_1967_a3", "open Nat in succ 4"),
}


def _g2(bench: Benchmark, problem: str, value: str) -> str:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER)).get("G2", "")


@pytest.mark.parametrize(
    ("problem", "value", "said"), sampled(SEARCHES, {"instance: propDecidable", "opened: open Classical in"})
)
def test_each_classical_search_is_refused(bench: Benchmark, problem: str, value: str, said: str) -> None:
    assert said in _g2(bench, problem, value)


@pytest.mark.parametrize(("problem", "value"), sampled(HONEST, {"computable decide on ℕ", "if on ℝ"}))
def test_each_honest_twin_passes(bench: Benchmark, problem: str, value: str) -> None:
    assert _g2(bench, problem, value) == ""


def test_a_global_open_classical_before_the_value_is_refused_since_round_37(bench: Benchmark) -> None:
    """Pinned as left in this round: the candidate's own ``open scoped Classical`` before the value brings the
    scoped instance into force with no name in the value to read. Red team 37 refuses a value that decides
    a proposition there (``_answer_decisions``; ``test_lean_redteam37_classical``), while Aristotle's header
    with an answer that decides nothing, or only what the library decides, still passes."""
    candidate = lean_filled(
        bench, LEAST, Track.NO_ANSWER, value=f"((List.range 4000).find? fun k => decide {P}).getD 0"
    )
    candidate = candidate.replace("abbrev", "open scoped Classical\n\nabbrev", 1)
    g2 = failures(lean_verdict(bench, LEAST, candidate, Profile.FULL, Track.NO_ANSWER)).get("G2", "")
    assert "puts `Classical` in force at the answer" in g2
