"""Red team of the Lean text gates G2/G3 on real PutnamBench statements.

``HOLES`` are candidates the gates used to accept although Lean reads them differently from the
challenge (each has a Lean-level demonstration in tests/integration/test_lean_redteam_toy.py where the
toy Lean can show it). ``STOPPED`` are attacks the red team tried that were already rejected; they stay as
regressions. ``VALID`` are tricky candidates that must keep passing: false rejections are bugs too.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import POLICY
from putnam_solver.core.verify import Track
from putnam_solver.kits.lean.policy_text import describe
from tests.helpers import LEAN_BENCH, LEAN_PROVER, failures, lean_filled, lean_text_verdict

B5 = "putnam_1997_b5"  # `def tetration`, no solution, binders `n`, `hn`
B1 = "putnam_2008_b1"  # abbrev solution (official answer 2) and two defs
B4 = "putnam_1986_b4"  # `open Real ...`; the statement says `sqrt` for `Real.sqrt`
W, N = Track.WITH_ANSWER, Track.NO_ANSWER
BENCHMARK = LEAN_BENCH
"""What the ``bench`` fixture (conftest.py) loads for this module."""

AUX = "lemma aux : True :=\n  trivial\n"


# (problem, track, parts for `build`, gate, text the gate's detail must contain)
Case = tuple[str, Track, dict[str, str], str, str]

HOLES: dict[str, Case] = {
    # Lean ends a term at `open`; without `in` it is a command, in force for the theorem.
    "open glued under a helper": (B5, W, {"before": AUX + "  open Nat\n"}, "G2", "without `... in`"),
    "open glued on the helper's line": (
        B5, W, {"before": "lemma aux : True := trivial open Nat\n"}, "G2", "`open`: without `... in`"
    ),
    "open glued to a no-answer value": (B1, N, {"value": "2\n  open Nat"}, "G2", "`open`: without"),
    "open scoped glued": (B5, W, {"before": AUX + "  open scoped Classical\n"}, "G2", "`open`: without"),
    "set_option glued without in": (
        B5, W, {"before": AUX + "  set_option maxHeartbeats 0\n"}, "G2", "`set_option`: without `... in`"
    ),
    # Commands the splitter did not know glued themselves to the helper before them.
    "seal glued": (B5, W, {"before": AUX + "  seal tetration\n"}, "G2", "`seal`: starts a new command"),
    "seal at column 0": (B5, W, {"before": AUX + "seal tetration\n"}, "G2", "`seal tetration`: not a"),
    "unseal at column 0": (B5, W, {"before": AUX + "unseal tetration\n"}, "G2", "not a permitted"),
    "add_aesop_rules at column 0": (
        B5, W, {"before": AUX + "add_aesop_rules safe (by simp)\n"}, "G2", "not a permitted addition"
    ),
    "with_weak_namespace": (
        B5, W, {"before": AUX + "with_weak_namespace Nat\n"}, "G2", "`with_weak_namespace Nat`: not a"
    ),
    # Lean skips the third character of `/-`: `/-/- -/` is one comment, `/--/` opens a doc comment.
    "code after /-/- -/": (
        B5, W, {"before": "/-/- -/ axiom cheat : False -- -/\n"}, "G3", "axiom: axiom"
    ),
    "theorem hidden in a /--/ doc comment": (
        B5, W, {"proof": "trivial\n/--/ -/ /-/- -/ theorem putnam_1997_b5 : True := trivial -- -/"}, "G2", "collides"
    ),
    # `s! "..."` interpolates with a space (or a comment) before the string, too.
    "spaced interpolation": (B5, W, {"before": 'def msg : String := s! "{sorry}"\n'}, "G3", "sorry"),
    "interpolation after a comment": (
        B5, W, {"before": 'def msg : String := s! /- x -/ "{sorry}"\n'}, "G3", "sorry"
    ),
    # A root declaration named like a free identifier of the statement can become what it resolves to.
    "helper named like a name reached through open": (
        B4, W, {"before": "noncomputable def sqrt (x : ℝ) : ℝ := x\n"}, "G2", "`sqrt`: is a name the"
    ),
    "helper named like a notation word": (B5, W, {"before": "def MOD := 0\n"}, "G2", "`MOD`: is a name"),
    # Characters Lean refuses in code: the gates refuse them too, with a reason a human can see.
    "zero-width space": (B5, W, {"proof": "by\n  simp\u200b"}, "G2", "invisible or control character U+200B"),
    "right-to-left override": (B5, W, {"before": "def x\u202e := 1\n"}, "G3", "U+202E"),
    "non-breaking space": (B5, W, {"proof": "by\u00a0simp"}, "G2", "U+00A0"),
    "tab": (B5, W, {"proof": "by\n\tsimp"}, "G3", "tab character"),
    "isolated carriage return": (B5, W, {"proof": "by\r  simp"}, "G2", "carriage return"),
    "unterminated identifier escape": (B5, W, {"proof": "«simp"}, "G3", "unterminated identifier escape"),
    # G3 names that were missing.
    "_root_.Lean": (B5, W, {"proof": "by\n  exact _root_.Lean.Elab.foo"}, "G3", "_root_.Lean.Elab.foo: meta"),
    "bv_decide": (B5, W, {"proof": "by bv_decide"}, "G3", "bv_decide: native"),
    # No-answer values that answer with the problem itself (see the policy text).
    "answer is Classical.choose": (
        B1, N, {"value": "Classical.choose (⟨2, rfl⟩ : ∃ n : ℕ, n = 2)"}, "G2", "`Classical.choose`: a choice"
    ),
    "answer is Exists.choose": (B1, N, {"value": "Exists.choose h"}, "G2", "`Exists.choose`: a choice"),
    "answer is Nat.find": (B1, N, {"value": "Nat.find h"}, "G2", "`Nat.find`: a choice"),
    "answer mentions the theorem": (
        B1, N, {"value": "(putnam_2008_b1).2 0"}, "G2", "the answer may not mention the theorem"
    ),
}  # fmt: skip

STOPPED: dict[str, Case] = {
    "sorry as an escaped identifier": (B5, W, {"proof": "«sorry»"}, "G3", "«sorry»: proof hole"),
    "ofReduceBool escaped": (B5, W, {"proof": "«Lean».«ofReduceBool» _ _ rfl"}, "G3", "native"),
    "private copy of the theorem": (
        B5, W, {"before": "private theorem putnam_1997_b5 : True := trivial\n"}, "G2", "differs from the challenge"
    ),
    "the theorem declared twice": (
        B5, W, {"after": "theorem putnam_1997_b5 : True := trivial\n"}, "G2", "collides with a challenge declaration"
    ),
    "second command after ;": (B5, W, {"proof": "trivial; example : True := trivial"}, "G2", "`example`"),
    "#exit after a quote in a comment": (B5, W, {"proof": 'by\n  simp -- "\n#exit'}, "G3", "#exit"),
    "#exit in an interpolation": (B5, W, {"proof": 'by\n  have := s!"{#exit}"'}, "G3", "#exit"),
    "local notation": (B5, W, {"before": AUX + 'local notation "x" => 1\n'}, "G2", "a `local notation` can change"),
    "notation3": (B5, W, {"before": 'notation3 "x" => 1\n'}, "G3", "notation3"),
    "deriving instance": (B5, W, {"before": "deriving instance Repr for Nat\n"}, "G3", "instance"),
    "attribute local instance": (B5, W, {"before": "attribute [local instance] foo\n"}, "G3", "attribute"),
    "@[instance] def": (B5, W, {"before": "@[instance] def i : Inhabited ℕ := ⟨0⟩\n"}, "G3", "instance"),
    "@[macro_inline] def": (B5, W, {"before": "@[macro_inline] def i := 0\n"}, "G2", "attribute not"),
    # round 34: `irreducible_def` is a helper (a fresh one is VALID), so the attack left is to shadow a def
    "irreducible_def": (B5, W, {"before": "irreducible_def tetration : ℕ := 0\n"}, "G2", "collides with a challenge"),
    "alias": (B5, W, {"before": "alias foo := Nat.succ\n"}, "G2", "`alias foo := Nat.succ`: not a"),
    "universe": (B5, W, {"before": "universe u\n"}, "G2", "`universe u`: a `universe` declaration can change"),
    "_root_ helper": (B5, W, {"before": "def _root_.foo := 1\n"}, "G2", "may not escape to `_root_`"),
    "helper named like the solution": (
        B1, W, {"before": "def putnam_2008_b1_solution' := 0\ndef «putnam_2008_b1_solution» := 0\n"},
        "G2", "collides with a challenge declaration"
    ),
    "option chain with a bad option": (
        B5, W, {"before": "set_option maxHeartbeats 0 in\nset_option synthInstance.maxSize 1 in\n" + AUX}, "G2",
        "synthInstance.maxSize"
    ),
    "meta modifier": (B5, W, {"before": "meta def aux : ℕ := 0\n"}, "G2", "`meta`: not permitted"),
    "sorry in where": (B5, W, {"proof": "go\nwhere go : True := sorry"}, "G3", "sorry"),
    "sorry in an unused no-answer helper": (B1, N, {"before": "lemma x : 1 = 2 := sorry\n"}, "G3", "sorry"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOLES))
def test_closed_hole_is_rejected(bench: Benchmark, case: str) -> None:
    _assert_rejected(bench, HOLES[case])


@pytest.mark.parametrize("case", sorted(STOPPED))
def test_attack_already_stopped_stays_stopped(bench: Benchmark, case: str) -> None:
    _assert_rejected(bench, STOPPED[case])


def _assert_rejected(bench: Benchmark, case: Case) -> None:
    problem_id, track, parts, gate, needle = case
    verdict = lean_text_verdict(bench, problem_id, lean_filled(bench, problem_id, track, **parts), track)
    assert verdict.status == "rejected"
    assert gate in failures(verdict), failures(verdict)
    assert needle in failures(verdict)[gate], failures(verdict)


# Same meaning, other tokens: rejected, because G2's rule is token equality (README, its table of gates), and
# the theorem's name is a token like any other: `«putnam_1997_b5»` is the same Lean name, yet written
# differently, as `def «real_circle»` is (test_lean_gates, "helper collides").
EDITS = {
    "escaped theorem name": ("theorem putnam_1997_b5", "theorem «putnam_1997_b5»"),
    "Nat for ℕ": ("(n : ℕ)", "(n : Nat)"),
    "binder renamed": ("(hn : n ≥ 2)", "(h : n ≥ 2)"),
    "universe parameter added": ("theorem putnam_1997_b5", "theorem putnam_1997_b5.{u}"),
}


@pytest.mark.parametrize("case", sorted(EDITS))
def test_same_meaning_other_tokens_is_rejected(bench: Benchmark, case: str) -> None:
    old, new = EDITS[case]
    text = lean_filled(bench, B5)
    assert old in text
    detail = failures(lean_text_verdict(bench, B5, text.replace(old, new, 1)))["G2"]
    assert "`putnam_1997_b5`: differs from the challenge" in detail


VALID: dict[str, tuple[str, Track, dict[str, str]]] = {
    # With autoImplicit off a bound name in the statement is the local variable, whatever is declared
    # (issue 10 section 3: "a helper whose name equals a variable the statement binds").
    "helper named like a binder": (B5, W, {"before": "def n : ℕ := 3\n"}),
    # It only turns off code generation (issue 10 section 3).
    "noncomputable section": (B5, W, {"before": "noncomputable section\n"}),
    # Red team 14: an `example` is elaborated and dropped; a `mutual` block holds only helpers.
    "example": (B5, W, {"before": "example : True := trivial\n"}),
    "mutual": (B5, W, {"before": "mutual\ndef a : ℕ := 0\nend\n"}),
    "escaped helper named like a binder": (B5, W, {"before": "def «hn» := 0\n"}),
    "irreducible_def": (B5, W, {"before": "irreducible_def i : ℕ := 0\n"}),
    "keyword at column 0 in a multi-line string": (
        B5, W, {"before": 'def msg : String := "a\ntheorem putnam_1997_b5 : True\nopen Nat"\n'}
    ),
    "keyword at column 0 in a comment inside the proof": (
        B5, W, {"proof": "by\n  /- not code:\ntheorem x : True := trivial\n#exit\n-/\n  simp"}
    ),
    "comment with an inner /-/": (B5, W, {"proof": "by\n  /- a /-/ b -/ c -/\n  simp"}),
    "helper name escaped with a space": (B5, W, {"before": "lemma «my aux» : True := trivial\n"}),
    "invisible characters in comments and strings": (
        B5, W, {"before": 'def msg : String := "a\u200bb\u202e\tc" -- \u00a0\u200b\n'}
    ),
    "open ... in over several lines in a tactic block": (
        B5, W, {"proof": "by\n  open Real\n    Nat in\n  simp"}
    ),
    "open scoped / renaming / hiding ... in": (
        B5, W, {"proof": "by\n  open scoped Classical in\n  open Nat renaming succ → s in\n"
                         "  open Real hiding pi in\n  open Finset (range) in\n  simp"}
    ),
    "set_option ... in inside a helper": (
        B5, W, {"before": "lemma aux : True := by\n  set_option maxRecDepth 2000 in\n  trivial\n"}
    ),
    "no-answer value with Nat.choose": (B1, N, {"value": "Nat.choose 4 2 - 4"}),
    "no-answer value with dotted choose": (B1, N, {"value": "(4 : ℕ).choose 2 - 4"}),
    # red team 41: interpolated strings are refused now (`_literals`); a string without one passes
    "string in a helper": (B5, W, {"before": 'def msg (k : ℕ) : String := "k = " ++ toString k\n'}),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(VALID))
def test_tricky_valid_candidate_passes(bench: Benchmark, case: str) -> None:
    problem_id, track, parts = VALID[case]
    verdict = lean_text_verdict(bench, problem_id, lean_filled(bench, problem_id, track, **parts), track)
    assert verdict.accepted, failures(verdict)


def test_crlf_candidate_passes_like_its_lf_twin(bench: Benchmark) -> None:
    """Lean reads ``\\r\\n`` as ``\\n`` (docstrings included); so do the gates."""
    text = lean_filled(bench, B1, N, value="2")
    assert "\r" not in text
    verdict = lean_text_verdict(bench, B1, text.replace("\n", "\r\n"), N)
    assert verdict.accepted, failures(verdict)
    answer = verdict.answers["putnam_2008_b1_solution"]
    assert (answer["candidate"], answer["official"]) == ("2", "2")


def test_every_official_answer_is_a_valid_no_answer_value(bench: Benchmark) -> None:
    """The no-answer rules never reject the official answers themselves (346 problems)."""
    checked = 0
    for problem in bench.problems.values():
        answers = LEAN_PROVER.answers(problem, "", N)
        if not answers:
            continue
        text = lean_filled(bench, problem.id, N, value="ANSWER")
        for record in answers.values():  # in the order of the file
            text = text.replace("ANSWER", record["official"], 1)
        verdict = lean_text_verdict(bench, problem.id, text, N)
        assert verdict.accepted, (problem.id, failures(verdict))
        checked += 1
    assert checked == 346


def test_policy_documents_the_no_answer_rules() -> None:
    text = describe(POLICY)
    assert "## No-answer track: the solution values" in text
    assert "`Classical.choose`" in text and "`Nat.find`" in text
    assert "may not mention the theorem" in text
