"""Red team 26 on the Rocq text gates: localities stated twice, libraries loaded after the theorem.

Tried (about 170 candidates on the published proof of the vacuous ``putnam_2013_b2``, text profile with the
``text`` and the ``full`` rules, before the theorem, in its proof and after it): universe attributes on helpers
(``Polymorphic``, ``Monomorphic``, ``#[universes(...)]``), ``Local``/``#[global]`` coercions, canonical structures,
instances and ``Typeclasses`` settings, ``Arguments``/``Strategy`` in every locality, ``Module Reals.``, scope
and option commands with ``#[export]``/``Export``, ``Register``, ``Primitive``, ``Uint63`` proofs by
``reflexivity``, ``native_compute``, ``vm_compute``, ``native_cast_no_check``, ``Definition ... := ltac:(...)``,
``Program`` with ``Admit Obligations``, ``Fail``/``Succeed``/``Time``/``Timeout``/``Redirect`` around an
``Axiom``, ``Collection`` and ``Proof using`` in a section, ``Load``, ``Cd``, ``Add [Rec] LoadPath``, ``Require``
of the harness's own modules (``Putnam.Reference``, ``Candidate``), ``elpi``, ``HB``, ``Ltac2``, ``Declare
Module``, ``Module Type`` with a ``Parameter``; lexer edge cases (a string holding ``*)`` in a comment,
``(*)``, nested and unterminated comments, a string holding ``(*`` around an ``Axiom``, sentences ending in
``..``/``...``, ``.(``, bullets and braces glued to an ``Axiom``, attributes with nested brackets and strings,
``Notation Qed``, a Cyrillic ``Аdmitted``, ``Qed.`` in a string, a no-break space); and honest idioms
(ssreflect intro patterns, ``{1}``/``{h}`` braces, ``have``/``suff``/``wlog``/``under``, goal selectors,
``Proof using``, ``Proof with ...``, sections with ``Local Open Scope`` and ``#[local]`` hints, ``lra``/``field``
helpers, nested bullets).

Found (both are consistency holes of the text profile; coqc refuses each at G4 on ``fast`` and ``full``):

1. **A locality stated twice** (``#[local] #[global] Hint``, ``#[local, global]``, ``#[export] Local``, ``Local
   Global``, ``#[local] Local Definition``): the text gates read one of the two (a hint with ``local`` among its
   attributes is taken as not replayed) and passed it; coqc 8.16 refuses every such sentence ("Attribute for
   Locality specified twice", measured for hints, options, ``Open Scope``, ``Arguments``, definitions,
   ``Opaque``). G3 now refuses a sentence stating more than one locality (``sentence_rules.localities``).
2. **A ``Require`` after the theorem** was skipped unread: ``From Putnam Require Reference.``, ``From Ltac2
   Require Import Ltac2.`` or any root passed, though before the theorem only libraries under the permitted
   roots (``Coq.``, ``mathcomp.``, ``Coquelicot.``) may be loaded (red team 16 keeps Ltac2 out). The same
   library rule now applies wherever the ``Require`` stands.

And two false rejections: ``Compute`` and ``Eval ... in`` (queries: they print and keep nothing) were refused as
additions not permitted, anywhere; ``Proof using All.`` in a section was refused with every other ``Proof using`` (the
rocq#19861 rule); it declares every section variable, so no ``abstract`` subproof can use one it leaves out
(measured); both pass now. Everything else was judged as the earlier rounds' tables say (refused, or
accepted and harmless).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.sentence_rules import localities
from putnam_solver.core.provers.rocq.syntax import sentences
from tests.adversarial.test_rocq_redteam23_refused import _text_status

TWICE = {
    "#[local] #[global] Hint": "#[local] #[global] Hint Extern 0 => idtac : core.",
    "#[local, global] Hint": "#[local, global] Hint Extern 0 => idtac : core.",
    "glued attributes": "#[local]#[global] Hint Extern 0 => idtac : core.",
    "#[export] Local Hint": "#[export] Local Hint Extern 0 => idtac : core.",
    "#[local] Global Hint": "#[local] Global Hint Extern 0 => idtac : core.",
    "Local Global Hint": "Local Global Hint Extern 0 => idtac : core.",
    "behind Timeout": "Timeout 3 #[global] Local Hint Extern 0 => idtac : core.",
    "#[local] Local Definition": "#[local] Local Definition zz := 1%R.",
    "#[local] Polymorphic Local Definition": "#[local] Polymorphic Local Definition zz := 1%R.",
    "Local Export Set": "Local Export Set Printing All.",
    "#[local] #[local] Hint": "#[local] #[local] Hint Extern 0 => idtac : core.",
}
"""Sentences coqc 8.16 refuses ("Attribute for Locality specified twice", measured): refused by G3 on every profile."""

ONCE = {
    "#[local] Hint": "#[local] Hint Extern 0 => idtac : core.",
    "#[export] Hint": "#[export] Hint Extern 0 => idtac : core.",
    "Local Hint behind Time": "Time Local Hint Extern 0 => idtac : core.",
    "locality among other attributes": (
        '#[warnings="-x", deprecated(since="local", note="global"), local] Hint Extern 0 => idtac : core.'
    ),
    "#[local] with universes": "#[ local , universes(polymorphic) ] Definition zz := 1%R.",
    "#[local] Opaque": "#[local] Opaque Rplus.",
    "Local Definition": "Local Definition zz := 1%R.",
}
"""One locality each: accepted (and each compiles with coqc 8.16)."""

LIBRARIES_AFTER = {
    "the harness's reference": "From Putnam Require Reference.",
    "the harness's reference, qualified": "Require Putnam.Reference.",
    "Ltac2": "From Ltac2 Require Import Ltac2.",
    "an unknown root": "From Bar Require Baz.",
    "elpi": "From elpi Require Import elpi.",
}


@pytest.mark.parametrize("sentence", TWICE.values(), ids=TWICE.keys())
def test_a_locality_stated_twice_is_refused_on_the_text_profile(sentence: str) -> None:
    assert localities(sentences(sentence)[0]) == 2
    status, failed = _text_status("", sentence)
    assert status == "rejected" and "locality twice" in failed.get("G3", ""), failed


@pytest.mark.parametrize("sentence", ONCE.values(), ids=ONCE.keys())
def test_one_locality_passes(sentence: str) -> None:
    assert localities(sentences(sentence)[0]) == 1
    status, failed = _text_status("", sentence)
    assert status == "accepted" and not failed, failed


@pytest.mark.parametrize("sentence", LIBRARIES_AFTER.values(), ids=LIBRARIES_AFTER.keys())
def test_a_library_outside_the_permitted_roots_is_refused_after_the_theorem_too(sentence: str) -> None:
    status, failed = _text_status("", sentence)
    assert status == "rejected" and "only installed libraries" in failed.get("G2", ""), failed


HONEST_AFTER = {
    "MathComp and ssreflect helpers": (
        "From mathcomp Require Import all_ssreflect.\n"
        "Lemma zz (a b : nat) : a + b = b + a.\nProof. by rewrite addnC. Qed.\n"
        "Lemma zz2 (b c : bool) : b && c -> c.\nProof. by move=> /andP [_ ->]. Qed.\n"
        "Lemma zz3 (a b c : nat) (h : a = b) : a + c = c + b.\nProof. rewrite {1}h addnC => {h}. by []. Qed.\n"
        "Lemma zz4 (n : nat) : n <= n.+1.\nProof. have h : n <= n by []. suff: n <= n.+1 by []. by apply: leqnSn. Qed."
    ),
    "a standard library after": "Require Import Coq.Arith.Arith.\nRequire Import Lia.",
    "a section with its own scope and hint": (
        "Section S.\nLocal Open Scope nat_scope.\n#[local] Hint Resolve le_n : core.\n"
        "Lemma zz : 1 + 1 = 2.\nProof using All. reflexivity. Qed.\nEnd S."
    ),
}


@pytest.mark.parametrize("after", HONEST_AFTER.values(), ids=HONEST_AFTER.keys())
def test_honest_helpers_after_the_theorem_pass(after: str) -> None:
    status, failed = _text_status("", after)
    assert status == "accepted" and not failed, failed


def test_proof_using_all_in_a_section_passes_and_a_narrower_declaration_stays_refused() -> None:
    """False rejection found: G3 refused every ``Proof using`` in a section (rocq#19861: Coq 8.16 does not check
    the declared variables against ``abstract`` subproofs, so ``Proof using Type. abstract exact h.`` with
    ``Variable h : False`` leaves ``l : False`` after ``End``, measured). ``Proof using All`` declares every
    section variable: the same proof leaves ``l : False -> False`` (measured), so it passes now."""
    section = "Section S.\nVariable x : R.\nLemma zz : x = x.\nProof using {}. reflexivity. Qed.\nEnd S."
    for before, after in ((section.format("All"), ""), ("", section.format("All"))):
        status, failed = _text_status(before, after)
        assert status == "accepted" and not failed, failed
    for narrower in ("Type", "x", "All - x", "Type*"):
        status, failed = _text_status("", section.format(narrower))
        assert status == "rejected" and "Proof using" in failed.get("G3", ""), (narrower, failed)


QUERIES = {
    "Compute before the theorem": ("Compute (1 + 1)%nat.", ""),
    "Eval after it": ("", "Eval cbv in (2 * 3)%nat."),
    "Compute in a proof": ("Lemma zz : True.\nProof. Compute (1 + 1)%nat. exact I. Qed.", ""),
    "Eval in a proof": ("", "Lemma zz : True.\nProof. Eval hnf in (2 * 3)%nat. exact I. Qed."),
}


@pytest.mark.parametrize(("before", "after"), QUERIES.values(), ids=QUERIES.keys())
def test_compute_and_eval_are_queries(before: str, after: str) -> None:
    """False rejection found: ``Compute`` and ``Eval ... in`` print a reduced term and keep nothing, yet were
    refused as additions not permitted (every profile, before the theorem and after it)."""
    status, failed = _text_status(before, after)
    assert status == "accepted" and not failed, failed
