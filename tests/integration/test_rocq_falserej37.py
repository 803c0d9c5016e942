"""Round 37, false rejections: ssreflect's ``Prenex Implicits`` (mathcomp style), measured with coqc 8.16.1.

``Prenex Implicits f`` was refused on every profile ("not a permitted addition"), as ``Implicit Types`` was
before round 36, though published mathcomp files write it after their definitions. It makes the leading
implicit arguments of existing constants maximal (``plugins/ssr/ssrvernac.mlg`` 140-170: an ``Arguments f
{A}``), so G2 now judges it as ``Arguments``: of the candidate's own constants harmless; of any other
constant class 2 before the theorem (G5 on the full profile decides); refused wherever ``Require`` replays
it, which is what its locality decides (``Locality.make_section_locality``, ``vernac/locality.ml`` 61-62):
outside a section unless ``Local``, and a ``Global`` one in a section. Measured here
(:func:`test_prenex_implicits_reach_as_measured`): a plain one reaches a file that only ``Require``s the
candidate, a ``Local`` one does not, one in a section ends with it, a ``Global`` one in a section does not.
Coq also runs it inside a proof, where its effect outlives ``Qed``: G2 passed over it there unread; it is
judged there now too.

``Import Prenex Implicits.`` is another command (``ssrvernac.mlg`` 176-180): ``Unset Printing Implicit
Defensive``, printing only; it was class 2 (read as an ``Import``) and is now harmless everywhere.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import failures, needs_coq, one_record_benchmark, sampled

HEADER = "From mathcomp Require Import all_ssreflect.\n"
THEOREM = "Theorem zz_pi : forall n : nat, n + 0 = n.\n"
STATEMENT = f"{HEADER}{THEOREM}Proof. Admitted.\n"
PROOF = "Proof. by move=> n; rewrite addn0. Qed.\n"
OWN = "Definition zz_id (A : Type) (x : A) := x.\nArguments zz_id [A] x.\n"
G5 = "G5's trusted type check"
REPLAYED = "replayed by `Require`"
CASES = {
    "of the candidate's own definition": (f"{OWN}Prenex Implicits zz_id.\n", "", "accepted"),
    "of its own definition, after the theorem": ("", f"{OWN}Prenex Implicits zz_id.\n", "accepted"),
    "Import Prenex Implicits": ("Import Prenex Implicits.\n", "", "accepted"),
    "rolled back": ("Succeed Prenex Implicits idfun.\n", "", "accepted"),
    "Local, of a library constant": ("Local Prenex Implicits idfun.\n", "", G5),
    "in a helper section": ("Section ZzS.\nPrenex Implicits idfun.\nEnd ZzS.\n", "", G5),
    "of a library constant": ("Prenex Implicits idfun.\n", "", REPLAYED),
    "Global, in a helper section": ("Section ZzS.\nGlobal Prenex Implicits idfun.\nEnd ZzS.\n", "", REPLAYED),
    "in a helper's proof": ("Lemma zz_h : True.\nProof. Prenex Implicits idfun. exact I. Qed.\n", "", REPLAYED),
    "of a library constant, after the theorem": ("", "Prenex Implicits idfun.\n", "where `Require` replays it"),
}
"""(before the theorem, after its proof, the text profile's verdict: ``accepted``, or what G2's refusal
says: left to G5, or refused because ``Require`` replays it in the harness's files)."""
FULL = {k: v[:2] for k, v in CASES.items() if v[2] in ("accepted", G5)}
"""Every case the text profile accepts or leaves to G5: the full profile accepts each (``idfun``'s implicit
argument is already maximal, so the statement reads the same)."""


def _verdict(before: str, after: str, profile: Profile) -> Verdict:
    bench = one_record_benchmark(Path(tempfile.mkdtemp()), "zz_pi", STATEMENT)
    candidate = f"{HEADER}{before}{THEOREM}{PROOF}{after}"
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems["zz_pi"], candidate.encode(), Track.WITH_ANSWER, options)


@pytest.mark.parametrize(("before", "after", "expected"), list(CASES.values()), ids=list(CASES))
def test_prenex_implicits_on_text(before: str, after: str, expected: str) -> None:
    verdict = _verdict(before, after, Profile.TEXT)
    if expected == "accepted":
        assert verdict.status == "accepted", failures(verdict)
    else:
        assert verdict.status == "rejected" and expected in failures(verdict).get("G2", ""), failures(verdict)


@needs_coq
@pytest.mark.parametrize(("before", "after"), sampled(FULL, {"of the candidate's own definition"}))
def test_prenex_implicits_the_statement_survives_pass_on_full(before: str, after: str) -> None:
    verdict = _verdict(before, after, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)


LIBRARY = "From Coq Require Import ssreflect.\nDefinition zz_idf (A : Type) (x : A) := x.\nArguments zz_idf [A] x.\n"
SPELLINGS = (
    ("Plain", "Prenex Implicits zz_idf.\n"),
    ("Local", "Local Prenex Implicits zz_idf.\n"),
    ("InSection", "Section S.\nPrenex Implicits zz_idf.\nEnd S.\n"),
    ("GlobalInSection", "Section S.\nGlobal Prenex Implicits zz_idf.\nEnd S.\n"),
    ("InProof", "Lemma zz : True.\nProof. Prenex Implicits zz_idf. exact I. Qed.\n"),
)
REACH = frozenset({"Plain", "GlobalInSection", "InProof"})
"""The spellings that reach a file that only ``Require``s them: there ``zz_idf`` unapplied has its implicit
argument inserted (``zz_idf : nat -> nat`` typechecks)."""


@needs_coq
def test_prenex_implicits_reach_as_measured(tmp_path: Path) -> None:
    def coqc(name: str, text: str) -> bool:
        (tmp_path / f"{name}.v").write_text(text)
        run = subprocess.run(["coqc", "-Q", ".", "Zz", f"{name}.v"], cwd=tmp_path, capture_output=True, check=False)
        return run.returncode == 0

    assert coqc("Lib", LIBRARY)
    for name, text in SPELLINGS:
        assert coqc(name, f"From Coq Require Import ssreflect.\nFrom Zz Require Import Lib.\n{text}"), name
        user = f"From Zz Require Lib {name}.\nCheck (Zz.Lib.zz_idf : nat -> nat).\n"
        assert coqc(f"Use{name}", user) is (name in REACH), name


PU_HEADER = "Require Import Lia ZArith.\n"
PU_THEOREM = "Theorem zz_pu : forall n : nat, n + 0 = n.\n"
PU_STATEMENT = f"{PU_HEADER}{PU_THEOREM}Proof. Admitted.\n"
HONEST_SECTION = (
    "Section zz_s.\n  Variable zz_m : nat.\n  Lemma zz_h : zz_m + 0 = zz_m.\n  Proof using zz_m. lia. Qed.\nEnd zz_s.\n"
)
HINTED_FALSE = (
    "Section zz_s.\n  Variable zz_f : (1 <= 0)%nat.\n  Lemma zz_l : (2 <= 1)%nat.\n"
    "  Proof using. auto with zarith. Qed.\nEnd zz_s.\n"
)
"""rocq#19861 with no ``abstract`` in the text: the ``zarith`` hint database's ``Hint Extern 10 (_ <= _) =>
abstract lia`` (``theories/micromega/ZArith_hints.v`` 23) abstracts ``lia``'s use of ``zz_f``, which ``Proof
using.`` leaves out: the closed ``zz_l : 2 <= 1`` is ill-typed, coqc accepts it, coqchk says ``Type error:
UnboundVarzz_f`` (measured)."""
USING = {
    "an honest declaration": (HONEST_SECTION, "Proof. intros n. apply zz_h. Qed.\n", "accepted"),
    "a hint database's abstract": (
        HINTED_FALSE,
        "Proof. intros n. exfalso. pose proof zz_l. lia. Qed.\n",
        "Type error",
    ),
}
"""(helpers before the theorem, its proof, what ``fast`` says: ``accepted``, or part of G4's refusal)."""


def _using(helpers: str, proof: str, profile: Profile) -> Verdict:
    bench = one_record_benchmark(Path(tempfile.mkdtemp()), "zz_pu", PU_STATEMENT)
    candidate = f"{PU_HEADER}{helpers}{PU_THEOREM}{proof}"
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems["zz_pu"], candidate.encode(), Track.WITH_ANSWER, options)


@needs_coq
@pytest.mark.parametrize(("helpers", "proof", "expected"), sampled(USING, set(USING)))
def test_a_section_closed_over_proof_using_is_rechecked_by_coqchk(helpers: str, proof: str, expected: str) -> None:
    """Item 3 of round 37: ``Proof using`` in a helper section passes where G4 can have coqchk re-check the
    closed section (``discharge.py``), and is refused, at G4, when coqchk's kernel refuses it."""
    verdict = _using(helpers, proof, Profile.FAST)
    if expected == "accepted":
        assert verdict.status == "accepted", failures(verdict)
    else:
        found = failures(verdict)
        assert verdict.status == "rejected" and set(found) == {"G4"}, found
        assert "rocq#19861" in found["G4"] and expected in found["G4"], found


def test_proof_using_in_a_section_stays_refused_on_text() -> None:
    """The ``text`` profile compiles nothing, so no kernel can re-check the section: G3 keeps the rule."""
    found = failures(_using(HONEST_SECTION, USING["an honest declaration"][1], Profile.TEXT))
    assert "rocq#19861" in found.get("G3", "") and "coqchk re-check" in found["G3"], found
