"""Red team 31 on the Rocq gates, both directions, measured with coqc/coqchk 8.16.1. Nothing was accepted
that should not be; this file keeps the probes of classes no earlier round wrote down.

**Proof ends and vernacular that rename, rewind or reconfigure (text gates).** ``Save zz_q.`` as the
theorem's proof end (it would store the proof under another name on a Coq that still takes it), options
that change how later declarations are built (``Set Primitive Projections``, ``Local Set Universe
Polymorphism``, ``Local Unset Elimination Schemes``, ``Set Debug``), ``Universe``, ``Scheme Equality``,
``Declare Reduction``, ``Export Set`` after the theorem, and an ``Import`` hidden in a section closed
before the theorem (measured: the import ends with the section, but G2 keeps it class 2, as any
``Import`` before the theorem) are refused. Hints that act on typeclass resolution, the one hint database
elaboration consults, are refused however the database is reached: ``Remove Hints``, ``Hint Cut`` and a
list of databases (``core typeclass_instances``); ``: *`` is no database to coqc 8.16 (a syntax error).
Their honest twins pass: queries and proof-mode commands that change no declaration (``Guarded``,
``Show Proof``, ``Optimize Proof``, ``Proof Mode``), ``Time Qed``, a rolled-back
``Succeed Qed.`` before the real ``Qed``, ``Defined`` followed by ``Opaque`` of the theorem, ``Hint Mode`` in
``core``.

**Axioms in the environment but not in the theorem (compiled gates).** A library whose ``Axiom`` is on no
allow-list, ``Require``d after the theorem and never used, is refused by G6: coqchk lists every axiom of
the environment and cannot tell which the theorem uses, so G6 fails closed where G5's ``Print
Assumptions`` of the theorem alone would pass (a conservative refusal, kept). A library whose axioms are
all allowed (``Program``) passes unused.

**Fixed (a false rejection, and the guard it had hidden):** ``Require Import Lia.`` inside the theorem's
own proof was refused on every profile ("not allowed in proofs"), though the policy calls reading commands
after the statement harmless and coqc loads the library for the rest of the file (measured). The refusal
was also the only line that stopped ``Require Coq.Compat.AdmitAxiom.`` in the proof, then ``exact (match
proof_admitted : False with end)``, on the ``text`` and ``fast`` profiles, which print no assumptions. A
``Require`` in the theorem's proof is now judged by what it can do: its library must be installed (as
anywhere), and since that library can declare an axiom the proof uses, it needs G5's ``Print
Assumptions`` (class 2): accepted on ``full``, where G5 names ``proof_admitted``; refused on ``text`` and
``fast``; in a helper's proof before the theorem it stays class 2, after the theorem harmless.

**Output parsing (fail closed).** A coqchk summary cut short (sections missing, no theory line) is a list
of problems, never a pass, and a trusted file whose output stops after the marker (no ``Print
Assumptions`` header) is no assumption list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.coqchk import coqchk_problems, read_coqchk
from putnam_solver.core.provers.rocq.statement import read_assumptions
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled

PROBLEM = "zz_redteam31"
STATEMENT = "Theorem zz_redteam31 : forall n : nat, n + 0 = n.\nProof. Admitted.\n"
THEOREM = "Theorem zz_redteam31 : forall n : nat, n + 0 = n.\n"
PROOF = "intros n. induction n; simpl; auto."


def _verdict(tmp_path: Path, candidate: str, profile: Profile) -> Verdict:
    bench = one_record_benchmark(tmp_path, PROBLEM, STATEMENT)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], candidate.encode(), Track.WITH_ANSWER, options)


def _proof(tactics: str = PROOF, end: str = "Qed.") -> str:
    return f"{THEOREM}Proof. {tactics} {end}\n"


REFUSED = {
    "Save with a name": _proof(end="Save zz_q."),
    "Set Primitive Projections": "Set Primitive Projections.\n" + _proof(),
    "Local Set Universe Polymorphism": "Local Set Universe Polymorphism.\n" + _proof(),
    "Local Unset Elimination Schemes": "Local Unset Elimination Schemes.\n" + _proof(),
    "Set Debug": 'Set Debug "all".\n' + _proof(),
    "Universe": "Universe zz_u.\n" + _proof(),
    "Scheme Equality": _proof() + "Scheme Equality for nat.\n",
    "Declare Reduction": _proof() + "Declare Reduction zz := simpl.\n",
    "Export Set after the theorem": _proof() + "Export Set Printing All.\n",
    "Import in a closed section": "Section zz_s. Import Nat. End zz_s.\n" + _proof(),
    "Remove Hints of instances": "Remove Hints le_n : typeclass_instances.\n" + _proof(),
    "Hint Cut of instances": "Hint Cut [ _* ] : typeclass_instances.\n" + _proof(),
    "a database list with instances": "Hint Extern 0 => exact I : core typeclass_instances.\n" + _proof(),
}
"""Each is refused by the text gates (G2 or G3), before anything is compiled."""

HONEST = {
    "Guarded": _proof("intros n. Guarded. induction n; simpl; auto."),
    "Time Qed": _proof(end="Time Qed."),
    "Show Proof": _proof("intros n. Show Proof. induction n; simpl; auto."),
    "Optimize Proof": _proof(PROOF + " Optimize Proof."),
    "Proof Mode": f'{THEOREM}Proof Mode "Classic". {PROOF} Qed.\n',
    "Succeed Qed then Qed": _proof(PROOF + " Succeed Qed."),
    "Defined then Opaque": _proof(end="Defined.") + "Opaque zz_redteam31.\n",
    "Hint Mode in core": "Hint Mode le ! ! : core.\n" + _proof(),
}
"""Their twins: each changes no declaration the statement reads, and passes."""


@pytest.mark.parametrize("candidate", sampled(REFUSED, {"Save with a name", "Remove Hints of instances"}))
def test_vernacular_that_renames_reconfigures_or_steers_instances_is_refused(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.TEXT)
    assert verdict.status == "rejected" and set(failures(verdict)) & {"G2", "G3"}, failures(verdict)


@pytest.mark.parametrize("candidate", sampled(HONEST, {"Succeed Qed then Qed"}))
def test_queries_and_proof_mode_commands_pass_the_text_gates(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.TEXT)
    assert verdict.status == "accepted", failures(verdict)


@needs_coq
@pytest.mark.parametrize("candidate", sampled(HONEST, {"Defined then Opaque"}))
def test_the_honest_twins_pass_the_full_profile(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)


ENVIRONMENT = {
    "an unlisted axiom loaded after the theorem": (
        _proof() + "Require Coq.Compat.AdmitAxiom.\n",
        "rejected",
        "Coq.Compat.AdmitAxiom.proof_admitted",
    ),
    "allowed axioms loaded and unused": ("Require Import Coq.Program.Program.\n" + _proof(), "accepted", ""),
}


@needs_coq
@pytest.mark.parametrize(
    ("candidate", "status", "named"),
    sampled(ENVIRONMENT, {"an unlisted axiom loaded after the theorem"}),
)
def test_g6_judges_every_axiom_of_the_environment(tmp_path: Path, candidate: str, status: str, named: str) -> None:
    """coqchk cannot tell which axioms the theorem uses: an unlisted one anywhere in the environment is
    refused (G5's Print Assumptions of the theorem passes it), allowed ones pass."""
    verdict = _verdict(tmp_path, candidate, Profile.FULL)
    found = failures(verdict)
    assert verdict.status == status, found
    if named:
        assert set(found) == {"G6"} and named in found["G6"], found


CUT_SHORT = "\nCONTEXT SUMMARY\n===============\n\n* Axioms:\n    Coq.Logic.Classical_Prop.classic\n"


def test_a_coqchk_summary_cut_short_is_never_a_pass() -> None:
    sections = read_coqchk(CUT_SHORT)
    assert sections is not None and sections["Axioms"] == ["Coq.Logic.Classical_Prop.classic"]
    problems = coqchk_problems(sections, parse_statement(STATEMENT, PROBLEM))
    assert any("unexpected theory" in p for p in problems), problems
    assert sum("printed no" in p for p in problems) == 3, problems


def test_a_trusted_output_that_stops_after_the_marker_is_no_assumption_list() -> None:
    assert read_assumptions("MARK\n", "MARK", []) is None
    assert read_assumptions("MARK\nAxioms\n", "MARK", []) is None
    closed = read_assumptions("MARK\nClosed under the global context\n", "MARK", [])
    assert closed is not None and closed.other == [] and closed.allowed == []


REQUIRE_IN_PROOF = {
    "Require Import in the theorem's proof": (
        "Proof. Require Import Coq.Arith.PeanoNat. exact Nat.add_0_r. Qed.",
        "accepted",
        None,
    ),
    "From Require in the theorem's proof": (
        "Proof. From Coq Require Import PeanoNat. exact Nat.add_0_r. Qed.",
        "accepted",
        None,
    ),
    "an admitted axiom loaded in the proof": (
        "Proof. Require Coq.Compat.AdmitAxiom.\n"
        "exact (match Coq.Compat.AdmitAxiom.proof_admitted : False with end). Qed.",
        "rejected",
        "G5",
    ),
    "an uninstalled library in the proof": (f"Proof. Require Import GeoCoq.Main. {PROOF} Qed.", "rejected", "G2"),
}


@needs_coq
@pytest.mark.parametrize(
    ("proof", "status", "gate"),
    sampled(REQUIRE_IN_PROOF, {"Require Import in the theorem's proof", "an admitted axiom loaded in the proof"}),
)
def test_a_require_in_the_theorems_proof_is_judged_by_g5(
    tmp_path: Path, proof: str, status: str, gate: str | None
) -> None:
    """Full: the library loads and the proof stands or falls by its axioms; text and fast: refused, since
    no gate of theirs reports the axioms the proof uses."""
    candidate = f"{THEOREM}{proof}\n"
    full = _verdict(tmp_path, candidate, Profile.FULL)
    assert full.status == status and (gate is None or gate in failures(full)), failures(full)
    fast = _verdict(tmp_path, candidate, Profile.FAST)
    assert fast.status == "rejected" and "G2" in failures(fast), failures(fast)
