"""Behaviour kept by the fast lexer and the one-thread text-gate pipeline (no timing here: see bench/)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from putnam_solver.core import text_gates
from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.lean import _lexer
from putnam_solver.core.provers.lean._forbidden import _flagged_texts, _may_flag
from putnam_solver.core.provers.lean.checks import POLICY, check_forbidden
from putnam_solver.core.provers.lean.syntax import COMMENT, NAME, STRING, SYMBOL, LexError, lex, lex_code, positions
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.helpers import LEAN_BENCH, LEAN_PROVER, lean_filled

ROOT = Path(__file__).resolve().parents[2]
BENCHMARK = LEAN_BENCH
"""What the ``bench`` fixture (conftest.py) loads for this module."""


def test_a_quoted_name_spanning_lines_moves_the_line_count_for_what_follows() -> None:
    tokens = lex("`«a\nb» x\ny")
    assert [(t.kind, t.text, t.line, t.col) for t in tokens] == [
        (NAME, "`«a\nb»", 1, 0),
        ("ident", "x", 2, 3),
        ("ident", "y", 3, 0),
    ]


def test_positions_after_comments_strings_and_interpolations_are_exact() -> None:
    text = '/- a\n -/ s!"x{y}z" -- c\n  "q"\nw'
    got = [(t.kind, t.text, t.line, t.col, t.spaced) for t in lex(text)]
    assert got == [
        (COMMENT, "/- a\n -/", 1, 0, True),
        ("ident", "s!", 2, 4, True),
        (STRING, '"x{', 2, 6, False),
        ("ident", "y", 2, 9, False),
        (STRING, '}z"', 2, 10, False),
        (COMMENT, "-- c", 2, 14, True),
        (STRING, '"q"', 3, 2, True),
        ("ident", "w", 4, 0, True),
    ]


def test_strings_taken_inline_are_the_tokens_the_string_scan_makes() -> None:
    """One-line strings without ``{`` are lexed in the main scan; the others (a ``{`` in an interpolated
    string, an escaped line break, an unterminated one) by the string scan, with the same tokens."""
    text = 'x "a\\"b" s!"c}" s!"d{e}f" "g\\\n h" "i}}" m!"j\\n"'
    got = [(t.kind, t.text, t.line, t.col, t.spaced) for t in lex(text)]
    assert got == [
        ("ident", "x", 1, 0, True),
        (STRING, '"a\\"b"', 1, 2, True),
        ("ident", "s!", 1, 9, True),
        (STRING, '"c}"', 1, 11, False),
        ("ident", "s!", 1, 16, True),
        (STRING, '"d{', 1, 18, False),
        ("ident", "e", 1, 21, False),
        (STRING, '}f"', 1, 22, False),
        (STRING, '"g\\\n h"', 1, 26, True),
        (STRING, '"i}}"', 2, 4, True),
        ("ident", "m!", 2, 10, True),
        (STRING, '"j\\n"', 2, 12, False),
    ]
    with pytest.raises(LexError, match="unterminated string"):
        lex('"a" "b" "c')


@pytest.mark.parametrize(
    ("text", "reason"),
    [("a '", "stray '"), ("a\tb", "tab"), ("a\rb", "carriage return"), ("a \u200b", "U\\+200B"), ("x «y", "»")],
)
def test_refused_characters_are_still_lexing_errors(text: str, reason: str) -> None:
    with pytest.raises(LexError, match=reason):
        lex(text)


def test_non_ascii_symbols_are_single_tokens_and_ascii_symbols_munch() -> None:
    assert [(t.kind, t.text) for t in lex("∑' x ∈ s, f x ≤ l[i]'h")][:2] == [(SYMBOL, "∑'"), ("ident", "x")]
    assert "]'" in [t.text for t in lex("l[i]'h")]


def test_text_gates_create_no_scratch_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    bench = load_benchmark(ROOT / "samples" / "lean" / "benchmark.jsonl")
    problem = next(iter(bench.problems.values()))
    prover = get_prover("lean")
    candidate = prover.challenge(problem, Track.WITH_ANSWER).encode()
    run_gates(prover, bench, problem, candidate, Track.WITH_ANSWER, VerifyOptions(profile=Profile.TEXT))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "text",
    ["a b\nc", "a -- c\nb", "/- c -/ a", "/-! m -/ a", "/-- d -/ a", '"--" a', "a /- x /- y -/ -/ b -- e"],
)
def test_code_tokens_are_the_tokens_without_comments_with_or_without_comments(text: str) -> None:
    assert list(lex_code(text)) == [t for t in lex(text) if t.kind != COMMENT]


@pytest.mark.parametrize(
    ("text", "constructs"),
    [
        ("open /-- d -/ private Foo in\ntheorem t : True := trivial\n", ["open private"]),
        ("set_option /-- d -/ maxHeartbeats 400000 in\ntheorem t : True := trivial\n", []),
        (
            "set_option /-- d -/ debug.skipKernelTC true in\ntheorem t : True := trivial\n",
            ["set_option debug.skipKernelTC", "debug.skipKernelTC"],
        ),
        ("@[simp, /-- d -/ instance] theorem t : True := trivial\n", ["@[instance]", "instance"]),
        ("/-- sorry and #eval in a doc comment -/\ntheorem t : True := trivial\n", []),
    ],
)
def test_g3_reads_past_doc_comments_as_if_they_were_not_there(text: str, constructs: list[str]) -> None:
    assert [v.construct for v in check_forbidden(text)] == constructs


def test_positions_finds_every_occurrence_in_order() -> None:
    assert positions([0, 3, 0, 0, 5, 0], 0) == [0, 2, 3, 5]
    assert positions(["a", "b"], "c") == []
    assert positions([], 0) == []


def test_flagged_texts_are_exactly_those_may_flag_accepts() -> None:
    words = POLICY.forbidden_words()
    texts = {
        "h", "x.sorry", "«sorry»", "«x.y».admit", "sorry_free", "_root_.Lean.Elab", "Lean", "Leaning", "#eval",
        "#", "@[", "open", "set_option", "opened", '"sorry"', "`sorry", "(", "native_decide", "Nat.instance",
        "/-- uses sorry -/", "«a\nb»", "inst", "Lean.x", "x.Lean",
    }  # fmt: skip
    assert _flagged_texts(texts, words) == {t for t in texts if _may_flag(t, words)}


def test_g3_reports_many_flagged_texts_in_file_order() -> None:
    commands = "".join(f"#eval{i} 1\nopen private P{i} in\n" for i in range(12))
    found = [v.construct for v in check_forbidden(commands + "theorem t : True := trivial\n")]
    assert found == [c for i in range(12) for c in (f"#eval{i}", "open private")]


@pytest.mark.parametrize("track", list(Track))
def test_a_verification_lexes_its_candidate_once(
    monkeypatch: pytest.MonkeyPatch, bench: Benchmark, track: Track
) -> None:
    problem = bench.problems["putnam_2008_b1"]  # an abbrev solution: the answer record reads the candidate
    candidate = lean_filled(bench, problem.id, track)
    options = VerifyOptions(profile=Profile.TEXT)
    run_gates(LEAN_PROVER, bench, problem, candidate.encode(), track, options)  # statement, challenges parsed
    lexed: list[str] = []
    real = _lexer._lexed
    monkeypatch.setattr(_lexer, "_lexed", lambda text: lexed.append(text) or real(text))
    monkeypatch.setattr(text_gates, "run_text_gates", text_gates.text_job)  # here, not in a worker: counted
    other = candidate + "\n-- another file\n"
    verdict = run_gates(LEAN_PROVER, bench, problem, other.encode(), track, options)
    assert verdict.accepted
    assert lexed == [other]  # the with-answer form, G2, G3 and the no-answer answer record share it
