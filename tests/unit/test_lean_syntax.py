"""The Lean source layer: lexer, command split, statement parse and challenge derivation, on real data."""

from __future__ import annotations

import json
import re

import pytest

from putnam_solver.core.provers.lean.challenge import (
    AnswerForm,
    answer_forms,
    challenge,
    model_statement,
    rewrite_solutions,
)
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
    body_keywords,
    code_tokens,
    lex,
    normalize_name,
    parse_statement,
    split_commands,
)
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_BENCH


def _statements() -> dict[str, str]:
    if not LEAN_BENCH.is_file():
        pytest.skip(f"PutnamBench Lean data not found at {LEAN_BENCH}")
    lines = LEAN_BENCH.read_text(encoding="utf-8").splitlines()
    return {r["problem_id"]: r["formal_statement"] for r in map(json.loads, lines)}


@pytest.fixture(scope="module")
def statements() -> dict[str, str]:
    return _statements()


def kinds(text: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in lex(text)]


# ---------------------------------------------------------------------------------------------------------
# Lexer


def test_nested_block_comment_is_one_comment() -> None:
    assert kinds("a /- x /- sorry -/ y -/ b") == [
        (IDENT, "a"),
        (COMMENT, "/- x /- sorry -/ y -/"),
        (IDENT, "b"),
    ]


def test_doc_comment_is_a_token_module_doc_is_a_comment() -> None:
    tokens = lex("/-- The doc. -/\n/-! module -/\ntheorem t")
    assert [(t.kind, t.text) for t in tokens[:2]] == [(DOC, "/-- The doc. -/"), (COMMENT, "/-! module -/")]


def test_line_comment_runs_to_end_of_line() -> None:
    assert kinds("x -- sorry admit\ny") == [(IDENT, "x"), (COMMENT, "-- sorry admit"), (IDENT, "y")]


def test_string_with_escapes_hides_its_content() -> None:
    assert kinds(r'f "a \"sorry\" \\ b" g') == [(IDENT, "f"), (STRING, r'"a \"sorry\" \\ b"'), (IDENT, "g")]


def test_interpolated_string_lexes_its_code() -> None:
    tokens = kinds('s!"x {sorry} y"')
    assert (IDENT, "sorry") in tokens
    assert tokens[0] == (IDENT, "s!")


def test_a_brace_in_a_string_not_known_to_interpolate_is_refused() -> None:
    """Lean interpolates the string after ``trace[...]``, ``throwError`` or a library keyword: a ``{`` there
    may begin code, so only strings after the known keywords may hold one (red team 9)."""
    with pytest.raises(LexError, match="not an interpolation keyword"):
        kinds('"{sorry}"')
    assert kinds('"a}b"') == [(STRING, '"a}b"')]
    assert kinds('r"{sorry}"') == [(STRING, 'r"{sorry}"')]


@pytest.mark.parametrize("text", ['r"sorry"', 'r#"a "sorry" b"#', 'r##"x"#y"##'])
def test_raw_strings(text: str) -> None:
    assert kinds(text) == [(STRING, text)]


def test_char_literals_and_primes() -> None:
    assert kinds("f' h'' 'a' '\\n' '\\''") == [
        (IDENT, "f'"),
        (IDENT, "h''"),
        (CHAR, "'a'"),
        (CHAR, "'\\n'"),
        (CHAR, "'\\''"),
    ]


def test_mathlib_tokens_with_primes() -> None:
    assert kinds("∑' n, f '' s ⊆ X⁻¹' t") == [
        (SYMBOL, "∑'"),
        (IDENT, "n"),
        (SYMBOL, ","),
        (IDENT, "f"),
        (SYMBOL, "''"),
        (IDENT, "s"),
        (SYMBOL, "⊆"),
        (IDENT, "X"),
        (SYMBOL, "⁻¹'"),
        (IDENT, "t"),
    ]


def test_indexing_with_a_bound_proof_is_one_token() -> None:
    """`l[i]'h` was refused as a stray quote, so every published proof using it was rejected."""
    assert kinds("l[i]'h") == [(IDENT, "l"), (SYMBOL, "["), (IDENT, "i"), (SYMBOL, "]'"), (IDENT, "h")]
    assert kinds("a[0]'(by simp)")[3] == (SYMBOL, "]'")


def test_unicode_identifiers_and_names() -> None:
    assert kinds("ℝ α₁ hT₂ Nat.succ «my name».x `foo") == [
        (IDENT, "ℝ"),
        (IDENT, "α₁"),
        (IDENT, "hT₂"),
        (IDENT, "Nat.succ"),
        (IDENT, "«my name».x"),
        (NAME, "`foo"),
    ]
    assert normalize_name("«putnam_x».«y»") == "putnam_x.y"


def test_cyrillic_letter_is_not_part_of_an_identifier() -> None:
    assert kinds("putnam_1962_а2") == [(IDENT, "putnam_1962_"), (SYMBOL, "а"), (NUMBER, "2")]


def test_numbers() -> None:
    assert [t.text for t in lex("0x1F 1_000 2.5e-3 (0)..1")] == [
        "0x1F",
        "1_000",
        "2.5e-3",
        "(",
        "0",
        ")",
        "..",
        "1",
    ]


def test_positions_and_spacing() -> None:
    a, b, c = lex("theorem\n  foo(x)")[:3]
    assert (a.line, a.col, a.offset) == (1, 0, 0)
    assert (b.line, b.col, b.offset, b.spaced) == (2, 2, 10, True)
    assert (c.text, c.spaced) == ("(", False)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a /- open /- nested -/", "unterminated comment"),
        ('x "abc', "unterminated string"),
        ('r#"abc"', "unterminated raw string"),
        ("x 'ab'", "stray '"),
    ],
)
def test_lexing_errors_are_clear(text: str, reason: str) -> None:
    with pytest.raises(LexError, match=reason) as info:
        lex(text)
    assert info.value.line == 1


# ---------------------------------------------------------------------------------------------------------
# Commands


def test_commands_split_at_column_zero_and_keep_prefixes() -> None:
    text = (
        "import Mathlib\nopen Real\n"
        "set_option maxHeartbeats 400000 in\n/-- d -/\n@[simp]\n"
        "private lemma a : True := by\n  open Nat in trivial\n"
        "def f : ℕ → ℕ\n  | 0 => 1\n  | n + 1 => n\n"
    )
    commands = split_commands(code_tokens(lex(text)))
    assert [(c.keyword, c.name) for c in commands] == [
        ("import", None),
        ("open", None),
        ("lemma", "a"),
        ("def", "f"),
    ]
    assert commands[2].docstring is not None


# ---------------------------------------------------------------------------------------------------------
# Real statements


def test_every_statement_parses(statements: dict[str, str]) -> None:
    assert len(statements) == 672
    with_solution = 0
    for problem_id, text in statements.items():
        parsed = parse_statement(text)
        assert parsed.theorem_name == problem_id
        assert parsed.theorem.docstring is not None
        assert [t.text for t in parsed.proof] in (["sorry"], ["by", "sorry"])
        assert [c.keyword for c in parsed.header][:1] == ["import"]
        for solution in parsed.solutions:
            assert solution.value.text == "sorry" and solution.answer
        with_solution += bool(parsed.solutions)
    assert with_solution == 346


def test_with_answer_inlines_the_official_answer(statements: dict[str, str]) -> None:
    text = statements["putnam_2024_a1"]
    result = challenge(text, Track.WITH_ANSWER)
    assert "abbrev" not in result and "= (({1}) : Set ℕ) :=" in result
    assert "\n--{1}\n/--" in result  # the script keeps the answer line
    abbrev = challenge(text, Track.WITH_ANSWER, AnswerForm.ABBREV)
    assert "noncomputable abbrev putnam_2024_a1_solution : Set ℕ := {1}\n/--" in abbrev
    assert "--{1}" not in abbrev
    answers = [(s.command.name, s.answer) for s in parse_statement(text).solutions]
    assert answers == [("putnam_2024_a1_solution", "{1}")]


def test_abbrev_form_is_noncomputable_where_the_pinned_abbrev_is_not(statements: dict[str, str]) -> None:
    abbrev = challenge(statements["putnam_2022_a4"], Track.WITH_ANSWER, AnswerForm.ABBREV)
    assert "\nnoncomputable abbrev putnam_2022_a4_solution : ℝ := " in abbrev and "Real.exp" in abbrev


def test_every_answer_problem_has_the_scripts_text(statements: dict[str, str]) -> None:
    """All 346: the inlined challenge is the script's output wherever that output is a Lean file."""
    broken = []
    for problem_id, text in statements.items():
        if not parse_statement(text).solutions:
            assert answer_forms(text) == (AnswerForm.INLINED,)
            continue
        if AnswerForm.INLINED not in answer_forms(text):
            broken.append(problem_id)
            continue
        inlined = challenge(text, Track.WITH_ANSWER)
        assert inlined == rewrite_solutions(text) and "abbrev" not in inlined
        assert not parse_statement(inlined).solutions
    assert broken == ["putnam_2016_b5", "putnam_2022_b6", "putnam_2025_a5"]


@pytest.mark.parametrize(
    ("line", "answer", "expected"),
    [
        ("-- (a) + (b)", "x", "((a) + (b) : T)"),  # outer parens dropped even when they do not match
        ("-- 5 -- note", "x", "((5) : T)"),  # text after the first `--` up to the next one
        ("--(x)", "x x", "((x) : T) ((x) : T)"),  # every use on a line
    ],
)
def test_rewrite_follows_the_script(line: str, answer: str, expected: str) -> None:
    text = f"abbrev s_solution : T := sorry\n{line}\ntheorem t : {answer.replace('x', 's_solution')} := sorry\n"
    assert expected in rewrite_solutions(text)


def test_rewrite_strips_the_stored_answer_again_on_every_later_line() -> None:
    text = "abbrev s_solution : T := sorry\n-- ((1))\ntheorem t : s_solution = 1 ∧\n  s_solution = 1 := sorry\n"
    assert rewrite_solutions(text).split("\n")[1:3] == ["theorem t : (((1)) : T) = 1 ∧", "  ((1) : T) = 1 := sorry"]


def test_no_answer_keeps_the_hole_and_drops_the_answer(statements: dict[str, str]) -> None:
    text = statements["putnam_2022_a4"]
    result = challenge(text, Track.NO_ANSWER)
    assert "abbrev putnam_2022_a4_solution : ℝ := sorry\n\n/--" in result
    assert "2*Real.exp" not in result


def test_model_statements_carry_no_answer_comment(statements: dict[str, str]) -> None:
    for text in statements.values():
        answers = {s.answer_comment.text for s in parse_statement(text).solutions if s.answer_comment}
        for track in (Track.NO_ANSWER,):
            shown = model_statement(text, track)
            assert not any(comment in shown for comment in answers)
            parsed = parse_statement(shown)
            assert parsed.theorem_name == parse_statement(text).theorem_name
            values = [s.command.tokens[-1].text for s in parsed.solutions]
            assert all(v == "sorry" for v in values) and (track is Track.NO_ANSWER or not values)


def test_statement_without_answer_comment_cannot_be_inlined() -> None:
    text = "import Mathlib\nabbrev p_solution : ℕ := sorry\n\n/-- d -/\ntheorem p : p_solution = 1 := sorry\n"
    assert challenge(text, Track.NO_ANSWER) == text
    with pytest.raises(ValueError, match="no official answer"):
        challenge(text, Track.WITH_ANSWER)


# ---------------------------------------------------------------------------------------------------------
# Red team: the lexer must see what Lean sees (tests/unit/test_lean_redteam.py has the gate-level cases)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/-/- -/ x", [(COMMENT, "/-/- -/"), (IDENT, "x")]),  # Lean skips the opener's third character
        ("/--/ x -/ y", [(DOC, "/--/ x -/"), (IDENT, "y")]),  # `/--/` opens a doc comment
        ("/- a /-/ b -/ -/ c", [(COMMENT, "/- a /-/ b -/ -/"), (IDENT, "c")]),  # `/-` wins in `/-/`
        ("/---/ z", [(DOC, "/---/"), (IDENT, "z")]),
    ],
)
def test_block_comments_end_where_lean_ends_them(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text) == expected


@pytest.mark.parametrize("text", ['s! "x {sorry}"', 's! /- c -/ "x {sorry}"', 'm!\n  "{sorry}"'])
def test_interpolation_after_space_or_comment_is_code(text: str) -> None:
    assert (IDENT, "sorry") in kinds(text)


def test_escaped_identifier_may_span_lines() -> None:
    tokens = code_tokens(lex("«a\ntheorem» b\nc"))
    assert [(t.kind, t.text, t.line, t.col) for t in tokens] == [
        (IDENT, "«a\ntheorem»", 1, 0),
        (IDENT, "b", 2, 9),
        (IDENT, "c", 3, 0),
    ]
    assert normalize_name("«a\ntheorem»") == "a\ntheorem"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("x\u200by", "invisible or control character U+200B"),
        ("x \u202e y", "U+202E"),
        ("x\u00a0y", "U+00A0"),
        ("x\ty", "tab character"),
        ("x\ry", "carriage return without a line feed"),
        ("«x y", "unterminated identifier escape"),
    ],
)
def test_characters_lean_refuses_in_code_are_lexing_errors(text: str, reason: str) -> None:
    with pytest.raises(LexError, match=re.escape(reason)):
        lex(text)


def test_refused_characters_are_fine_in_comments_and_strings_and_crlf_is_a_line_break() -> None:
    tokens = lex('-- \u200b\t\r\n"\u202e\t" /- \u00a0 -/ x')
    assert [(t.kind, t.line) for t in tokens] == [(COMMENT, 1), (STRING, 2), (COMMENT, 2), (IDENT, 2)]


@pytest.mark.parametrize(
    ("body", "flagged"),
    [
        ("trivial\n  open Nat", ["open"]),
        ("trivial open Nat open Real in", ["open"]),
        ("by\n  open Nat in\n  simp", []),
        ("by\n  open Nat\n    Real in\n  simp", []),
        ("by\n  open Nat\n  Real in\n  simp", ["open"]),  # the names must stand right of `open`
        ("by\n  open scoped Classical in simp", []),
        ("by\n  open Nat renaming succ → s in simp", []),
        ("by\n  open Nat (succ) in simp", []),
        ("trivial set_option maxHeartbeats 0", ["set_option"]),
        ("by set_option maxHeartbeats 0 in simp", []),
        ("trivial\n  seal f", ["seal"]),
        ("trivial local notation", ["local", "notation"]),
    ],
)
def test_body_keywords_report_what_would_start_a_command(body: str, flagged: list[str]) -> None:
    [command] = split_commands(code_tokens(lex(f"lemma aux : True := {body}")))
    assert [t.text for t in body_keywords(command)] == flagged


def test_a_referenced_name_is_the_first_part_of_every_identifier() -> None:
    parsed = parse_statement("open Real\n\ntheorem t (h : 0 < n) : sqrt n = Real.pi.foo x := sorry\n")
    assert {"h", "n", "sqrt", "Real", "x", "t"} <= parsed.referenced_names
    assert "pi" not in parsed.referenced_names and "foo" not in parsed.referenced_names
