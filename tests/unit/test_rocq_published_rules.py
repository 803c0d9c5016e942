"""Rocq G2 rules published miniF2F proofs need (issue 29 §6): spacing only where Coq's lexer reads it, and
`Require`s resolved against the installed libraries. Each accepted form has refused neighbours."""

from __future__ import annotations

import shutil

import pytest

from putnam_solver.core.provers.rocq.checks import check_preservation
from putnam_solver.core.provers.rocq.libraries import installed_modules
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.provers.rocq.syntax import LexError, sentences
from putnam_solver.core.provers.rocq.toolchain import COQC, optional_tool
from putnam_solver.core.verify import Profile, Track, VerifyOptions

CHALLENGE = """Require Import ZArith.
Open Scope Z_scope.

Theorem numbertheory_4x3m7y3neq2003 : forall x y : Z,
  4 * x^3 - 7 * y^3 <> 2003.
Proof.
Admitted.
"""
PROOF = "Proof.\n  intros x y H.\nAdmitted.\n"
INSTALLED = frozenset(
    {"Coq.ZArith.ZArith", "Coq.ZArith.Zpow_facts", "Coq.Reals.Reals", "Coq.Lists.List", "mathcomp.ssreflect.seq",
     "Coq.Sorting.Sorted", "mathcomp.algebra.Sorted"}
)  # fmt: skip


def g2(candidate: str, profile: Profile = Profile.FULL, installed: frozenset[str] = INSTALLED) -> list[str]:
    statement = parse_statement(CHALLENGE, "numbertheory_4x3m7y3neq2003")
    return [str(v) for v in check_preservation(statement, candidate, Track.WITH_ANSWER, profile, installed)]


def theorem(head: str = "Theorem numbertheory_4x3m7y3neq2003 : forall x y : Z,") -> str:
    return f"{head}\n  4 * x^3 - 7 * y^3 <> 2003.\n{PROOF}"


HEADER = "Require Import ZArith.\nOpen Scope Z_scope.\n\n"


def test_spacing_after_an_identifier_is_layout() -> None:
    assert g2(HEADER + theorem()) == []
    assert g2(HEADER + theorem("Theorem numbertheory_4x3m7y3neq2003: forall x y: Z,")) == []
    assert g2(HEADER + theorem("Theorem numbertheory_4x3m7y3neq2003 :forall x y : Z,"))  # symbol then word


def test_gluing_is_still_compared_where_a_library_token_could_span_it() -> None:
    def key(text: str) -> object:
        return sentences(text)[0].key

    assert key("Definition f := [:: 1].") != key("Definition f := [ :: 1].")
    assert key("Definition f := 'C(n, k).") != key("Definition f := ' C(n, k).")
    assert key("Definition f := ltac:(exact 1).") != key("Definition f := ltac :(exact 1).")
    with pytest.raises(LexError, match="against the number"):  # red team 17: coqc reads `2e3x` as `2e3`, `x`
        key("Definition f := 2x.")
    assert key("Definition f (x: nat) := x.") == key("Definition f (x : nat) := x.")


def test_a_partially_qualified_require_of_an_installed_library_is_left_to_g5() -> None:
    text = (
        HEADER.replace("Require Import ZArith.", "Require Import ZArith.\nRequire Import ZArith.Zpow_facts.")
        + theorem()
    )
    assert g2(text) == []
    text_profile = g2(text, Profile.TEXT)
    assert text_profile and all("through elaboration only" in v for v in text_profile)


@pytest.mark.parametrize(
    ("require", "why"),
    [
        ("Require Import ZArith.Missing.", "only installed libraries"),
        ("Require Import Sorted.", ""),  # bare names: as before, left to G5
        ("Require Import GeoCoq.Main.", "only installed libraries"),
    ],
)
def test_other_requires(require: str, why: str) -> None:
    found = g2(HEADER.replace("Require Import ZArith.", f"Require Import ZArith.\n{require}") + theorem())
    assert any(why in v for v in found) if why else found == [], found


def _requiring(name: str) -> str:
    return HEADER.replace("Require Import ZArith.", f"Require Import ZArith.\nRequire Import {name}.") + theorem()


def test_an_ambiguous_partial_name_is_refused() -> None:
    assert g2(_requiring("Sorting.Sorted")) == []
    ambiguous = INSTALLED | {"Other.Sorting.Sorted"}
    assert any("only installed libraries" in v for v in g2(_requiring("Sorting.Sorted"), installed=ambiguous))


def test_a_partial_name_outside_coqs_own_libraries_is_refused() -> None:
    """coqc finds only ``Coq.*`` libraries by a suffix (red team 34, measured with 8.16: ``Require Import
    ssreflect.ssrnat.`` fails), so ``algebra.Sorted`` names no library it loads."""
    assert any("coqc cannot find `algebra.Sorted`" in v for v in g2(_requiring("algebra.Sorted")))
    assert g2(_requiring("mathcomp.algebra.Sorted")) == []


def test_the_header_require_may_name_the_same_library_by_its_full_path() -> None:
    assert g2(HEADER.replace("Require Import ZArith.", "Require Import Coq.ZArith.ZArith.") + theorem()) == []
    # another library, or the same one not imported: the challenge's is left out, which only G5 (full) decides
    assert g2(HEADER.replace("Require Import ZArith.", "Require Import Coq.Lists.List.") + theorem(), Profile.TEXT)
    assert g2(HEADER.replace("Require Import ZArith.", "Require Coq.ZArith.ZArith.") + theorem(), Profile.TEXT)


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")
def test_installed_libraries_are_read_from_the_real_coqc() -> None:
    installed = installed_modules(optional_tool(COQC, VerifyOptions()))
    assert "Coq.ZArith.Zpow_facts" in installed and "Coq.Init.Prelude" in installed
    assert not any(m.endswith(".vo") for m in installed)
