"""Lean text gates G1-G3 through the real pipeline, on real PutnamBench statements.

Every class of docs/threat-model.md that is visible in the text has an adversarial candidate here, and at
least as many tricky but valid candidates must pass.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import POLICY
from putnam_solver.core.verify import Track, VerifyOptions
from putnam_solver.kits import get_kit
from putnam_solver.kits.lean.policy_text import describe
from tests.helpers import LEAN_BENCH, LEAN_PROVER, failures, lean_filled, lean_text_verdict

BENCHMARK = LEAN_BENCH
"""What the ``bench`` fixture (conftest.py) loads for this module."""


def test_every_filled_challenge_passes_and_every_raw_challenge_fails(bench: Benchmark) -> None:
    assert len(bench.problems) == 672
    for problem in bench.problems.values():
        for track in Track:
            verdict = lean_text_verdict(bench, problem.id, lean_filled(bench, problem.id, track), track)
            assert verdict.accepted, (problem.id, track, failures(verdict))
            raw = lean_text_verdict(bench, problem.id, LEAN_PROVER.challenge(problem, track), track)
            assert set(failures(raw)) == {"G3"}, (problem.id, track)
            assert "sorry" in failures(raw)["G3"]


# ---------------------------------------------------------------------------------------------------------
# Adversarial candidates: (problem, track, how to build it, gate, text the detail must contain)

B5 = "putnam_1997_b5"  # def helper, no solution
B1 = "putnam_2008_b1"  # abbrev solution + two defs
A2 = "putnam_1962_a2"
DOC_B5 = "/--\nProve that for $n\\geq 2$"

ATTACKS: dict[str, tuple[str, Track, dict[str, str], str, str]] = {
    "sorry in helper": (B5, Track.WITH_ANSWER, {"before": "lemma aux : 1 = 1 := sorry\n"}, "G3", "sorry"),
    "sorry in decreasing_by": (
        B5,
        Track.WITH_ANSWER,
        {"before": "def loop (n : ℕ) : ℕ := loop (n + 1)\ndecreasing_by sorry\n"},
        "G3",
        "line 7: sorry: proof hole",
    ),
    "admit": (B5, Track.WITH_ANSWER, {"proof": "by admit"}, "G3", "admit"),
    "sorryAx": (B5, Track.WITH_ANSWER, {"proof": "sorryAx _ false"}, "G3", "sorryAx"),
    "axiom": (B5, Track.WITH_ANSWER, {"before": "axiom cheat : False\n"}, "G3", "axiom: axiom"),
    "native_decide": (B5, Track.WITH_ANSWER, {"proof": "by native_decide"}, "G3", "native_decide"),
    "decide +native": (B5, Track.WITH_ANSWER, {"proof": "by decide +native"}, "G3", "native: native code"),
    "decide config native": (
        B5,
        Track.WITH_ANSWER,
        {"proof": "by decide (config := { native := true })"},
        "G3",
        "native",
    ),
    "ofReduceBool": (B5, Track.WITH_ANSWER, {"proof": "Lean.ofReduceBool _ _ rfl"}, "G3", "ofReduceBool"),
    "implemented_by": (
        B5,
        Track.WITH_ANSWER,
        {"before": "@[implemented_by id] def f (n : ℕ) : ℕ := n\n"},
        "G3",
        "implemented_by",
    ),
    "extern": (B5, Track.WITH_ANSWER, {"before": '@[extern "c_f"] def f (n : ℕ) : ℕ := n\n'}, "G3", "extern"),
    "csimp": (B5, Track.WITH_ANSWER, {"before": "@[csimp] theorem f : @id = @id := rfl\n"}, "G3", "csimp"),
    "skipKernelTC": (
        B5,
        Track.WITH_ANSWER,
        {"before": "set_option debug.skipKernelTC true in\n"},
        "G3",
        "skipKernelTC",
    ),
    "skipKernelTC in G2": (
        B5,
        Track.WITH_ANSWER,
        {"before": "set_option debug.skipKernelTC true in\n"},
        "G2",
        "set_option debug.skipKernelTC: option not allowed",
    ),
    "run_cmd": (B5, Track.WITH_ANSWER, {"before": "run_cmd pure ()\n"}, "G3", "run_cmd"),
    "#eval": (B5, Track.WITH_ANSWER, {"before": "#eval 1\n"}, "G3", "#eval"),
    "elab": (B5, Track.WITH_ANSWER, {"before": 'elab "magic" : tactic => pure ()\n'}, "G3", "elab"),
    "addDecl": (B5, Track.WITH_ANSWER, {"proof": "by\n  run_tac addDecl d\n  exact h"}, "G3", "addDecl"),
    "open private": (B5, Track.WITH_ANSWER, {"before": "open private foo in\n"}, "G3", "open private"),
    "opaque": (B5, Track.WITH_ANSWER, {"before": "opaque secret : ℕ\n"}, "G3", "opaque"),
    "notation": (B5, Track.WITH_ANSWER, {"before": 'notation "≡" => Eq\n'}, "G3", "notation"),
    "notation in G2": (B5, Track.WITH_ANSWER, {"before": 'notation "≡" => Eq\n'}, "G2", "not a permitted"),
    "macro_rules": (
        B5,
        Track.WITH_ANSWER,
        {"before": "macro_rules | `(tactic| simp) => `(tactic| rfl)\n"},
        "G3",
        "macro_rules",
    ),
    "syntax": (B5, Track.WITH_ANSWER, {"before": 'syntax "cheat" : tactic\n'}, "G3", "syntax"),
    "infix": (B5, Track.WITH_ANSWER, {"before": 'infix:50 " ≡≡ " => Eq\n'}, "G3", "infix"),
    "open in before theorem": (
        B5,
        Track.WITH_ANSWER,
        {"before": "open Nat in\n"},
        "G2",
        "`open ... in` can change the statement only through elaboration",
    ),
    "indented open in before theorem": (
        B5,
        Track.WITH_ANSWER,
        {"before": "lemma aux : True := trivial\n  open Nat in\n"},
        "G2",
        "trailing `... in`",
    ),
    "new open": (
        B5,
        Track.WITH_ANSWER,
        {"before": "open Real\n"},
        "G2",
        "`open Real`: a global `open` in force at the theorem can change the statement only through elaboration",
    ),
    "variable": (B5, Track.WITH_ANSWER, {"before": "variable (k : ℕ)\n"}, "G2", "not a permitted addition"),
    "include": (B5, Track.WITH_ANSWER, {"before": "variable (k : ℕ)\ninclude k\n"}, "G2", "`include k`"),
    "autoImplicit": (
        B5,
        Track.WITH_ANSWER,
        {"before": "set_option autoImplicit true in\n"},
        "G3",
        "autoImplicit",
    ),
    "instance": (
        B5,
        Track.WITH_ANSWER,
        {"before": "instance : Fact (1 < 2) := ⟨by norm_num⟩\n"},
        "G2",
        "for a class and type the candidate does not define",
    ),
    "attribute -instance": (
        B5,
        Track.WITH_ANSWER,
        {"before": "attribute [-instance] Nat.instDvdNat\n"},
        "G3",
        "attribute",
    ),
    "#exit": (B5, Track.WITH_ANSWER, {"after": "#exit\n"}, "G3", "#exit"),
    "instance after theorem": (
        B5,
        Track.WITH_ANSWER,
        {"after": "instance : Inhabited ℕ := ⟨0⟩\n"},
        "G2",
        "an `instance` for a class and type the candidate does not define",
    ),
    "end after theorem": (
        B5,
        Track.WITH_ANSWER,
        {"before": "namespace Foo\n", "after": "end Foo\n"},
        "G2",
        "inside a namespace: renamed",
    ),
    "indented declaration in proof": (
        B5,
        Track.WITH_ANSWER,
        {"proof": "by\n  simp\n  lemma x : True := trivial"},
        "G2",
        "`lemma`: starts a new command",
    ),
    "sorry in no-answer value": (B1, Track.NO_ANSWER, {"value": "sorry"}, "G3", "sorry"),
    "dotted helper": (
        B5,
        Track.WITH_ANSWER,
        {"before": "lemma Nat.aux : True := trivial\n"},
        "G2",
        "a helper in namespace `Nat`",
    ),
    "helper collides": (
        B1,
        Track.WITH_ANSWER,
        {"before": "def «real_circle» := 0\n"},
        "G2",
        "collides with a challenge declaration",
    ),
    "attribute on helper": (
        B5,
        Track.WITH_ANSWER,
        {"before": "@[default_instance] def aux := 0\n"},
        "G2",
        "attribute not permitted",
    ),
    "partial helper": (
        B5,
        Track.WITH_ANSWER,
        {"before": "partial def aux (n : ℕ) : ℕ := aux n\n"},
        "G3",
        "partial",
    ),
    "Lean namespace": (B5, Track.WITH_ANSWER, {"proof": "by\n  exact Lean.Elab.foo"}, "G3", "Lean.Elab.foo"),
}


@pytest.mark.parametrize("case", sorted(ATTACKS))
def test_attack_is_rejected(bench: Benchmark, case: str) -> None:
    problem_id, track, parts, gate, needle = ATTACKS[case]
    verdict = lean_text_verdict(bench, problem_id, lean_filled(bench, problem_id, track, **parts), track)
    assert verdict.status == "rejected"
    assert gate in failures(verdict), failures(verdict)
    assert needle in failures(verdict)[gate]


def _edit(bench: Benchmark, problem_id: str, old: str, new: str, track: Track = Track.WITH_ANSWER) -> str:
    text = lean_filled(bench, problem_id, track)
    assert old in text
    return text.replace(old, new, 1)


EDITS: dict[str, tuple[str, str, str, str]] = {
    "renamed theorem": (
        B5,
        "theorem putnam_1997_b5",
        "theorem putnam_1997_b5'",
        "theorem putnam_1997_b5: missing",
    ),
    "look-alike name": (B5, "theorem putnam_1997_b5", "theorem putnаm_1997_b5", "look-alike name"),
    "hypothesis added": (B5, "(hn : n ≥ 2)", "(hn : n ≥ 2)\n(hx : False)", "`putnam_1997_b5`: differs"),
    "hypothesis dropped": (B5, "(hn : n ≥ 2)\n", "", "`putnam_1997_b5`: differs"),
    "type changed": (B5, "(n : ℕ)", "(n : ℤ)", "differs from the challenge"),
    "cast changed": ("putnam_2008_b6", "((s i) : ℤ)", "((s i) : ℚ)", "differs from the challenge"),
    "solution value changed": (
        B1,
        "((2) : ℕ)",
        "((3) : ℕ)",
        "`putnam_2008_b1`: differs",
    ),
    "new import": (
        B5,
        "import Mathlib\n",
        "import Mathlib\nimport Lean\n",
        "`import Lean`: a new import",
    ),
    "import inside header": (B1, "open Filter", "import Lean\nopen Filter", "`import Lean`: a new import"),
    "prelude": (B5, "import Mathlib\n", "prelude\nimport Mathlib\n", "prelude"),
    "helper definition changed": (B5, "| _, 0 => 1", "| _, 0 => 2", "`tetration`: differs"),
    "theorem moved to namespace": (B5, "/--\nProve", "namespace Foo\n/--\nProve", "inside a namespace: renamed"),
    "unterminated comment": (B5, "by\n  simp", "by\n  /- simp", "unterminated comment"),
    "index spaced apart": ("putnam_1968_a5", "ℝ[X]", "ℝ [X]", "differs from the challenge"),
}


@pytest.mark.parametrize("case", sorted(EDITS))
def test_edited_statement_is_rejected(bench: Benchmark, case: str) -> None:
    problem_id, old, new, needle = EDITS[case]
    verdict = lean_text_verdict(bench, problem_id, _edit(bench, problem_id, old, new))
    assert verdict.status == "rejected"
    assert needle in "\n".join(failures(verdict).values()), failures(verdict)


def test_theorem_missing(bench: Benchmark) -> None:
    text = lean_filled(bench, B5)
    candidate = text[: text.index("/--")] + "lemma aux : True := trivial\n"
    detail = failures(lean_text_verdict(bench, B5, candidate))["G2"]
    assert "theorem putnam_1997_b5: missing" in detail


def test_rejection_detail_lists_line_construct_rule(bench: Benchmark) -> None:
    verdict = lean_text_verdict(bench, B5, lean_filled(bench, B5, proof="by\n  sorry"))
    g3 = next(g for g in verdict.gates if g.id == "G3")
    assert g3.detail == "line 13: sorry: proof hole: an unfinished proof is not a proof"
    assert g3.evidence["violations"] == [
        {"line": 13, "construct": "sorry", "rule": "proof hole: an unfinished proof is not a proof"}
    ]


# ---------------------------------------------------------------------------------------------------------
# Valid tricky candidates

VALID: dict[str, tuple[str, Track, dict[str, str]]] = {
    "forbidden words in comments": (
        B5,
        Track.WITH_ANSWER,
        {"proof": "by\n  -- no sorry, no axiom, no native_decide\n  simp /- admit /- nested #exit -/ -/"},
    ),
    "strings mentioning sorry": (
        B5,
        Track.WITH_ANSWER,
        {"before": 'def msg : String := "sorry \\"admit\\" (axiom)" ++ r#"native_decide {x}"#\n'},
    ),
    # red team 41: an interpolated string is refused (`_literals`: Lean may read its text as code), see
    # tests/adversarial/test_lean_redteam41_commands.py; a plain one stays accepted
    "string append": (
        B5,
        Track.WITH_ANSWER,
        {"before": 'def msg : String := "n = " ++ "1"\n'},
    ),
    "helper lemmas": (
        B5,
        Track.WITH_ANSWER,
        {
            "before": "private lemma aux1 : 1 + 1 = 2 := by norm_num\n\n"
            "noncomputable def r : ℝ := Real.sqrt 2\n\n"
            "/-- A documented helper. -/\n@[simp] lemma aux2 (n : ℕ) : n + 0 = n := rfl\n\n"
            "protected def aux3 : ℕ := 3\n\nabbrev aux4 : ℕ := 4\n\n"
            "private noncomputable def aux5 : ℝ := 1\n"
        },
    ),
    "set_option before helper and theorem": (
        B5,
        Track.WITH_ANSWER,
        {
            "before": "set_option maxHeartbeats 400000 in\nlemma big : True := trivial\n\n"
            "set_option maxRecDepth 2000 in\nset_option synthInstance.maxHeartbeats 40000 in\n"
        },
    ),
    "identifiers containing forbidden words": (
        B5,
        Track.WITH_ANSWER,
        {"before": "lemma sorry_free (h_axiom : True) (opaque_thing : ℕ) : True := h_axiom\n"},
    ),
    "primes and char literals": (
        B5,
        Track.WITH_ANSWER,
        {"before": "def f' (h'' : ℕ) : Char := if h'' = 0 then 'a' else '\\n'\n"},
    ),
    "tactic-level open and set_option": (
        B5,
        Track.WITH_ANSWER,
        {"proof": "by\n  open Real in\n  set_option maxRecDepth 1000 in\n  simp [tetration] <;> omega"},
    ),
    "tsum image preimage helper": (
        B5,
        Track.WITH_ANSWER,
        {"before": "lemma img (f : ℕ → ℕ) (s : Set ℕ) : f '' s ⊆ Set.range f ∧ f ⁻¹' ∅ = ∅ := by simp\n"},
    ),
    "term proof with where and decreasing_by": (
        B5,
        Track.WITH_ANSWER,
        {"proof": "go n\nwhere\n  go (k : ℕ) : True := trivial\ntermination_by 0\ndecreasing_by all_goals simp"},
    ),
    "no-answer solution by tactic": (B1, Track.NO_ANSWER, {"value": "by\n  exact 2"}),
    "no-answer solution with comment": (A2, Track.NO_ANSWER, {"value": "{f | f = 0} -- my guess"}),
    "helpers between statement defs": (
        B1,
        Track.WITH_ANSWER,
        {"before": "lemma between : True := trivial\n"},
    ),
}


@pytest.mark.parametrize("case", sorted(VALID))
def test_valid_candidate_passes(bench: Benchmark, case: str) -> None:
    problem_id, track, parts = VALID[case]
    verdict = lean_text_verdict(bench, problem_id, lean_filled(bench, problem_id, track, **parts), track)
    assert verdict.accepted, failures(verdict)


def test_reformatted_whitespace_and_comments_pass(bench: Benchmark) -> None:
    text = lean_filled(bench, B5)
    candidate = text.replace("import Mathlib\n", "import Mathlib\n\n-- my notes: sorry\n").replace(
        "(hn : n ≥ 2)", "(hn  :  n ≥ 2) /- spacing -/\n   "
    )
    assert lean_text_verdict(bench, B5, candidate).accepted


# ---------------------------------------------------------------------------------------------------------
# Answers and policy


def test_has_answer(bench: Benchmark) -> None:
    assert LEAN_PROVER.has_answer(bench.problems[B1]) and not LEAN_PROVER.has_answer(bench.problems[B5])


def test_answers_on_no_answer_track(bench: Benchmark) -> None:
    problem = bench.problems[B1]
    candidate = lean_filled(bench, B1, Track.NO_ANSWER, value="3 -- guess")
    verdict = lean_text_verdict(bench, B1, candidate, Track.NO_ANSWER)
    (answer,) = verdict.answers.values()
    assert verdict.answers.keys() == {"putnam_2008_b1_solution"}
    assert (answer["candidate"], answer["official"]) == ("3", "2")
    assert answer["check"] == {"status": "unknown", "reason": "the answer check runs only with the full profile"}
    assert LEAN_PROVER.answers(problem, candidate, Track.WITH_ANSWER) == {}


@pytest.mark.parametrize("garbage", ["", "/- never closed", 'x "open', "theorem", "\x00\x01 ' '"])
def test_answers_never_raise(bench: Benchmark, garbage: str) -> None:
    answers = LEAN_PROVER.answers(bench.problems[B1], garbage, Track.NO_ANSWER)
    assert answers in ({}, {"putnam_2008_b1_solution": {"candidate": None, "official": "2"}})


def test_policy_describes_itself() -> None:
    text = describe(POLICY)
    for needle in ("maxHeartbeats", "native_decide", "`#command`", "@[simp]", "open private"):
        assert needle in text
    assert get_kit("lean").policy_text(VerifyOptions()) == text
    assert LEAN_PROVER.name == "lean" and LEAN_PROVER.suffix == ".lean"
    assert [g.id for g in LEAN_PROVER.gates()] == ["G2", "G3", "G4", "G5", "G6", "G7"]
