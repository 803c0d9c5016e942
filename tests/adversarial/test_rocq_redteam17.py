"""Red team 17 on the Rocq side: where the gates' reading of the text disagrees with coqc's lexer.

Coq's lexer is ``parsing/cLexer.ml`` (``next_token``, ``ident_tail``, ``find_keyword``) with the character
classes of ``clib/unicode.ml``; each finding below was measured with coqc 8.16.1.

1. **A number ends elsewhere for coqc.** The lexer read a number as digits, ``_`` and ``.digit`` groups;
   coqc 8.16 also reads an exponent (``1e3``, ``1.5E-0_3``), a fraction begun by ``_`` (``1._5`` is ``1.5``,
   ``1._`` is ``1``) and hexadecimal (``0x1F``, ``0x1.fp+3``). So ``1e3fix`` was ``1`` and the word
   ``e3fix`` to G2 and G3, and ``1e3`` then ``fix`` to coqc: behind ``Tactic Notation "zz_then" constr(c)
   tactic(t)`` (identifier keywords: harmless on every profile) the ``fix`` tactic ran unseen, and
   rocq#20455's proof of ``False`` made ``mathd_algebra_104`` *accepted* on the ``fast`` profile (by which
   miniF2F is judged). ``1._fix`` and ``0x1idtac`` hide a word the same way. The lexer now reads numbers
   as coqc does (measured forms below), and a name written against a number's end is a lexing error (G2
   and G3 refuse it): where coqc ends a number is subtle (``1eidtac`` is ``1`` and ``eidtac``, ``1e3_5``
   is ``1e35``). No published proof, sample or pinned statement has one.
2. **Letters Coq 8.16 does not know.** Python's ``isalnum`` follows Unicode 14; Coq 8.16's table is older,
   and ``ident_tail`` ends a name before a letter of "unknown lexical status" (a warning), which is then a
   token of its own: an undefined one, or a ``Tactic Notation``'s keyword. ``zz_then Iࡠexact I.`` (U+0860)
   was one word to the gates and ``I``, ``ࡠ``, ``exact I`` to coqc. Not exploitable as found: such a
   keyword is a symbol keyword, which G2 allows only where G5 runs, and there the term checks stop a
   hidden fixpoint. Measured over every code point (16035 characters Python calls alphanumeric and coqc
   refuses in or at the start of a name, superscripts aside), they are now a lexing error outside comments
   and strings (``_unicode.UNKNOWN_TO_COQ``).
3. **A goal selector written as another number.** ``N: {`` ends a sentence without a period (a subproof of
   goal ``N``); G2 took only a digit string for ``N``, while coqc 8.16 takes any natural number token
   (``1_``, ``0x1``, ``01``). So ``1_: { Global Opaque ... exact I. }`` was one sentence begun by ``1_`` to
   G2 and G3 and a subproof then a ``Global Opaque`` command to coqc: red team 14's attack in the proof of
   the vacuous ``putnam_2013_b2`` made the wrong answer ``4``'s check ``unknown`` and the verdict
   ``accepted`` on the ``full`` profile instead of ``disputed`` (every command G2 or G3 judges by its
   sentence could hide there: options, ``Open Scope``, ``Add``, ``Strategy``...). A selector is now any
   token that begins with a digit (one coqc refuses fails the compile); multi-goal selectors (``all:``,
   ``1-2:``, ``!:``, ``par:``) before ``{`` are refused by coqc at run time (measured), so they stay one
   sentence to G2 harmlessly.
4. **A control prefix's argument written in hexadecimal.** ``Timeout 0x5 Global Opaque Rplus.`` runs the
   command for coqc 8.16 (measured); with ``0x5`` read as ``0`` and ``x5``, G2 and G3 took ``x5`` for the
   sentence's command, and the ``Global Opaque`` behind it went unjudged (red team 14's attack again, on
   ``full``). Reading numbers as coqc does (finding 1) makes ``0x5`` the one argument ``Timeout`` takes.

Read and found to agree (not repeated here): comments (``(*)``, ``(**)``, strings inside comments with
``""`` and ``*)``), strings (a keyword cannot hold ``"`` or a blank: ``check_keyword``), the sentence end
(``.`` then a blank or the end; ``...``; ``.`` before anything else is a field, a keyword or an undefined
token), bullets and braces (only after a sentence end, a bullet or a brace: ``between_commands``), ``#[using=
...]`` (already read as ``Proof using``). Left open: a ``Tactic Notation`` keyword ending in ``.`` (``"zz."``,
or the library's ``..``) makes coqc merge two sentences G2 splits; merging only removes commands coqc runs,
and such a keyword is allowed only where G5 runs. (Red team 18 found it cuts a command's tail off too, a
hint's ``typeclass_instances`` database: such a keyword is refused now.)
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq import _unicode
from putnam_solver.core.provers.rocq._unicode import unknown_to_coq
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.checks import check_preservation
from putnam_solver.core.provers.rocq.forbidden import check_forbidden
from putnam_solver.core.provers.rocq.syntax import LexError, sentences, tokenize
from putnam_solver.core.verify import GateStatus, Profile, Track
from tests.adversarial.test_rocq_redteam14 import OPS, vacuous
from tests.adversarial.test_rocq_redteam14 import verdict as vacuous_verdict
from tests.adversarial.test_rocq_redteam15 import PROBLEM, text_violations
from tests.adversarial.test_rocq_redteam16 import GUARD_FALSE, HEADER, THEOREM, gate, verdict
from tests.helpers import COQ_BENCH, MINIF2F_ROCQ, needs_coq, pinned


def hidden_false(spelling: str) -> str:
    """rocq#20455's proof of ``False`` with its ``fix`` tactic written as ``spelling``, used by the theorem."""
    return (
        HEADER
        + "\n"
        + GUARD_FALSE.replace("R1SUPfix", spelling)
        + "\n"
        + THEOREM
        + "  exfalso; exact zz_false.\nQed.\n"
    )


# ------------------------------------------------------------------ 1. numbers

HIDING_NUMBERS = ["1e3fix", "1E3fix", "1.5e3fix", "1._fix", "1_e3fix", "1e+3fix", "0x1.fp3fix"]


@needs_coq
@pytest.mark.parametrize("spelling", ["1e3fix", "1._fix"])
def test_coqc_runs_the_fix_tactic_written_against_a_number(tmp_path: Path, spelling: str) -> None:
    source = HEADER + GUARD_FALSE.replace("R1SUPfix", spelling) + "Print Assumptions zz_false.\n"
    (tmp_path / "N.v").write_text(source)
    run = subprocess.run(["coqc", "N.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Closed under the global context" in run.stdout


@pytest.mark.parametrize("spelling", HIDING_NUMBERS)
def test_a_name_against_a_number_is_unreadable(spelling: str) -> None:
    with pytest.raises(LexError, match="written against the number"):
        tokenize(f"zz_then {spelling} zz_rec 1.")


@pytest.mark.parametrize("spelling", HIDING_NUMBERS)
def test_the_hidden_fixpoint_is_refused_by_the_text_gates(spelling: str) -> None:
    statement = statement_of(pinned(MINIF2F_ROCQ).problems[PROBLEM])
    candidate = hidden_false(spelling)
    found = check_preservation(statement, candidate, Track.WITH_ANSWER, Profile.FAST)
    found += check_forbidden(statement, candidate)
    assert found and all("against the number" in str(v) for v in found), found


@needs_coq
def test_the_fixpoint_behind_a_number_was_accepted_on_fast_and_is_now_refused() -> None:
    v = verdict(hidden_false("1e3fix"), Profile.FAST)
    status, detail = gate(v, "G3")
    assert not v.accepted and status is GateStatus.FAILED and "against the number" in detail, detail


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1e3", "1e3"),
        ("1.5E-0_3", "1.5E-0_3"),
        ("1._5", "1._5"),
        ("1_000", "1_000"),
        ("0X1F", "0X1F"),
        ("0x1.fp+3", "0x1.fp+3"),
        ("1e3_5", "1e3_5"),
    ],
)
def test_numbers_are_one_token_as_coqc_reads_them(text: str, number: str) -> None:
    assert [t.text for t in tokenize(f"Check {text} + 1.")] == ["Check", number, "+", "1", "."]


@pytest.mark.parametrize("text", ["exact 1.", "n.+1", "(1)%R", "x.1", "h0_x2 1.5 + 2", "1 e3"])
def test_numbers_beside_periods_names_and_blanks_still_read(text: str) -> None:
    assert tokenize(text)


def test_a_number_in_a_comment_or_string_stays_harmless() -> None:
    assert [t.text for t in tokenize('(* 1e3fix *) idtac "1._fix".')] == ["idtac", '"1._fix"', "."]


NUMBER_SOUND = (
    HEADER
    + "\nDefinition zz_big : R := 1e3 + 0x1F + 1._5.\n\n"
    + THEOREM
    + "  assert (zz_h : x = 12 * (x / 12)) by field.\n  rewrite zz_h, <- h0. field.\nQed.\n"
)
"""A sound proof of ``mathd_algebra_104`` beside a helper written with coqc 8.16's number forms."""


@needs_coq
def test_a_sound_proof_with_number_forms_is_accepted_on_fast() -> None:
    v = verdict(NUMBER_SOUND, Profile.FAST)
    assert v.accepted, [(g.id, g.status, g.detail) for g in v.gates]


# ------------------------------------------------------------------ 2. letters unknown to Coq

UNKNOWN_KEYWORD = 'Tactic Notation "zz_then" constr(c) "\u0860" tactic(t) := t.\n'


@needs_coq
def test_coqc_ends_a_name_before_a_letter_it_does_not_know(tmp_path: Path) -> None:
    source = UNKNOWN_KEYWORD + 'Lemma zz : True.\nProof. zz_then I\u0860idtac "ran"; exact I. Qed.\n'
    (tmp_path / "U.v").write_text(source)
    run = subprocess.run(["coqc", "U.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "ran" in run.stdout, run.stderr
    assert "unrecognized-unicode" in run.stderr


@pytest.mark.parametrize("char", ["\u0860", "\u0560", "\u08be", "\U00010d30"])
def test_a_letter_unknown_to_coq_is_unreadable_in_code(char: str) -> None:
    with pytest.raises(LexError, match=r"unknown to Coq 8\.16"):
        tokenize(f"zz_then I{char}exact I.")
    with pytest.raises(LexError, match=r"unknown to Coq 8\.16"):
        tokenize(f"Check {char}x.")


def test_a_letter_unknown_to_coq_may_stand_in_comments_and_strings() -> None:
    assert [t.text for t in tokenize('(* I\u0860exact *) idtac "\u0860".')] == ["idtac", '"\u0860"', "."]


@pytest.mark.parametrize("text", ["x½y", "α", "ℝ", "x₁", "xᵢ", "xⅫ", "Γ'"])
def test_letters_coq_knows_still_read(text: str) -> None:
    assert [t.text for t in tokenize(text)] == [text]


def test_the_unknown_keyword_candidate_is_refused_on_every_profile() -> None:
    candidate = hidden_false("R1\u0860fix").replace(
        'Tactic Notation "zz_then" constr(c) tactic(t) := t.', UNKNOWN_KEYWORD.strip()
    )
    for profile in (Profile.FAST, Profile.FULL):
        assert text_violations(candidate, profile), profile


def test_another_unicode_database_refuses_letters_unicode_3_2_did_not_have(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_unicode, "MEASURED_UNICODE", "0.0.0")
    assert unknown_to_coq("\u08b6x") is not None  # Unicode 9.0, known to Coq 8.16: passes only when measured
    assert unknown_to_coq("x½y α ℝ") is None


# ------------------------------------------------------------------ 3. goal selectors written as other numbers


def selected(selector: str, command: str, answer: str = "4") -> str:
    """``putnam_2013_b2``'s published proof with ``answer`` and ``command`` run in a subproof of goal 1."""
    return vacuous(answer, f"assert (zz_t : True).\n  {selector}: {{ {command} exact I. }}")


@needs_coq
@pytest.mark.parametrize("selector", ["1_", "0x1", "01"])
def test_coqc_takes_any_number_for_a_goal_selector(tmp_path: Path, selector: str) -> None:
    source = (
        f"Require Import Reals.\nLemma zz : True /\\ True.\nProof.\n  split.\n  {selector}: {{ Global Opaque Rplus. "
    )
    (tmp_path / "S.v").write_text(source + "exact I. }\n  exact I.\nQed.\nPrint Strategy Rplus.\n")
    run = subprocess.run(["coqc", "S.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "Rplus : opaque" in run.stdout, run.stderr


@pytest.mark.parametrize("selector", ["1", "1_", "0x1", "01", "1_0", "0X1"])
def test_a_command_after_a_number_selector_is_its_own_sentence(selector: str) -> None:
    split = [s.words for s in sentences(f"{selector}: {{ Global Opaque Rplus. exact I. }}")]
    assert split[1] == ("Global", "Opaque", "Rplus", "."), split


@pytest.mark.parametrize("selector", ["1_", "0x1"])
def test_the_hidden_reduction_setting_is_refused_by_g3(selector: str) -> None:
    statement = statement_of(pinned(COQ_BENCH).problems["putnam_2013_b2"])
    found = check_forbidden(statement, selected(selector, f"Global Opaque {OPS}."))
    assert any("`Global Opaque`" in str(v) for v in found), found


@needs_coq
def test_the_wrong_answer_behind_a_number_selector_is_no_longer_accepted_on_full() -> None:
    v = vacuous_verdict(selected("1_", f"Global Opaque {OPS}."))
    assert v.status == "rejected", (v.status, v.answers)
    assert "G3" in {g.id for g in v.gates if g.status is GateStatus.FAILED}


@needs_coq
def test_the_right_answer_with_a_number_selector_is_accepted_on_full() -> None:
    v = vacuous_verdict(selected("0x1", "", "3"))
    assert v.status == "accepted", [(g.id, g.status, g.detail) for g in v.gates]


# ------------------------------------------------------------------ 4. a control prefix's hexadecimal argument


@needs_coq
def test_coqc_takes_a_hexadecimal_timeout(tmp_path: Path) -> None:
    (tmp_path / "T.v").write_text("Require Import Reals.\nTimeout 0x5 Global Opaque Rplus.\nPrint Strategy Rplus.\n")
    run = subprocess.run(["coqc", "T.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "Rplus : opaque" in run.stdout, run.stderr


@pytest.mark.parametrize("where", ["in the proof", "before the theorem"])
def test_a_command_behind_a_hexadecimal_timeout_is_judged(where: str) -> None:
    statement = statement_of(pinned(COQ_BENCH).problems["putnam_2013_b2"])
    command = f"Timeout 0x5 Global Opaque {OPS}."
    candidate = vacuous("4", command) if where == "in the proof" else command + "\n" + vacuous("4")
    found = check_forbidden(statement, candidate)
    assert any("`Global Opaque`" in str(v) for v in found), found
