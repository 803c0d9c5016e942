"""Red team 31 on the Rocq gates, both directions, measured with coqc 8.16.1.

**False rejections of commands that only print, name or generalize (text profile).** ``Generalizable All
Variables`` after the theorem was refused twice: by G2 (not a permitted addition) and by G3, which read its
keyword ``Variables`` as the command that declares assumptions. ``Obligations.``, ``Show Obligation
Tactic.``, ``Test <option>.``, ``Set Mangle Names`` (and ``Light``, ``Prefix``), ``Set Silent``, ``Add
Printing If`` were refused as unknown additions or options. Measured: none of them is replayed by
``Require`` in a file that loads the candidate (the harness's files), unless ``Global``
(``Global``/``#[global] Generalizable``, ``Global Set Mangle Names`` are replayed: still refused). What each
can still reach is judged as its kin: a ``Generalizable`` before the theorem decides how a backquoted binder
elaborates (class 2, G5 decides), a naming option steers tactics (class 2 where the statement runs them);
queries and printing options are harmless anywhere.

**A wrong set answer was never ``differs``.** The answer check compared sets by logic only, which confirms and
never refutes, so ``fun n => n = 1`` for ``fun n => n = 1 \\/ n = 7`` was ``unknown``, and ``accepted`` where
the proof was unsound. It now also applies the equation at points where Coq decides one membership and
refutes the other (``answer_sets``): ``differs``, a ``Qed`` the kernel checks. Only where the statement asks
every point (``X = solution``, ``forall x, P x <-> solution x`` with no hypothesis or premise): where it asks
``a > 0`` only, an answer apart at ``a = -1`` may be right, and stays ``unknown``, as does one where nothing
decides (a MathComp ``realType``, an ``exists``).

**Elpi through the trusted check's ``Require`` (explored, not reachable).** coq-elpi 1.16 and Hierarchy Builder
are installed (``user-contrib/elpi``, ``HB``), loaded by MathComp-Analysis. The commands Elpi libraries
export under other names (``lock``, ``mlock``, ``derive``, ``NES.Begin``) live in ``elpi.apps``, which no
permitted ``Require`` loads (a bare ``locker`` does not resolve, ``elpi`` is a G3 word, the root is not
permitted), and after ``classical.functions`` (which loads Elpi and HB) neither ``lock`` nor ``HB.lock``
parses. Every other way to run an Elpi program names ``Elpi``, ``elpi`` or ``HB`` (G3,
``test_rocq_plugins.py``). And ``Require`` runs no Elpi program: a ``.vo`` that accumulated one and ran a
query prints nothing in a file that ``Require``s it (measured), so its state acts only through commands the
requiring file itself runs, which the trusted files never do.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.answer_sets import DIFFERENT_MEMBER, asked_everywhere, member_ltac, member_points
from putnam_solver.core.provers.rocq.answers import SETUP
from putnam_solver.core.provers.rocq.checks import check_preservation
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.verify import Profile, Track
from tests.adversarial.test_rocq_redteam14 import vacuous, verdict
from tests.adversarial.test_rocq_redteam19_answers import status, unsound
from tests.adversarial.test_rocq_redteam23_refused import _text_status
from tests.helpers import COQ_BENCH, failures, needs_coq, one_record_benchmark, pinned, rocq_full_verdict, sampled

ACCEPTED = {
    "Generalizable All Variables after": ("", "Generalizable All Variables."),
    "Generalizable Variables after": ("", "Generalizable Variables A B."),
    "Local Generalizable after": ("", "Local Generalizable No Variables."),
    "Generalizable in the theorem's proof": ("", "Lemma zz : True. Proof. Generalizable All Variables. exact I. Qed."),
    "Obligations": ("", "Obligations."),
    "Show Obligation Tactic": ("Show Obligation Tactic.", ""),
    "Test an option": ("", "Test Mangle Names."),
    "Set Mangle Names before": ("Set Mangle Names.", ""),
    "Set Mangle Names after": ("", "Set Mangle Names."),
    "Mangle Names Light and Prefix": ('Set Mangle Names Light.\nSet Mangle Names Prefix "zz".', ""),
    "Set Silent": ("", "Set Silent.\nUnset Silent."),
    "Add Printing If": ("", "Add Printing If bool."),
    "Remove Printing Let": ("Remove Printing Let prod.", ""),
    "in a helper's proof": (
        "Lemma zz : True. Proof. Obligations. Show Obligation Tactic. Set Mangle Names. intros. exact I. Qed.",
        "",
    ),
}
"""Each stays in the candidate's file and reads nothing of the statement: accepted on every profile."""
REFUSED = {
    "Global Generalizable after": ("", "Global Generalizable All Variables."),
    "#[global] Generalizable after": ("", "#[global] Generalizable All Variables."),
    "Global Generalizable in a proof after": (
        "",
        "Lemma zz : True. Proof. Global Generalizable All Variables. exact I. Qed.",
    ),
    "Generalizable before the theorem (text)": ("Generalizable All Variables.", ""),
    "Generalizable before, in a helper's proof (text)": (
        "Lemma zz : True. Proof. Generalizable All Variables. exact I. Qed.",
        "",
    ),
    "a Variable beside Generalizable": ("", "Generalizable Variables zz.\nVariable zz_h : False."),
    "Global Set Mangle Names": ("", "Global Set Mangle Names."),
    "Export Set Mangle Names": ("Export Set Mangle Names.", ""),
    "Set Mangle Names beside an option that matters": ("Set Mangle Names.\nSet Universe Polymorphism.", ""),
    "Global Add Printing": ("", "Global Add Printing If bool."),
}
"""Replayed by ``Require`` (``Global``), able to change how the statement reads (text profile), or beside a
command that is refused anyway."""


@pytest.mark.parametrize(("before", "after"), sampled(ACCEPTED, {"Generalizable All Variables after"}))
def test_commands_that_only_print_name_or_generalize_later_pass_the_text_gates(before: str, after: str) -> None:
    status_, failed = _text_status(before, after)
    assert status_ == "accepted" and not failed, failed


@pytest.mark.parametrize(("before", "after"), sampled(REFUSED, {"Global Generalizable after"}))
def test_their_near_twins_that_reach_the_harness_or_the_statement_are_refused(before: str, after: str) -> None:
    status_, failed = _text_status(before, after)
    assert status_ == "rejected" and set(failed) & {"G2", "G3"}, failed


TACTIC_STATEMENT = (
    "Require Import Arith.\nDefinition zz_two : nat := ltac:(exact 2).\n"
    "Theorem zz_thm : zz_two = 2.\nProof. Admitted.\n"
)
"""A statement that runs a tactic while it elaborates: an option that renames hypotheses could reach it."""


@pytest.mark.parametrize(("profile", "refused"), [(Profile.TEXT, True), (Profile.FULL, False)])
def test_a_naming_option_before_a_statement_that_runs_tactics_is_left_to_g5(profile: Profile, refused: bool) -> None:
    statement = parse_statement(TACTIC_STATEMENT, "zz_thm")
    candidate = TACTIC_STATEMENT.replace("Definition zz_two", "Set Mangle Names.\nDefinition zz_two").replace(
        "Proof. Admitted.", "Proof. reflexivity. Qed."
    )
    found = check_preservation(statement, candidate, Track.WITH_ANSWER, profile)
    assert bool(found) is refused and all("Mangle" in v.construct for v in found), found


REPLAY = {
    "Generalizable All Variables": ("Generalizable All Variables.", "Definition zz2 `(x : A) := x.", False),
    "Local Generalizable": ("Local Generalizable All Variables.", "Definition zz2 `(x : A) := x.", False),
    "Global Generalizable": ("Global Generalizable All Variables.", "Definition zz2 `(x : A) := x.", True),
    "#[global] Generalizable": ("#[global] Generalizable All Variables.", "Definition zz2 `(x : A) := x.", True),
    "Set Mangle Names": ("Set Mangle Names.", "", False),
    "Global Set Mangle Names": ("Global Set Mangle Names.", "", True),
}
"""(the command after a theorem in ``A.v``, a sentence of ``B.v`` that only ``Require``s ``A``, whether the
command reaches ``B``): for ``Mangle Names`` read from what ``Test`` prints."""


def _loaded(directory: Path, module: str, requiring: str) -> list[subprocess.CompletedProcess[str]]:
    """coqc on ``module`` (``T.A``), then on a file that only ``Require``s it and goes on with ``requiring``."""
    (directory / "A.v").write_text(module)
    (directory / "B.v").write_text(f"Require T.A.\n{requiring}")
    return [
        subprocess.run(["coqc", "-Q", ".", "T", name], cwd=directory, capture_output=True, text=True, check=False)
        for name in ("A.v", "B.v")
    ]


@needs_coq
@pytest.mark.parametrize(("command", "probe", "replayed"), sampled(REPLAY, {"Global Generalizable"}))
def test_only_a_global_generalizable_or_option_reaches_a_file_that_requires_the_candidate(
    tmp_path: Path, command: str, probe: str, replayed: bool
) -> None:
    runs = _loaded(tmp_path, f"Theorem zz : True. Proof. exact I. Qed.\n{command}\n", f"Test Mangle Names.\n{probe}\n")
    assert runs[0].returncode == 0, runs[0].stderr
    if "Mangle" in command:
        assert ("Mangle Names is on" in runs[1].stdout) is replayed, runs[1].stdout
    else:
        assert (runs[1].returncode == 0) is replayed, runs[1].stderr


@needs_coq
@pytest.mark.slow
def test_the_accepted_commands_leave_the_answer_check_alone() -> None:
    """A wrong answer to the vacuous ``putnam_2013_b2`` with them all after the theorem: still ``disputed``."""
    # (a second `Generalizable Variables A` after `All Variables` is coqc's error: "already declared")
    after = "\n".join(a for k, (b, a) in ACCEPTED.items() if a and not b and k != "Generalizable Variables after")
    found = verdict(f"{vacuous('4')}\n{after}\n")
    assert found.status == "disputed" and not failures(found), failures(found)


SET = (
    "Require Import Reals Lra Lia Ensembles.\nOpen Scope R_scope.\n"
    "Definition ps_solution : (R * R) -> Prop := fun '(b, c) => c < 1 /\\ c - b > -1.\n"
    "Theorem ps : ps_solution (0, 0).\nProof. Admitted.\n"
)
"""A pair-set answer on a statement every answer with ``(0, 0)`` in it satisfies (red team 30's)."""
SET_ANSWERS = {
    "apart at (0, 3/2), which the statement does not ask": ("fun p => snd p < 2 /\\ -1 < snd p - fst p", "unknown"),
    "the same set spelled otherwise": ("fun p => -1 < snd p - fst p /\\ snd p < 1", "confirmed"),
}
"""The statement asks one point: an answer apart elsewhere is no wrong answer to it (``asked_everywhere``)."""


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize(("answer", "check"), SET_ANSWERS.values(), ids=SET_ANSWERS.keys())
def test_a_set_answer_apart_only_where_the_statement_does_not_ask_stays_unknown(answer: str, check: str) -> None:
    bench = one_record_benchmark(Path(tempfile.mkdtemp()), "ps", SET)
    candidate = SET.replace("fun '(b, c) => c < 1 /\\ c - b > -1.", f"{answer}.").replace(
        "Proof. Admitted.", "Proof. unfold ps_solution; simpl; lra. Qed."
    )
    v = rocq_full_verdict(bench, "ps", candidate, Track.NO_ANSWER)
    assert v.answers["ps_solution"]["check"]["status"] == check, (v.answers, failures(v))


WRONG_SETS = {
    "Z with mod, a condition dropped (X = solution)": (
        "putnam_2019_a1",
        "fun n => Z.ge n 0 /\\ n mod 9 <> 3",
        "differs",
    ),
    "four nat arguments, a case dropped": (
        "putnam_1976_a3",
        "fun p r q s => (p = 3%nat /\\ r = 2%nat /\\ q = 2%nat /\\ s = 3%nat)",
        "differs",
    ),
    "MathComp nat, decided by computation": ("putnam_1998_a4", "[set n | n = 1 %[mod 3]]", "differs"),
    "apart only at the candidate's own numeral": (
        "putnam_2019_a1",
        "fun n => Z.ge n 0 /\\ n mod 9 <> 3 /\\ n mod 9 <> 6 /\\ n <> 500%Z",
        "differs",
    ),
    "asked under a hypothesis (hn : gt n 0)": (
        "putnam_1997_b3",
        "(fun n : nat => (le 1 n /\\ le n 4) \\/ (le 20 n /\\ le n 24) \\/ (le 100 n /\\ le n 104))",
        "unknown",
    ),
    "asked where a, b > 0 (a premise)": ("putnam_1995_a2", "fun (a b: R) => a = b /\\ a > 0", "unknown"),
    "a family asked where A > 0": ("putnam_2000_a1", "(fun A : R => (fun x : R => 0 < x < A))", "unknown"),
    "an exists no tactic decides": ("putnam_2001_a3", "(fun m : Z => exists (n: Z), m = Z.mul n n)", "unknown"),
    "a MathComp realType": ("putnam_1977_a2", "fun a b c d => (c = -a /\\ d = b)", "unknown"),
}
"""Set answers "proved" through Coq 8.16's guard bug (recursion allowed): before, every one ``unknown`` and
``accepted``. Where the statement asks only some points, an answer apart elsewhere may be right: ``unknown``
(``putnam_1995_a2``'s is right where ``a, b > 0``; the others' points are not sorted by what is asked)."""


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize(("problem_id", "answer", "check"), WRONG_SETS.values(), ids=WRONG_SETS.keys())
def test_a_wrong_set_answer_proved_unsoundly_is_disputed_where_a_point_decides(
    problem_id: str, answer: str, check: str
) -> None:
    verdict_ = "disputed" if check == "differs" else "accepted"
    assert status(unsound(problem_id, answer), problem_id) == (verdict_, check)


POINT_CASES = {
    "nat": ("Ensemble nat", "fun n => n = 1 \\/ n = 7", "fun n => n = 1", "", True),
    "Z, mod": (
        "Ensemble Z",
        "fun n => (n mod 9 <> 3)%Z",
        "fun n => (n mod 9 <> 3 /\\ n mod 9 <> 6)%Z",
        "Require Import ZArith.",
        True,
    ),
    "R pairs": ("(R * R) -> Prop", "fun '(b, c) => (c < 1)%R", "fun p => (snd p < 2)%R", "Require Import Reals.", True),
    "equal sets": ("nat -> Prop", "fun n => n = 1 \\/ n = 7", "fun n => n = 7 \\/ n = 1", "", False),
}
"""(declared type, official answer, candidate's answer, libraries, whether the tactic refutes their equality)."""


@needs_coq
@pytest.mark.parametrize(("declared", "theirs", "ours", "libraries", "apart"), sampled(POINT_CASES, {"nat"}))
def test_the_point_tactic_refutes_only_sets_apart_at_a_decided_point(
    tmp_path: Path, declared: str, theirs: str, ours: str, libraries: str, apart: bool
) -> None:
    """The attempt's tactic in coqc on two definitions (the full pipeline runs it in the slow tests above)."""
    run = point_run(tmp_path, f"Require Import Ensembles.\n{libraries}\n", declared, theirs, ours)
    assert (run.returncode == 0) is apart and (apart or "No applicable tactic" in run.stderr), run.stderr[-2000:]


def point_run(
    directory: Path, libraries: str, declared: str, theirs: str, ours: str
) -> subprocess.CompletedProcess[str]:
    """coqc on a file that loads ``libraries`` and proves the two answers apart by the attempt's tactic."""
    text = f"{libraries}Definition zz_solution : {declared} := {theirs}.\nTheorem zz : True.\nProof. Admitted.\n"
    ltac = member_ltac(parse_statement(text, "zz"), ours, theirs, "Reals" in libraries)
    (directory / "p.v").write_text(
        f"{libraries}{SETUP}{ltac}\nDefinition zz_ours : {declared} := {ours}.\n"
        f"Definition zz_theirs : {declared} := {theirs}.\n"
        f"Lemma zz_apart : zz_ours <> zz_theirs.\nProof. unfold zz_ours, zz_theirs. {DIFFERENT_MEMBER}. Qed.\n"
    )
    return subprocess.run(["coqc", "p.v"], cwd=directory, capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    ("declared", "reals", "sets"),
    [
        ("(set nat) * (set nat)", False, {"(Coq.Init.Datatypes.fst f)", "(Coq.Init.Datatypes.snd f)"}),
        ("nat -> nat -> nat -> nat -> Prop", False, {"f"}),
        ("Ensemble Z", False, {"f"}),
        ("(R*R)%type -> Prop", True, {"f"}),
        ("R -> (R -> Prop)", True, {"f"}),
        ("set R", False, set()),  # a MathComp `realType` `R`: no point of it is known
        ("Prop", False, set()),
        ("set (R -> R)", True, set()),
        ("nat -> set", False, set()),
    ],
)
def test_the_points_follow_the_official_answers_declared_type(declared: str, reals: bool, sets: set[str]) -> None:
    text = f"Definition zz_solution : {declared} := zz.\nTheorem zz : True.\nProof. Admitted.\n"
    tactic = " ".join(member_points(parse_statement(text, "zz"), "3", "7", reals))
    assert set(re.findall(r"fun f : X => (\(Coq\.Init\.Datatypes\.\w+ f\)|f) ", tactic)) == sets, tactic


ASKED = {
    "putnam_1976_a3": True,  # forall p r q s, ... <-> solution p r q s
    "putnam_2019_a1": True,  # A = solution (under a hypothesis that characterizes A)
    "putnam_1998_a4": True,
    "putnam_2001_a3": True,  # let-bound binders only
    "putnam_2022_a1": True,
    "putnam_1995_a2": False,  # a > 0 /\\ b > 0 -> ...
    "putnam_1997_b3": False,  # (hn : gt n 0)
    "putnam_2000_a1": False,  # (hA : A > 0)
    "putnam_1998_b4": False,  # (gt m 0 /\\ gt n 0) -> ...
    "putnam_1974_a3": False,  # two memberships in a conjunction, under a hypothesis
}


def test_differs_is_tried_only_where_the_statement_asks_every_point() -> None:
    bench = pinned(COQ_BENCH)
    found = {p: asked_everywhere(parse_statement(bench.problems[p].formal_statement, p)) for p in ASKED}
    assert found == ASKED


@needs_coq
@pytest.mark.slow
def test_no_permitted_require_reaches_the_elpi_commands_exported_under_other_names(tmp_path: Path) -> None:
    sources = {
        **{f"bare_{m}.v": f"Require Import {m}.\n" for m in ("locker", "derive", "NES", "structures")},
        "lock.v": "From mathcomp Require Import classical.functions.\nlock Definition zz := 3.\n",
        "hb_lock.v": "From mathcomp Require Import classical.functions.\nHB.lock Definition zz := 3.\n",
    }
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
        run = subprocess.run(["coqc", name], cwd=tmp_path, capture_output=True, text=True, check=False)
        assert run.returncode != 0 and ("physical path" in run.stderr or "Syntax error" in run.stderr), run.stderr
    for before, after in (("Require Import elpi.apps.locker.", ""), ("", "From elpi.apps Require Import locker.")):
        assert _text_status(before, after)[0] == "rejected"


@needs_coq
@pytest.mark.slow
def test_require_runs_no_elpi_program_of_the_loaded_module(tmp_path: Path) -> None:
    program = (
        "From elpi Require Import elpi.\nElpi Command zz_cmd.\n"
        'Elpi Accumulate lp:{{ main _ :- coq.say "ZZ-RAN". }}.\nElpi Query lp:{{ coq.say "ZZ-RAN" }}.\n'
        "Elpi Export zz_cmd.\nzz_cmd.\nDefinition zz := 0.\n"
    )
    runs = _loaded(tmp_path, program, "Definition zz2 := T.A.zz.\n")
    assert runs[0].stdout.count("ZZ-RAN") == 2, runs[0]
    assert runs[1].returncode == 0 and "ZZ-RAN" not in runs[1].stdout + runs[1].stderr, runs[1]
