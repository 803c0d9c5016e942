"""Pasting a proved lemma into the skeleton it was a hole of (``Interactive.paste_lemma``), text only: the
hole is found by its declaration (name and statement), whatever its layout, and the doc comment,
attributes and statement the skeleton wrote stay; a proved lemma of another statement or another name is
never pasted. (``test_agent_sketch`` and ``test_agent_lean_toy`` compile pasted files with the real tools.)"""

from __future__ import annotations

import pytest

from putnam_solver.core.verify import Track
from putnam_solver.kits import get_kit
from putnam_solver.kits.interactive import Interactive


def interactive(prover: str) -> Interactive:
    found = get_kit(prover).interactive()
    assert found is not None
    return found


LEAN, ROCQ = interactive("lean"), interactive("rocq")

LEAN_CHALLENGE = "import Mathlib\n\ntheorem putnam_y (x : ℝ) (h : 0 < x) : 0 < x ^ 2 :=\nsorry\n"
LEAN_LEMMA = (
    "/-- Squares of positives are positive. -/\n"
    "@[simp] lemma sq_pos' (x : ℝ)\n    (h : 0 < x) : 0 < x * x := by\n  sorry\n\n"
)
LEAN_MAIN = "theorem putnam_y (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by simpa [sq] using sq_pos' x h\n"
LEAN_SKELETON = "import Mathlib\n\n" + LEAN_LEMMA + LEAN_MAIN
LEAN_PROOF = "by\n  have hx := h\n  positivity"  # a ``:=`` of the proof's own, after the statement's

ROCQ_CHALLENGE = "Require Import Reals.\nOpen Scope R.\nTheorem putnam_x : 0 < 4.\nProof.\nAdmitted.\n"
ROCQ_LEMMA = "(** Two is positive. *)\n#[local] Lemma two_pos :\n  0 < 2.\n(* by lra *)\nProof. admit. Admitted.\n"
ROCQ_MAIN = "Theorem putnam_x : 0 < 4.\nProof.\n  pose proof two_pos. lra.\nQed.\n"
ROCQ_SKELETON = "Require Import Reals.\nOpen Scope R.\n" + ROCQ_LEMMA + ROCQ_MAIN
ROCQ_PROOF = "Proof.\n  lra.\nQed."


def lean_proved(name: str = "sq_pos'", statement: str = "0 < x * x") -> str:
    """A proved lemma's text as a sub-attempt's lemma file gives it (``lemma_text`` of its statement file)."""
    file = LEAN.lemma_statement(LEAN_CHALLENGE, LEAN_SKELETON, "sq_pos'", Track.WITH_ANSWER)
    proved = file.replace(":=\nsorry", f":= {LEAN_PROOF}").replace("0 < x * x", statement)
    return LEAN.lemma_text(file, proved).replace("sq_pos'", name)


def rocq_proved(name: str = "two_pos", statement: str = "0 < 2") -> str:
    file = ROCQ.lemma_statement(ROCQ_CHALLENGE, ROCQ_SKELETON, "two_pos", Track.WITH_ANSWER)
    proved = file.replace("Proof.\nAdmitted.", ROCQ_PROOF).replace("0 < 2", statement)
    return ROCQ.lemma_text(file, proved).replace("two_pos", name)


def test_a_lean_lemma_with_a_doc_comment_an_attribute_and_a_tactic_hole_is_pasted() -> None:
    pasted = LEAN.paste_lemma(LEAN_SKELETON, "sq_pos'", lean_proved())
    kept = LEAN_LEMMA.split(":= by")[0]  # doc comment, attribute, keyword, statement: as the skeleton wrote them
    assert pasted == f"import Mathlib\n\n{kept}:= {LEAN_PROOF}\n\n{LEAN_MAIN}"
    assert LEAN.holes(LEAN_CHALLENGE, pasted) == []


def test_a_lean_lemma_s_own_helpers_go_before_its_doc_comment() -> None:
    helper = "theorem mul_self_pos' (x : ℝ) (h : 0 < x) : 0 < x * x := mul_pos h h\n\n"
    pasted = LEAN.paste_lemma(LEAN_SKELETON, "sq_pos'", helper + lean_proved())
    assert pasted is not None and pasted.startswith(f"import Mathlib\n\n{helper}/-- Squares of positives")


@pytest.mark.parametrize(
    ("skeleton", "proved"),
    [
        (LEAN_SKELETON, lean_proved(statement="0 ≤ x * x")),  # another statement, same name
        (LEAN_SKELETON, lean_proved(name="sq_pos''")),  # the same statement under another name
        (LEAN_SKELETON.replace("  sorry\n", "  positivity\n"), lean_proved()),  # no hole left there
        (LEAN_SKELETON + "\ntheorem sq_pos' : True := trivial\n", lean_proved()),  # the name declared twice
        (LEAN_SKELETON, lean_proved() + "\ntheorem sq_pos' : True := trivial\n"),  # ... in the proved text
        (LEAN_SKELETON, "theorem sq_pos' (x : ℝ) (h : 0 < x) : 0 < x * x\n"),  # no proof at all
    ],
    ids=["other-statement", "other-name", "no-hole", "twice-in-skeleton", "twice-in-proof", "no-proof"],
)
def test_a_lean_lemma_is_not_pasted_unless_its_declaration_is_the_hole_s(skeleton: str, proved: str) -> None:
    assert LEAN.paste_lemma(skeleton, "sq_pos'", proved) is None


def test_a_rocq_lemma_with_a_comment_an_attribute_and_an_admit_hole_is_pasted() -> None:
    pasted = ROCQ.paste_lemma(ROCQ_SKELETON, "two_pos", rocq_proved())
    assert pasted == (
        "Require Import Reals.\nOpen Scope R.\n(** Two is positive. *)\n#[local] Lemma two_pos :\n  0 < 2.\n"
        f"{ROCQ_PROOF}\n{ROCQ_MAIN}"
    )
    assert ROCQ.holes(ROCQ_CHALLENGE, pasted) == []


def test_a_rocq_hole_without_proof_keyword_is_pasted_with_the_lemma_s_helpers_before_it() -> None:
    skeleton = ROCQ_SKELETON.replace("(* by lra *)\nProof. admit. Admitted.\n", "Admitted.\n")
    helper = "Lemma one_pos : 0 < 1.\nProof. lra. Qed.\n"
    pasted = ROCQ.paste_lemma(skeleton, "two_pos", helper + rocq_proved())
    assert pasted is not None and f"{helper}#[local] Lemma two_pos :\n  0 < 2.\n{ROCQ_PROOF}\n" in pasted
    assert pasted.index("(** Two is positive. *)") < pasted.index(helper)


@pytest.mark.parametrize(
    ("skeleton", "proved"),
    [
        (ROCQ_SKELETON, rocq_proved(statement="0 < 3")),
        (ROCQ_SKELETON, rocq_proved(name="two_pos'")),
        (ROCQ_SKELETON.replace("Proof. admit. Admitted.", "Proof. lra. Qed."), rocq_proved()),
        (ROCQ_SKELETON + "Definition two_pos := 2.\n", rocq_proved()),
        (ROCQ_SKELETON, "Lemma two_pos : 0 < 2.\n"),
    ],
    ids=["other-statement", "other-name", "no-hole", "twice-in-skeleton", "no-proof"],
)
def test_a_rocq_lemma_is_not_pasted_unless_its_declaration_is_the_hole_s(skeleton: str, proved: str) -> None:
    assert ROCQ.paste_lemma(skeleton, "two_pos", proved) is None
