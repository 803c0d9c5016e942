"""Red team 21 (Lean, no-answer): an absolute value's bars in the copy rule's reading.

The copy rule (``_answer_contains``) read every ``|`` as a separator, as in ``{x | C}``. A condition or
body holding an absolute value (Mathlib's ``|a|``, ``abs a``) had a separator outside brackets, so it was
no whole term and never a needle: its copy, padded, passed the text profile. The limit recorded by
``test_lean_redteam21_locals``: ``{(p, r, q, s) | (C) ∧ True}`` against ``putnam_1976_a3``; the same held
for every no-answer problem whose side or condition has ``|e|`` at its own level (``putnam_1999_a1``,
``putnam_2023_a2``'s ``S``...).

Fix, by class (``_abs_bars``): one linear pass reads which bars are an absolute value's, as Lean's parser
does (a ``|`` where a term begins opens one, a ``|`` after a term's end closes the one open innermost;
any other ``|`` is a separator, so a set-builder's separator is the first ``|`` at its brace's depth after
its pattern). The canonical form spells those bars as brackets; the binder reading (``syntax._bars``) and
the rewrites' search for a separator (``Text.find``) pass over them. Honest values with absolute values
still pass, and every official answer does (the sweeps of ``test_lean_redteam9``/``15``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._abs_bars import abs_pairs
from putnam_solver.core.provers.lean.syntax import bound_names, code_tokens, lex_code
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

COPIED = "the answer is the other side of the statement's own"
COND = "Nat.Prime p ∧ Nat.Prime q ∧ r > 1 ∧ s > 1 ∧ |(p^r : ℤ) - q^s| = 1"
POLY = (
    "∀ x : ℝ, |f.eval x| - |g.eval x| + h.eval x = if x < -1 then -1 else (if (x ≤ 0) then 3 * x + 2 else -2 * x + 2)"
)
S_2023_A2 = "∃ k : ℤ, x = k ∧ 1 ≤ |k| ∧ |k| ≤ n"


def _verdict_failures(bench: Benchmark, problem: str, value: str) -> tuple[str, dict[str, str]]:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER)
    return verdict.status, (failures(verdict) if verdict.status != "accepted" else {})


BYPASSES = {
    # the limit recorded by test_lean_redteam21_locals
    "putnam_1976_a3: the condition and True": ("putnam_1976_a3", f"{{(p, r, q, s) | ({COND}) ∧ True}}"),
    "putnam_1976_a3: renamed": (
        "putnam_1976_a3",
        "{(a, b, c, d) | (Nat.Prime a ∧ Nat.Prime c ∧ b > 1 ∧ d > 1 ∧ |(a^b : ℤ) - c^d| = 1) ∧ True}",
    ),
    "putnam_1976_a3: typed, True first": ("putnam_1976_a3", f"{{(p, r, q, s) : ℕ × ℕ × ℕ × ℕ | True ∧ ({COND})}}"),
    "putnam_1976_a3: doubly negated": ("putnam_1976_a3", f"{{(p, r, q, s) | ¬¬({COND})}}"),
    # other problems whose side holds an absolute value at its own level
    "putnam_1999_a1: the side and True": ("putnam_1999_a1", f"(∃ f g h : Polynomial ℝ, {POLY}) ∧ True"),
    "putnam_1999_a1: True and the side": ("putnam_1999_a1", f"True ∧ ∃ f g h : Polynomial ℝ, {POLY}"),
    "putnam_1999_a1: doubly negated, renamed": (
        "putnam_1999_a1",
        "¬¬∃ a b c : Polynomial ℝ, ∀ y : ℝ, |a.eval y| - |b.eval y| + c.eval y = if y < -1 then -1 else "
        "(if (y ≤ 0) then 3 * y + 2 else -2 * y + 2)",
    ),
    "putnam_2023_a2: the hypothesis's set padded": (
        "putnam_2023_a2",
        f"fun n => {{x : ℝ | x ≠ 0 ∧ p.eval (1/x) = x^2}} \\ {{x : ℝ | ({S_2023_A2}) ∧ True}}",
    ),
    "putnam_1988_a1: the region's condition padded": (
        "putnam_1988_a1",
        "(MeasureTheory.volume {p : Fin 2 → ℝ | (|p 0| - |p 1| ≤ 1 ∧ |p 1| ≤ 1) ∧ True}).toReal",
    ),
}


@pytest.mark.parametrize("case", list(BYPASSES))
def test_a_padded_copy_holding_an_absolute_value_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = BYPASSES[case]
    status, found = _verdict_failures(lean_putnambench, problem, value)
    assert status != "accepted" and COPIED in found.get("G2", ""), (case, found)


HONEST = {
    "putnam_1976_a3: a set whose condition has absolute values": (
        "putnam_1976_a3",
        "{x | |(x.1 : ℤ) - 3| + |(x.2.1 : ℤ) - 2| = 0 ∧ x.2.2 = (2, 3)} ∪ {(2, 3, 3, 2)}",
    ),
    "putnam_2023_a3: an absolute value": ("putnam_2023_a3", "|-(Real.pi / 2)|"),
    "putnam_1994_b1: a set with an absolute value": ("putnam_1994_b1", "{n : ℤ | |n - 300| ≤ 100 ∧ n ≠ 250}"),
    "putnam_1999_a1: a statement with an absolute value": ("putnam_1999_a1", "|(1 : ℤ)| = 1"),
    "putnam_1968_a5: a literal in bars": ("putnam_1968_a5", "|(-8 : ℝ)|"),
    "putnam_2020_b4: one plus an absolute value": ("putnam_2020_b4", "1 + |(0 : ℝ)|"),
    "putnam_1982_a6: a bound on every absolute value": ("putnam_1982_a6", "∀ y : ℝ, |y| ≥ 0"),
}


@pytest.mark.parametrize("case", list(HONEST))
def test_an_honest_value_with_an_absolute_value_passes(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    status, found = _verdict_failures(lean_putnambench, problem, value)
    assert status == "accepted", (case, found)


@pytest.mark.parametrize(
    ("texts", "pairs"),
    [
        ("{ x | | x | = 1 }", {3: 5}),  # the first bar after the pattern separates
        ("| a | * | b |", {0: 2, 4: 6}),
        ("| a - | b | |", {0: 6, 3: 5}),  # nested
        ("fun | 0 => | x | | n => n", {4: 6}),  # match alternatives are no bars
        ("{ | f x | | x ∈ s }", {1: 4}),  # the image form: its term in bars
        ("( | x ) |", {}),  # a bar left open in its bracket pairs with nothing outside
        ("x |", {}),
        ("| ⌊ x ⌋ | + | ‖ v ‖ - 1 |", {0: 4, 6: 12}),  # a floor's and a norm's closing bracket end a term
    ],
)
def test_the_bars_of_an_absolute_value_are_told_from_separators(texts: str, pairs: dict[int, int]) -> None:
    assert abs_pairs(texts.split()) == pairs


def test_the_image_form_with_an_absolute_value_binds_after_its_separator() -> None:
    tokens = code_tokens(lex_code("theorem t (V : Set ℝ) : sSup {|P - 1| | P ∈ V} = 0 := sorry"))
    assert "P" in bound_names(tokens)


LONG = {
    "many absolute values": "{(p, r, q, s) | " + "|(p : ℤ)| + " * 3000 + "0 = 1}",
    "nested absolute values": "{(p, r, q, s) | " + "|(" * 3000 + "p" + ")|" * 3000 + " = 1}",
    "bars left open": "{(p, r, q, s) | " + "∧ |" * 3000 + "}",
    "bars alone": "{(p, r, q, s) | p = " + "| " * 6000 + "}",
}
"""Inputs for the one pass over the bars: judged by the rules (no timing is asserted)."""


@pytest.mark.parametrize("case", list(LONG))
def test_a_long_input_of_bars_is_judged_by_the_rules(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, "putnam_1976_a3", Track.NO_ANSWER, value=LONG[case])
    verdict = lean_text_verdict(lean_putnambench, "putnam_1976_a3", candidate, Track.NO_ANSWER)
    assert verdict.status != "error" and "did not finish" not in str(failures(verdict)), failures(verdict)
