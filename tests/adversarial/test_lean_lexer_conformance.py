"""The Lean lexer against Lean 4's own tokenizer, token class by token class.

Lean's reading is taken from its source (leanprover/lean4 ``src/Lean/Parser/Basic.lean``, read at
00c1b82722b50e9b1ae4999ccc97f932b2788b51): ``whitespace`` (comments, nested ``/- -/`` with the opener's
third character skipped, ``/--`` and ``/-!`` left as tokens), ``tokenFnAux`` (which literal a token's first
character begins, else the longest token of the table or a longer identifier), ``identFnAux`` (``.``
parts, ``«»`` escapes), ``strLitFnAux``/``quotedCharCoreFn``/``stringGapFn``, ``charLitFnAux``,
``rawStrLitFnAux``, ``numberFnAux``/``decimalNumberFn``; identifier characters from
``src/Init/Meta/Defs.lean`` (``isIdFirst``, ``isIdRest``, ``isLetterLike``, ``isSubScriptAlnum``).

Found and fixed here:

* A character literal or raw string glued to an opening bracket or a comma (``['a', 'b']``,
  ``#[r"x"]``) was a lexing error, a false rejection: the refusal of literals glued to symbols is for
  symbols a library token may continue with ``'`` or ``r`` (Mathlib's ``→r``), and none continues a
  bracket or comma so (``_glue.LITERAL_AFTER``).
* Core's ``Σ'`` (PSigma binder, src/Init/NotationExtra.lean) and ``×'`` (PProd, src/Init/Notation.lean)
  read as ``Σ``/``×`` then a stray ``'``: a lexing error where Lean reads a sound term.
* Mathlib's ``[MOD``, ``[ZMOD``, ``[PMOD``, ``[SMOD`` are tokens (global notations), so Lean reads
  ``[MODsorry]`` as ``[MOD`` then ``sorry``; the lexer reads ``[`` then the name ``MODsorry``, and G3,
  which reads names after a possible library token only after non-ASCII symbols, missed the ``sorry``.

Replayed, not only cited: the lexical core (comments, strings, raw strings, char literals, numbers, ``«»``
names) is run through a real Lean 4.35 tokenizer (the toy toolchain, built-in tokens only; a probe per
case, :data:`REPLAYED`); a differential run of 1,600 random snippets the same way found no text where Lean
reads a name as code and the lexer as a comment or literal.

* A raw line break in a character literal (``'⏎'``, which ``charLitFnAux`` reads) was a stray-quote
  lexing error.

Read as Lean reads, no change: ``||`` is one token (core's ``infixl:30 " || " => or``), so ``||x| - 1|``
is no absolute value to Lean either (Mathlib's ``macro:max atomic("|" noWs) a:term noWs "|" : term``
meets the token ``||``, not ``|``: a parse error; Mathlib's ``abs`` unexpander prints ``|(|x|)|`` for
that reason), and ``|x||y|`` is ``|(x || y)|``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._abs_bars import abs_pairs
from putnam_solver.core.provers.lean._forbidden import scan_forbidden
from putnam_solver.core.provers.lean.syntax import (
    CHAR,
    COMMENT,
    DOC,
    IDENT,
    NAME,
    NUMBER,
    STRING,
    SYMBOL,
    LexError,
    lex,
    lex_code,
)
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_with_helper
from tests.toylean.build import ToyLean

PROBLEM = "aimeII_2001_p3"

AGREE: list[tuple[str, list[tuple[str, str]]]] = [
    # identifiers: isIdFirst/isIdRest (letter-like Greek and ℝ, subscripts, ' ! ? inside), `.` parts, «»
    ("x₁ᵢ h' f!? ℝ αβ", [(IDENT, "x₁ᵢ"), (IDENT, "h'"), (IDENT, "f!?"), (IDENT, "ℝ"), (IDENT, "αβ")]),
    ("h!sorry", [(IDENT, "h!sorry")]),
    ("«x y».z _root_.a", [(IDENT, "«x y».z"), (IDENT, "_root_.a")]),
    ("x.«sorry»", [(IDENT, "x.«sorry»")]),
    ("λx", [(SYMBOL, "λ"), (IDENT, "x")]),  # λ is no letter to isLetterLike
    ("x²", [(IDENT, "x"), (SYMBOL, "²")]),  # superscripts are not isIdRest
    ("h.1", [(IDENT, "h"), (SYMBOL, "."), (NUMBER, "1")]),  # isIdCont: `.` then a digit ends the name
    ("`foo.bar", [(NAME, "`foo.bar")]),
    # numbers: numberFnAux (0b/0o/0x need a digit; `_` between digits), decimalNumberFn's scientific form
    ("0x1F 0b101 0o17 1_000", [(NUMBER, "0x1F"), (NUMBER, "0b101"), (NUMBER, "0o17"), (NUMBER, "1_000")]),
    ("1.5e3 1.5e-3 2e5", [(NUMBER, "1.5e3"), (NUMBER, "1.5e-3"), (NUMBER, "2e5")]),
    ("2sorry", [(NUMBER, "2"), (IDENT, "sorry")]),
    # takeDigitsFn in every part of a decimal number (false rejections 49)
    ("1.5_3 1e1_0 1__0.2_5E-1_0", [(NUMBER, "1.5_3"), (NUMBER, "1e1_0"), (NUMBER, "1__0.2_5E-1_0")]),
    ("1e1_0sorry", [(NUMBER, "1e1_0"), (IDENT, "sorry")]),
    ("0xcafesorry", [(NUMBER, "0xcafe"), (IDENT, "sorry")]),
    # strings: any character but `"` and `\`; Lean's escapes; a gap `\` newline whitespace
    ('"a -- b /- c"', [(STRING, '"a -- b /- c"')]),
    ('"a\\"b"', [(STRING, '"a\\"b"')]),
    ('"a\\\n   b"', [(STRING, '"a\\\n   b"')]),
    ('"\\x41\\u03B1\\t"', [(STRING, '"\\x41\\u03B1\\t"')]),
    ('s!"{x}!"', [(IDENT, "s!"), (STRING, '"{'), (IDENT, "x"), (STRING, '}!"')]),
    # raw strings: no escapes, closed by `"` and as many `#` as opened them
    ('r"a\\" sorry', [(STRING, 'r"a\\"'), (IDENT, "sorry")]),
    ('r#"a"b"#', [(STRING, 'r#"a"b"#')]),
    ('fr"x"', [(IDENT, "fr"), (STRING, '"x"')]),  # `r` begins a raw string only where a token begins
    # char literals: `'` not followed by `'`; primes end names; `''` is a token
    ("'a' '\\n' '\\x41' '\"'", [(CHAR, "'a'"), (CHAR, "'\\n'"), (CHAR, "'\\x41'"), (CHAR, "'\"'")]),
    ("x '\n' y", [(IDENT, "x"), (CHAR, "'\n'"), (IDENT, "y")]),  # charLitFnAux takes any character
    ("f''", [(IDENT, "f''")]),
    ("f '' s", [(IDENT, "f"), (SYMBOL, "''"), (IDENT, "s")]),
    ("∑' n, f n", [(SYMBOL, "∑'"), (IDENT, "n"), (SYMBOL, ","), (IDENT, "f"), (IDENT, "n")]),
    ("Σ' n, p n", [(SYMBOL, "Σ'"), (IDENT, "n"), (SYMBOL, ","), (IDENT, "p"), (IDENT, "n")]),
    ("α ×' β", [(IDENT, "α"), (SYMBOL, "×'"), (IDENT, "β")]),
    # comments: whitespace reads them where a token ends; nesting; the opener's third character skipped
    ("/- a /- b -/ sorry -/ x", [(COMMENT, "/- a /- b -/ sorry -/"), (IDENT, "x")]),
    ("/-/ sorry -/ x", [(COMMENT, "/-/ sorry -/"), (IDENT, "x")]),
    ("/--/ d -/ x", [(DOC, "/--/ d -/"), (IDENT, "x")]),
    ("/-- d -/ x", [(DOC, "/-- d -/"), (IDENT, "x")]),
    ('/- "-/ sorry', [(COMMENT, '/- "-/'), (IDENT, "sorry")]),  # a comment knows no strings
    ("x--y\nz", [(IDENT, "x"), (COMMENT, "--y"), (IDENT, "z")]),
    ("x<--y", [(IDENT, "x"), (SYMBOL, "<-"), (SYMBOL, "-"), (IDENT, "y")]),  # core's `<-` then `-y`
    # symbols: core's tokens the lexer knows
    ("||x| - 1|", [(SYMBOL, "||"), (IDENT, "x"), (SYMBOL, "|"), (SYMBOL, "-"), (NUMBER, "1"), (SYMBOL, "|")]),
    ("l[i]'h", [(IDENT, "l"), (SYMBOL, "["), (IDENT, "i"), (SYMBOL, "]'"), (IDENT, "h")]),
    # literals glued to a bracket or comma: no token continues one with `'` or `r`
    ("['a','b']", [(SYMBOL, "["), (CHAR, "'a'"), (SYMBOL, ","), (CHAR, "'b'"), (SYMBOL, "]")]),
    ('#[r"x"]', [(SYMBOL, "#"), (SYMBOL, "["), (STRING, 'r"x"'), (SYMBOL, "]")]),
    ("('a', ⟨'b', {'c'}⟩)", [
        (SYMBOL, "("), (CHAR, "'a'"), (SYMBOL, ","), (SYMBOL, "⟨"), (CHAR, "'b'"), (SYMBOL, ","),
        (SYMBOL, "{"), (CHAR, "'c'"), (SYMBOL, "}"), (SYMBOL, "⟩"), (SYMBOL, ")"),
    ]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "lean"), AGREE, ids=[t for t, _ in AGREE])
def test_the_lexer_reads_as_lean_does(text: str, lean: list[tuple[str, str]]) -> None:
    assert [(t.kind, t.text) for t in lex(text)] == lean


DIVERGE: list[tuple[str, list[tuple[str, str]], str]] = [
    ("(2. : ℝ)", [(SYMBOL, "("), (NUMBER, "2"), (SYMBOL, "."), (SYMBOL, ":"), (IDENT, "ℝ"), (SYMBOL, ")")],
     "Lean: the scientific literal `2.` (parseOptDot takes a `.` without digits); the same characters as code"),
    ("x.1.2", [(IDENT, "x"), (SYMBOL, "."), (NUMBER, "1.2")],
     "Lean: field indices 1 and 2 (fieldIdxFn); digits and a dot either way, no name and no literal differs"),
    ("Type*", [(IDENT, "Type"), (SYMBOL, "*")],
     "Mathlib's token `Type*` (longer than the identifier, so mkIdResult takes it); same characters as code"),
    ("2e", [(NUMBER, "2"), (IDENT, "e")],
     "Lean: an error (parseOptExp: missing exponent digits); Lean refuses what G4 then refuses"),
]  # fmt: skip
"""Where the lexer's tokens differ from Lean's, and why no verdict can depend on it: the characters the
two read as code, comment or literal are the same, or Lean refuses the text (a compile error, G4)."""


@pytest.mark.parametrize(("text", "ours", "why"), DIVERGE, ids=[t for t, _, _ in DIVERGE])
def test_the_known_harmless_divergences_hold(text: str, ours: list[tuple[str, str]], why: str) -> None:
    assert why
    assert [(t.kind, t.text) for t in lex(text)] == ours


REFUSED: list[tuple[str, str]] = [
    ("f ⨁'\"' x", "character literal right after `⨁`"),  # a library token may end in `'`
    ('f →r"x"', "raw string right after `→`"),  # Mathlib's `→r`: Lean reads `→r` then a plain string
    ("x ∘'a'", "character literal right after `∘`"),
    ("{x : ℤ //-x = x -/}", "comment right after `/`"),  # core's `//` then `-x`: no comment to Lean
    ("(--c\n x)", "comment right after `(`"),  # comments stay refused after brackets
    ("2'\n'", "stray '"),  # Lean: `2` then a char literal; the fast path refuses a `'` after a digit there
    # red team 41 (`_literals`): Lean stops inside these and reads on as code (it was a "harmless divergence")
    ('"\\{"', "`\\\\{`"),
    ('"a\\\n\nb"', "string gap"),
    ("0baxiom", "`0b` with no digit"),
    ("1.5_axiom", "a number glued to `_axiom`"),  # Lean stops after the `_` (false rejections 49)
    ("1_.5axiom", "a number glued to `_`"),
]


@pytest.mark.parametrize(("text", "reason"), REFUSED, ids=[t for t, _ in REFUSED])
def test_readings_that_depend_on_the_token_table_are_refused(text: str, reason: str) -> None:
    with pytest.raises(LexError, match=reason.replace("`", ".").replace("(", ".")):
        lex(text)


def _words(text: str) -> list[str]:
    return [v.construct for v in scan_forbidden(lex_code(text))]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("['\"', sorry]", "sorry"),  # the glued char literal is one character; what follows is code
        ('#[r"x", toString (sorry : ℕ)]', "sorry"),
        ("('a', native_decide)", "native_decide"),
        ("Σ' n : ℕ, sorry", "sorry"),
        ("fun (p : α ×' β) => axiom", "axiom"),
        ("x ≡ 1 [MODsorry]", "sorry (in MODsorry)"),  # Mathlib's `[MOD` then `sorry`
        ("x ≡ 1 [ZMODnative_decide]", "native_decide (in ZMODnative_decide)"),
        ("x ≡ 1 [PMODby_elab do pure default]", "by_elab (in PMODby_elab)"),
        ("x ≡ 1 [SMODsorryAx _]", "sorryAx (in SMODsorryAx)"),
        ("x ≡ 1 [QMODsorry]", "sorry (in QMODsorry)"),  # any capital: a library may declare `[QMOD`
    ],
)
def test_a_word_next_to_a_fixed_reading_is_still_found(text: str, word: str) -> None:
    assert word in _words(text)


@pytest.mark.parametrize(
    "text",
    ["x ≡ 1 [MOD n]", "x ≡ 1 [ZMOD 4]", "[MODULE]", "[h_sorry_free]", "[ZMOD_x]", "[Finset.sum_comm, HAppend.hAppend]"],
)
def test_names_after_a_bracket_pass(text: str) -> None:
    assert _words(text) == []


HELPERS_VALID = {
    "char list": "def zz_chars : List Char := ['a', 'b','c']\n\n",
    "raw string array": 'def zz_raw : Array String := #[r"x", r#"y"#]\n\n',
    "psigma": "def zz_sig : Type := Σ' n : ℕ, PLift (n = n)\n\n",
    "pprod": "def zz_pp : Type := ℕ ×' ℕ\n\n",
    "modular": "theorem zz_mod (x : ℤ) (h : x ≡ 1 [ZMOD 4]) : x ≡ 1 [ZMOD 4] := h\n\n",
}


HELPERS_HIDING = {
    "char list then sorry": "def zz_chars : List Char := ['\"', (sorry : Char)]\n\n",
    "raw string array then native_decide": (
        'theorem zz_raw : #[r"\\"].size = 1 ∧ 2 + 2 = 4 := ⟨rfl, by native_decide⟩\n\n'
    ),
    "psigma then sorry": "def zz_sig : Type := Σ' n : ℕ, (sorry : Type)\n\n",
    "bracket token then sorry": "theorem zz_mod : (3 : ℤ) ≡ 1 [ZMODsorry] := rfl\n\n",
}


@pytest.mark.parametrize("case", sorted(HELPERS_VALID) + sorted(HELPERS_HIDING))
def test_helpers_beside_the_fixed_readings(minif2f: Benchmark, case: str) -> None:
    """Sound helpers written so pass; a forbidden word beside each fixed reading is refused by G3."""
    helper = HELPERS_VALID.get(case) or HELPERS_HIDING[case]
    verdict = lean_text_verdict(minif2f, PROBLEM, lean_with_helper(minif2f, PROBLEM, helper, "by\n  norm_num [h₀]"))
    if case in HELPERS_VALID:
        assert verdict.status == "accepted", failures(verdict)
    else:
        assert verdict.status == "rejected"
        assert "G3" in failures(verdict), failures(verdict)


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("||x| - 1|", {}),  # `||` is one token to Lean too: no absolute value (a parse error)
        ("|(|x| - 1)|", {0: 8, 2: 4}),  # the spelling Lean reads, both bars paired
        ("|x||y|", {0: 4}),  # Lean: `|(x || y)|`, the outer bars only
        ("|x| * |y|", {0: 2, 4: 6}),
        ("{x | |x| = 1}", {3: 5}),  # the set-builder's separator is not a bar
    ],
)
def test_absolute_value_bars_are_paired_as_lean_reads_them(text: str, pairs: dict[int, int]) -> None:
    assert abs_pairs([t.text for t in lex_code(text)]) == pairs


def test_a_glued_literal_costs_linear_time() -> None:
    """Many literals glued to brackets: one pass over the tokens (no timing: a quadratic scan of 200k
    tokens would not finish in the suite's bounds)."""
    text = "[" + ",".join(["'a'"] * 50_000) + "]" + '#[r"x"]' * 20_000
    tokens = lex(text)
    assert len(tokens) == 2 + 2 * 50_000 - 1 + 4 * 20_000


ANSWER = "putnam_2024_a1"


def _answer_verdict(bench: Benchmark, value: str) -> tuple[str, dict[str, str]]:
    shown = lean_filled(bench, ANSWER, Track.NO_ANSWER, proof="by\n  simp", value=value)
    candidate = shown.replace("noncomputable abbrev", "def zz_answer : ℕ := 3\n" + "noncomputable abbrev", 1)
    verdict = lean_text_verdict(bench, ANSWER, candidate, Track.NO_ANSWER)
    return verdict.status, failures(verdict)


def test_an_answer_names_what_lean_reads_after_a_bracket_token(lean_putnambench: Benchmark) -> None:
    """``[MODzz_answer]`` is ``[MOD`` then the candidate's own ``zz_answer`` to Lean: a constant it defines."""
    status, failed = _answer_verdict(lean_putnambench, "{n | n ≡ 1 [MODzz_answer]}")
    assert status == "rejected"
    assert "Lean may read `zz_answer` here" in failed["G2"], failed


def test_an_answer_with_a_spaced_bracket_token_is_accepted(lean_putnambench: Benchmark) -> None:
    status, failed = _answer_verdict(lean_putnambench, "{n | n ≡ 1 [MOD 3]}")
    assert status == "accepted", failed


REPLAYED = [
    "zzq",
    "/- /- -/ zzq -/ 0",
    "/-/ zzq -/ 0",
    "/- a -/-- zzq\n  0",
    '"a -- b /- c" -- zzq\n',
    'have := "\\" zzq"; 0',
    "have := 'a'; zzq",
    "have := '\"'; zzq",
    "have := '\\''; zzq",
    "have := '\n'; zzq",
    'have := r"\\"; zzq',
    'have := r#"a"b"#; zzq',
    'have := r#"a"b; zzq"#; 0',
    'have := "a\\\n   b"; zzq',
    "have := 2.; zzq",
    "have := 1.5e-3; have := 0x1F; have := 1_000; zzq",
    "have := 1.5_3; have := 1e1_0; have := 1__0.2_5E-1_0; zzq",
    "have := «a -/ b»; zzq",
    "have := «a\nb»; zzq",
    "have := f''; zzq",
    "have := ('a'); zzq",
    'have := (r"x"); zzq',
    'have := ("-/"); zzq',
    "have := zzq.«/-»; 0",
]
"""Probes replayed on a real Lean (the toy toolchain: Lean 4.35's tokenizer with its built-in token
table, no Mathlib): each holds the name ``zzq``, which Lean reports as an unknown identifier where it
reads it as code."""


def test_the_lexer_never_hides_what_lean_reads_as_code(toy_lean: ToyLean, tmp_path: Path) -> None:
    """Where Lean reads ``zzq`` as code the lexer reads it as code too (or refuses the text); where it does
    not, neither does the lexer; and where Lean finds no parse error the lexer lexes the text."""
    lean = toy_lean.lean
    env = {**os.environ, **toy_lean.env}
    for k, probe in enumerate(REPLAYED):
        source = tmp_path / f"Probe{k}.lean"
        source.write_text(f"def zz : Nat := {probe}\n", encoding="utf-8")
        done = subprocess.run(
            [str(lean), "--json", source.name], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        messages = [json.loads(line)["data"] for line in done.stdout.splitlines() if line.startswith("{")]
        lean_code = any("`zzq" in m and "Unknown identifier" in m for m in messages)
        parse_error = any(
            re.match(r"unexpected|unterminated|invalid escape|missing|expected (token|term|')", m) for m in messages
        )
        ours = [t.text for t in lex_code(source.read_text(encoding="utf-8"))]
        assert (lean_code, parse_error) == (any(t.split(".")[0] == "zzq" for t in ours), False), (probe, messages)
