"""Red team 38 on the Rocq no-answer answer check (G4), measured with coqc 8.16.1, mathcomp 1.15 and
mathcomp-analysis 0.6.0.

**A search by a decision no computation evaluates (fixed).** Round 37 refused a realType's comparisons by
the structures in the answer's print; a comparison hidden in a library function to a discrete value named
none: ``floor (n%:R / 4) == 1`` compares ``int`` (``reals.v`` 368: ``Rtoint`` of ``Rfloor``, an ``int``
chosen by ``xchoose``), as do ``ceil``, ``Rtoint``, ``Num.bound``, ``sgz``, ``root`` and the ``size`` of a
polynomial's coefficients; ``==`` on ``{poly R}`` (``poly_eqType (Real.ringType R)``) and the order of
extended reals (``ereal_porderType``) compare reals through an instance built from an algebraic one. On
Coq's reals every decision passed (round 36 kept ``Rle_dec`` as honest): ``find (fun n => if Rlt_dec (INR
n) 4 then false else true) (seq 0 10)``, ``total_order_T``, ``Req_EM_T``, ``Rcase_abs``, ``Rle_lt_dec``,
``Rcompare``, ``up``/``Int_part`` of a bound ``n``. And a ``match`` on a reflection proof: mathcomp's
``asboolP`` (a classical decision whose name shows no ``asbool``), ``Order.leP`` on a realType's order.

What makes a value a search is read from its kernel term (``answer_tests.py``): the decision's argument
names a variable the answer binds inside itself (the range a search walks), or the answer takes a proof
apart. A decision of closed numbers (``if Rle_dec 0 1 then 2 else 3``, a case the answer check splits and
``lra`` decides) and of the answer's own arguments (a piecewise function) stay answers.

Measured: 23 of the 24 attacks below were accepted on G1-G4 before (the 24th, ``decP (asboolP P)``, prints
``asbool`` in its implicit argument), all 24 are refused now; every honest probe passes before and after.

**Held already** (refused before this round): a candidate's own wrapper of a comparison (``Local
Definition``: G4's environment check, the answer names the candidate's constant), a comparison through
``Canonical`` (G3), Rstruct's comparisons (round 37).

**Left**: a search unrolled over closed numbers (``if Rle_dec 4 (INR 0) then 0 else if ...``), which names
no bound variable; the answer check splits its cases and decides those arithmetic decides.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.answer_reals import real_comparisons
from putnam_solver.core.provers.rocq.answer_tests import searched_tests
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled

PROBLEM = "zz_rt38"
MATHCOMP = (
    "From mathcomp Require Import all_ssreflect all_algebra.\nFrom mathcomp Require Import reals boolp.\n"
    "Set Implicit Arguments.\nUnset Strict Implicit.\nUnset Printing Implicit Defensive.\n"
    "Local Open Scope ring_scope.\nVariable R : realType.\n"
)
"""The header of PutnamBench's mathcomp-analysis problems (``putnam_1962_b2``'s, with ``Local`` and boolp)."""
COQ = "Require Import Reals List.\nOpen Scope R_scope.\n"
"""Coq's reals, with lists for the searches."""
COQUELICOT = "Require Import Reals Coquelicot.Coquelicot.\nOpen Scope R_scope.\n"
"""A Coquelicot statement's header (``putnam_2020_a2``'s)."""
NAT_ANY = {
    MATHCOMP: "zz_rt38_solution = (zz_rt38_solution + 0)%N",
    COQ: "zz_rt38_solution = (zz_rt38_solution + 0)%nat",
    COQUELICOT: "zz_rt38_solution = (zz_rt38_solution + 0)%nat",
}
"""A theorem every answer satisfies (its two sides differ, so no restated question), by header."""
NAT_PROOF = {
    MATHCOMP: "by rewrite addn0.",
    COQ: "rewrite Nat.add_0_r. reflexivity.",
    COQUELICOT: "rewrite Nat.add_0_r. reflexivity.",
}


def _nat(answer: str, header: str = MATHCOMP, extra: str = "") -> str:
    return _answer(f"{header}{extra}", "nat", answer, NAT_ANY[header], NAT_PROOF[header])


def _fun(answer: str) -> str:
    """A function answer ``R -> R`` on Coq's reals."""
    return _answer(COQ, "R -> R", answer, "zz_rt38_solution 1 = zz_rt38_solution 1 + 0", "ring.")


def _answer(header: str, kind: str, answer: str, theorem: str, proof: str) -> str:
    solution = f"Definition zz_rt38_solution : {kind} := {answer}.\n"
    return f"{header}{solution}Theorem zz_rt38 : {theorem}.\nProof. {proof} Qed.\n"


def _mc(test: str) -> str:
    return _nat(f"find (fun n : nat => {test}) (iota 0 10)")


def _coq(test: str) -> str:
    return _nat(f"match List.find (fun n => {test}) (List.seq 0 10) with Some n => n | None => 0%nat end", COQ)


ATTACKS = {
    "floor of a realType": (_mc("floor ((n%:R : R) / 4) == 1"), "floor"),
    "ceil of a realType": (_mc("ceil ((n%:R : R) / 4) == 1"), "ceil"),
    "Rtoint of a realType": (_mc("Rtoint (n%:R : R) == 4"), "Rtoint"),
    "Num.bound of a realType": (_mc("(Num.bound ((n%:R : R) - 4) == 1)%N"), "archi_bound"),
    "sgz of a realType": (_mc("sgz ((n%:R : R) - 4) == 0"), "sgz"),
    "root of a real polynomial": (_mc("root ('X - (4 : R)%:P) n%:R"), "root"),
    "== on real polynomials": (_mc("(n%:R : R)%:P == 4%:P"), "poly_eqType"),
    "size of a real polynomial": (_mc("size ((n%:R - 4 : R)%:P) == 0%N"), "size"),
    "a real is a unit": (_mc("(n%:R - 4 : R) \\is a GRing.unit"), "unit"),
    "real polynomials divide": (_mc("dvdp ('X - (n%:R : R)%:P) ('X^2 - 16%:P)"), "dvdp"),
    "the rank of a real matrix": (_mc("\\rank ((n%:R - 4 : R)%:M : 'M[R]_1) == 0%N"), "mxrank"),
    "a match on asboolP": (
        _mc("match asboolP ((n%:R : R) = 4) with ReflectT _ => true | ReflectF _ => false end"),
        "asboolP",
    ),
    "asboolP closed, through decP": (_nat("if @decP (3 = 4)%N _ (asboolP (3 = 4)%N) then 1%N else 2%N"), "asboolP"),
    "Rlt_dec in a search": (_coq("if Rlt_dec (INR n) 4 then false else true"), "Rlt_dec"),
    "Rle_lt_dec in a search": (_coq("if Rle_lt_dec 4 (INR n) then true else false"), "Rle_lt_dec"),
    "total_order_T in a search": (
        _coq("match total_order_T (INR n) 4 with inleft (right _) => true | _ => false end"),
        "total_order_T",
    ),
    "Req_EM_T in a search": (_coq("if Req_EM_T (INR n) 4 then true else false"), "Req_EM_T"),
    "Rcase_abs in a search": (_coq("if Rcase_abs (INR n - 4) then false else true"), "Rcase_abs"),
    "up in a search": (_coq("Z.eqb (up (INR n / 4)) 2"), "up"),
    "Int_part in a search": (_coq("Z.eqb (Int_part (INR n / 4)) 1"), "Int_part"),
    "Rle_dec through sumbool_rec": (
        _coq("sumbool_rec (fun _ => bool) (fun _ => true) (fun _ => false) (Rle_dec 4 (INR n))"),
        "sumbool_rec",
    ),
    "up handed to map, no bound variable": (
        _nat(
            "List.length (List.filter (fun z => Z.eqb z 2) (List.map up (List.map (fun k => INR k / 4) "
            "(List.seq 0 10))))",
            COQ,
        ),
        "up",
    ),
    "Coquelicot's decision of convergence": (
        _nat("if ex_lim_seq_dec (fun n => / INR n) then 1%nat else 2%nat", COQUELICOT),
        "ex_lim_seq_dec",
    ),
    "a let-bound index": (_nat("let k := 4%nat in if Rle_dec (INR k) 3 then 1%nat else 2%nat", COQ), "Rle_dec"),
}
"""Searches and branches no computation evaluates, each with a word G4's refusal names."""
HELD = {
    "a candidate's Local Definition wrapper": _nat(
        "find (fun n : nat => le4 n%:R) (iota 0 10)", extra="Local Definition le4 (x : R) := (x <= 4)%R.\n"
    ),
    "a match on leP of a realType (round 37: `Real.orderType`)": _mc(
        "if Order.TotalTheory.leP (n%:R : R) 4 is Order.LelNotGt _ then true else false"
    ),
    "Canonical": _nat("3%N", extra="Canonical zz := Eval hnf in [eqType of nat].\n"),
}
"""Refused before this round (G2, G3 or G4), kept so."""
HONEST = {
    "Rle_dec of closed numbers": _nat("Z.to_nat (up (if Rle_dec 0 1 then 2 else 3))", COQ),
    "up of a closed number": _nat("Z.to_nat (up (sqrt 5))", COQ),
    "a piecewise function": _fun("fun x => if Rle_dec x 0 then 0 else x"),
    "Rabs and Rmax in a function": _fun("fun x => Rmax (Rabs x) 1"),
    "a nat search": _mc("(2 < n)%N"),
    "a leqP-free nat branch": _nat("if (3 <= 4)%N then 1%N else 2%N"),
    "a real polynomial value": _answer(
        MATHCOMP,
        "{poly R}",
        "4%:P * 'X^4 - 4%:P * 'X^2 + 1%:P",
        "zz_rt38_solution = zz_rt38_solution + 0",
        "by rewrite GRing.addr0.",
    ),
}
"""Answers that test no bound variable by an undecided decision: they pass."""


def _statement(candidate: str) -> str:
    header = next((h for h in (COQ, COQUELICOT) if candidate.startswith(h)), MATHCOMP)
    _, _, rest = candidate.partition("Definition zz_rt38_solution")
    sentence, _, _ = rest.partition(":=")
    body = {
        " : nat ": "3",
        " : R -> R ": "fun x => x",
        " : {poly R} ": "'X",
    }[sentence]
    theorem = candidate[candidate.index("Theorem zz_rt38") : candidate.index("Proof.")]
    return f"{header}Definition zz_rt38_solution{sentence}:= {body}.\n{theorem}Proof. Admitted.\n"


def _verdict(tmp_path: Path, candidate: str, profile: Profile = Profile.FAST) -> Verdict:
    bench = one_record_benchmark(tmp_path, PROBLEM, _statement(candidate))
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], candidate.encode(), Track.NO_ANSWER, options)


@needs_coq
@pytest.mark.parametrize(
    ("candidate", "name"), sampled(ATTACKS, {"floor of a realType", "Rlt_dec in a search", "a match on asboolP"})
)
def test_a_search_by_an_undecided_test_is_no_answer(tmp_path: Path, candidate: str, name: str) -> None:
    found = failures(_verdict(tmp_path, candidate))
    assert set(found) == {"G4"} and name in found["G4"], found


@needs_coq
@pytest.mark.parametrize("candidate", sampled(HELD, {"a candidate's Local Definition wrapper"}))
def test_wrappers_stay_refused(tmp_path: Path, candidate: str) -> None:
    assert failures(_verdict(tmp_path, candidate))


@needs_coq
@pytest.mark.parametrize("candidate", sampled(HONEST, {"a piecewise function", "Rle_dec of closed numbers"}))
def test_a_closed_decision_stays_an_answer(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate)
    assert not failures(verdict), failures(verdict)


MARKER = "PUTNAM-ANSWER-x"
FIND = "@find nat (fun n : nat => {test}) (iota O (S O))"
PRINTS = {
    "a sumbool match on a bound variable": (
        FIND.format(test="match Rlt_dec (INR n) (IZR Z0) return bool with | left _ => false | right _ => true end"),
        ["Rlt_dec"],
    ),
    "a closed sumbool match": (
        "match Rle_dec (IZR Z0) (IZR (Zpos xH)) return nat with | left _ => O | right _ => S O end",
        [],
    ),
    "a piecewise function": (
        "fun x : R => match Rle_dec x (IZR Z0) return R with | left _ => IZR Z0 | right _ => x end",
        [],
    ),
    "a shadowing inner binder": (
        "fun n : nat => @find nat (fun n : nat => Z.eqb (up (INR n)) Z0) (iota O (S O))",
        ["up"],
    ),
    "a decision partly applied": ("@List.map R Z up (@List.map nat R INR (List.seq O (S O)))", ["up"]),
    "a qualified decision partly applied": ("@List.map R Z (Rdefinitions.up) xs", ["Rdefinitions.up"]),
    "up of a let-bound name": ("let k : nat := S O in Z.to_nat (up (INR k))", ["up"]),
    "a reflection taken apart, closed": (
        "match asboolP True in (Bool.reflect _ b) return nat with "
        "| @Bool.ReflectT _ _ => O | @Bool.ReflectF _ _ => S O end",
        ["asboolP"],
    ),
    "a pair taken apart inside a pair": (
        "@pair _ _ (fun xyz : prod R R => match xyz return R with | @pair _ _ a b => Rplus a b end) O",
        [],
    ),
}
"""Prints of answers (``Set Printing All``) and the decisions G4 reads as a search."""


@pytest.mark.parametrize(("printed", "names"), list(PRINTS.values()), ids=list(PRINTS))
def test_searched_tests_are_read_from_the_print(printed: str, names: list[str]) -> None:
    after = f"Arguments zz_rt38_solution\n{MARKER}-e\nx = fun y => up y\n"
    output = f"noise\n{MARKER}\nzz_rt38_solution = {printed}\n     : nat\n\n{after}"
    assert searched_tests(output, MARKER) == names


R_ONE = "(GRing.one (Real.ringType R))"
REAL_PRINTS = {
    "floor": (f"@eq_op int_eqType (@floor R {R_ONE}) (Posz O)", ["floor"]),
    "poly ==": (f"@eq_op (poly_eqType (Real.ringType R)) (@polyC (Real.ringType R) {R_ONE}) x", ["poly_eqType"]),
    "the order of extended reals (a statement loading them)": (
        f"@Order.le ereal_display (@ereal_porderType (Real.numDomainType R)) (@EFin (Real.sort R) {R_ONE}) x",
        ["ereal_porderType"],
    ),
    "nat's eqType beside reals": (f"if @eq_op nat_eqType O (S O) then {R_ONE} else {R_ONE}", []),
    "a real polynomial": (f"@polyC (Real.ringType R) {R_ONE}", []),
}


@pytest.mark.parametrize(("printed", "names"), list(REAL_PRINTS.values()), ids=list(REAL_PRINTS))
def test_discrete_functions_of_reals_are_read(printed: str, names: list[str]) -> None:
    assert real_comparisons(f"{MARKER}\nzz_rt38_solution = {printed}\n     : nat\n", MARKER) == names


def test_no_print_is_no_reading() -> None:
    assert searched_tests("no marker\n", MARKER) is None
