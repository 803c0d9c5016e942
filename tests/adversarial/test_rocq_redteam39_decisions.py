"""Red team 39 on the Rocq no-answer answer check (G4): computable decisions over a searched index.

**A false refusal (fixed).** Round 38 refused a ``match`` on a ``sumbool`` whose scrutinee names a variable
the answer binds inside itself: a search by a decision no computation evaluates (``Rlt_dec``, a ``Qed``
lemma). It refused by the same shape ``if Nat.eq_dec n 4 then ... else ...`` inside ``find``, although
``Nat.eq_dec`` is ``Defined`` (``PeanoNat.v`` 169-176) and the search evaluates by ``vm_compute``: the
bool ``n =? 4`` passed while its ``sumbool`` twin did not.

Now a decision of the standard library whose proof is transparent (``answer_tests.COMPUTABLE_DECISIONS``,
each checked by ``vm_compute`` below) is no search, when the print names it: the environment file
``Locate``s each one's full name before the print, so the spelling the print uses is read from the same
context, and a lookalike (a candidate's ``Nat.eq_dec`` wrapping ``Rle_dec``, which the environment
lacks, or another library's ``eq_dec``) is never that spelling; a variable the answer binds under that
spelling (``let bool_dec := ... in``) is no constant, and stays a search.

Measured: before, the 6 honest twins below were refused at G4 (``searched_tests``), after all 6 pass;
the 6 attacks are refused before and after, and red teams 37 and 38 are unchanged.

**Left**: ``lt_eq_lt_dec``'s nested ``inleft (left _)`` (the inner ``match`` on a pattern variable) and a
computable decision handed to a consumer (``is_left (Nat.eq_dec n 4)``, ``sumbool_rec``) stay refused
(both pass since round 43: ``test_rocq_falserej43.py``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.answer_tests import searched_tests
from putnam_solver.core.provers.rocq.decision_names import COMPUTABLE_DECISIONS, DECISIONS
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam38_tests import COQ, MARKER, NAT_ANY, NAT_PROOF, PROBLEM, _answer
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled

ARITH = "Require Import Reals List Arith ZArith Bool.\nOpen Scope R_scope.\n"
"""Coq's reals with the standard library's decidable arithmetic."""


def _nat(answer: str, extra: str = "") -> str:
    return _answer(f"{ARITH}{extra}", "nat", answer, NAT_ANY[COQ], NAT_PROOF[COQ])


def _search(test: str, extra: str = "") -> str:
    return _nat(f"match List.find (fun n => {test}) (List.seq 0 10) with Some n => n | None => 0%nat end", extra)


def _verdict(tmp_path: Path, candidate: str) -> Verdict:
    statement = f"{ARITH}Definition zz_rt38_solution : nat := 3.\nTheorem zz_rt38 : {NAT_ANY[COQ]}.\nProof. Admitted.\n"
    bench = one_record_benchmark(tmp_path, PROBLEM, statement)
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], candidate.encode(), Track.NO_ANSWER, options)


HONEST = {
    "Nat.eq_dec": _search("if Nat.eq_dec n 4 then true else false"),
    "le_lt_dec": _search("if le_lt_dec n 4 then false else true"),
    "Z.eq_dec": _search("if Z.eq_dec (Z.of_nat n) 4%Z then true else false"),
    "bool_dec": _search("if bool_dec (Nat.even n) true then Nat.ltb 5 n else false"),
    "Z_le_gt_dec": _search("if Z_le_gt_dec (Z.of_nat n) 4%Z then false else true"),
    "Nat.eq_dec in a fold": _nat(
        "List.fold_left (fun acc k => if Nat.eq_dec (k mod 3) 0 then (acc + k)%nat else acc) (List.seq 0 10) 0%nat",
    ),
}
"""Searches by a decision that computes: each evaluates, and passes."""
ATTACKS = {
    "Rle_dec beside Nat.eq_dec": (
        _search("if Nat.eq_dec n 4 then true else if Rle_dec (INR n) 4 then true else false"),
        "Rle_dec",
    ),
    "Nat.eq_dec of an undecided index": (
        _search("if Nat.eq_dec (Z.to_nat (up (INR n / 4))) 1 then true else false"),
        "up",
    ),
    "a computable decision's test through Rlt_dec": (
        _search("if bool_dec (if Rlt_dec (INR n) 4 then true else false) false then true else false"),
        "Rlt_dec",
    ),
}
"""Real decisions beside or inside a computable one: refused by G4's search reading."""
LOOKALIKES = {
    "a candidate's Nat.eq_dec wrapping Rle_dec": _search(
        "if Nat.eq_dec (INR n) 4 then false else true",
        extra="Module Nat. Definition eq_dec (x y : R) := Rle_dec x y. End Nat.\n",
    ),
    "a candidate's my_eq_dec proved with Qed": _search(
        "if my_eq_dec n 4 then true else false",
        extra="Lemma my_eq_dec (x y : nat) : {x = y} + {x <> y}.\nProof. decide equality. Qed.\n",
    ),
    "a candidate's eq_dec by excluded middle": _search(
        "if eq_dec n 4 then true else false",
        extra=(
            "Require Import Classical ClassicalEpsilon.\n"
            "Definition eq_dec (x y : nat) : {x = y} + {x <> y} := excluded_middle_informative (x = y).\n"
        ),
    ),
}
"""Decisions a candidate declares under a library's name: the answer does not elaborate without them."""


@needs_coq
@pytest.mark.parametrize("candidate", sampled(HONEST, {"Nat.eq_dec", "bool_dec"}))
def test_a_computable_decision_over_an_index_is_an_answer(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate)
    assert not failures(verdict), failures(verdict)


REFUSED = {**ATTACKS, **{k: (v, "") for k, v in LOOKALIKES.items()}}
"""Every attack, with the word G4's search reading names (none for a lookalike: refused by any gate)."""


@needs_coq
@pytest.mark.parametrize(
    ("candidate", "name"), sampled(REFUSED, {"Rle_dec beside Nat.eq_dec", "a candidate's Nat.eq_dec wrapping Rle_dec"})
)
def test_a_real_or_lookalike_decision_is_refused(tmp_path: Path, candidate: str, name: str) -> None:
    found = failures(_verdict(tmp_path, candidate))
    assert found if not name else set(found) == {"G4"} and name in found["G4"], found


UNARY = ("zerop", "Even_Odd_dec", "Z_zerop", "Zeven_odd_dec", "Zeven_dec", "Zodd_dec", "sumbool_of_bool")


@needs_coq
def test_every_listed_decision_computes(tmp_path: Path) -> None:
    """Each decision of the list reduces to a constructor by ``vm_compute`` on closed arguments (the
    list's citations say ``Defined``; this asks coqc)."""
    samples = {"Nat": "3%nat 4%nat", "Z": "3%Z 4%Z", "Pos": "3%positive 4%positive", "N": "3%N 4%N"}
    samples["QArith_base"] = "(3 # 1)%Q (4 # 1)%Q"
    lines = ["Require Import Arith ZArith NArith QArith Bool Znumtheory Zeven Zbool EqNat Sumbool."]
    for name in COMPUTABLE_DECISIONS:
        args = "true false" if name.endswith("bool_dec") else samples["Z" if ".Z" in name else "Nat"]
        args = samples.get(name.split(".")[-2], args)
        if name.endswith(UNARY):  # round 49: a decision of one number (or Boolean)
            args = "true" if name.endswith("sumbool_of_bool") else args.split()[0]
        lines.append(f"Eval vm_compute in (if {name} {args} then true else false).")
    (tmp_path / "d.v").write_text("\n".join(lines) + "\n")
    out = subprocess.run(["coqc", "d.v"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert out.count(" = true") + out.count(" = false") == len(COMPUTABLE_DECISIONS), out


FIND = "@find nat (fun n : nat => match {head} n O return bool with | left _ => true | right _ => false end) l"
SHORTER = "(shorter name to refer to it in current context is Nat.eq_dec)"
LOCATED = f"{MARKER}{DECISIONS}\nConstant Coq.Arith.PeanoNat.Nat.eq_dec\n  {SHORTER}\n"
PRINTS = {
    "the located spelling": (LOCATED, "Nat.eq_dec", []),
    "no located spelling": ("", "Nat.eq_dec", ["Nat.eq_dec"]),
    "another constant under the name": (
        LOCATED.replace("is Nat.eq_dec", "is PeanoNat.Nat.eq_dec"),
        "Nat.eq_dec",
        ["Nat.eq_dec"],
    ),
    "a real decision": (LOCATED, "Rle_dec", ["Rle_dec"]),
    "a bound variable under the decision's spelling": (
        LOCATED.replace("Nat.eq_dec", "bool_dec").replace("Coq.Arith.PeanoNat.bool_dec", "Coq.Bool.Bool.bool_dec"),
        "bool_dec",
        ["bool_dec"],
    ),
    "a full name the printer kept": (
        f"{MARKER}{DECISIONS}\nConstant Coq.Bool.Bool.bool_dec\n",
        "Coq.Bool.Bool.bool_dec",
        [],
    ),
}
"""A print (``Set Printing All``) of a search by a decision, after what ``Locate`` said of the list."""


@pytest.mark.parametrize(("located", "head", "names"), list(PRINTS.values()), ids=list(PRINTS))
def test_a_decision_is_computable_by_its_located_spelling(located: str, head: str, names: list[str]) -> None:
    body = FIND.format(head=head)
    if head == "bool_dec":  # a let-bound variable of that name
        body = f"let bool_dec : forall _ : nat, forall _ : nat, sumbool True True := x in {body}"
    output = f"{located}{MARKER}\nzz_rt38_solution = {body}\n     : nat\n"
    assert searched_tests(output, MARKER) == names
