"""Attributes on the candidate's own helpers (``_attributes``): the simp set, the helper's own reducibility
and compiler hints cannot change the statement, so a sound proof that uses them is accepted; the same
attributes where they could reach the statement (the theorem, a pinned declaration, an instance, an
answer's auxiliary definitions, a library constant) and attributes that register code stay refused."""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_BENCH, failures, lean_filled, lean_text_verdict

BENCHMARK = LEAN_BENCH
B5 = "putnam_1997_b5"  # `def tetration` pinned, no solution
A2 = "putnam_2020_a2"  # a solution `ℕ → ℕ`
USES = "by\n  simp [helper_fn, helper_fact] <;> linarith"
FN = "def helper_fn (m : ℕ) : ℕ := m\n"
FACT = "lemma helper_fact (m : ℕ) : helper_fn m = m := rfl\n"


def outcome(bench: Benchmark, candidate: str, problem: str = B5, track: Track = Track.WITH_ANSWER) -> tuple[str, str]:
    verdict = lean_text_verdict(bench, problem, candidate, track)
    return verdict.status, "\n".join(f"{gate}: {why}" for gate, why in failures(verdict).items())


def with_helpers(bench: Benchmark, fn: str = FN, fact: str = FACT, after: str = "") -> str:
    return lean_filled(bench, B5, proof=USES, before=fn + fact, after=after)


VALID = {
    "simp": (FN, "@[simp] " + FACT),
    "reducible": ("@[reducible] " + FN, FACT),
    "irreducible": (
        "@[irreducible] " + FN,
        "lemma helper_fact (m : ℕ) : helper_fn m = m := by\n  unfold helper_fn; rfl\n",
    ),
    "inline": ("@[inline] " + FN, FACT),
    "noinline": ("@[noinline] " + FN, FACT),
    "specialize": ("@[specialize] " + FN, FACT),
    "several in one list": ("@[simp, reducible, inline] " + FN, FACT),
    "several lists, a docstring and modifiers": ("/-- doc -/\n@[reducible] @[inline] private " + FN, FACT),
    "simp with a direction and a priority": (FN, "@[simp ←, simp 100] " + FACT),
    "local simp in a section": ("section\n" + FN, "@[local simp] " + FACT + "end\n"),
    "scoped simp in the problem's namespace": (
        "namespace Putnam1997B5\n" + FN,
        "@[scoped simp] " + FACT + "end Putnam1997B5\nopen Putnam1997B5 in\nexample : helper_fn 1 = 1 := by simp\n",
    ),
    "attribute [local simp] in a section": (
        "section\n" + FN,
        "attribute [local simp] helper_fact\n" + FACT.replace("helper_fact", "h2") + "end\n",
    ),
}


@pytest.mark.parametrize("case", VALID)
def test_an_allowed_attribute_on_an_own_helper_is_accepted(bench: Benchmark, case: str) -> None:
    fn, fact = VALID[case]
    status, why = outcome(bench, with_helpers(bench, fn, fact))
    assert status == "accepted", why


def test_attributes_on_helpers_after_the_theorem_and_in_where_clauses_are_accepted(bench: Benchmark) -> None:
    after = "@[reducible, specialize] def later (m : ℕ) : ℕ := m\n"
    where = f"{USES}\nwhere\n  @[simp, irreducible] aux : ℕ := 0"
    texts = (with_helpers(bench, after=after), lean_filled(bench, B5, proof=where, before=FN + FACT))
    assert [outcome(bench, text) for text in texts] == [("accepted", "")] * 2


REFUSED = {
    "instance": "@[instance] def helper_inst : Inhabited ℕ := ⟨0⟩\n",
    "escaped instance": "@[«instance»] def helper_inst : Inhabited ℕ := ⟨0⟩\n",
    "default_instance": "@[default_instance] def helper_inst : Inhabited ℕ := ⟨0⟩\n",
    "coe": "@[coe] def helper_coe (m : ℕ) : ℤ := m\n",
    "csimp": "@[csimp] theorem helper_eq : @id = @id := rfl\n",
    "implemented_by": "@[implemented_by id] def helper_fn2 (m : ℕ) : ℕ := m\n",
    "extern": '@[extern "f"] def helper_fn2 (m : ℕ) : ℕ := m\n',
    "export": "@[export helper_c] def helper_fn2 (m : ℕ) : ℕ := m\n",
    "init": "@[init] def helper_fn2 : IO Unit := pure ()\n",
    "macro": "@[macro Lean.Parser.Term.paren] def helper_m : Nat := 0\n",
    "term_elab": "@[term_elab paren] def helper_m : Nat := 0\n",
    "simproc": "@[simproc] def helper_m : Nat := 0\n",
    "app_unexpander": "@[app_unexpander helper_fn] def helper_m : Nat := 0\n",
    "an allowed one beside a refused one": "@[simp, instance] def helper_inst : Inhabited ℕ := ⟨0⟩\n",
    "reducible with an argument": "@[reducible 5] def helper_fn2 (m : ℕ) : ℕ := m\n",
    "simp with a term argument": "@[simp (helper_fn 0)] lemma helper_l : True := trivial\n",
    "an unclosed list": "@[reducible def helper_fn2 (m : ℕ) : ℕ := m\n",
}


@pytest.mark.parametrize("case", REFUSED)
def test_an_attribute_that_registers_code_or_steers_elaboration_is_refused(bench: Benchmark, case: str) -> None:
    status, why = outcome(bench, lean_filled(bench, B5, before=REFUSED[case] + FN + FACT, proof=USES))
    assert status == "rejected" and "attribute" in why, why


@pytest.mark.parametrize("attribute", ["@[simp]", "@[reducible]", "@[irreducible]", "@[inline]"])
def test_an_attribute_on_the_theorem_or_a_pinned_declaration_is_a_changed_statement(
    bench: Benchmark, attribute: str
) -> None:
    text = with_helpers(bench)
    for changed in (
        text.replace(f"theorem {B5}", f"{attribute} theorem {B5}"),
        text.replace("def tetration", f"{attribute} def tetration"),
    ):
        status, why = outcome(bench, changed)
        assert status == "rejected" and "differs from the challenge" in why, why


def test_an_instance_keeps_only_simp(bench: Benchmark) -> None:
    instance = "@[reducible] instance helperInst : Inhabited ℕ := ⟨0⟩\n"
    status, why = outcome(bench, lean_filled(bench, B5, before=instance + FN + FACT, proof=USES))
    assert status == "rejected" and "`@[reducible]`: attribute not permitted" in why, why
    simp_instance = "@[simp] instance helperInst : Inhabited ℕ := ⟨0⟩\n"
    status, why = outcome(bench, lean_filled(bench, B5, before=simp_instance + FN + FACT, proof=USES))
    assert status == "rejected" and "instance" in why, why


def test_an_answers_auxiliary_definition_keeps_only_simp(bench: Benchmark) -> None:
    no = Track.NO_ANSWER
    plain = lean_filled(
        bench, A2, no, proof=USES, before=FN + FACT, value="aux where @[simp] aux : ℕ → ℕ := fun _ => 0"
    )
    status, why = outcome(bench, plain, A2, no)
    assert "attribute" not in why, why
    steered = plain.replace("@[simp] aux", "@[irreducible] aux")
    status, why = outcome(bench, steered, A2, no)
    assert status == "rejected" and "`@[irreducible]`: attribute not permitted" in why, why


def test_an_attribute_command_on_a_library_constant_stays_refused(bench: Benchmark) -> None:
    for command in (
        "attribute [simp] Nat.add_comm\n",
        "attribute [irreducible] Nat.add\n",
        FN + "attribute [reducible] helper_fn\n",
    ):
        status, why = outcome(
            bench, lean_filled(bench, B5, before=command + FACT.replace("helper_fn m", "m"), proof=USES)
        )
        assert status == "rejected" and "attribute" in why, why


def test_a_reducible_helper_cannot_become_what_the_statement_means(bench: Benchmark) -> None:
    """The only way to make the statement reach a reducible helper is to name it there: a changed statement,
    or a helper that takes a name the statement uses."""
    reducible = "@[reducible] def tetration' : ℕ → ℕ → ℕ := fun _ _ => 0\n"
    edited = lean_filled(bench, B5, proof=USES, before=reducible + FN + FACT).replace(
        ": tetration 2 n", ": tetration' 2 n"
    )
    status, why = outcome(bench, edited)
    assert status == "rejected" and "differs from the challenge" in why, why
    shadow = "namespace Foo\n@[reducible] def tetration : ℕ → ℕ → ℕ := fun _ _ => 0\nend Foo\n"
    status, why = outcome(bench, lean_filled(bench, B5, proof=USES, before=shadow + FN + FACT))
    assert status != "accepted", why
