"""Red team 16 on the Rocq side: characters the gates read otherwise than coqc, and queries that write files.

1. **A superscript digit split a word for coqc and not for the gates.** Python's ``isalnum``/``isdigit`` and
   the lexer's ``\\w`` take ``²`` (and ``³``, ``¹``, ``⁰``, ``⁴``-``⁹``) for digits; Coq 8.16 reads them as
   symbols (``clib/unicode.ml``), and ``Require Import Reals`` declares ``r ²`` (``Rsqr``). So ``R1²fix``
   was one word to G2 and G3 and ``R1``, ``²``, ``fix`` to coqc. A ``Tactic Notation "zz_then" constr(c)
   tactic(t)`` (a harmless addition) then ran the ``fix`` tactic behind ``R1²``: rocq#20455's proof of
   ``False`` passed every text gate and ``putnam_solver`` *accepted* ``mathd_algebra_104`` on the ``fast``
   profile (by which miniF2F is judged), where the text rule is the only line against the guard bugs
   (``full`` refused it by the kernel terms). The lexer now reads those ten characters as Coq does; they
   are the only ones Python puts in a word and Coq in a token of its own (measured over every code point:
   every other ``isalnum`` character is a letter or digit to Coq, or an undefined token it refuses).
2. **``Print Universes "file"`` writes a file.** A query (harmless anywhere to G2) with a file name makes
   coqc 8.16 write the universe graph there (``Print Sorted Universes``, behind ``Time``/``Succeed``, in a
   proof, after the theorem alike): a file effect of the kind ``Redirect`` and ``Extraction`` are refused
   for. G3 now refuses it, in a statement that is not a pinned record too; ``Print Universes.`` without a
   file stays a query.
3. **A keyword that ends in ``(`` turned a comment into code.** Coq's lexer reads a ``(`` glued to the text
   before it as the end of a keyword when one ends there, before it looks for a comment: a harmless
   ``Tactic Notation "zz_k(*" := idtac.`` (allowed where G5 runs) made ``zz_k(*.`` a tactic, and everything
   up to a ``zz_e*).`` (another notation) code to coqc and a comment to G2 and G3. ``Global Opaque`` of the
   reals' operations hidden there in the proof of the vacuous ``putnam_2013_b2`` made the wrong answer
   ``4``'s check ``unknown``: ``accepted`` on the ``full`` profile instead of ``disputed`` (red team 14's
   attack, which G3 refuses in the open). The library has such keywords too (``.(``, mathcomp's ``]_(``,
   mathcomp-analysis's ``'o_(``). A comment written against the text before it is now unreadable (a lexing
   error, G2 and G3 refuse it); none of the published proofs, samples or pinned statements has one.
4. **A mutual theorem is a fixpoint no recursion word spells.** ``Lemma zz_issue (m : nat) : ... with
   zz_other (m : nat) : True.`` gives each statement's proof the other as a hypothesis (Coq builds a mutual
   fixpoint): rocq#20455's ``False`` written so passed G3 and ``mathd_algebra_104`` was accepted on ``fast``
   (``full`` refused it by the kernel terms, which ``fast`` does not read). On a Coq with guard bugs G3 now
   refuses a theorem command with ``with`` blocks as recursion (``--allow-recursion`` lifts it, as it
   lifts the words).

Tried and found stopped (not repeated here): ``Primitive``, ``Register``, ``Number``/``String Notation``,
``Typeclasses Opaque``/``eauto :=``, ``Set Primitive Projections``/``Universe Polymorphism``/``Definitional
UIP``, ``Unset Elimination Schemes``, ``Load``/``Cd``/``Add LoadPath``/``Extraction``, ``Existing``,
``Canonical``, ``Coercion``, ``Bind``/``Delimit Scope``, ``Abort``/``Reset``/``Back``/``Undo`` are refused by
word or as options; Ltac2 cannot be loaded (``Require Import Ltac2.`` is not found by coqc, ``From Ltac2``
is not an installed library the policy permits), so ``Ltac2 @ external`` (which would bind the unsafe term
constructor under a name of the candidate's) and ``Std.fix_`` are out of reach; no installed library sets
``Global`` options, ``Strategy`` or ``Global Opaque`` that weaken the answer check, and
``Coq.Compat.AdmitAxiom``'s axiom fails G5 and G6 by name. Universe-polymorphic definitions and hints in
other databases than ``typeclass_instances`` pass, as the policy intends.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.checks import check_preservation
from putnam_solver.core.provers.rocq.forbidden import check_forbidden, statement_violations
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.provers.rocq.syntax import Kind, LexError, tokenize
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam14 import OPS, vacuous
from tests.adversarial.test_rocq_redteam14 import verdict as vacuous_verdict
from tests.adversarial.test_rocq_redteam15 import (
    PROBLEM,
    SOUND,
    before_theorem,
    compile_pair,
    text_violations,
)
from tests.helpers import COQ_BENCH, MINIF2F_ROCQ, needs_coq, pinned

HEADER = "Require Import Reals.\nOpen Scope R_scope.\n"
"""``mathd_algebra_104``'s own header: nothing added before the theorem, so the ``fast`` profile judges it."""
THEOREM = "Theorem mathd_algebra_104 (x : R) (h0 : 125 / 8 = x / 12) : x = 375 / 2.\nProof.\n"
GUARD_FALSE = """Tactic Notation "zz_then" constr(c) tactic(t) := t.

Definition zz_not_zero n := match n with 0%nat => False | S _ => True end.
Definition zz_not_one n := match n with 0%nat => False | S n => zz_not_zero n end.

Lemma zz_issue : forall m : nat, zz_not_zero m -> False.
Proof.
  zz_then R1SUPfix zz_rec 1.
  intro m.
  refine
  (match m with
  | 0%nat => fun h => h
  | S subn => fun h =>
    let f (b : bool) (e : b = true) (x : nat) (Hx : zz_not_one x) :=
      let arg := (match (if b then x else subn) with 0%nat => subn | S subsubn => subsubn end) in
      zz_rec arg _
    in
    f true eq_refl 5%nat I
  end).
  subst b.
  destruct x; cbn in Hx.
  - now exfalso.
  - assumption.
Defined.

Definition zz_false : False := zz_issue 1%nat I.
"""
"""rocq-prover/rocq#20455's proof of ``False`` with the ``fix`` tactic run behind ``R1`` and a superscript."""
SUPERSCRIPTS = "²³¹⁰⁴⁵⁶⁷⁸⁹"


def hidden_false(sup: str = "²") -> str:
    return HEADER + "\n" + GUARD_FALSE.replace("SUP", sup) + "\n" + THEOREM + "  exfalso; exact zz_false.\nQed.\n"


SQUARE_SOUND = (
    HEADER
    + "\nLemma zz_square (y : R) : 0 <= y².\nProof. apply Rle_0_sqr. Qed.\n\n"
    + THEOREM
    + "  assert (zz_h : x = 12 * (x / 12)) by field.\n  rewrite zz_h, <- h0. field.\nQed.\n"
)
"""A sound proof of ``mathd_algebra_104`` whose helper uses the reals' ``y²`` notation (no ``lra``: no
``Require`` beyond the challenge's, so ``fast`` accepts it)."""


def verdict(candidate: str, profile: Profile, keep_going: bool = False) -> Verdict:
    options = VerifyOptions(profile=profile, keep_going=keep_going)
    problem = pinned(MINIF2F_ROCQ).problems[PROBLEM]
    return run_gates(get_prover("rocq"), pinned(MINIF2F_ROCQ), problem, candidate.encode(), Track.WITH_ANSWER, options)


def gate(v: Verdict, gate_id: str) -> tuple[GateStatus, str]:
    found = next(g for g in v.gates if g.id == gate_id)
    return found.status, found.detail


# ------------------------------------------------------------------ 1. superscript digits


@needs_coq
def test_coqc_runs_the_fix_tactic_behind_a_superscript_and_proves_false(tmp_path: Path) -> None:
    source = HEADER + GUARD_FALSE.replace("SUP", "²") + "Print Assumptions zz_false.\n"
    (tmp_path / "E.v").write_text(source)
    run = subprocess.run(["coqc", "E.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Closed under the global context" in run.stdout


@pytest.mark.parametrize("text", ["R1²fix", "x¹Axiom", "y⁰cofix", "2²fix", "a⁹admit"])
def test_a_superscript_digit_is_a_token_of_its_own(text: str) -> None:
    tokens = tokenize(text)
    assert [t.kind for t in tokens][-2:] == [Kind.SYMBOL, Kind.WORD], tokens
    assert tokens[-2].text in SUPERSCRIPTS and tokens[-1].glued


@pytest.mark.parametrize("text", ["x½y", "x₁", "xᵢ", "xⅫ", "x'1"])
def test_other_digits_and_letters_stay_in_the_word(text: str) -> None:
    assert [t.text for t in tokenize(text)] == [text]


@pytest.mark.parametrize("sup", list(SUPERSCRIPTS))
def test_a_fixpoint_hidden_behind_a_superscript_is_refused_by_g3(sup: str) -> None:
    assert any("recursion" in v for v in text_violations(hidden_false(sup), Profile.FAST))


@needs_coq
def test_the_hidden_fixpoint_was_accepted_on_fast_and_is_now_refused() -> None:
    status, detail = gate(verdict(hidden_false(), Profile.FAST), "G3")
    assert status is GateStatus.FAILED and "`fix`" in detail, detail


@needs_coq
def test_a_sound_proof_with_the_square_notation_is_accepted_on_fast() -> None:
    v = verdict(SQUARE_SOUND, Profile.FAST)
    assert v.accepted, [(g.id, g.status, g.detail) for g in v.gates]


def test_the_square_notation_is_the_same_statement_token_for_token() -> None:
    before = [(t.text, t.glued) for t in tokenize("a² * (b + c - a) + b²")]
    assert before[:3] == [("a", False), ("²", True), ("*", False)]


# ------------------------------------------------------------------ 2. queries that write files

WRITES = {
    "before the theorem": before_theorem('Print Universes "zz.txt".'),
    "sorted": before_theorem('Print Sorted Universes "zz.txt".'),
    "subgraph": before_theorem('Print Universes Subgraph (Set) "zz.dot".'),
    "behind Time": before_theorem('Time Print Universes "zz.txt".'),
    "behind Succeed": before_theorem('Succeed Print Universes "zz.txt".'),
    "in the theorem's proof": before_theorem("", 'Print Universes "zz.txt". lra.'),
    "in a helper's proof": before_theorem('Lemma zz : True.\nProof. Print Universes "zz.txt". exact I. Qed.'),
    "after the theorem": SOUND + '\nPrint Universes "zz.txt".\n',
}


@needs_coq
def test_coqc_writes_the_universe_graph_where_a_query_names_a_file(tmp_path: Path) -> None:
    (tmp_path / "P.v").write_text('Definition zz := 1.\nTime Print Sorted Universes "zz.txt".\n')
    run = subprocess.run(["coqc", "P.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "zz.txt").stat().st_size > 0


@pytest.mark.parametrize("name", list(WRITES))
def test_a_query_writing_a_file_is_refused_by_g3(name: str) -> None:
    assert any("writes the universe graph" in v for v in text_violations(WRITES[name])), name


@pytest.mark.parametrize(
    "query", ["Print Universes.", "Print Sorted Universes.", 'Search "+" Rplus.', "Print Assumptions Rplus."]
)
def test_queries_without_a_file_stay_harmless(query: str) -> None:
    assert text_violations(before_theorem("", f"{query} lra.")) == []
    assert text_violations(SOUND + f"\n{query}\n") == []


# ------------------------------------------------------------------ 3. comments glued to a keyword

HIDING = 'Tactic Notation "zz_k(*" := idtac.\nTactic Notation "zz_e*)" := idtac.\n'
"""Two tactic notations whose keywords end in a comment's opener and closer."""


def hidden_in_proof(command: str) -> str:
    return HIDING + vacuous("4", f"zz_k(*.\n  {command}\n  zz_e*).")


@needs_coq
def test_coqc_runs_what_a_keyword_glued_comment_hides(tmp_path: Path) -> None:
    source = HIDING + "Lemma zz_h : True.\nProof. zz_k(*.\n  Definition zz_hidden := 42.\n  zz_e*). exact I. Qed.\n"
    run = compile_pair(tmp_path, source, "Require T.C.\nPrint T.C.zz_hidden.\n")
    assert run.returncode == 0 and "42" in run.stdout, run.stderr


@pytest.mark.parametrize("glued", ["x(* c *)", "(1)(* c *)", "+(* c *)", '"s"(* c *)', "((* c *) x)", "I.(* c *)"])
def test_a_comment_glued_to_the_text_before_it_is_unreadable(glued: str) -> None:
    with pytest.raises(LexError, match="put a blank before"):
        tokenize(f"Check {glued}.")


@pytest.mark.parametrize("spaced", ["x (* c *)", "(1) (* c *)", "(* a *)(* b *) x", "( (* c *) x)", "(* c *)x"])
def test_a_comment_after_a_blank_still_reads(spaced: str) -> None:
    assert "c" not in [t.text for t in tokenize(f"Check {spaced}.")]


def test_the_hidden_reduction_setting_is_refused_by_the_text_gates() -> None:
    statement = statement_of(pinned(COQ_BENCH).problems["putnam_2013_b2"])
    candidate = hidden_in_proof(f"Global Opaque {OPS}.")
    found = check_preservation(statement, candidate, Track.NO_ANSWER, Profile.FULL)
    found += check_forbidden(statement, candidate)
    assert found and all("put a blank before" in str(v) for v in found), found


@needs_coq
def test_the_wrong_answer_behind_a_glued_comment_is_no_longer_accepted_on_full() -> None:
    v = vacuous_verdict(hidden_in_proof(f"Global Opaque {OPS}."))
    assert v.status == "rejected", (v.status, v.answers)
    assert {g.id for g in v.gates if g.status is GateStatus.FAILED} >= {"G2", "G3"}


@needs_coq
def test_the_right_answer_with_the_notations_and_a_spaced_comment_is_accepted_on_full() -> None:
    v = vacuous_verdict(HIDING + vacuous("3", "idtac. (* a comment after a blank *)"))
    assert v.status == "accepted", [(g.id, g.status, g.detail) for g in v.gates]


# ------------------------------------------------------------------ 4. mutual theorems

MUTUAL_FALSE = """Definition zz_not_zero n := match n with 0%nat => False | S _ => True end.
Definition zz_not_one n := match n with 0%nat => False | S n => zz_not_zero n end.

Lemma zz_issue (m : nat) : zz_not_zero m -> False
with zz_other (m : nat) : True.
Proof.
  - refine
    (match m with
    | 0%nat => fun h => h
    | S subn => fun h =>
      let f (b : bool) (e : b = true) (x : nat) (Hx : zz_not_one x) :=
        let arg := (match (if b then x else subn) with 0%nat => subn | S subsubn => subsubn end) in
        zz_issue arg _
      in
      f true eq_refl 5%nat I
    end).
    subst b.
    destruct x; cbn in Hx.
    + now exfalso.
    + assumption.
  - exact I.
Defined.

Definition zz_false : False := zz_issue 1%nat I.
"""
"""The same proof of ``False`` with the recursion made by a mutual theorem (its second goal is ``True``)."""


def mutual_false() -> str:
    return HEADER + "\n" + MUTUAL_FALSE + "\n" + THEOREM + "  exfalso; exact zz_false.\nQed.\n"


@needs_coq
def test_coqc_proves_false_by_a_mutual_theorem(tmp_path: Path) -> None:
    (tmp_path / "M.v").write_text(HEADER + MUTUAL_FALSE + "Print Assumptions zz_false.\n")
    run = subprocess.run(["coqc", "M.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Closed under the global context" in run.stdout


@needs_coq
def test_the_mutual_theorem_was_accepted_on_fast_and_is_now_refused() -> None:
    status, detail = gate(verdict(mutual_false(), Profile.FAST), "G3")
    assert status is GateStatus.FAILED and "`Lemma ... with ...`" in detail, detail


@pytest.mark.parametrize("keyword", ["Lemma", "Theorem", "Fact", "Remark", "Corollary", "Proposition"])
def test_every_theorem_command_with_with_blocks_is_refused(keyword: str) -> None:
    helper = f"{keyword} zz_a (n : nat) : n = n\nwith zz_b (n : nat) : n + 0 = n + 0.\nProof. all: reflexivity. Qed."
    candidate = HEADER + "\n" + helper + "\n" + THEOREM + "  exact I.\nQed.\n"
    assert any("mutual theorem" in v for v in text_violations(candidate, Profile.FAST))


def test_a_statement_with_a_match_and_a_rolled_back_mutual_theorem_pass() -> None:
    helper = (
        "Lemma zz_m (n : nat) : match n with 0%nat => True | S _ => True end.\nProof. destruct n; exact I. Qed.\n"
        "Fail Lemma zz_a (n : nat) : True with zz_b (n : nat) : True.\n"
    )
    candidate = HEADER + "\n" + helper + "\n" + THEOREM + "  exact I.\nQed.\n"
    assert not any("mutual theorem" in v for v in text_violations(candidate, Profile.FAST))


def test_allow_recursion_lifts_the_mutual_theorem_rule() -> None:
    statement = statement_of(pinned(MINIF2F_ROCQ).problems[PROBLEM])
    assert any("mutual theorem" in str(v) for v in check_forbidden(statement, mutual_false()))
    assert not any("mutual theorem" in str(v) for v in check_forbidden(statement, mutual_false(), False))


def test_a_statement_that_is_not_pinned_may_not_write_a_file_either() -> None:
    text = 'Require Import Reals.\nPrint Universes "zz.txt".\nTheorem zz_t : True.\nProof.\nAdmitted.\n'
    found = statement_violations(parse_statement(text, "zz_t"))
    assert any("writes the universe graph" in str(v) for v in found), found
    assert statement_violations(parse_statement(text.replace(' "zz.txt"', ""), "zz_t")) == []
