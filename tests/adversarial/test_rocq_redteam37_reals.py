"""Red team 37 on the Rocq no-answer answer check (G4), measured with coqc 8.16.1 and mathcomp-analysis 0.6.0.

**A search testing a real comparison on a realType (fixed).** Round 36 refused a value that branches on a
classical decision of any proposition, and left real comparisons, which "decide only what they compare".
On a mathcomp ``realType`` they are everywhere and look computational: ``find (fun n : nat => n%:R == (4 :
R)) (iota 0 10)``, ``(x <= y)%R``, ``x \\in [:: a; b]``, ``x \\is Num.pos`` are all booleans, and a search
written with them is the question's property tested on a bounded range. What they unfold to (read in the
installed sources): for the statements' ``Variable R : realType`` nothing at all, the comparison is a field
of the assumed structure (``reals.v`` ``Module Real``: ``Definition eqType := @Equality.Pack cT xclass``,
``porderType := @Order.POrder.Pack ring_display cT xclass``, lines 169-174); for ``Rstruct``'s instance on
Coq's reals ``eqr`` (``Req_EM_T``, lines 36-53) and ``Rleb`` (``Rle_dec``, lines 158-161), which themselves
rest on ``total_order_T`` (a ``Qed`` lemma over ``ClassicalDedekindReals.sig_forall_dec``,
``Rdefinitions.v`` 165-173). So no check that "looks through definitions" could find a classical constant
(there is none under an assumed structure), and one that did would refuse every division of Coq's reals
(``Rinv`` matches on ``Req_appart_dec``, ``Rdefinitions.v`` 195-207). ``answer_reals.py`` reads the print
for the structure instead: any use of a realType's equality or order in an answer that is not a set,
predicate or yes/no answer.

Also closed: boolp's order on functions (``FunOrder.lef``/``ltf``, ``boolp.v`` 687-691: ``asbool`` of a
``forall``), ``==`` on functions (``arrow_eqType``/``dep_arrow_eqType``, ``gen_eqMixin``, 327-333), the order
on classical sets (``classical_sets.v`` 2879: ``asbool`` of ``proper``), ``card_le``/``card_eq``
(``cardinality.v`` 58-64) and ``Rint`` (``reals.v`` 273): ``asbool`` of arbitrary propositions, now decision
operators; the classical choice structures on functions join the choice operators.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.answer_reals import real_comparisons
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled

PROBLEM = "zz_rt37"
MATHCOMP = (
    "From mathcomp Require Import all_ssreflect all_algebra.\nFrom mathcomp Require Import reals boolp.\n"
    "Set Implicit Arguments.\nUnset Strict Implicit.\nUnset Printing Implicit Defensive.\n"
    "Local Open Scope ring_scope.\nVariable R : realType.\n"
)
"""The header of PutnamBench's mathcomp-analysis problems (``putnam_1962_b2``'s, with ``Local`` and boolp)."""
ANY = "zz_rt37_solution = (zz_rt37_solution + 0)%N"
"""A theorem every answer satisfies (not a restated question: its two sides differ), for the answer's words."""
STATEMENT = f"{MATHCOMP}Definition zz_rt37_solution : nat := 3.\nTheorem zz_rt37 : {ANY}.\nProof. Admitted.\n"
REAL_ANY = "zz_rt37_solution = zz_rt37_solution + 0"
REAL_STATEMENT = f"{MATHCOMP}Definition zz_rt37_solution : R := 1.\nTheorem zz_rt37 : {REAL_ANY}.\nProof. Admitted.\n"
STDLIB = "Require Import Reals List.\nFrom mathcomp Require Import ssreflect eqtype Rstruct.\nOpen Scope R_scope.\n"
"""Coq's reals, with mathcomp's instances on them loaded (``Rstruct``: ``R`` is a realType)."""
PLAIN = "Require Import Reals.\nOpen Scope R_scope.\n"
"""Coq's reals alone."""
STDLIB_ANY = "zz_rt37_solution = (zz_rt37_solution + 0)%nat"


def _any(answer: str, header: str = MATHCOMP) -> str:
    theorem = ANY if header == MATHCOMP else STDLIB_ANY
    proof = "by rewrite addn0." if header == MATHCOMP else "rewrite Nat.add_0_r. reflexivity."
    return (
        f"{header}Definition zz_rt37_solution : nat := {answer}.\nTheorem zz_rt37 : {theorem}.\nProof. {proof} Qed.\n"
    )


def _real(answer: str) -> str:
    return (
        f"{MATHCOMP}Definition zz_rt37_solution : R := {answer}.\nTheorem zz_rt37 : {REAL_ANY}.\n"
        "Proof. by rewrite GRing.addr0. Qed.\n"
    )


def _search(test: str) -> str:
    return f"find (fun n : nat => {test}) (iota 0 10)"


COMPARISONS = {
    "== on a realType": (_any(_search("n%:R == (4 : R)")), "realType"),
    "<= on a realType": (_any(_search("(n%:R <= (4 : R))%R")), "realType"),
    "\\in a list of reals": (_any(_search("(n%:R : R) \\in [:: 1; 2]")), "realType"),
    "Num.pos on a realType": (_any(_search("(n%:R - 4 : R) \\is Num.pos")), "realType"),
    "an explicit eqType projection": (
        _any(_search("@eq_op (GRing.Zmodule.eqType (Real.zmodType R)) n%:R 1")),
        "realType",
    ),
    "the eqType under a let": (_any(f"let E := Real.eqType R in {_search('@eq_op E n%:R 1')}"), "realType"),
    "Num.max compared": (_any(_search("Num.max (n%:R : R) 4 == 4")), "realType"),
    "Rstruct's == on Coq's reals": (
        _any("match List.find (fun n => eq_op (INR n) 4) (List.seq 0 10) with Some n => n | None => 0 end", STDLIB),
        "realType",
    ),
    "Rint": (_any(_search("(n%:R : R) \\is a Rint")), "`reals.Rint`"),
    "boolp's order on functions": (
        _any("if ((fun k : nat => k) <= (fun k => k.+1))%O then 3%N else 4%N"),
        "FunOrder.",
    ),
    "== on functions": (
        _any("if (fun k : nat => k) == (fun k => k + 0)%N then 3%N else 4%N"),
        "arrow_eqType",
    ),
}
"""Searches and branches on a classical comparison, each with what G4's refusal names."""
HONEST = {
    "a real value with norm and sqrt": _real("`|(1 : R) - 3| + Num.sqrt 2 / 3"),
    "a nat test in a real value": _real("if (3 == 4)%N then 1 else (2 : R)"),
    "a max of reals": _real("Num.max (1 : R) (Num.sqrt 2)"),
    "a nat search": _any(_search("(2 < n)%N")),
    "Rle_dec on Coq's reals": _any("Z.to_nat (up (if Rle_dec 0 1 then 2 else 3))", PLAIN),
}
"""Answers that compare no real as a boolean (or only by ``Rle_dec``, which round 36 keeps): they pass."""


def _verdict(tmp_path: Path, candidate: str, statement: str, profile: Profile = Profile.FAST) -> Verdict:
    bench = one_record_benchmark(tmp_path, PROBLEM, statement)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], candidate.encode(), Track.NO_ANSWER, options)


def _statement(candidate: str) -> str:
    """The statement the candidate answers: the one of its header and answer type."""
    for header in (STDLIB, PLAIN):
        if candidate.startswith(header):
            return (
                f"{header}Definition zz_rt37_solution : nat := 3.\nTheorem zz_rt37 : {STDLIB_ANY}.\nProof. Admitted.\n"
            )
    return REAL_STATEMENT if ": R :=" in candidate else STATEMENT


@needs_coq
@pytest.mark.parametrize(("candidate", "name"), sampled(COMPARISONS, {"== on a realType", "== on functions"}))
def test_a_classical_comparison_is_no_answer(tmp_path: Path, candidate: str, name: str) -> None:
    found = failures(_verdict(tmp_path, candidate, _statement(candidate)))
    assert set(found) == {"G4"} and name in found["G4"], found


@needs_coq
@pytest.mark.parametrize("candidate", sampled(HONEST, {"a real value with norm and sqrt"}))
def test_an_answer_comparing_no_real_stays_an_answer(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, _statement(candidate), Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)


MARKER = "PUTNAM-ANSWER-x"
R_ONE = "(GRing.one (Real.ringType R))"
PRINTS = {
    "== through a ring's eqType": (
        f"@eq_op (GRing.Zmodule.eqType (GRing.Ring.zmodType (Real.ringType R))) {R_ONE} {R_ONE}",
        ["GRing.Zmodule.eqType"],
    ),
    "<= through the numDomain's order": (
        f"@Order.le ring_display (Num.NumDomain.porderType (Real.numDomainType R)) {R_ONE} {R_ONE}",
        ["Num.NumDomain.porderType"],
    ),
    "max through the realType's own order, a real": (
        f"@Order.max ring_display (Real.porderType R) {R_ONE} {R_ONE}",
        [],
    ),
    "min of Coq's reals by Rstruct, a real": ("@Order.min ring_display R_porderType x y", []),
    "max compared": (
        f"@eq_op (Real.eqType R) (@Order.max ring_display (Real.porderType R) {R_ONE} {R_ONE}) {R_ONE}",
        ["Real.eqType"],
    ),
    "a qualifier": (
        f"@in_mem _ {R_ONE} (@mem _ _ (@has_quality O _ (@Num.Def.Rpos (Real.numDomainType R))))",
        ["Num.Def.Rpos"],
    ),
    "the class taken apart in a match": (
        "match R with | @Real.Pack T c _ => @Equality.Pack T (Real.base c) end",
        ["Equality.Pack", "Real.Pack", "Real.base"],
    ),
    "a projection under a let": (
        f"let E := GRing.Zmodule.eqType (Real.zmodType R) in @eq_op E {R_ONE} {R_ONE}",
        ["GRing.Zmodule.eqType"],
    ),
    "Rstruct's order on Coq's reals": ("@Order.le ring_display R_porderType x y", ["R_porderType"]),
    "Rstruct's instance through a projection": (
        "@eq_op (Num.NumDomain.eqType R_numDomainType) x y",
        ["Num.NumDomain.eqType"],
    ),
    "an honest value": (
        "@GRing.add (Num.NumDomain.zmodType (Real.numDomainType R)) (@Num.Def.normr (Real.numDomainType R) "
        f"(Real.normedZmodType R) {R_ONE}) (@Num.ExtraDef.sqrtr (Real.rcfType R) {R_ONE} : Real.sort R)",
        [],
    ),
    "a nat test in a real value": (f"if @eq_op nat_eqType (S O) (S (S O)) then {R_ONE} else {R_ONE}", []),
    "nat's order beside reals": (
        f"if @Order.le Order.NatOrder.nat_display Order.NatOrder.porderType O (S O) then {R_ONE} else {R_ONE}",
        [],
    ),
}
"""Prints of answers (``Set Printing All``, as G4's answer check prints them) and the names that compare reals."""


@pytest.mark.parametrize(("printed", "names"), list(PRINTS.values()), ids=list(PRINTS))
def test_real_comparisons_are_read_from_the_print(printed: str, names: list[str]) -> None:
    assert real_comparisons(f"noise\n{MARKER}\nzz_rt37_solution = {printed}\n     : nat\n", MARKER) == names


def test_no_print_is_no_reading() -> None:
    assert real_comparisons("no marker here\n", MARKER) is None
