"""Red team 9 (Lean): text the lexer read as a string or a comment where Lean reads code, and term-level
meta code G3 did not name.

* Interpolation the lexer does not know. Lean reads the string after ``trace[cls]`` (src/Lean/Util/Trace.lean),
  ``throwError``/``throwErrorAt`` (src/Lean/Exception.lean) and any library keyword declared with
  ``interpolatedStr(term)`` (``sql!``, ``doc!``...) as an interpolated string: its ``{...}`` parts are
  code. The lexer interpolated only after ``s!``, ``m!``, ``f!``, ``println!`` and read every other
  string whole, so ``trace[zz] "{sorry}"`` hid a ``sorry`` (or ``native_decide``, ``by_elab``...) from G3;
  a nested string inside the braces even shifts where the two readings think later strings begin. The
  text profile accepted it. Fixed by meaning of "cannot know": a ``{`` in a string that does not follow a
  known interpolation keyword is a lexing error (no pinned statement and no published proof has one).
* Tokens the lexer does not know, glued to a comment opener. Lean reads a symbol as the longest token of
  its table before it looks for a comment: core's subtype notation ``{ x // p }`` (Init/Notation.lean,
  ``syntax "{ " withoutPosition(ident (" : " term)? " // " term) " }" : term``) makes ``//`` a token of
  every file, so ``{x : Nat //--`` is ``//`` and a line comment to Lean, and ``/`` then a *doc comment*
  ``/-- ... -/`` to a lexer without that token: every line up to the next ``-/`` (which Lean may read
  inside a ``--`` comment) was invisible to G2 and G3, ``axiom``, ``instance``, ``set_option
  debug.skipKernelTC`` alike. Core's ``\\/`` (``Or``) does the same with ``/-``; a library token ending in
  ``'`` does it with a character literal. The token table depends on the imports, so the juxtaposition
  itself (a comment or char literal glued to a symbol) is a lexing error; published proofs never have it.
  The toy Lean's prelude declares no ``//``, so Lean's reading is cited here, not replayed; on the real
  toolchain a hidden ``instance (priority := 2000)`` reaches G4's statement check wherever the challenge
  declares things before its theorem (its answer on no-answer), which only G2's words guarded.
* ``by_elab`` (core and Mathlib.Tactic.RunCmd: runs a ``TermElabM`` do-block to build the term) and
  Mathlib's ``eval%`` (runs a term in the interpreter while elaborating) are meta code in term position:
  G3 refused ``run_cmd``, ``run_elab``, ``run_tac``, but not these.
* No-answer answers that restate an extremal question: ``sInf {n : ℕ | ...}`` copied from
  ``putnam_1990_a4``'s ``sInf {n : ℕ | ...} = putnam_1990_a4_solution`` is proved by ``rfl`` and passed
  every gate (the answer check said ``unknown``). ``sInf``, ``sSup``, ``iInf``/``⨅``, ``iSup``/``⨆``,
  ``WellFounded.min``, ``Finset.min'``... are choice operators by another name (no official answer
  uses one; counting, ``ncard``, stays allowed: a published proof answers with one). A set answer
  copied from the statement stays open (the last test, an expected failure).
"""

from __future__ import annotations

import re

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.syntax import LexError, lex, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_with_helper

PROBLEM = "aimeII_2001_p3"


def _candidate(bench: Benchmark, proof: str, helper: str = "") -> str:
    return lean_with_helper(bench, PROBLEM, helper, proof)


HIDDEN = {
    "trace interpolation": ("", 'by\n  have zz := Id.run do\n    trace[zz] "{sorry}"\n  norm_num [h₀]'),
    "throwError interpolation": ("", 'by\n  have zz : Unit := Id.run do\n    throwError "{sorry}"\n  norm_num'),
    "library interpolation": ("", 'by\n  have zz := sql! "{native_decide}"\n  norm_num'),
    "subtype token then a doc comment": (
        "def zz_helper (p : Prop) : Type := {x : ℕ //--\n  p}\naxiom zz_ax : False\n-- -/\n\n",
        "zz_ax.elim",
    ),
    "subtype token then a block comment": (
        "def zz_helper : Type := {x : ℤ //-x = x}\naxiom zz_ax : False\n-- -/\n\n",
        "zz_ax.elim",
    ),
    "Or token then a doc comment": (
        "theorem zz_helper (p q : Prop) (h : p) : p \\/-- or\n  q := Or.inl h\naxiom zz_ax : False\n-- -/\n\n",
        "zz_ax.elim",
    ),
    "library token then a char literal": (
        'def zz_helper := zz ⨁\'"\' ++ "\ninstance (priority := 2000) zz_i : Inhabited ℕ := ⟨1⟩\n-- "\n\n',
        "by\n  norm_num",
    ),
}


@pytest.mark.parametrize("case", sorted(HIDDEN))
def test_code_lean_reads_in_a_string_or_comment_is_refused(minif2f: Benchmark, case: str) -> None:
    helper, proof = HIDDEN[case]
    verdict = lean_text_verdict(minif2f, PROBLEM, _candidate(minif2f, proof, helper))
    assert verdict.status == "rejected"
    refused = failures(verdict)
    for gate in ("G2", "G3"):
        assert "unreadable source" in refused.get(gate, ""), refused


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('trace[zz] "{sorry}"', "not an interpolation keyword"),
        ('zz "{ " ++ " sorry }"', "not an interpolation keyword"),
        ("{x : ℤ //-x = x -/ }", "comment right after `/`"),
        ("{x : ℤ //-- c\n  p} -- -/", "comment right after `/`"),
        ("p \\/- c -/ q", "comment right after `\\`"),
        ("a :=-- c\n b", "comment right after `:=`"),
        ("f ⨁'\"' x", "character literal right after `⨁`"),
    ],
)
def test_the_ambiguous_spellings_do_not_lex(text: str, reason: str) -> None:
    with pytest.raises(LexError, match=re.escape(reason)):
        lex(text)


@pytest.mark.parametrize(
    "text",
    [
        's!"n = {n}"',  # a known interpolation keyword: its code is lexed
        '"a } b" ++ r"{raw}"',  # no `{`, or a raw string (never interpolated)
        "{x : ℤ // -x = x}",  # the subtype token, spaced from the minus
        "p \\/ q -- or",
        "f (x) /- c -/ y",
        "x ++ 'a' ++ ( 'b' : Char)",
    ],
)
def test_the_usual_spellings_still_lex(text: str) -> None:
    assert lex(text)


TERM_META = {
    "by_elab": "by_elab do\n    pure (.const `zz [])",
    "eval%": "by\n  have zz : (531 : ℕ) = eval% 531 := rfl\n  norm_num",
}


@pytest.mark.parametrize("case", sorted(TERM_META))
def test_term_level_meta_code_is_refused(minif2f: Benchmark, case: str) -> None:
    verdict = lean_text_verdict(minif2f, PROBLEM, _candidate(minif2f, TERM_META[case]))
    assert verdict.status == "rejected"
    assert case in failures(verdict).get("G3", ""), failures(verdict)


def test_names_that_merely_contain_the_words_pass(minif2f: Benchmark) -> None:
    """The control: ``Polynomial.eval``, ``eval`` before a spaced ``%``, a ``by_elab_ok`` binder, and
    the valid spellings above in a helper, on the text profile (the proof itself is not checked there)."""
    helper = (
        "theorem zz_helper (by_elab_ok eval : ℕ) (h : eval % 2 = 0) (q : Prop) : "
        "{x : ℕ // x = eval} → q \\/ True := fun _ => Or.inr trivial\n\n"
        'def zz_msg : String := "n = " ++ "}" -- done\n\n'  # red team 41: no interpolation (`_literals`)
    )
    verdict = lean_text_verdict(minif2f, PROBLEM, _candidate(minif2f, "by\n  norm_num [h₀]", helper))
    assert verdict.status == "accepted", failures(verdict)


# --- no-answer: the question restated through an extremal or counting operator ---------------------

RESTATED = {
    "sInf of the statement's set": "sInf {n : ℕ | ∃ S : Set (EuclideanSpace ℝ (Fin 2)), S.encard = n ∧ "
    "∀ Q : EuclideanSpace ℝ (Fin 2), ∃ P ∈ S, Irrational (dist P Q)}",
    "iInf notation": "⨅ n ∈ {n : ℕ | ∃ S : Set (EuclideanSpace ℝ (Fin 2)), S.encard = n}, n",
    "well-founded minimum": "WellFounded.min Nat.lt_wfRel.wf {n : ℕ | n = 3} ⟨3, rfl⟩",
    "least element of a finset": "((Finset.range 4).filter (· = 3)).min' ⟨3, by simp⟩",
    "choose tactic": "by\n  choose n hn using (⟨3, rfl⟩ : ∃ n : ℕ, n = 3)\n  exact n",
    "choose! tactic after by": "by choose! n hn using (⟨3, rfl⟩ : ∃ n : ℕ, n = 3); exact n",
    "a proof's choose field": "(⟨3, rfl⟩ : ∃ n : ℕ, n = 3).choose",
    "a nonempty set's some field": "(⟨3, rfl⟩ : ({3} : Set ℕ).Nonempty).some + 0",
}
"""``putnam_1990_a4`` states ``sInf {n : ℕ | ...} = putnam_1990_a4_solution``: the set copied into
``sInf`` as the answer makes the theorem ``rfl``, which every gate accepted (the answer check can only
say ``unknown``). The extremal and counting operators are choice operators by another name (the Rocq
policy lists ``ex_minn``); no official answer uses one. Choice itself reached the value unwritten too:
Mathlib's ``choose`` tactic in a ``by`` block, and ``.choose``/``.some`` on a proof that is not a
dependent-if hypothesis (told from the binomial ``n.choose k`` by its missing argument)."""


@pytest.mark.parametrize("case", sorted(RESTATED))
def test_an_answer_that_restates_an_extremal_question_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(
        lean_putnambench, "putnam_1990_a4", Track.NO_ANSWER, proof="by\n  rfl", value=RESTATED[case]
    )
    verdict = lean_text_verdict(lean_putnambench, "putnam_1990_a4", candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "a choice operator picks a value" in failures(verdict).get("G2", ""), failures(verdict)


def test_every_official_answer_is_still_a_permitted_value(lean_putnambench: Benchmark) -> None:
    """The control: each of the 346 official answers (binomials ``n.choose k`` among them) as a
    no-answer value passes G2 (the proof is not checked on the text profile)."""
    refused = {}
    for problem_id, problem in lean_putnambench.problems.items():
        solutions = parse_statement(problem.formal_statement).solutions
        if len(solutions) != 1:
            continue
        candidate = lean_filled(lean_putnambench, problem_id, Track.NO_ANSWER, value=solutions[0].answer or "")
        verdict = lean_text_verdict(lean_putnambench, problem_id, candidate, Track.NO_ANSWER)
        if verdict.status != "accepted":
            refused[problem_id] = failures(verdict)
    assert not refused


def test_a_set_answer_copied_from_the_statement_is_refused(lean_putnambench: Benchmark) -> None:
    """``putnam_1971_a2`` states ``(P.eval 0 = 0 ∧ ∀ x, ...) ↔ P ∈ putnam_1971_a2_solution``: the predicate
    copied into a set-builder answer makes the theorem ``Iff.rfl``, and every gate accepted it (the
    answer check can only say ``unknown``). Names cannot tell it from an honest set answer (47 official
    answers are set-builders): G2 finds it as the other side of the statement's own ``↔``
    (``_answer_copy.py``)."""
    value = "{P : Polynomial ℝ | P.eval 0 = 0 ∧ ∀ x : ℝ, P.eval (x^2 + 1) = (P.eval x)^2 + 1}"
    candidate = lean_filled(lean_putnambench, "putnam_1971_a2", Track.NO_ANSWER, proof="Iff.rfl", value=value)
    assert lean_text_verdict(lean_putnambench, "putnam_1971_a2", candidate, Track.NO_ANSWER).status == "rejected"
