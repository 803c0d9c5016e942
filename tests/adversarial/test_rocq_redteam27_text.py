"""Red team 27 on the Rocq text gates: possible false rejections (lead 2) and new command classes (lead 3).

**Found and fixed (a false rejection on ``fast``).** A scope command in a section the candidate closes
before the theorem (``Section S. Local Open Scope nat_scope. Lemma ... End S.``) was class 2: refused on
``fast`` and ``text``, though it cannot reach the statement. coqc 8.16 ends an ``Open``/``Close Scope``'s
effect at the ``End`` of the innermost section holding it, plain, ``Local`` and ``#[local]`` alike, nested
sections too; only ``Global``/``#[global]`` outlives it (measured: ``Section S. Open Scope R_scope. End S.
Check (1 + 1).`` prints ``nat``; with ``Global``, ``R``). G2 now notes such a command with its section
(``sections.section_scoped``) and accepts it when the section ends before the theorem; a section that holds
the theorem turns it back into class 2, and ``Global``, a scope command outside the candidate's sections,
one inside a helper's proof (it outlives ``Qed``) and ``Import`` in a section stay class 2.

**Judged and kept (lead 2), measured with coqc 8.16.1:**

* ``Goal T. ... Qed.`` saves ``Unnamed_thm`` (``Print Unnamed_thm`` after it; also a field of the compiled
  module): harmless by meaning, like a ``Lemma``, and G5's field list reads its term. Kept refused then;
  accepted since red team 29, G2 noting the name coqc gives it (``sentence_rules.goal_name``).
* ``Derive x SuchThat P As h`` (after ``Require Coq.derive.Derive``) declares ``x`` and ``h`` from one
  evar-based proof: kept refused (two names from one sentence, unused in the corpus).
* ``Local Notation`` and ``#[local] Instance``: not visible in a file that only ``Require``s the candidate
  (measured), but they change how every later sentence of the candidate elaborates, the statement included
  when placed before it; DESIGN section 7 refuses notations and instances outright (G2, G3), and the corpus
  has none. Kept refused.
* ``Lemma`` inside ``Module ... End``: modules can rebind names the statement reads (G3); kept refused.
* Accepted already (harmless, measured): ``Local Hint``, ``Local Ltac``, ``Proof with``, a ``Lemma`` in a
  closed ``Section``, ``Set Implicit Arguments`` after the theorem (class 2 before it), ``Open Scope`` in a
  section after it.

**New classes tried (lead 3), all refused or harmless** (text profile, before the theorem, in its proof and
after it): ``Unset Guard (* c *) Checking`` and split over lines (the phrase rule reads tokens),
``#[bypass_check(guard)]`` with ``=yes`` and spaces, ``Set Primitive Projections``, ``Definitional UIP``,
``Redirect``, ``Reset``/``Back``/``BackTo``/``Drop``/``Load``/``Quit`` (coqc 8.16 does not know ``Quit`` in a
compiled file: an error), ``Extract``/``Extraction`` (which write files), ``Register``/``Primitive``, global
``Strategy``/``Opaque``, ``Arguments`` of statement constants, ``Typeclasses``, ``Hint Cut``/``Hint Mode`` in
``typeclass_instances``, ``Add Zify``, ``Add Morphism``/``Setoid``/``Relation``, ``Declare Equivalent Keys``,
``Declare Reduction``, ``Number Notation``, ``Infix``, ``Obligation Tactic``, ``Admit Obligations``,
``Universe``, every unknown option, ``Fail Fail Axiom``, ``Succeed Axiom``; the Elpi surface that
mathcomp-analysis loads through Hierarchy Builder (``Elpi ...``, the ``elpi`` tactic, the exported
``HB.instance``/``HB.lock``/``HB.pack`` by their ``HB`` segment). Elpi's own apps export unqualified commands
(``lock``, ``mlock``, ``derive``, ``NES.Begin``): the text gates read them as proof steps inside a proof, but no
library under the permitted roots loads ``elpi.apps`` (``grep`` of the installed sources), so coqc refuses
them as unknown syntax; ``From elpi Require`` is refused by the library rule. A ``Tactic Notation "lra"`` or
an ``Ltac zify`` of the candidate's is not active in a file that only ``Require``s it (measured), so the
harness's answer check keeps the library's tactics.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam14 import vacuous
from tests.adversarial.test_rocq_redteam20 import PROOF, a6, stopping
from tests.adversarial.test_rocq_redteam23_refused import _text_status
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned

SCOPED = {
    "Open Scope": "Section S.\nOpen Scope nat_scope.\nLemma zz : 1 + 1 = 2.\nProof. reflexivity. Qed.\nEnd S.",
    "Local Open Scope": (
        "Section S.\nLocal Open Scope nat_scope.\nLemma zz : 1 + 1 = 2.\nProof. reflexivity. Qed.\nEnd S."
    ),
    "#[local] Open Scope": "Section S.\n#[local] Open Scope nat_scope.\nEnd S.",
    "Close Scope": "Section S.\nClose Scope R_scope.\nLemma zz : (1 + 1 = 2)%R.\nProof. reflexivity. Qed.\nEnd S.",
    "in a nested section": "Section S.\nSection T.\nOpen Scope nat_scope.\nEnd T.\nEnd S.",
}
"""Scope commands whose effect ends with a section the candidate closes before the theorem: class 1."""

STILL_CLASS_2 = {
    "Global Open Scope in a section": "Section S.\nGlobal Open Scope nat_scope.\nEnd S.",
    "#[global] Open Scope in a section": "Section S.\n#[global] Open Scope nat_scope.\nEnd S.",
    "Open Scope outside sections": "Open Scope nat_scope.",
    "Import in a section": "Section S.\nImport Rdefinitions.\nEnd S.",
    "Open Scope in a helper's proof": (
        "Section S.\nLemma zz : True.\nProof. Open Scope nat_scope. exact I. Qed.\nEnd S."
    ),
}
"""Scope and import commands that outlive where they stand: class 2 (only ``full``'s G5 decides them)."""


@pytest.mark.parametrize("before", SCOPED.values(), ids=SCOPED.keys())
def test_a_scope_command_in_a_section_closed_before_the_theorem_is_harmless(before: str) -> None:
    status, failed = _text_status(before, "")
    assert status == "accepted" and not failed, failed


@pytest.mark.parametrize("before", STILL_CLASS_2.values(), ids=STILL_CLASS_2.keys())
def test_a_scope_command_that_outlives_its_place_still_needs_the_statement_check(before: str) -> None:
    status, failed = _text_status(before, "")
    assert status == "rejected" and "through elaboration only" in failed.get("G2", ""), failed


def test_a_scope_command_in_a_section_that_holds_the_theorem_needs_the_statement_check() -> None:
    """The section's ``End`` comes after the statement, so the scope reads it: class 2 on ``text``/``fast``,
    left to G5 on ``full`` (whose text gates pass it)."""
    case = a6("Section zzS.\nLocal Open Scope nat_scope.\n", PROOF, "\nEnd zzS.\n")
    for profile in (Profile.TEXT, Profile.FAST):
        found = failures(stopping("putnam_1962_a6", case, profile, Track.WITH_ANSWER))
        assert "a section of yours that holds the theorem" in found.get("G2", ""), (profile, found)
    found = failures(stopping("putnam_1962_a6", case, Profile.FULL, Track.WITH_ANSWER))
    assert found.keys() <= {"G4", "G5", "G6"}, found


@needs_coq
@pytest.mark.slow
def test_an_honest_section_with_its_own_scope_passes_fast() -> None:
    """The published idiom before the theorem of the vacuous ``putnam_2013_b2``, through G1-G4 with coqc."""
    text = vacuous("3")
    at = text.index("Theorem putnam_2013_b2")
    text = f"{text[:at]}{SCOPED['Local Open Scope']}\n{text[at:]}"
    bench = pinned(COQ_BENCH)
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    v = run_gates(get_prover("rocq"), bench, bench.problems["putnam_2013_b2"], text.encode(), Track.NO_ANSWER, options)
    assert v.status == "accepted" and not failures(v), failures(v)


KEPT_REFUSED = {
    "Derive": "Derive zz SuchThat (zz = 1%nat) As zz_eq.\nProof. reflexivity. Qed.",
    "Local Notation": "Local Notation zzn := 1%R.",
    "#[local] Instance": "#[local] Instance zz_i : Reflexive (@eq nat) := @eq_refl nat.",
    "Lemma in a Module": "Module M.\nLemma zz : True.\nProof. exact I. Qed.\nEnd M.",
}
"""Lead 2: kept refused before and after the theorem (see the module docstring for why)."""

ACCEPTED = {
    "Goal ... Qed": "Goal True. Proof. exact I. Qed.",  # accepted since red team 29 (a helper Coq names)
    "Local Hint": "Local Hint Resolve Rle_refl : core.",
    "Local Ltac": "Local Ltac zz_t := idtac.",
    "Proof with": "Lemma zz : True /\\ True.\nProof with auto. split... Qed.",
    "Lemma in a Section": "Section S.\nLemma zz : True.\nProof. exact I. Qed.\nEnd S.",
}
"""Lead 2: accepted before and after the theorem, on every profile."""


def _statuses(addition: str) -> list[tuple[str, set[str]]]:
    """The text profile's verdict on ``addition`` before the theorem and after it: (status, failed gates)."""
    return [(status, set(failed)) for status, failed in (_text_status(addition, ""), _text_status("", addition))]


LEAD_2 = [(v, "rejected") for v in KEPT_REFUSED.values()] + [(v, "accepted") for v in ACCEPTED.values()]


@pytest.mark.parametrize(("addition", "expected"), LEAD_2, ids=[*KEPT_REFUSED, *ACCEPTED])
def test_lead_2_judgements(addition: str, expected: str) -> None:
    for status, failed in _statuses(addition):
        assert status == expected and (failed & {"G2", "G3"} if expected == "rejected" else not failed), failed


REFUSED_ANYWHERE = {
    "Unset Guard with a comment inside": "Unset Guard (* c *) Checking.",
    "Unset Guard over two lines": "Unset Guard\n  Checking.",
    "bypass_check=yes, spaced": "#[ bypass_check ( guard = yes ) ] Fixpoint zz (n : nat) : False := zz n.",
    "Set Primitive Projections": "Set Primitive Projections.",
    "Local Set Definitional UIP": "Local Set Definitional UIP.",
    "Redirect": 'Redirect "zz" Print Assumptions Rplus.',
    "Reset Initial": "Reset Initial.",
    "Quit": "Quit.",
    "Extraction to a file": 'Extraction "zz.ml" Rplus.',
    "Add Zify": "Add Zify UnOp zz.",
    "Declare Equivalent Keys": "Declare Equivalent Keys Rplus Rmult.",
    "Fail Fail Axiom": "Fail Fail Axiom zz : False.",
    "HB.pack in a term": "Definition zz := HB.pack nat.",
    "Elpi Query": "Elpi Query lp:{{ true }}.",
}
"""Lead 3: refused before and after the theorem (one case in CI, the rest ``-m slow``)."""


@pytest.mark.parametrize(
    "addition",
    [
        pytest.param(v, id=k, marks=() if i == 0 else pytest.mark.slow)
        for i, (k, v) in enumerate(REFUSED_ANYWHERE.items())
    ],
)
def test_new_command_classes_are_refused(addition: str) -> None:
    for status, failed in _statuses(addition):
        assert status == "rejected" and failed & {"G2", "G3"}, (addition, failed)
