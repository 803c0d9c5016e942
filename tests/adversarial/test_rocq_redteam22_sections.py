"""Red team 22: the benchmark theorem in a section the candidate opens and closes (``sections.py``).

Each attack is run with coqc 8.16 on PutnamBench's ``putnam_1962_a6`` (and ``putnam_1969_b5``, whose
statement opens a section of its own) and compared with the same command outside a section. The one hole
found: coqc takes a ``Hypothesis`` or ``Context`` declared in a helper's proof as one of the enclosing
section (``Lemma l : True. Proof. Hypothesis h : False. exact I. Qed.`` leaves ``h`` in scope of every
later lemma), and G2 counted only the section's own sentences when it decided whether the section declares
anything (class 1, every profile) or needs the statement check (class 2). So a section holding the theorem
with a ``Hypothesis h : False`` in a helper's proof was accepted on the ``text`` and ``fast`` profiles,
the theorem proving ``False -> statement`` (G5 refused it on ``full``). G2 now reads the whole section up
to its ``End`` (``declares_locals``); a section nested in it and closed discharges its own.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.sections import declares_locals
from putnam_solver.core.provers.rocq.syntax import sentences
from putnam_solver.core.verify import Profile, Track
from tests.adversarial.test_rocq_false_rejections import B5, b5
from tests.adversarial.test_rocq_redteam20 import PROOF, a6, stopping
from tests.adversarial.test_rocq_theorem_in_section import END, USE_H
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, rocq_full_verdict

FALSE = "Proof. intros. destruct zzh. Qed."
"""A proof of the theorem from the section's ``zzh : False``."""
HELPER_HYPOTHESIS = "Lemma zzl : True. Proof. Hypothesis zzh : False. exact I. Qed.\n"
NEEDS_G5 = "a section of yours that holds the theorem and declares assumptions"

IN_A_PROOF: dict[str, tuple[str, str, str]] = {
    "a Hypothesis in a helper's proof": ("Section zzS.\n" + HELPER_HYPOTHESIS, FALSE, END),
    "a Context in a helper's proof": (
        "Section zzS.\nLemma zzl : True. Proof. Context (zzh : False). exact I. Qed.\n",
        FALSE,
        END,
    ),
    "in the outer section, an inner one holding the theorem": (
        "Section zzS.\n" + HELPER_HYPOTHESIS + "Section zzT.\n",
        FALSE,
        "\nEnd zzT.\nEnd zzS.\n",
    ),
    "a Hypothesis in a helper's proof in an inner section holding the theorem": (
        "Section zzS.\nSection zzT.\n" + HELPER_HYPOTHESIS,
        FALSE,
        "\nEnd zzT.\nEnd zzS.\n",
    ),
}
"""Assumptions declared in a proof, used by the theorem: its ``End`` makes them premises (coqc: G5 fails)."""


def _text(case: tuple[str, str, str], profile: Profile) -> dict[str, str]:
    return failures(stopping("putnam_1962_a6", a6(*case), profile, Track.WITH_ANSWER))


@pytest.mark.parametrize("name", sorted(IN_A_PROOF))
def test_an_assumption_declared_in_a_proof_needs_the_statement_check(name: str) -> None:
    """Was accepted on ``text`` and ``fast`` (class 1): the theorem proved ``False -> statement``."""
    for profile in (Profile.TEXT, Profile.FAST):
        assert NEEDS_G5 in _text(IN_A_PROOF[name], profile).get("G2", ""), profile


def test_an_assumption_declared_in_the_theorems_own_proof_needs_the_statement_check() -> None:
    case = ("Section zzS.\n", "Proof. Hypothesis zzh : False. intros. destruct zzh. Qed.", END)
    for profile in (Profile.TEXT, Profile.FAST):
        assert NEEDS_G5 in _text(case, profile).get("G2", ""), profile


def test_outside_a_section_the_same_hypothesis_is_an_axiom() -> None:
    found = _text((HELPER_HYPOTHESIS, FALSE, ""), Profile.TEXT)
    assert "declares an assumption instead of proving it" in found.get("G3", ""), found


@needs_coq
@pytest.mark.parametrize("name", sorted(IN_A_PROOF))
def test_an_assumption_declared_in_a_proof_fails_the_statement_check(name: str) -> None:
    v = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1962_a6", a6(*IN_A_PROOF[name]))
    assert v.status == "rejected" and set(failures(v)) == {"G5"}, failures(v)


def _b5(before: str, after: str) -> str:
    return b5(before).replace("Proof.\nQed.", FALSE + after)


B5_ATTACKS: dict[str, tuple[str, str, str]] = {
    "a section of yours in the challenge's, a Hypothesis": (
        "Section zzS.\nHypothesis zzh : False.\n",
        "\nEnd zzS.",
        "G5",
    ),
    "a section of yours in the challenge's, a Hypothesis in a proof": (
        "Section zzS.\n" + HELPER_HYPOTHESIS,
        "\nEnd zzS.",
        "G5",
    ),
    "the challenge's section, a Hypothesis in a proof": (HELPER_HYPOTHESIS, "", "G3"),
    "a section of yours of the challenge's section's name": (
        "Section putnam_1969_b5.\n" + HELPER_HYPOTHESIS,
        "\nEnd putnam_1969_b5.",
        "G5",
    ),
    "the challenge's section closed and opened again": (
        "End putnam_1969_b5.\nSection putnam_1969_b5.\nHypothesis zzh : False.\n",
        "",
        "G2",
    ),
}
"""``putnam_1969_b5`` (the statement opens ``Section putnam_1969_b5``): (before the theorem, after its proof, gate)."""


@pytest.mark.parametrize("name", sorted(B5_ATTACKS))
def test_a_section_inside_the_challenges_section_needs_the_statement_check(name: str) -> None:
    before, after, gate = B5_ATTACKS[name]
    for profile in (Profile.TEXT, Profile.FAST):
        found = failures(stopping(B5, _b5(before, after), profile, Track.WITH_ANSWER))
        assert (NEEDS_G5 in found.get("G2", "")) if gate == "G5" else gate in found, (profile, found)


@needs_coq
@pytest.mark.parametrize("name", sorted(B5_ATTACKS))
def test_a_section_inside_the_challenges_section_is_refused(name: str) -> None:
    before, after, gate = B5_ATTACKS[name]
    v = rocq_full_verdict(pinned(COQ_BENCH), B5, _b5(before, after))
    assert v.status == "rejected" and gate in failures(v), failures(v)


REFUSED_BY_RULE: dict[str, tuple[str, str, str]] = {
    "Local Notation": ("Local Notation \"'Q'\" := nat.\n", "G3", "changes what notation means"),
    "Local Open Scope": ("Local Open Scope nat_scope.\n", "G2", "it can change how the statement"),
    "Implicit Types": ("Implicit Types A : nat.\n", "G2", "the `full` profile (G5's trusted"),
    "Local Unset Guard Checking": ("Local Unset Guard Checking.\n", "G3", "disables a kernel check"),
    "Local Set Universe Polymorphism": ("Local Set Universe Polymorphism.\n", "G2", "Universe Polymorphism"),
    "Generalizable All Variables": ("Generalizable All Variables.\n", "G2", "the `full` profile (G5's trusted"),
    "Collection": ("Variable zzh : False.\nCollection zzc := zzh.\n", "G2", "`Collection` is not a"),
    "a Definition shadowing the statement": ("Definition Ensemble (U : Type) := U -> True.\n", "G2", "a word of"),
    "a Let shadowing the statement": ("Let Ensemble (U : Type) := U -> True.\n", "G2", "a word of"),
    "Let Fixpoint": (
        "Let Fixpoint zzf (n : nat) : nat := match n with 0 => 0 | S m => zzf m end.\n",
        "G3",
        "recursion",
    ),
    "Redirect Variable": ('Redirect "zzf" Variable zzh : False.\n', "G3", "outside the kernel"),
    "a Module in the section": ("Module zzM.\n", "G3", "modules can rebind"),
    "a section-local Universe": ("Universe zzu.\n", "G2", "`Universe` is not a permitted"),
    "Local Canonical Structure": (
        "Local Canonical Structure zzc := Build_Equivalence.\n",
        "G3",
        "changes elaboration through instances",
    ),
    "Time Hypothesis": ("Time Hypothesis zzh : False.\n", "G2", NEEDS_G5),
    "#[local] Hypothesis": ("#[local] Hypothesis zzh : False.\n", "G2", NEEDS_G5),
    "Context with an instance binder": ("Context `{zzh : False}.\n", "G2", NEEDS_G5),
    "Context with an implicit binder": ("Context {zzh : False}.\n", "G2", NEEDS_G5),
    "a section of the same name inside": ("Hypothesis zzh : False.\nSection zzS.\n", "G2", NEEDS_G5),
}
"""Section-local commands before the theorem: (command, gate, part of its refusal) on ``text`` and ``fast``
(``full`` alike, or G5/G4 where the text gates leave it to the statement check or coqc). Outside a section
each is refused alike, or is an axiom G3 refuses."""


@pytest.mark.parametrize("name", sorted(REFUSED_BY_RULE))
def test_a_section_local_command_before_the_theorem_is_refused(name: str) -> None:
    command, gate, expected = REFUSED_BY_RULE[name]
    after = "\nEnd zzS.\nEnd zzS.\n" if name == "a section of the same name inside" else END
    after = "\nEnd zzS.\nEnd zzM.\n" if name == "a Module in the section" else after
    case = ("Section zzS.\n" + command, FALSE if "zzh" in command else PROOF, after)
    for profile in (Profile.TEXT, Profile.FAST):
        found = _text(case, profile)
        assert expected in found.get(gate, ""), (profile, found)


SOUND: dict[str, tuple[str, str, str]] = {
    "a Hypothesis in a helper's proof in a section closed before": (
        "Section zzS.\nSection zzT.\n" + HELPER_HYPOTHESIS + "End zzT.\n",
        PROOF,
        END,
    ),
    "a local hint": ("Section zzS.\n#[local] Hint Extern 1 => exfalso : core.\n", PROOF, END),
}
"""Sound sections around the theorem that stay class 1 (every profile)."""


@pytest.mark.parametrize("name", sorted(SOUND))
def test_a_section_whose_assumptions_are_discharged_before_the_theorem_is_a_scope(name: str) -> None:
    for profile in (Profile.TEXT, Profile.FAST):
        assert _text(SOUND[name], profile) == {}, profile


@needs_coq
@pytest.mark.parametrize("name", [*sorted(SOUND), "a Let in a helper's proof"])
def test_sound_sections_around_the_theorem_are_accepted(name: str) -> None:
    let_in_proof = ("Section zzS.\nLemma zzl : True. Proof. Let zzh := 1%nat. exact I. Qed.\n", USE_H, END)
    case = let_in_proof if name == "a Let in a helper's proof" else SOUND[name]
    v = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1962_a6", a6(*case))
    assert v.status == "accepted", failures(v)


def test_declares_locals_reads_the_section_up_to_its_end() -> None:
    def at(text: str) -> bool:
        return declares_locals(sentences(text), 1)

    assert at("Section S.\nLemma l : True. Proof. Hypothesis h : False. exact I. Qed.\nEnd S.\n")
    assert at("Section S.\nTheorem t : True. Proof. Let x := 1. exact I. Qed.\nEnd S.\n")
    assert at("Section S.\nSection T.\nEnd T.\nContext (c : nat).\nEnd S.\n")
    assert not at("Section S.\nSection T.\nVariable v : nat.\nEnd T.\nLemma l : True. Proof. exact I. Qed.\nEnd S.\n")
    assert not at("Section S.\nEnd S.\nVariable v : nat.\n")
