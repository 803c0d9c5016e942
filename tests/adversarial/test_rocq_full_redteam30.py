"""Red team 30 on the Rocq ``full`` profile's compiled gates (G4 coqc, G5 trusted file, G6 coqchk), text
gates assumed bypassed, measured with coqc/coqchk 8.16.1.

**Found and fixed:** a statement that defines a module (``Module NS := FSetWeakList.Make(Nat_as_OT).``,
miniF2F's ``amc12a_2003_p23``) lets the candidate repeat that module; G5 checked that the candidate's
``NS`` is the same functor application as the pinned statement's only inside the recursion check, which
runs only while candidate recursion is refused. Under ``--allow-recursion`` (which lifts the guard-bug
rule only) an ``NS`` written as ``Include`` of the functor plus an inductive of its own matched the
reference's signature, the field listing did not look inside it, and through rocq#22378 (shared by
coqchk) it proved a false statement: G4, G5 and G6 all passed. The module check
(``recursion.module_check``) now runs on every G5, recursion allowed or not.

**Found and fixed:** the trusted file applies the reference theorem to the candidate's declarations of
the statement's assumptions, and an application checks an argument's type up to cumulativity only: an
``Axiom R : Set`` (or ``Axiom P : Prop``, or ``Polymorphic Axiom R@{u} : Type@{u}`` checked at one level
and used at ``Set``) filled the statement's ``Variable R : Type``, so a candidate proved the statement
for small ``R`` only and G4, G5 and G6 passed (G6 has no statement to compare with; G2 refuses the
changed sentence as text). The trusted file now makes the kernel check each declaration's type
convertible to the argument's, the declaration taken with no universe instance
(``statement._same_types``).

**Tried and stopped already (existing tests cover them):** ``Print Assumptions`` spoofing (names print
qualified by ``Candidate``, entries at column 0 only, the marker), kernel flags exported with ``Global
Set`` (the trusted file re-sets them; ``Global Set Printing Depth 1``/``Width 3`` do not survive
``Require``, measured), nested modules and undeclared inductives (the kernel's field listing), a
plugged-in assumption given by a definition (it is then no axiom), VM/native casts (machines off).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, run_gates
from putnam_solver.verifier.options import GateFlags
from tests.adversarial.test_rocq_redteam2 import ABSURD, LET_IN_BUG
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled
from tests.integration.test_rocq_vernacular_conformance import MODULE_HEADER, MODULE_PROOF, MODULE_STATEMENT

COMPILED = ("G4", "G5", "G6")


def _verdict(tmp_path: Path, problem: str, statement: str, candidate: str, allow_recursion: bool = False) -> Verdict:
    bench = one_record_benchmark(tmp_path, problem, statement)
    options = GateFlags(profile=Profile.FULL, allow_recursion=allow_recursion, keep_going=True).options()
    return run_gates(get_prover("rocq"), bench, bench.problems[problem], candidate.encode(), Track.WITH_ANSWER, options)


FALSE_STATEMENT = MODULE_STATEMENT.replace("NS.cardinal S = 2", "NS.cardinal S = 3")
"""The module statement made false: no set has cardinal 3 and exactly the members 1 and 4."""
PADDED_MODULE = (
    "Module NS.\nInclude FSetWeakList.Make(Nat_as_OT).\n"
    + LET_IN_BUG.replace(":= eq_refl.", ":= @Logic.eq_refl nat (zz_l p).")
    + "\nEnd NS.\n"
)
"""The statement's module with every field it should have, and the kernel bug's inductive besides."""
PADDED = FALSE_STATEMENT.replace("Module NS := FSetWeakList.Make(Nat_as_OT).\n", PADDED_MODULE).replace(
    "Proof.\nAdmitted.\n", f"Proof.\n  exfalso.\n  {ABSURD.replace('zz_c (zz_pack', 'NS.zz_c (NS.zz_pack')}\nQed.\n"
)

MODULES = {"recursion refused": False, "recursion allowed": True}


@needs_coq
@pytest.mark.parametrize("allow_recursion", sampled(MODULES, {"recursion allowed"}))
def test_a_statement_module_padded_with_an_inductive_is_refused_by_g5(tmp_path: Path, allow_recursion: bool) -> None:
    """The false statement 'proved' through an inductive hidden in the statement's module: coqchk accepts
    it (the bug is shared), G5's module check refuses it whatever the recursion option."""
    assert MODULE_HEADER in MODULE_STATEMENT and PADDED_MODULE in PADDED
    verdict = _verdict(tmp_path, "zz_modules", FALSE_STATEMENT, PADDED, allow_recursion)
    statuses = {g.id: g.status for g in verdict.gates}
    assert statuses["G4"] is GateStatus.PASSED and statuses["G6"] is GateStatus.PASSED, failures(verdict)
    assert verdict.status == "rejected"
    assert "module `NS` is not the statement's" in failures(verdict)["G5"], failures(verdict)


@needs_coq
@pytest.mark.slow
def test_the_statements_own_module_still_passes_with_recursion_allowed(tmp_path: Path) -> None:
    """The honest twin: the module as the statement writes it, with a sound proof, recursion allowed."""
    sound = MODULE_STATEMENT.replace("Proof.\nAdmitted.\n", MODULE_PROOF)
    verdict = _verdict(tmp_path, "zz_modules", MODULE_STATEMENT, sound, True)
    assert verdict.accepted, failures(verdict)


SMALL = (
    "Variable R : Type.\nVariable r : R.\n"
    "Theorem putnam_x : exists (S : Set) (f : R -> S), f r = f r /\\ forall a b : R, f a = f b -> a = b.\n"
)
"""False for ``R`` as large as ``Set`` itself, true for any ``R : Set`` (``S := R``)."""
LARGE = "Variable P : Type.\nTheorem putnam_x : exists Q : Prop, (Q : Type) = P.\n"
"""Unprovable for ``P := nat``, true for any ``P : Prop`` (``Q := P``)."""
HONEST = SMALL.replace("(S : Set)", "(S : Type)")
"""True for every ``R``: the honest twin, with the same dependent variables."""
POLYMORPHIC = "Polymorphic Axiom R@{u} : Type@{u}.\nAxiom r : R@{Set}.\n" + SMALL.split("\n", 2)[2].replace(
    "R ->", "R@{Set} ->"
).replace("b : R,", "b : R@{Set},")
"""``R`` at the statement's level where the type check looks, at ``Set`` in the theorem."""
ADMITTED = "Proof. Admitted.\n"
SORTS = {
    "Set for Type": (SMALL, "Axiom R : Set.\nAxiom r : R.\n" + SMALL.split("\n", 2)[2], "exists R, (fun x => x)."),
    "Prop for Type": (LARGE, "Axiom P : Prop.\n" + LARGE.split("\n", 1)[1], "exists P."),
    "polymorphic Type": (SMALL, POLYMORPHIC, "exists R@{Set}, (fun x => x)."),
}


@needs_coq
@pytest.mark.parametrize(("statement", "declared", "witness"), sampled(SORTS, {"Set for Type"}))
def test_an_assumption_declared_in_a_smaller_universe_is_refused_by_g5(
    tmp_path: Path, statement: str, declared: str, witness: str
) -> None:
    """The statement's ``Variable R : Type`` declared by the candidate as ``Axiom R : Set`` (``Prop``, or a
    polymorphic axiom used at ``Set``): the reference theorem accepts it by cumulativity, so G5 once
    passed a proof of the statement for small ``R`` only (coqchk has no statement to compare with). Now
    the kernel compares the types, and the declaration must be monomorphic."""
    verdict = _verdict(tmp_path, "putnam_x", statement + ADMITTED, f"{declared}Proof. {witness} auto. Qed.\n")
    statuses = {g.id: g.status for g in verdict.gates}
    assert statuses["G4"] is GateStatus.PASSED and statuses["G6"] is GateStatus.PASSED, failures(verdict)
    assert verdict.status == "rejected"
    assert "assumption is missing or retyped" in failures(verdict)["G5"], failures(verdict)


@needs_coq
def test_assumptions_declared_as_in_the_statement_still_pass(tmp_path: Path) -> None:
    """The honest twin: the statement's variables repeated (one depending on another), a sound proof."""
    candidate = HONEST + "Proof. exists R, (fun x => x). auto. Qed.\n"
    verdict = _verdict(tmp_path, "putnam_x", HONEST + ADMITTED, candidate)
    assert verdict.accepted, failures(verdict)
