"""The benchmark theorem inside a ``Section ... End`` the candidate closes (``sections.py``).

PutnamBench's early Coq files put each problem in a section of its own (``Section putnam_2004_a6. ...
End putnam_2004_a6.``), so a model may well answer in that layout. It was refused by G2 (the section
swallowed the theorem as a helper of the challenge's name) and G3 (an assumption of a section open at the
theorem). Closing the section generalises the theorem over what it uses of the section: what decides is
the type the kernel holds after ``End``, which G5 checks against the pinned statement. No published proof
in this layout was found (``find_string "End putnam"``, code search of ``Section putnam ... Qed ... End``:
statements ending in ``Admitted``/``Abort`` only), so these are written here, on ``putnam_1962_a6``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.sections import section_assumptions
from putnam_solver.core.provers.rocq.syntax import sentences
from putnam_solver.core.verify import Profile, Track
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous
from tests.adversarial.test_rocq_redteam14 import verdict as vacuous_verdict
from tests.adversarial.test_rocq_redteam20 import PROOF, a6, stopping
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, rocq_full_verdict

USE_H = PROOF.replace("Proof. intros.", "Proof. intros. pose proof zzh as zz0.")
"""The published proof, with the section's ``zzh`` used (so its ``End`` makes it a premise if it is an assumption)."""
END = "\nEnd zzS.\n"

SOUND: dict[str, tuple[str, str, str]] = {
    "no declaration": ("Section zzS.\n", PROOF, END),
    "the problem's name": ("Section putnam_1962_a6.\n", PROOF, "\nEnd putnam_1962_a6.\n"),
    "an unused Variable": ("Section zzS.\nVariable zzv : nat.\n", PROOF, END),
    "an unused Hypothesis": ("Section zzS.\nHypothesis zzh : False.\n", PROOF, END),
    "an unused Context": ("Section zzS.\nContext (zzc : Coq.Init.Logic.inhabited nat).\n", PROOF, END),
    "a Let the proof uses": ("Section zzS.\nLet zzh := 1%nat.\n", USE_H, END),
    "a helper lemma before": ("Section zzS.\nLemma zzl : True. Proof. exact I. Qed.\n", PROOF, END),
    "nested sections": ("Section zzS.\nVariable zzv : nat.\nSection zzT.\n", PROOF, "\nEnd zzT.\nEnd zzS.\n"),
    "a closed section inside": ("Section zzS.\nSection zzT.\nVariable zzv : False.\nEnd zzT.\n", PROOF, END),
}
"""Sections around the theorem whose ``End`` leaves its type the pinned one: (before, proof, after)."""

EXTRA_PREMISE: dict[str, tuple[str, str, str]] = {
    "a Hypothesis the proof uses": (
        "Section zzS.\nHypothesis zzh : False.\n",
        "Proof. intros. destruct zzh. Qed.",
        END,
    ),
    "a true Hypothesis the proof uses": ("Section zzS.\nHypothesis zzh : True.\n", USE_H, END),
    "a Variable the proof uses": ("Section zzS.\nVariable zzh : nat.\n", USE_H, END),
    "a Context the proof uses": ("Section zzS.\nContext (zzh : False).\n", "Proof. intros. destruct zzh. Qed.", END),
    "through abstract": (
        "Section zzS.\nHypothesis zzh : False.\n",
        "Proof. intros. abstract (destruct zzh). Qed.",
        END,
    ),
    "through a helper lemma": (
        "Section zzS.\nHypothesis zzh : False.\nLemma zzl : False. Proof. exact zzh. Qed.\n",
        "Proof. intros. destruct zzl. Qed.",
        END,
    ),
    "in the inner of two sections": (
        "Section zzS.\nSection zzT.\nHypothesis zzh : False.\n",
        "Proof. intros. destruct zzh. Qed.",
        "\nEnd zzT.\nEnd zzS.\n",
    ),
}
"""Sections whose ``End`` makes one of theirs a premise of the theorem: its type is no longer the statement."""


def _text_verdict(case: tuple[str, str, str], profile: Profile) -> dict[str, str]:
    return failures(stopping("putnam_1962_a6", a6(*case), profile, Track.WITH_ANSWER))


@pytest.mark.parametrize("name", sorted(SOUND))
def test_a_section_around_the_theorem_passes_the_text_gates_of_the_full_profile(name: str) -> None:
    assert _text_verdict(SOUND[name], Profile.FULL).keys() <= {"G4", "G5", "G6"}


def test_a_section_without_declarations_is_a_scope_on_every_profile() -> None:
    for profile in (Profile.TEXT, Profile.FAST):
        assert _text_verdict(SOUND["no declaration"], profile) == {}, profile


@pytest.mark.parametrize("name", ["an unused Variable", "a Let the proof uses", "nested sections"])
def test_declarations_in_a_section_around_the_theorem_need_the_statement_check(name: str) -> None:
    """Only G5 can tell whether ``End`` made one a premise: the ``text`` and ``fast`` profiles refuse them."""
    for profile in (Profile.TEXT, Profile.FAST):
        found = _text_verdict(SOUND[name], profile)
        assert "a section of yours that holds the theorem" in found.get("G2", ""), (profile, found)


@needs_coq
@pytest.mark.parametrize("name", sorted(SOUND))
def test_a_section_around_the_theorem_is_accepted_when_its_end_leaves_the_statement(name: str) -> None:
    v = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1962_a6", a6(*SOUND[name]))
    assert v.status == "accepted", failures(v)


@needs_coq
@pytest.mark.parametrize("name", sorted(EXTRA_PREMISE))
def test_an_assumption_the_end_makes_a_premise_fails_the_statement_check(name: str) -> None:
    """Every text gate passes (the layout is allowed); G5 finds the premise in the kernel's type."""
    v = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1962_a6", a6(*EXTRA_PREMISE[name]))
    assert v.status == "rejected" and set(failures(v)) == {"G5"}, failures(v)
    assert "does not prove the challenge statement" in failures(v)["G5"]


REFUSED: dict[str, tuple[tuple[str, str, str], str]] = {
    "closed after a helper": (
        ("Section zzS.\n", PROOF, "\nLemma zzx : True. Proof. exact I. Qed.\nEnd zzS.\n"),
        "close it (`End zzS.`) right after its proof",
    ),
    "never closed": (("Section zzS.\n", PROOF, ""), "close it (`End zzS.`) right after its proof"),
    "closed under another name": (("Section zzS.\n", PROOF, "\nEnd zzT.\n"), "right after its proof"),
    "Proof using in the section (rocq#19861)": (
        ("Section zzS.\nHypothesis zzh : False.\n", "Proof using. intros. abstract (destruct zzh). Qed.", END),
        "rocq#19861",
    ),
    "the theorem edited": (
        ("Section zzS.\n", PROOF, END),
        "differs from the challenge's statement",
    ),
}
"""Refused by rule whatever the profile: (candidate parts, part of the refusal)."""


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_section_around_the_theorem_that_breaks_a_rule_is_refused(name: str) -> None:
    case, expected = REFUSED[name]
    text = a6(*case)
    if name == "the theorem edited":
        text = text.replace("(A : Ensemble Q)", "(A : Ensemble Q) (zzx : True)")
    found = failures(stopping("putnam_1962_a6", text, Profile.FULL, Track.WITH_ANSWER))
    assert any(expected in detail for detail in found.values()), found


def test_an_assumption_added_in_the_challenges_own_section_stays_refused() -> None:
    """``section_assumptions``: only a section the candidate opens is its to fill."""
    sents = sentences("Section S.\nVariable v : nat.\nTheorem t : True.\nProof. exact I. Qed.\nEnd S.\n")
    assert section_assumptions(sents, 2, frozenset({0, 1, 3, 4, 5, 6})) == {1}  # the candidate's section
    assert section_assumptions(sents, 2, frozenset({1, 3, 4, 5})) == frozenset()  # the challenge's


def _held_vacuous(answer: str) -> str:
    """The published ``putnam_2013_b2`` with ``answer``, its theorem in a section with an unused ``Variable``."""
    text = vacuous(answer)
    at = text.index("Theorem putnam_2013_b2")
    return text[:at] + "Section zzS.\nVariable zzv : nat.\n" + text[at:].rstrip() + "\nEnd zzS.\n"


@needs_coq
def test_a_section_around_the_theorem_leaves_the_answer_check_deciding() -> None:
    """No-answer: the official answer accepted, a wrong one still disputed, the theorem in a section."""
    right = vacuous_verdict(_held_vacuous("3"))
    assert right.status == "accepted", failures(right)
    wrong = vacuous_verdict(_held_vacuous("4"))
    assert wrong.status == "disputed" and check_status(wrong) == "differs", (wrong.status, wrong.answers)
