"""The Rocq gates' rarer rules, each through the gates with the attack it refuses and the honest twin it passes.

A coverage run of the default suite found branches of the trusted Rocq modules that no default test ran
(their cases sat in ``-m slow`` tables or nowhere): ``vernacular.classify``'s printing tables,
``Generalizable``, ``Comments``, ``Ltac2``, ``Implicit Types``, ``Strategy``, ``Prenex Implicits``, rolled-back
settings; ``sentence_rules``' ``Ltac2 Set``/``@ external``, ``where`` notations, a locality stated twice,
registering attributes, ``Add Zify``, ``Print Universes "file"``, a global ``Strategy``/``Opaque``, unpaired
brackets around ``using``, ``Control.abstract`` and a name bound before its ``using``; ``declared``'s
constructor and projection names of a statement's type and the names check's harness failures;
``recursion``'s unreadable listings and prints and its harness failures. This file pins each one: a text
profile verdict on ``putnam_2013_b2`` (or a statement that loads Ltac2) for every rule, coqc for what the
rules claim of Coq (``Comments``, ``Generalizable``, the names check on a declared type), and fake harness
runs for the error paths, which only a failing coqc reaches.

Coverage (``coverage run --source=putnam_solver.core.provers.rocq``): before, the default suite's run left
the lines listed unexecuted: ``vernacular`` 149-171, 178, 199-203, 229-231, 235-237, 251-253, 266, 279, 281,
326, 391; ``declared`` 41-48, 63, 68-69, 72-73; ``recursion`` 140, 189, 192, 200-201, 250-252, 262, 265-266,
281, 292, 302, 306, 352, 356; ``sentence_rules`` 104-113, 174, 254, 273, 289-291; ``kernel_bugs`` 51. After,
this file alone executes every one of them but ``declared`` 63 (the ``.vo`` guard: ``compile_gate`` calls
the names check only after ``Built.judgement`` returned None, which it does only with a ``.vo``,
``build.py`` 165-173; kept to narrow the type). ``recursion.statement_names``' ``LexError`` branch
(200-201) was dead: ``parse_statement`` had lexed the same text already; it now reads the parsed sentences.
``KernelBug.describe`` (51) was called by nothing and is removed. This file alone: ``vernacular`` 96%,
``sentence_rules`` 89%, ``declared`` 93%, ``recursion`` 73%.

Most of the gap was the measurement's, not the suite's: the text gates run in ``gate_worker``'s process,
which a coverage run does not follow, so every text-profile verdict of the suite counted for nothing
(``test_rocq_redteam23_refused`` alone runs ``Generalizable`` through G2, and left ``classify`` unexecuted).
Here the text gates run in the test's process (``text_gates_in_process``).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq import declared, recursion
from putnam_solver.core.provers.rocq.build import Built
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.recursion import Listing, Unreadable, read_prints
from putnam_solver.core.sandbox.limits import SandboxResult
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam23_refused import _text_status
from tests.helpers import (
    COQ_BENCH,
    failures,
    needs_coq,
    one_record_benchmark,
    pinned,
    rocq_submission,
    text_gates_in_process,
)


@pytest.fixture(autouse=True)
def _in_process() -> Iterator[None]:
    """The text gates run in this process, so that a coverage run sees the rules they execute (in their
    worker process it sees none: that is how the default suite's coverage missed them)."""
    with text_gates_in_process():
        yield


PASS = ("accepted", "")
ELABORATES = ("rejected", "it can change how the statement")
"""Class 2 before the theorem: the text profile cannot re-elaborate the statement, so it refuses."""
RULES = {
    "rolled-back option": ("Succeed Set Implicit Arguments.", PASS, PASS),
    "rolled-back Arguments": ("Succeed Arguments Rplus : simpl never.", PASS, PASS),
    "search blacklist": ('Add Search Blacklist "zz".', PASS, PASS),
    "printing table": ("Add Printing Let prod.", PASS, PASS),
    "Global search blacklist": ('Global Add Search Blacklist "zz".', *[("rejected", "table reaches every file")] * 2),
    "Generalizable": ("Generalizable All Variables.", ELABORATES, PASS),
    "Global Generalizable": ("Global Generalizable All Variables.", *[("rejected", "replayed by `Require`")] * 2),
    "Add LoadPath": ('Add Rec LoadPath "zz".', *[("rejected", "loads or runs code")] * 2),
    "Comments": ('Comments "a note" zz.', PASS, PASS),
    "Comments Extra Dependency": (
        'Comments From Coq Extra Dependency "zz".',
        *[("rejected", "forward_compat_extra_dependency")] * 2,
    ),
    "Ltac2 without Ltac2": ("Ltac2 zz () := ().", *[("rejected", "does not load Ltac2")] * 2),
    "Implicit Types": ("Implicit Types n : nat.", ELABORATES, PASS),
    "global Strategy": ("Strategy opaque [Rplus].", *[("rejected", "write `Local Strategy`")] * 2),
    "Local Strategy of the library": ("Local Strategy expand [Rplus].", ELABORATES, PASS),
    "Local Strategy of its own": ("Definition zz := 1%nat.\nLocal Strategy opaque [zz].", PASS, PASS),
    "Prenex Implicits of its own": ("Definition zz := 1%nat.\nPrenex Implicits zz.", PASS, PASS),
    "Prenex without Implicits": ("Prenex zz.", *[("rejected", "`Prenex` is not a permitted addition")] * 2),
    "Tactic without Notation": ("Tactic zz.", *[("rejected", "`Tactic` is not a permitted addition")] * 2),
    "printing option": ("Set Printing Width 40.", PASS, PASS),
    "Remove Hints": ("Remove Hints Rle_refl : core.", PASS, PASS),
    "instance hint": ("Hint Resolve Rle_refl : typeclass_instances.", *[("rejected", "declares an instance")] * 2),
    "tactic notation": ('Tactic Notation "zz_t" := idtac.', PASS, PASS),
    "tactic notation ending in a dot": ('Tactic Notation "zz." := idtac.', *[("rejected", "ends in `.`")] * 2),
    "where notation": (
        "Inductive zz_t : Type := zz_c : zz_t where \"'zz_n'\" := zz_t.",
        *[("rejected", "a declaration's `where` clause")] * 2,
    ),
    "locality twice": ("#[local] Local Definition zz := 1%nat.", *[("rejected", "locality more than once")] * 2),
    "locality once": ("Local Definition zz := 1%nat.", PASS, PASS),
    "#[canonical]": ("#[canonical] Definition zz := 1%nat.", *[("rejected", "a canonical structure")] * 2),
    "Add Zify": ("Add Zify InjTyp zz.", *[("rejected", "declares typeclass instances")] * 2),
    'Print Universes "file"': ('Print Universes "zz.txt".', *[("rejected", "writes the universe graph")] * 2),
    "Print Universes": ("Print Universes.", PASS, PASS),
    "Global Opaque": ("Global Opaque Rplus.", *[("rejected", "Global Opaque")] * 2),
    "Opaque": ("Opaque Rplus.", ELABORATES, PASS),
    "using after unpaired brackets": (
        "Lemma zz_h : True. Proof. transparent_abstract (exact I] using cos. Qed.",
        *[("rejected", "the constant `cos`")] * 2,
    ),
    "using a name of its own after unpaired brackets": (
        "Lemma zz_h : True. Proof. transparent_abstract (exact I] using zz_a. Qed.",
        PASS,
        PASS,
    ),
    "using a hypothesis's name": (
        "Lemma zz_h : nat -> True. Proof. intros zz_n. "
        "match goal with [ H : nat |- _ ] => clear H; transparent_abstract exact I using H end. Qed.",
        *[("rejected", "names it is given")] * 2,
    ),
    "using a literal name": ("Lemma zz_h : True. Proof. transparent_abstract exact I using zz_a. Qed.", PASS, PASS),
}
"""(addition, (status, words of the refusal) before the theorem, the same after it) on the text profile."""


@pytest.mark.parametrize(("addition", "before", "after"), list(RULES.values()), ids=list(RULES))
def test_each_rule_refuses_its_attack_and_passes_its_twin(
    addition: str, before: tuple[str, str], after: tuple[str, str]
) -> None:
    for (status, words), (got, failed) in zip(
        (before, after), (_text_status(addition, ""), _text_status("", addition)), strict=True
    ):
        assert got == status and words in " ".join(failed.values()), (addition, failed)


LTAC2 = "From Ltac2 Require Import Ltac2.\n"
PLAIN = "Theorem zz_rc : forall n : nat, n + 0 = n.\n"
TACTICS = "Theorem zz_rc : forall n : nat, n + ltac2:(exact 0) = n.\n"
"""A statement whose own text runs an Ltac2 tactic while it elaborates."""


def _ltac2_verdict(tmp_path: Path, theorem: str, before: str, after: str) -> Verdict:
    bench = one_record_benchmark(tmp_path, "zz_rc", f"{LTAC2}{theorem}Proof. Admitted.\n")
    candidate = f"{LTAC2}{before}{theorem}Proof. intros n; induction n; simpl; auto. Qed.\n{after}"
    options = VerifyOptions(profile=Profile.TEXT, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems["zz_rc"], candidate.encode(), Track.WITH_ANSWER, options)


ABSTRACT = "Lemma zz_l : True. Proof. Control.abstract (Some @zz_a) (fun () => exact I). Qed.\n"
"""Ltac2's ``abstract``, which takes the constant's name as a value."""
RUNS = "the challenge runs tactics while it elaborates"
LTAC2_RULES = {
    "definition": (PLAIN, "Ltac2 zz_t () := ().\n", "", ""),
    "definition after a statement that runs Ltac2": (TACTICS, "", "Ltac2 zz_t () := ().\n", ""),
    "definition before a statement that runs Ltac2": (TACTICS, "Ltac2 zz_t () := ().\n", "", "can shadow a tactic"),
    "symbol notation": (PLAIN, 'Ltac2 Notation "<~" := ().\n', "", "adds a token to Coq's lexer"),
    "identifier notation before a statement that runs Ltac2": (TACTICS, 'Ltac2 Notation "zzn" := ().\n', "", RUNS),
    "Ltac2 Set": (PLAIN, "", "Ltac2 mutable zz_t () := ().\nLtac2 Set zz_t := fun () => ().\n", "Ltac2 Set"),
    "Ltac2 @ external": (PLAIN, "", 'Ltac2 @ external zz_p : int -> unit := "ltac2" "print".\n', "Ltac2 @ external"),
    "Control.abstract": (PLAIN, "", ABSTRACT, "names it is given"),
    "a helper without it": (PLAIN, "", "Lemma zz_l : True. Proof. exact I. Qed.\n", ""),
}
"""(statement's theorem, addition before it, addition after it, words of the refusal or "" for a pass) with a
statement that loads Ltac2. ``Ltac2 Notation`` is also G3's ``Notation`` word, refused whatever G2 says."""


@pytest.mark.parametrize(("theorem", "before", "after", "words"), list(LTAC2_RULES.values()), ids=list(LTAC2_RULES))
def test_ltac2_commands_are_judged_by_what_the_statement_runs(
    tmp_path: Path, theorem: str, before: str, after: str, words: str
) -> None:
    verdict = _ltac2_verdict(tmp_path, theorem, before, after)
    found = failures(verdict)
    assert verdict.status == ("rejected" if words else "accepted") and words in " ".join(found.values()), found


def _coqc(directory: Path, *files: tuple[str, str]) -> subprocess.CompletedProcess[str]:
    for name, text in files:
        (directory / name).write_text(text)
    command = " && ".join(f"coqc -Q . '' {name}" for name, _ in files)
    return subprocess.run(["sh", "-c", command], cwd=directory, capture_output=True, text=True, check=False)


@needs_coq
def test_comments_keeps_nothing_except_its_extra_dependency_form(tmp_path: Path) -> None:
    """``vernacular.COMMENTS`` and ``EXTRA_DEPENDENCY``: coqc 8.16 reads the latter as the command itself."""
    run = _coqc(tmp_path, ("C.v", 'Comments "a note" zz.\nComments From Coq Extra Dependency "Init/Prelude.v".\n'))
    assert run.returncode == 0 and "Extra Dependency" in run.stderr, run.stderr


@needs_coq
@pytest.mark.parametrize(("prefix", "replayed"), [("", False), ("Global ", True)])
def test_only_a_global_generalizable_reaches_a_file_that_requires_the_candidate(
    tmp_path: Path, prefix: str, replayed: bool
) -> None:
    """``vernacular.GENERALIZABLE``: measured, not assumed."""
    using = ("B.v", "Require A.\nDefinition zz_b := `(x = y :> nat).\n")
    run = _coqc(tmp_path, ("A.v", f"{prefix}Generalizable All Variables.\n"), using)
    assert (run.returncode == 0) is replayed, run.stderr


TYPED = (
    "Record zz_pt : Type := zz_mk { zz_x : nat ; zz_y : nat }.\n"
    "Inductive zz_col : Type := zz_red | zz_blue.\n"
    "Theorem zz_typed : forall p : zz_pt, zz_x p + 0 = zz_x p /\\ zz_red = zz_red.\n"
)
"""A statement that declares a record and an inductive type: their constructors, projections and schemes are
the statement's own names, which a faithful candidate repeats."""


def _typed_statement(tmp_path: Path) -> tuple[Benchmark, Problem]:
    bench = one_record_benchmark(tmp_path, "zz_typed", f"{TYPED}Proof. Admitted.\n")
    return bench, bench.problems["zz_typed"]


def test_a_declared_types_names_are_the_statements_own_and_other_words_are_not(tmp_path: Path) -> None:
    _, problem = _typed_statement(tmp_path)
    statement = statement_of(problem)
    own = {"zz_mk", "zz_x", "zz_y", "zz_red", "zz_blue", "zz_col_ind", "zz_pt_rect", "Build_zz_pt"}
    assert own <= declared.own_names(statement)
    fields = [("Definition", n) for n in sorted(own)] + [("Definition", "nat"), ("Definition", "zz_free")]
    assert declared.shadowing(fields, statement) == ["nat"]


@needs_coq
def test_a_faithful_candidate_of_a_typed_statement_passes_the_names_check(tmp_path: Path) -> None:
    bench, problem = _typed_statement(tmp_path)
    proof = "Proof. intros p. split; [symmetry; apply plus_n_O | reflexivity]. Qed.\n"
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    verdict = run_gates(get_prover("rocq"), bench, problem, f"{TYPED}{proof}".encode(), Track.WITH_ANSWER, options)
    assert verdict.status == "accepted", failures(verdict)


def _result(stdout: str) -> SandboxResult:
    return SandboxResult(("coqc",), 0, False, stdout, "", len(stdout), 0, False, 0.1, 0, True, None, 0)


NOT_RUN = Built("Zz", None, None)
"""A harness file that did not compile (its judgement: ``not compiled``)."""
GARBLED = Built("Zz", _result("no marker here\n"), Path("Zz.vo"))
"""A harness file that compiled and printed nothing the readers know."""


@pytest.mark.parametrize(("run", "words"), [(NOT_RUN, "not compiled"), (GARBLED, "listing the candidate's")])
def test_a_names_listing_that_fails_is_an_error_never_a_pass(
    monkeypatch: pytest.MonkeyPatch, run: Built, words: str
) -> None:
    bench = pinned(COQ_BENCH)
    sub = rocq_submission(bench, "putnam_2013_b2", "")
    monkeypatch.setattr(declared, "build", lambda *args: run)
    result = declared.shadowing_check(sub, statement_of(sub.problem), GARBLED, ("G4", "compiles"))
    assert result is not None and result.status is GateStatus.ERROR and words in result.detail


def test_unreadable_listings_and_prints_are_refused_by_the_readers() -> None:
    listing = Listing.fresh(())
    with pytest.raises(Unreadable, match="guessed constants are missing"):
        listing.read("nothing\n")
    with pytest.raises(Unreadable, match="is missing"):
        read_prints("M-0\n", "M", 1)
    with pytest.raises(Unreadable, match="out of order"):
        read_prints("M-end\nM-0\n", "M", 1)


@pytest.mark.parametrize("run", [NOT_RUN, GARBLED], ids=["not compiled", "garbled"])
@pytest.mark.parametrize("where", ["candidate's terms", "pinned statement alone", "pinned statement's terms"])
def test_a_harness_print_that_fails_is_an_error_never_a_pass(
    monkeypatch: pytest.MonkeyPatch, run: Built, where: str
) -> None:
    """``inspect_terms`` and ``module_check``: each harness file that cannot be read is a gate ``error``."""
    bench = pinned(COQ_BENCH)
    sub = rocq_submission(bench, "putnam_2013_b2", "", Track.WITH_ANSWER)
    statement = statement_of(sub.problem)
    fixed = "fun n => fix f (k : nat) : nat := k"
    pinned_ok = Built("Pristine", None, Path("Pristine.vo"))
    monkeypatch.setattr(recursion, "build", lambda *args: run)
    alone = run if where == "pinned statement alone" else pinned_ok
    monkeypatch.setattr(recursion, "build_pinned", lambda *args: alone)
    fields = [("Definition", "putnam_2013_b2_solution"), ("Definition", "zz")]
    printed = {"zz": "1", "putnam_2013_b2_solution": fixed} if where != "candidate's terms" else {}
    found = recursion.inspect_terms(sub, statement, fields, printed, Path("C.vo"), ("G5", "statement"))
    assert isinstance(found, GateResult) and found.status is GateStatus.ERROR, found
    assert where.split()[-2] in found.detail, found.detail
    if where != "candidate's terms":
        module = recursion._same_modules(sub, statement, ["M"], Path("C.vo"), ("G5", "statement"))
        assert module is not None and module.status is GateStatus.ERROR, module


def test_a_listed_label_that_is_no_name_is_an_error() -> None:
    sub = rocq_submission(pinned(COQ_BENCH), "putnam_2013_b2", "")
    fields = [("Definition", "1x")]
    found = recursion.inspect_terms(sub, statement_of(sub.problem), fields, {}, Path("C.vo"), ("G5", ""))
    assert isinstance(found, GateResult) and "unreadable constant name" in found.detail
