"""Red team 7 (Lean): a library command G2 does not know adds a section variable to the theorem; a
no-answer value reaches a choice operator by another spelling.

G2 splits a file into commands at the keywords it knows; Lean ends a command at any keyword of its
token table. Mathlib has two commands that run Lean's ``variable`` and were missing from G2's list:
``variables`` (Mathlib/Tactic/Basic.lean, a stub that warns and calls ``elabVariable``) and
``variable?`` (Mathlib/Tactic/Variable.lean, ``extendScope`` pushes the binders into the scope). Glued
to a helper's body, at column 0 or on the same line, G2 read it as part of that body, and Lean
included the instance-implicit variable ``[zz_bad : Fact False]`` in the theorem (a variable whose
type mentions no other variable is included in every theorem after it), which then proved
``Fact False → statement`` with no error, no ``sorry`` and no axiom: accepted by the text profile, and
by the ``fast`` profile (G1-G4), by which miniF2F is judged. Reproduced with Lean 4.35 on the toy
toolchain with core ``variable`` (``@t : ∀ [zz_bad : Fact False] (a b : Nat), Eq a b``, exit 0).

Fixes: the two keywords (and a few more library commands) are command keywords for G2 (spelling, the
first line), and G4, where the acceptance runs no G6, checks by meaning that the compiled theorem has
the pinned statement's type in a clean scope (``provers/lean/statement_type.py``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers.lean.statement_type import PINNED, harness_source
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict
from tests.helpers import (
    LEAN_BENCH,
    failures,
    lean_filled,
    lean_text_verdict,
    lean_verdict,
    lean_with_helper,
    needs_sandbox,
    one_record_benchmark,
)
from tests.toylean.build import BENCHMARK, VALID, ToyLean

PROBLEM = "aimeII_2001_p3"
CHEAT = "by\n  exact zz_bad.out.elim"


def _with_helper(bench: Benchmark, helper: str, proof: str = CHEAT) -> str:
    return lean_with_helper(bench, PROBLEM, helper, proof)


GLUED_VARIABLES = {
    "variables_column0": "theorem zz_helper : True := trivial\nvariables [zz_bad : Fact False]\n\n",
    "variables_same_line": "theorem zz_helper : True := trivial variables [zz_bad : Fact False]\n\n",
    "variable?_column0": (
        "theorem zz_helper : True := trivial\nvariable? [zz_bad : Fact False] => [zz_bad : Fact False]\n\n"
    ),
    "variable?_same_line": "theorem zz_helper : True := trivial variable? [zz_bad : Fact False]\n\n",
}


@pytest.mark.parametrize("case", sorted(GLUED_VARIABLES))
def test_a_library_variable_command_glued_to_a_helper_is_refused(minif2f: Benchmark, case: str) -> None:
    verdict = lean_text_verdict(minif2f, PROBLEM, _with_helper(minif2f, GLUED_VARIABLES[case]))
    assert verdict.status == "rejected"
    refused = failures(verdict).get("G2", "")
    assert "starts a new command" in refused or ("`variable" in refused and "not a permitted addition" in refused)


def test_the_same_helper_without_the_command_is_accepted(minif2f: Benchmark) -> None:
    """The control: a helper before the theorem is a permitted addition (the proof here is not checked)."""
    candidate = _with_helper(minif2f, "theorem zz_helper : True := trivial\n\n", "by\n  norm_num [h₀]")
    assert lean_text_verdict(minif2f, PROBLEM, candidate).status == "accepted"


def test_identifiers_that_merely_contain_the_words_are_not_commands(minif2f: Benchmark) -> None:
    helper = "theorem zz_helper (variables_ok : True) : True := variables_ok\n\n"
    assert lean_text_verdict(minif2f, PROBLEM, _with_helper(minif2f, helper, "by\n  norm_num")).status == "accepted"


def test_the_statement_harness_restates_the_pinned_signature() -> None:
    statement = parse_statement(
        "import Mathlib\nopen Real\n\nset_option maxRecDepth 2048 in\n/-- doc -/\n"
        "theorem t (x : ℝ) (h : 0 < x) : 0 < √x := sorry\n"
    )
    source = harness_source("T", statement).splitlines()
    assert source == [
        "import T",
        "open Real",
        f"set_option maxRecDepth 2048 in axiom {PINNED} (x : ℝ) (h : 0 < x) : 0 < √x",
        f"set_option maxRecDepth 2048 in example : type_of% @{PINNED} := @_root_.t",
        "#print axioms t",
    ]


# --- the semantic half, for real on the toy Lean (Lean 4.35's elaborator and kernel) ---------------

SCOPED_VARIABLE = (
    "theorem zz_helper : True := True.intro variable [zz_bad : Nonempty False]\n"
    "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p :=\n"
    "  False.elim (Nonempty.rec (motive := fun _ => False) (fun f => f) zz_bad)\n"
)
"""What the library commands do, with core ``variable`` (the toy has no Mathlib): the theorem gains the
hypothesis ``[zz_bad : Nonempty False]`` and proves anything from it."""


@pytest.fixture
def toy_env(toy_lean: ToyLean, monkeypatch: pytest.MonkeyPatch) -> ToyLean:
    for name, value in toy_lean.env.items():
        monkeypatch.setenv(name, value)
    return toy_lean


@pytest.fixture(scope="module")
def toy() -> Benchmark:
    return load_benchmark(BENCHMARK)


def _verify(bench: Benchmark, candidate: str, profile: Profile) -> Verdict:
    return lean_verdict(bench, "toy_and_comm", candidate, profile)


def _gate(verdict: Verdict, gate: str) -> tuple[GateStatus, str]:
    found = next(g for g in verdict.gates if g.id == gate)
    return found.status, found.detail


@needs_sandbox
def test_g4_refuses_a_theorem_whose_scope_added_a_hypothesis(toy_env: ToyLean, toy: Benchmark) -> None:
    verdict = _verify(toy, SCOPED_VARIABLE, Profile.FAST)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.FAILED, detail
    assert "is not the pinned one read in a clean scope" in detail
    assert "zz_bad" in detail  # Lean's own type mismatch, quoted
    assert verdict.status == "rejected"


@needs_sandbox
def test_the_scoped_hypothesis_is_invisible_to_the_axiom_check(toy_env: ToyLean, toy: Benchmark) -> None:
    """Why G4 must decide by meaning: the candidate compiles cleanly and depends on no axiom at all, so
    on the full profile without comparator only G2's spelling stands in its way."""
    verdict = _verify(toy, SCOPED_VARIABLE, Profile.FULL)
    assert _gate(verdict, "G4")[0] is GateStatus.PASSED  # G6 judges types on this profile
    assert _gate(verdict, "G5") == (GateStatus.PASSED, "toy_and_comm depends on no axioms")


@needs_sandbox
def test_g4_accepts_a_sound_proof_with_the_pinned_type(toy_env: ToyLean, toy: Benchmark) -> None:
    verdict = _verify(toy, (VALID / "toy_and_comm.lean").read_text(encoding="utf-8"), Profile.FAST)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.PASSED, detail
    assert "the theorem has the pinned statement's type and only the allowed axioms" in detail
    assert verdict.status == "accepted"


# --- no-answer: a choice operator reached by another spelling --------------------------------------

ANSWER_PROBLEM = "putnam_1962_a2"
CHOICE_BY_ANOTHER_NAME = {
    # `open Classical in` inside the value: `epsilon` is `Classical.epsilon`, "a value with the property"
    # with no proof needed at all (the rule matched only the full name)
    "open_in_epsilon": "open Classical in epsilon (fun _ => True)",
    # the hypothesis of a dependent `if` is a proof of `∃`; `h.choose` is `Exists.choose h`
    "dite_choose": "if h : ∃ n : ℕ, n = n then h.choose else 0",
    "dite_choose_parenthesized": "if h : ∃ n : ℕ, n = n then (h).choose else 0",
    # `Function.invFun f y` picks an `x` with `f x = y` when there is one (85 statements open `Function`)
    "open_in_invFun": "(open Function in invFun (fun x : ℕ => x) 0)",
}


@pytest.fixture(scope="module")
def putnam() -> Benchmark:
    return load_benchmark(LEAN_BENCH)


@pytest.mark.parametrize("case", sorted(CHOICE_BY_ANOTHER_NAME))
def test_a_choice_operator_reached_by_another_spelling_is_refused(putnam: Benchmark, case: str) -> None:
    value = CHOICE_BY_ANOTHER_NAME[case]
    candidate = lean_filled(putnam, ANSWER_PROBLEM, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(putnam, ANSWER_PROBLEM, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "a choice operator picks a value" in failures(verdict).get("G2", "")


@pytest.mark.parametrize("value", ["fun n => (n + 1).choose 2", "fun n => n.choose 2", "if 0 < 1 then 1 else 0"])
def test_binomials_and_plain_conditionals_stay_answers(putnam: Benchmark, value: str) -> None:
    candidate = lean_filled(putnam, ANSWER_PROBLEM, Track.NO_ANSWER, value=value)
    assert lean_text_verdict(putnam, ANSWER_PROBLEM, candidate, Track.NO_ANSWER).status == "accepted"


# --- `synthInstance.maxSize` is not a resource option ----------------------------------------------

INSTANCE_CHOICE = (
    "class ZzC (α : Type) where\n  val : Bool\n"
    "class ZzD (α : Type) where\n  v : Bool\n"
    "instance (priority := 10) zzSmall : ZzC Nat := ⟨Bool.true⟩\n"
    "instance zzD : ZzD Nat := ⟨Bool.false⟩\n"
    "instance zzBig {α : Type} [ZzD α] : ZzC α := ⟨ZzD.v α⟩\n"
    "theorem toy_instance_choice : Eq (ZzC.val Nat) Bool.true := sorry\n"
)
"""A false statement: ``zzBig`` (default priority) wins, so ``ZzC.val Nat`` is ``false``."""
SMALLER_INSTANCE = INSTANCE_CHOICE.replace(
    "theorem toy_instance_choice : Eq (ZzC.val Nat) Bool.true := sorry\n",
    "set_option synthInstance.maxSize 1 in\ntheorem toy_instance_choice : Eq (ZzC.val Nat) Bool.true := rfl\n",
)
"""``zzBig``'s answer (size 2) is dropped, the search goes on to ``zzSmall``: the statement becomes true."""


@pytest.fixture(scope="module")
def instance_bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_instance_choice", INSTANCE_CHOICE)


def _verify_instance(bench: Benchmark, profile: Profile) -> Verdict:
    return lean_verdict(bench, "toy_instance_choice", SMALLER_INSTANCE, profile)


def test_g2_refuses_synth_instance_max_size_before_the_theorem(instance_bench: Benchmark) -> None:
    verdict = _verify_instance(instance_bench, Profile.TEXT)
    assert verdict.status == "rejected"
    assert "set_option synthInstance.maxSize" in failures(verdict).get("G2", "")


@needs_sandbox
def test_lean_reads_the_statement_with_another_instance_and_g4_sees_it(
    toy_env: ToyLean, instance_bench: Benchmark
) -> None:
    """Lean compiles the candidate (the option changed the statement, ``rfl`` proves it); G4's statement
    check, which reads the pinned signature without the candidate's prefix, refuses it."""
    verdict = _verify_instance(instance_bench, Profile.FAST)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.FAILED, detail
    assert "is not the pinned one read in a clean scope" in detail
    full = _verify_instance(instance_bench, Profile.FULL)
    assert _gate(full, "G4")[0] is GateStatus.PASSED  # the compile itself is clean: only meaning differs
    assert _gate(full, "G5")[0] is GateStatus.PASSED


# --- a string after a name ending in `!`: interpolated for the lexer, plain for Lean ---------------

HIDDEN_AXIOM = (
    "def zz! (s : String) : String := s\n"
    'def zz_h : String := zz! "{"\n'
    "axiom zz_ax : False\n"
    '-- "}"\n'
    "\n"
    "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := zz_ax.elim\n"
)
"""``zz!`` is a plain name, so Lean reads ``"{"`` as a string and then an ``axiom`` command; the lexer read
``{`` as the start of an interpolation, the ``axiom`` line as a string inside it, and the comment's
``"}"`` as its end: G2 and G3 saw one helper and no ``axiom``, and the ``fast`` profile (no G5) accepted."""


@needs_sandbox
def test_code_hidden_in_a_string_lean_reads_as_plain_is_refused(toy_env: ToyLean, toy: Benchmark) -> None:
    verdict = _verify(toy, HIDDEN_AXIOM, Profile.FAST)
    # Lean compiles it, axiom and all: G4 refuses it only for the axiom its harness file lists
    assert _gate(verdict, "G4") == (GateStatus.FAILED, "toy_and_comm depends on axioms outside the allowed set: zz_ax")
    assert verdict.status == "rejected"
    for gate in ("G2", "G3"):
        status, detail = _gate(verdict, gate)
        assert status is GateStatus.FAILED
        assert "not an interpolation keyword" in detail


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('def zz! (s : String) : String := s\ndef zz_h : String := zz! "plain"\n', ["zz_h", ":="]),
        ('def zz_h : String := s!"{sorry}"\n', ["sorry"]),
        ('def zz_h : String := s! /- c -/ "{sorry}"\n', ["sorry"]),
    ],
)
def test_known_interpolation_keywords_still_lex_their_code(text: str, code: list[str]) -> None:
    from putnam_solver.core.provers.lean.syntax import code_tokens, lex

    texts = [t.text for t in code_tokens(lex(text))]
    assert all(word in texts for word in code)


@needs_sandbox
def test_g4_reads_the_axioms_where_no_g5_follows(toy_env: ToyLean, toy: Benchmark) -> None:
    """The hidden-axiom candidate with its axiom in plain sight: G3 refuses the word, and on the fast
    profile (no G5) G4's harness file now refuses the axiom itself, however G3 might have missed it."""
    visible = HIDDEN_AXIOM.replace('def zz_h : String := zz! "{"\n', "").replace('-- "}"\n', "")
    verdict = _verify(toy, visible, Profile.FAST)
    assert _gate(verdict, "G3")[0] is GateStatus.FAILED
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.FAILED, detail
    assert detail == "toy_and_comm depends on axioms outside the allowed set: zz_ax"
