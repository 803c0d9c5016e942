"""Red team 23 on the Rocq text gates: vernacular tried and correctly judged (a regression table).

Each addition was put into the published proof of the vacuous ``putnam_2013_b2`` with the wrong answer
``4`` (only the answer check's ``differs`` keeps it from ``accepted``), before the theorem or after its
proof, where ``Require`` could carry it into the harness's answer check. The refused ones change how
later text reads or are replayed by ``Require``; the accepted ones stay in the candidate's file (coqc 8.16:
an option that is not ``Global``/``Export``, a ``#[local]``/``#[export]`` hint, a rolled-back command, a
plain ``Opaque``) or were measured not to reach the check (with the wrong answer ``sqrt 10``, each still
``disputed`` on the full profile). Text profile only here: no coqc needed.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam14 import vacuous
from tests.helpers import COQ_BENCH, failures, pinned

REFUSED = {
    "Bind Scope after": ("", "Bind Scope nat_scope with R."),
    "Undelimit Scope after": ("", "Undelimit Scope R_scope."),
    "Hint Mode in typeclass_instances": ("Hint Mode Reflexive ! ! : typeclass_instances.", ""),
    "Hint Constants in typeclass_instances": ("Hint Constants Opaque : typeclass_instances.", ""),
    "a hint in core and typeclass_instances": ("Hint Resolve Rle_refl : core typeclass_instances.", ""),
    "Remove Hints from typeclass_instances": ("Remove Hints Rle_refl : typeclass_instances.", ""),
    "Global Hint in typeclass_instances in a section": (
        "Section S.\nGlobal Hint Extern 0 (Reflexive _) => idtac : typeclass_instances.\nEnd S.",
        "",
    ),
    "Local Set Universe Polymorphism": ("Local Set Universe Polymorphism.", ""),
    "Set Typeclasses Depth": ("Set Typeclasses Depth 1.", ""),
    "Constraint after": ("", "Constraint Set < Set."),
    "#[export] Generalizable after": ("", "#[export] Generalizable All Variables."),
    "Declare Left Step after": ("", "Declare Left Step Rle_trans."),
    "#[ global ] Set, spaced": ("", "#[ global ] Set Printing All."),
    "Ltac2 after": ("", "From Ltac2 Require Import Ltac2.\nLtac2 lra () := ()."),
    "Ltac ::= glued": ("", "Ltac tauto::=idtac."),
    "#[canonical=yes]": ("#[canonical=yes] Definition foo_c := 3%R.", ""),
    "canonical among other attributes": ("#[universes(polymorphic), canonical] Definition foo_c := 3%R.", ""),
    "Arguments of the solution after": ("", "Arguments putnam_2013_b2_solution : simpl never."),
    "#[global] Opaque of the solution": ("", "#[global] Opaque putnam_2013_b2_solution."),
}
"""(before the theorem, after its proof): each refused by G2 or G3."""

ACCEPTED = {
    "#[local] hint after": ("", "#[local] Hint Extern 0 => idtac : core."),
    "a rolled-back global hint (Fail)": ("", "Fail Hint Extern 0 => idtac : core."),
    "a rolled-back global hint (Succeed)": ("", "Succeed Hint Extern 0 => idtac : core."),
    "#[export] Hint Unfold of the solution": ("", "#[export] Hint Unfold putnam_2013_b2_solution : core."),
    "plain Opaque of the solution": ("", "Opaque putnam_2013_b2_solution."),
    "Local Arguments after": ("", "Local Arguments Rplus : simpl never."),
    "Set Printing All after": ("", "Set Printing All."),
    "with_strategy in a proof": ("", "Lemma zz : True. Proof. with_strategy opaque [Rplus] exact I. Qed."),
    # red team 30: `Require` does not replay it (measured), so after the theorem it reaches nothing
    "#[local] Strategy after": ("", "#[local] Strategy opaque [Rplus]."),
}
"""Additions that cannot reach the statement or the harness's files: accepted by the text gates."""


def _text_status(before: str, after: str) -> tuple[str, dict[str, str]]:
    text = vacuous("4")
    if before:
        at = text.index("Theorem putnam_2013_b2")
        text = f"{text[:at]}{before}\n{text[at:]}"
    bench = pinned(COQ_BENCH)
    options = VerifyOptions(profile=Profile.TEXT, keep_going=True)
    problem = bench.problems["putnam_2013_b2"]
    v = run_gates(get_prover("rocq"), bench, problem, f"{text}\n{after}\n".encode(), Track.NO_ANSWER, options)
    return v.status, failures(v)


@pytest.mark.parametrize(("before", "after"), REFUSED.values(), ids=REFUSED.keys())
def test_vernacular_that_reaches_later_text_or_the_harness_is_refused(before: str, after: str) -> None:
    status, failed = _text_status(before, after)
    assert status == "rejected" and set(failed) & {"G2", "G3"}, failed


@pytest.mark.parametrize(("before", "after"), ACCEPTED.values(), ids=ACCEPTED.keys())
def test_vernacular_that_stays_in_the_candidate_passes_the_text_gates(before: str, after: str) -> None:
    status, failed = _text_status(before, after)
    assert status == "accepted" and not failed, failed
