"""Red team 15 (Lean): scoped local attributes, and no-answer values that wrap a copy of the question.

* False rejection: ``attribute [local instance] foo`` (or ``local simp``) inside a ``section`` or
  ``namespace`` block of the candidate's own, closed before the theorem, was refused by G3 on sight
  (the word ``attribute``) and by G2's layout rule (``local`` read as a new command), although Lean
  drops local attribute entries at the block's ``end``: checked on Lean 4.35 (the toy toolchain) below,
  the instance serves a helper inside the block and the pinned theorem after it is read without it.
  Fix (``_helpers.local_attribute``, ``_preservation._local_attribute_violations``): G2 judges that one
  shape by its block, which must be the candidate's own and closed before any pinned declaration (the
  rule section variables already follow); at top level, in the challenge's own open section, in a
  ``mutual`` block, ``scoped``, non-local, erasing or other attributes stay refused.
* Bypass: on no-answer, the question copied as the answer was accepted by the text profile inside
  wrappers that elaborate to it, which the copy rule read only at the value's head or not at all: a
  local definition (``h where h := A``, ``let g := fun m => A m; g n``, ``let rec``, ``have``), a
  one-case ``match``, tactic blocks (``by classical exact A``, ``by intro n; exact A n``, ``show T by
  exact A``), identities (``Function.comp A id``, ``Id.run do``, ``(fun x => x) e``, ``@id T e``, ``cast
  rfl``), an ascribed argument, explicit universes, ``⟨p.1, p.2⟩`` for ``p``, and the statement's own
  definition unfolded (``fun n => HasWinningStrategy n []`` against ``AliceHasWinningStrategy n``). Each
  makes the theorem ``Iff.rfl``. Fix (``_answer_normal``, ``_answer_terms``): the value and the
  statement's side are both rewritten to the term Lean elaborates before they are compared, and a value
  that meets one of the rewrites' bounds is refused rather than compared unread. Every official answer
  still passes. A copy in logic or arithmetic (``A n ∧ True``, ``n + 0``) still passes (a check by
  meaning needs Mathlib).
* Tried and refused already (kept as tests): the statement's names, attributes and scope tricks below.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_preservation
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict
from tests.helpers import (
    LEAN_PROVER,
    failures,
    lean_filled,
    lean_text_verdict,
    lean_verdict,
    needs_sandbox,
    one_record_benchmark,
)
from tests.toylean.build import ToyLean


def _gate(verdict: Verdict, gate: str) -> GateStatus:
    return next(g for g in verdict.gates if g.id == gate).status


# --- local attributes in a block of the candidate's own ---------------------------------------------

PLAIN = "putnam_1962_a1"
"""A statement without an answer, read after ``open MeasureTheory``."""
DECIDABLE = "attribute [local instance] Classical.propDecidable\n"
SCOPED = {
    "in a section": f"section\n{DECIDABLE}end\n\n",
    "in a named section": f"section zz\n{DECIDABLE}end zz\n\n",
    "in a namespace of the problem's": f"namespace Putnam1962A1\n{DECIDABLE}end Putnam1962A1\n\n",
    "with a priority, and local simp": (
        "section\nattribute [local instance 10] Classical.propDecidable\n"
        "attribute [local simp] Set.ncard Set.encard\ntheorem zz_h : True := trivial\nend\n\n"
    ),
    "two local items in one list": "section\nattribute [local instance, local simp] Classical.propDecidable\nend\n\n",
    "reducibility (conform21)": "section\nattribute [local reducible] Set.ncard\nend\n\n",
}
UNSCOPED = {
    "at top level": (DECIDABLE, "a local attribute at top level"),
    "in a section left open": (f"section\n{DECIDABLE}", "local instances and is still open at the theorem"),
    "in a noncomputable section left open": (
        f"noncomputable section\n{DECIDABLE}",
        "local instances and is still open at the theorem",
    ),
    "in a mutual block": (f"mutual\n{DECIDABLE}end\n", "`mutual` block"),
    "scoped": ("section\nattribute [scoped instance] Classical.propDecidable\nend\n", "starts a new command"),
    "global": ("section\nattribute [instance] Classical.propDecidable\nend\n", "starts a new command"),
    "one item global": ("section\nattribute [local instance, instance] Classical.propDecidable\nend\n", "new command"),
    "global reducibility": ("section\nattribute [irreducible] Set.ncard\nend\n", "not a permitted addition"),
    "reducibility left open": ("section\nattribute [local irreducible] Set.ncard\n", "still open at the theorem"),
    "an erasure": ("section\nattribute [-instance] Classical.propDecidable\nend\n", "starts a new command"),
    "a helper glued after it": (
        "section\nattribute [local instance] Classical.propDecidable theorem zz : True := trivial\nend\n",
        "starts a new command",
    ),
}


@pytest.mark.parametrize("case", sorted(SCOPED))
def test_a_local_attribute_in_a_closed_block_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PLAIN, before=SCOPED[case])
    verdict = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert verdict.status == "accepted", failures(verdict)


@pytest.mark.parametrize("case", sorted(UNSCOPED))
def test_a_local_attribute_in_force_at_the_theorem_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    before, rule = UNSCOPED[case]
    verdict = lean_text_verdict(lean_putnambench, PLAIN, lean_filled(lean_putnambench, PLAIN, before=before))
    assert verdict.status == "rejected"
    assert rule in failures(verdict).get("G2", ""), failures(verdict)


def test_a_local_attribute_at_top_level_stays_a_g3_refusal(lean_putnambench: Benchmark) -> None:
    verdict = lean_text_verdict(lean_putnambench, PLAIN, lean_filled(lean_putnambench, PLAIN, before=DECIDABLE))
    assert "attribute: elaboration" in failures(verdict).get("G3", ""), failures(verdict)


def test_a_local_attribute_around_a_pinned_definition_is_refused(lean_putnambench: Benchmark) -> None:
    """``putnam_2025_a3`` declares definitions before its theorem: a block holding the attribute that is
    still open at one of them elaborates it with the instance."""
    text = lean_filled(lean_putnambench, "putnam_2025_a3", Track.NO_ANSWER, value="fun _ => False", proof="by\n  simp")
    at = text.index("def GameString")
    candidate = text[:at] + f"section\n{DECIDABLE}" + text[at:].replace("/--\nAlice", "end\n\n/--\nAlice", 1)
    verdict = lean_text_verdict(lean_putnambench, "putnam_2025_a3", candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "local instances and is still open at `GameString`" in failures(verdict).get("G2", ""), failures(verdict)


def test_a_local_attribute_in_the_challenges_own_section_is_refused(proofnet: Benchmark) -> None:
    """ProofNet's ``Munkres_exercise_20_2`` leaves its ``noncomputable section`` open at the theorem."""
    text = lean_filled(proofnet, "Munkres_exercise_20_2", proof="by\n  simp")
    assert "noncomputable section" in text
    candidate = text.replace("noncomputable section\n", f"noncomputable section\n{DECIDABLE}", 1)
    verdict = lean_text_verdict(proofnet, "Munkres_exercise_20_2", candidate)
    assert verdict.status == "rejected"
    assert "a local attribute in the challenge's own `section`" in failures(verdict).get("G2", ""), failures(verdict)


# --- for real on the toy Lean (Lean 4.35's elaborator and kernel) -----------------------------------

TOY_CLASS = (
    "class ZzC (α : Type) where\n  val : Bool\n\n"
    "instance zzSmall : ZzC Nat := ⟨Bool.false⟩\n\n"
    "def zzBig : ZzC Nat := ⟨Bool.true⟩\n\n"
)
TOY_FALSE = TOY_CLASS + "theorem toy_local_attr : Eq (ZzC.val Nat) Bool.true := sorry\n"
"""False as pinned: the instance is ``zzSmall``."""
TOY_TRUE = TOY_CLASS + "theorem toy_local_attr : Eq (ZzC.val Nat) Bool.false := sorry\n"
ATTACK = TOY_CLASS + "attribute [local instance] zzBig\n\ntheorem toy_local_attr : Eq (ZzC.val Nat) Bool.true := rfl\n"
"""The local attribute at top level is in force at the theorem: ``rfl`` proves the false statement."""
SOUND = TOY_CLASS + (
    "section\nattribute [local instance] zzBig\n"
    "theorem zz_helper : Eq (ZzC.val Nat) Bool.true := rfl\nend\n\n"
    "theorem toy_local_attr : Eq (ZzC.val Nat) Bool.false := rfl\n"
)
"""Inside the block ``zzBig`` is the instance (the helper's ``rfl`` needs it); after ``end`` it is not."""


def _toy(tmp_path_factory: pytest.TempPathFactory, statement: str) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_local_attr", statement)


def test_the_text_gates_refuse_the_top_level_attribute(tmp_path_factory: pytest.TempPathFactory) -> None:
    verdict = lean_verdict(_toy(tmp_path_factory, TOY_FALSE), "toy_local_attr", ATTACK, Profile.TEXT)
    assert verdict.status == "rejected"
    assert "a local attribute at top level" in failures(verdict).get("G2", ""), failures(verdict)


@needs_sandbox
def test_lean_proves_the_false_statement_with_a_top_level_local_attribute(
    toy_lean_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Why it stays refused: the candidate compiles with no error and no axiom; the fast profile's
    statement check, which reads the pinned signature in a clean scope, refuses it by meaning."""
    bench = _toy(tmp_path_factory, TOY_FALSE)
    full = lean_verdict(bench, "toy_local_attr", ATTACK, Profile.FULL)
    assert _gate(full, "G4") is GateStatus.PASSED
    assert _gate(full, "G5") is GateStatus.PASSED
    fast = lean_verdict(bench, "toy_local_attr", ATTACK, Profile.FAST)
    assert _gate(fast, "G4") is GateStatus.FAILED


@needs_sandbox
def test_the_fast_profile_accepts_a_local_attribute_in_a_closed_section(
    toy_lean_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    verdict = lean_verdict(_toy(tmp_path_factory, TOY_TRUE), "toy_local_attr", SOUND, Profile.FAST)
    assert verdict.status == "accepted", failures(verdict)


# --- no-answer values: the copied question inside wrappers that elaborate to it -----------------------

GAME = "putnam_2025_a3"
"""States ``putnam_2025_a3_solution n ↔ AliceHasWinningStrategy n`` and defines ``AliceHasWinningStrategy n``
as ``HasWinningStrategy n []`` before it (official answer ``fun _ => False``)."""
WRAPPED_COPIES = {
    "a where clause": "h\nwhere h := AliceHasWinningStrategy",
    "a typed where clause with a parameter": "fun n => h n\nwhere h (m : ℕ) : Prop := AliceHasWinningStrategy m",
    "a let rec": "let rec h : ℕ → Prop := AliceHasWinningStrategy; h",
    "a let of a function": "fun n => let g := fun m => AliceHasWinningStrategy m; g n",
    "a let with a parameter": "fun n => let g (m : ℕ) := AliceHasWinningStrategy m; g n",
    "a have": "fun n => have g := AliceHasWinningStrategy; g n",
    "a letI": "fun n => letI g := AliceHasWinningStrategy; g n",
    "a one-case match": "fun n => match n with | m => AliceHasWinningStrategy m",
    "a one-case match on its own lines": "fun n => match n with\n  | m => AliceHasWinningStrategy m",
    "by classical exact": "by classical exact AliceHasWinningStrategy",
    "by classical on its own line": "by\n  classical\n  exact AliceHasWinningStrategy",
    "by first": "by first | exact AliceHasWinningStrategy",
    "by a bracketed exact": "by (exact AliceHasWinningStrategy)",
    "by intro then exact": "by intro n; exact AliceHasWinningStrategy n",
    "by intro then exact on lines": "by\n  intro n\n  exact AliceHasWinningStrategy n",
    "show by exact": "show ℕ → Prop by exact AliceHasWinningStrategy",
    "Function.comp with id": "Function.comp AliceHasWinningStrategy id",
    "Function.comp of id": "Function.comp id AliceHasWinningStrategy",
    "composed with the identity lambda": "AliceHasWinningStrategy ∘ fun x => x",
    "the identity lambda composed": "(fun x => x) ∘ AliceHasWinningStrategy",
    "the identity lambda applied": "fun n => (fun x => x) (AliceHasWinningStrategy n)",
    "Id.run do": "fun n => Id.run do AliceHasWinningStrategy n",
    "Id.run do unapplied": "Id.run do AliceHasWinningStrategy",
    "@id with its type": "fun n => @id Prop (AliceHasWinningStrategy n)",
    "id ascribed": "fun n => (id : Prop → Prop) (AliceHasWinningStrategy n)",
    "cast rfl": "fun n => cast rfl (AliceHasWinningStrategy n)",
    "piped into id": "fun n => AliceHasWinningStrategy n |> id",
    "piped through id": "fun n => n |> id |> AliceHasWinningStrategy",
    "an ascribed argument": "fun n => AliceHasWinningStrategy (n : ℕ)",
    "explicit universes": "fun n => AliceHasWinningStrategy.{} n",
    "the statement's definition unfolded": "fun n => HasWinningStrategy n []",
    "the definition unfolded as a section": "(HasWinningStrategy · [])",
    "the definition unfolded in a tactic block": (
        "fun n => by unfold AliceHasWinningStrategy; exact HasWinningStrategy n []"
    ),
}
"""Each passed the text profile: Lean elaborates each to the other side of the ``↔`` (the theorem is then
``Iff.rfl``, the solution is ``ℕ → Prop`` so no yes/no check applies); ``_answer_unwrap`` read such wrappers
only at the value's head, and some not at all."""
HONEST_WRAPPED = [
    "h\nwhere h : ℕ → Prop := fun _ => False",
    "fun n => let g := fun m => m % 2 = 1; g n",
    "fun n => match n with | m => m = 2",
    "by classical exact fun _ => False",
    "by intro n; exact n = 2",
    "Function.comp (fun n => n = 2) id",
    "fun n => Id.run do n = 2",
    "fun n => (n : ℕ) = 2",
    "fun n => HasWinningStrategy (n + 1) [] ∧ n = 0",
    "fun n => let m := n; AliceHasWinningStrategy (m + 1)",
]
"""The same wrappers around values that are not the question (the last two state a shifted question,
not a copy; red team 18 refuses a value that holds the question itself, ``HasWinningStrategy n [] ∧ n =
0``)."""


def _game(lean_putnambench: Benchmark, value: str) -> Verdict:
    candidate = lean_filled(lean_putnambench, GAME, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return lean_text_verdict(lean_putnambench, GAME, candidate, Track.NO_ANSWER)


@pytest.mark.parametrize("case", sorted(WRAPPED_COPIES))
def test_the_question_in_a_wrapper_that_elaborates_to_it_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    verdict = _game(lean_putnambench, WRAPPED_COPIES[case])
    assert verdict.status == "rejected"
    assert "the other side of the statement's own `↔`" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize("value", HONEST_WRAPPED)
def test_honest_values_in_the_same_wrappers_stay_accepted(lean_putnambench: Benchmark, value: str) -> None:
    verdict = _game(lean_putnambench, value)
    assert verdict.status == "accepted", failures(verdict)


PAIR = "putnam_1975_a2"
CONDITION = "(∀ z : ℂ, (X^2 + (C (b : ℂ))*X + (C (c : ℂ)) : Polynomial ℂ).eval z = 0 → ‖z‖ < 1)"


@pytest.mark.parametrize(
    "value",
    [
        f"fun p => (fun (b, c) => {CONDITION}) ⟨p.1, p.2⟩",
        f"fun p => (fun (b, c) => {CONDITION}) (p.fst, p.snd)",
        f"fun q => let p := q; (fun (b, c) => {CONDITION}) p",
    ],
)
def test_a_pair_rebuilt_from_its_projections_is_the_pair(lean_putnambench: Benchmark, value: str) -> None:
    """``⟨p.1, p.2⟩`` is ``p`` (structure eta), so the copied condition on it is the copy."""
    candidate = lean_filled(lean_putnambench, PAIR, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(lean_putnambench, PAIR, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "the other side of the statement's own `↔`" in failures(verdict).get("G2", ""), failures(verdict)


def test_every_official_answer_is_still_no_copy(lean_putnambench: Benchmark) -> None:
    """The rewrites read both sides alike: none makes an official answer the other side of its relation."""
    called = []
    for problem_id, problem in lean_putnambench.problems.items():
        statement = parse_statement(problem.formal_statement)
        if len(statement.solutions) != 1 or not statement.solutions[0].answer:
            continue
        value = statement.solutions[0].answer
        candidate = lean_filled(lean_putnambench, problem_id, Track.NO_ANSWER, value=value)
        found = check_preservation(LEAN_PROVER.challenge(problem, Track.NO_ANSWER), candidate, Track.NO_ANSWER)
        called += [problem_id for v in found if "the other side of the statement's own" in v.rule]
    assert called == []


# --- tried and refused: what the gates already stop --------------------------------------------------

ALREADY_REFUSED = {
    "a helper holding the copy": (
        "def zz_copy : ℕ → Prop := AliceHasWinningStrategy\n\n",
        "zz_copy",
        "which the candidate defines",
    ),
    "choice in a tactic block": (
        "",
        "by classical exact fun n => Classical.choose (⟨True, trivial⟩ : ∃ p : Prop, p)",
        "a choice operator picks a value",
    ),
}


@pytest.mark.parametrize("case", sorted(ALREADY_REFUSED))
def test_helpers_and_choice_in_tactic_answers_stay_refused(lean_putnambench: Benchmark, case: str) -> None:
    before, value, rule = ALREADY_REFUSED[case]
    candidate = lean_filled(lean_putnambench, GAME, Track.NO_ANSWER, value=value, proof="by\n  simp", before=before)
    verdict = lean_text_verdict(lean_putnambench, GAME, candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert rule in failures(verdict).get("G2", ""), failures(verdict)


THEOREM = "theorem putnam_1962_a1"
STATEMENT_TRICKS = {
    "a private theorem": (THEOREM, f"private {THEOREM}", "G2", "differs from the challenge"),
    "a protected theorem": (THEOREM, f"protected {THEOREM}", "G2", "differs from the challenge"),
    "@[simp] on the theorem": (THEOREM, f"@[simp] {THEOREM}", "G2", "differs from the challenge"),
    "@[reducible] on the theorem": (THEOREM, f"@[reducible] {THEOREM}", "G2", "differs from the challenge"),
    "the theorem's name escaped": (THEOREM, "theorem «putnam_1962_a1»", "G2", "differs from the challenge"),
    "the theorem from the root": (THEOREM, "theorem _root_.putnam_1962_a1", "G2", "may not escape to `_root_`"),
    "noncomputable theorem": (THEOREM, f"noncomputable {THEOREM}", "G2", "differs from the challenge"),
    "autoImplicit in": (THEOREM, f"set_option autoImplicit true in\n{THEOREM}", "G3", "autoImplicit"),
    "open renaming": ("open MeasureTheory", "open MeasureTheory\nopen Nat renaming succ → convexHull", "G2", "open"),
    "open hiding": ("open MeasureTheory", "open MeasureTheory hiding volume", "G2", "a global `open`"),
    "open scoped": ("open MeasureTheory", "open MeasureTheory\nopen scoped Real", "G2", "a global `open`"),
    "export": ("open MeasureTheory", "open MeasureTheory\nexport Nat (succ)", "G3", "export"),
    "a scoped notation reopened": (
        "open MeasureTheory",
        'open MeasureTheory\nnamespace Zq\nscoped notation "ℝ" => ℕ\nend Zq\nopen Zq',
        "G3",
        "notation",
    ),
    "attribute [reducible] on a statement constant": (
        "open MeasureTheory",
        "open MeasureTheory\nattribute [reducible] Set.ncard",
        "G3",
        "attribute",
    ),
    "attribute [simp] on a statement constant": (
        "open MeasureTheory",
        "open MeasureTheory\nattribute [simp] Set.ncard",
        "G3",
        "attribute",
    ),
    "deriving instance": ("open MeasureTheory", "open MeasureTheory\nderiving instance Repr for Set", "G3", "instance"),
    "include at top level": ("open MeasureTheory", "open MeasureTheory\ninclude zz", "G2", "not a permitted addition"),
    "omit at top level": ("open MeasureTheory", "open MeasureTheory\nomit zz", "G2", "not a permitted addition"),
    "seal": ("open MeasureTheory", "open MeasureTheory\nseal Set.ncard", "G2", "not a permitted addition"),
    "unseal": ("open MeasureTheory", "open MeasureTheory\nunseal Set.ncard", "G2", "not a permitted addition"),
    "a private helper named like a statement name": (
        "open MeasureTheory",
        "open MeasureTheory\nprivate def Collinear : Prop := True",
        "G2",
        "is a name the challenge uses",
    ),
}
"""Red team 15's attempts on the statement's names, attributes and scope; each is refused (most by earlier
rounds' rules), listed so that they stay so."""


@pytest.mark.parametrize("case", sorted(STATEMENT_TRICKS))
def test_statement_tricks_stay_refused(lean_putnambench: Benchmark, case: str) -> None:
    old, new, gate, rule = STATEMENT_TRICKS[case]
    text = lean_filled(lean_putnambench, PLAIN, proof="by\n  simp")
    verdict = lean_text_verdict(lean_putnambench, PLAIN, text.replace(old, new, 1))
    assert verdict.status == "rejected"
    assert rule in failures(verdict).get(gate, ""), failures(verdict)


SOUND_SCOPES = {
    "an option for the theorem": "set_option maxHeartbeats 400000 in\n",
    "an open in a closed section": "section\nopen Classical\nend\n\n",
    "a noncomputable section left open": "noncomputable section\n\n",
    "include and omit in a closed section": "section\nvariable (zz : ℕ)\ninclude zz\nomit zz\nend\n\n",
    "an open ... in a helper": "open Classical in\ntheorem zz_h : True := trivial\n\n",
}


@pytest.mark.parametrize("case", sorted(SOUND_SCOPES))
def test_sound_scoped_additions_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PLAIN, before=SOUND_SCOPES[case])
    verdict = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert verdict.status == "accepted", failures(verdict)


def _aliases(count: int) -> str:
    lets = "".join(f"let g{k + 1} := g{k}; " for k in range(count))
    return f"fun n => let g0 := AliceHasWinningStrategy; {lets}g{count} n"


def test_a_copy_behind_a_few_aliases_is_read_through(lean_putnambench: Benchmark) -> None:
    verdict = _game(lean_putnambench, _aliases(8))
    assert "the other side of the statement's own `↔`" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize(
    "value",
    [
        _aliases(60),
        "fun n => (fun _ => AliceHasWinningStrategy n) ("
        + " ".join(["show True from by exact (match 0 with | _ => trivial)"] * 16_000)
        + ")",
    ],
    ids=["more aliases than passes", "padding past the work budget"],
)
def test_a_value_the_rewrites_cannot_finish_is_refused(lean_putnambench: Benchmark, value: str) -> None:
    """Padding a copy until a bound stops the rewrites would hide it: meeting a bound refuses the value.

    A text gate that runs past its time bound ends as an ``error``, so ``rejected`` also shows the work stayed
    within it (no wall-clock assertion of our own: the machines are shared)."""
    verdict = _game(lean_putnambench, value)
    assert verdict.status == "rejected"
    assert "nest too deep" in failures(verdict).get("G2", "") or "other side" in failures(verdict).get("G2", "")
