"""Red team 25 (Lean, G1-G3): miniF2F and ProofNet, whose statements carry headers of their own.

Found and fixed, a false rejection: Lean's ``open`` has five forms (leanprover/lean4
src/Lean/Parser/Command.lean, ``openDecl``: ``openHiding``, ``openRenaming``, ``openOnly``, ``openSimple``,
``openScoped``), and G2 read as an ``open ... in`` prefix only those made of names. ``open Finset (range
sum_range_succ) in`` or ``open Real renaming sqrt → s in`` before a helper (it acts on that helper only)
was refused as words "not permitted before a helper", on every profile; before the theorem, as a changed
statement, where ``open N in`` is left to G6. G2 now reads the prefix by Lean's grammar (``_open_decl``).

And a second one: a helper after the theorem named like a name of the statement (``def f_a`` after
``Ireland_Rosen_exercise_2_4``, ``Zz.sqrt`` after ``mathd_algebra_17``) was refused, though Lean has
elaborated the theorem before it exists (``_preservation._after_theorem``); only a challenge declaration's
name stays refused there (a second declaration of it would take the theorem's name).

Also tried against the headers' shapes and refused or left to G6 (or harmless): see ``TRIED`` in
``test_lean_redteam25_tried.py``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._open_decl import open_decl_end, open_in_end
from putnam_solver.core.provers.lean._policy import POLICY
from putnam_solver.core.provers.lean._preservation import check_statement
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_PROVER, failures, lean_text_verdict

MINIF2F = "mathd_algebra_17"
MINIF2F_PROOF = "by\n  nlinarith"
PROOFNET = "Rudin_exercise_3_5"
HELPER = "theorem zz_h : (4 : ℝ) = 4 := rfl\n\n"

OPEN_FORMS = {
    "only": "open Real (sqrt) in",
    "only, several names": "open Finset (range sum_range_succ) in",
    "renaming": "open Real renaming sqrt → zsq in",
    "renaming, ascii arrow and several items": "open Real renaming sqrt -> zsq, pi → zpi in",
    "hiding": "open Real hiding sqrt in",
    "scoped": "open scoped Real in",
    "simple": "open Real Nat in",
    "two prefixes": "open Nat (succ) in\nopen Real renaming pi → zpi in",
}
MALFORMED = {
    "empty parentheses": "open Real () in",
    "unclosed parenthesis": "open Real ( in",
    "renaming without an arrow": "open Real renaming sqrt in",
    "renaming without a target": "open Real renaming sqrt → in",
    "renaming with a trailing comma": "open Real renaming sqrt → a, in",
    "scoped without a name": "open scoped in",
    "no name": "open in",
    "two parenthesised lists": "open Real (sqrt) (pi) in",
}


def _minif2f(bench: Benchmark, before: str) -> str:
    text = LEAN_PROVER.challenge(bench.problems[MINIF2F], Track.WITH_ANSWER)
    at = text.index(f"theorem {MINIF2F}")
    return (text[:at] + before + text[at:]).replace("by sorry", MINIF2F_PROOF)


def _proofnet(bench: Benchmark, before: str) -> str:
    text = _proved(bench, PROOFNET)
    at = text.index(f"theorem {PROOFNET}")
    return text[:at] + before + text[at:]


@pytest.mark.parametrize("case", sorted(OPEN_FORMS))
def test_every_form_of_open_in_before_a_helper_is_accepted(minif2f: Benchmark, proofnet: Benchmark, case: str) -> None:
    before = f"{OPEN_FORMS[case]}\n{HELPER}"
    verdict = lean_text_verdict(minif2f, MINIF2F, _minif2f(minif2f, before))
    assert verdict.status == "accepted", failures(verdict)
    verdict = lean_text_verdict(proofnet, PROOFNET, _proofnet(proofnet, before))
    assert verdict.status == "accepted", failures(verdict)


@pytest.mark.parametrize("case", sorted(OPEN_FORMS))
def test_every_form_of_open_in_before_the_theorem_is_left_to_g6(minif2f: Benchmark, case: str) -> None:
    candidate = _minif2f(minif2f, f"{OPEN_FORMS[case]}\n")
    verdict = lean_text_verdict(minif2f, MINIF2F, candidate)
    assert verdict.status == "rejected" and verdict.needs_full_profile, failures(verdict)
    assert "`open ... in` the theorem" in failures(verdict)["G2"]
    expected = parse_statement(LEAN_PROVER.challenge(minif2f.problems[MINIF2F], Track.WITH_ANSWER))
    assert check_statement(expected, candidate, Track.WITH_ANSWER, POLICY, semantic=True) == []


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_open_before_the_theorem_stays_a_changed_statement(minif2f: Benchmark, case: str) -> None:
    candidate = _minif2f(minif2f, f"{MALFORMED[case]}\n")
    verdict = lean_text_verdict(minif2f, MINIF2F, candidate)
    assert verdict.status == "rejected" and not verdict.needs_full_profile, failures(verdict)
    expected = parse_statement(LEAN_PROVER.challenge(minif2f.problems[MINIF2F], Track.WITH_ANSWER))
    rules = [v.rule for v in check_statement(expected, candidate, Track.WITH_ANSWER, POLICY, semantic=True)]
    assert any("differs from the challenge" in rule for rule in rules), rules


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_open_before_a_helper_stays_refused(minif2f: Benchmark, case: str) -> None:
    verdict = lean_text_verdict(minif2f, MINIF2F, _minif2f(minif2f, f"{MALFORMED[case]}\n{HELPER}"))
    assert verdict.status == "rejected", failures(verdict)


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("open A B in x", 3),
        ("open A hiding b c in x", 5),
        ("open A renaming b → c, d -> e in x", 10),
        ("open A (b c) in x", 6),
        ("open scoped A B in x", 4),
        ("open A ( in x", None),
        ("open A renaming b in x", None),
        ("open in x", None),
    ],
)
def test_open_declarations_end_where_lean_reads_them(text: str, end: int | None) -> None:
    tokens = lex_code(text)
    assert open_decl_end(tokens, 0) == end
    assert open_in_end(tokens, 0) == (None if end is None else end + 1)


AFTER_THE_THEOREM = {
    "a root helper named like an auto-bound name": ("proofnet", "Ireland_Rosen_exercise_2_4", "def f_a : ℕ := 1\n"),
    "a helper in a namespace, named like a name part": (
        "minif2f",
        MINIF2F,
        "namespace Zz\nnoncomputable def sqrt (x : ℝ) : ℝ := x\nend Zz\n",
    ),
    "a root helper named like a header definition's variable": ("proofnet", "Munkres_exercise_13_4a1", "def T := 1\n"),
}


@pytest.mark.parametrize("case", sorted(AFTER_THE_THEOREM))
def test_helpers_after_the_theorem_may_take_the_statements_names(
    minif2f: Benchmark, proofnet: Benchmark, case: str
) -> None:
    which, problem, helper = AFTER_THE_THEOREM[case]
    bench = minif2f if which == "minif2f" else proofnet
    candidate = (_minif2f(bench, "") if problem == MINIF2F else _proved(bench, problem)) + f"\n{helper}"
    verdict = lean_text_verdict(bench, problem, candidate)
    assert verdict.status == "accepted", failures(verdict)


def test_a_challenge_name_after_the_theorem_stays_refused(minif2f: Benchmark, proofnet: Benchmark) -> None:
    verdict = lean_text_verdict(minif2f, MINIF2F, _minif2f(minif2f, "") + f"\ntheorem {MINIF2F} : True := trivial\n")
    assert "collides with a challenge declaration" in failures(verdict).get("G2", ""), failures(verdict)
    problem = "Munkres_exercise_21_6a"
    verdict = lean_text_verdict(proofnet, problem, _proved(proofnet, problem) + "\nprivate def I : ℕ := 1\n")
    assert "collides with a challenge declaration" in failures(verdict).get("G2", ""), failures(verdict)


def _proved(bench: Benchmark, problem: str) -> str:
    text = LEAN_PROVER.challenge(bench.problems[problem], Track.WITH_ANSWER)
    hole = text.rindex("sorry")
    return text[:hole] + "simp" + text[hole + len("sorry") :]
