"""Copy red team 31 (Lean, no-answer): where a cast stands, how a run is grouped, nested set-builders.

Each row is a question, a copy of it (refused), and an honest near-twin (a real answer in the same spelling,
which must pass). Classes:

* casts (``_answer_casts``): ``↑(n - 5)`` (truncated on ``ℕ``, then cast) and ``↑n - 5`` read alike once
  the parentheses were dropped, and a cast taken off under ``+`` or ``^`` was forgotten under a later ``-``
  (``(n : ℤ) + 1 - 5`` read as ``ℕ``'s ``n + 1 - 5``): an honest answer was refused as a copy. Now the
  cast of a truncating term stays, a cast is carried up through the arithmetic above it, and every spelling
  of one cast (``↑``, ``Nat.cast``, ``((e : ℕ) : ℤ)``) still reads alike;
* ascriptions (``_answer_commute.elaborated``): ``(n - 1 : ℤ)`` is ``↑n - 1`` to Lean (the arithmetic is
  elaborated at ``ℤ``), so ``putnam_2018_b3``'s question with ``((n : ℤ) - 1)`` for ``(n - 1 : ℤ)`` passed;
* grouping (``_answer_contains.groups``): a run of the value's tokens matched the side whatever its inner
  parentheses, so ``2 * (n + 3) < 100`` was refused as a copy of ``2 * n + 3 < 100``;
* nested set-builders (``_answer_sets``): ``{n ∈ {m | P m} | Q n}`` read its header as ``P n`` and lost its
  name, so the question ``P n ∧ Q n`` restated so passed; ``{p ∈ Set.univ | C p.1 p.2}`` against a pair
  (``putnam_1998_b4``) met none of the pair readings and passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.adversarial.test_lean_redteam29_copies import _copied, _int, _nat, _prop
from tests.helpers import sampled

TRUNCATED = _nat("(↑(n - 5) : ℤ) - 1 = -1 ∧ Even n")
SHIFTED = _nat("(n : ℤ) + 1 - 5 = 0 ∧ Even n")
NESTED = _nat("Even n ∧ Nat.Prime (n + 3) ∧ n % 7 = 2")
GROUPED = _nat("2 * n + 3 < 100 ∧ Even n")

# (statement, copy, near-twin that must pass), one row per class; keys are "group: class"
CLASSES = {
    "cast: ↑(n - 5) is no ↑n - 5": (
        TRUNCATED,
        "{n | (Nat.cast (n - 5) : ℤ) - 1 = -1 ∧ Even n}",
        "{n | (↑n : ℤ) - 5 - 1 = -1 ∧ Even n}",
    ),
    "cast: a truncating term ascribed twice": (
        TRUNCATED,
        "{n | ((n - 5 : ℕ) : ℤ) - 1 = -1 ∧ Even n ∧ True}",
        "{n | ((n - 5 : ℤ) : ℤ) - 1 = -1 ∧ Even n}",
    ),
    "cast: carried up through +": (
        SHIFTED,
        "{n | ↑(n + 1) - (5 : ℤ) = 0 ∧ Even n}",
        "{n | n + 1 - 5 = 0 ∧ Even n}",
    ),
    "cast: carried up through ^": (
        _nat("(n : ℤ) ^ 2 - 10 < 0 ∧ Even n"),
        "{n | ((n ^ 2 : ℕ) : ℤ) - 10 < 0 ∧ Even n}",
        "{n | n ^ 2 - 10 < 0 ∧ Even n}",
    ),
    "cast: in a relation with a numeral": (
        _nat("n - 5 < 7 ∧ Even n"),
        "{n | (↑(n - 5) : ℤ) < 7 ∧ Even n}",
        "{n | (↑n : ℤ) - 5 < 6 ∧ Even n}",
    ),
    "cast: elaborated at a sibling's type": (
        _int("n - f 1 2 ^ 2 < 0 ∧ Even n"),
        "{n | n - (f 1 2 : ℤ) ^ 2 < 0 ∧ Even n}",
        "{n | n - (f 1 2 : ℤ) ^ 3 < 0 ∧ Even n}",
    ),
    "congruence: ZMOD elaborated at ℤ": (
        _nat("n - 1 ≡ 6 [ZMOD 7] ∧ Even n"),
        "{n | (↑n - 1 : ℤ) ≡ 6 [ZMOD 7] ∧ Even n}",
        "{n | n - 1 ≡ 6 [MOD 7] ∧ Even n}",
    ),
    "congruence: MOD and ZMOD alike on ℕ": (
        _nat("n + 1 ≡ 3 [ZMOD 7] ∧ Even n"),
        "{n | n + 1 ≡ 3 [MOD 7] ∧ Even n}",
        "{n | n + 1 ≡ 4 [MOD 7] ∧ Even n}",
    ),
    "ascription: the arithmetic elaborated at ℤ": (
        _nat("(n - 1 : ℤ) ∣ (2 ^ n - 1 : ℤ) ∧ Even n"),
        "{n | ((n : ℤ) - 1) ∣ ((2 : ℤ) ^ n - 1) ∧ Even n}",
        "{n | ((n : ℤ) - 1) ∣ ((2 : ℤ) ^ n + 1) ∧ Even n}",
    ),
    "grouping: a copy beside more still refused": (
        GROUPED,
        "{n | (2 * n + 3 < 100 ∧ Even n) ∧ n > 2}",
        "{n | (2 * (n + 3) < 100 ∧ Even n) ∧ n > 2}",
    ),
    "grouping: regrouped inside the run": (
        _nat("(n + 1) * 2 ∣ 12 ∧ Even n"),
        "{n | (n + 1) * 2 ∣ 12 ∧ Even n ∧ True}",
        "{n | n + 1 * 2 ∣ 12 ∧ Even n}",
    ),
    "nested: a binder-predicate set-builder over a set-builder": (
        NESTED,
        "{n ∈ {m | Even m ∧ Nat.Prime (m + 3)} | n % 7 = 2}",
        "{n ∈ {m | Even m ∧ Nat.Prime (m + 5)} | n % 7 = 2}",
    ),
    "nested: two levels deep": (
        NESTED,
        "{n ∈ {m ∈ {k | Even k} | Nat.Prime (m + 3)} | n % 7 = 2}",
        "{n ∈ {m ∈ {k | Even k} | Nat.Prime (m + 3)} | n % 7 = 3}",
    ),
    "nested: over an intersection": (
        NESTED,
        "{n ∈ {m | Even m} ∩ {k | k % 7 = 2} | Nat.Prime (n + 3)}",
        "{n ∈ {m | Even m} ∩ {k | k % 7 = 2} | Nat.Prime (n + 1)}",
    ),
    "nested: over setOf": (
        _nat("Even n ∧ Nat.Prime (n + 3)"),
        "{n ∈ setOf Even | Nat.Prime (n + 3)}",
        "{n ∈ setOf Odd | Nat.Prime (n + 3)}",
    ),
    "nested: a membership in the condition": (
        NESTED,
        "{n | n ∈ {m | Even m} ∧ Nat.Prime (n + 3) ∧ n ∈ {k | k % 7 = 2}}",
        "{n | n ∈ {m | Even m} ∧ Nat.Prime (n + 3) ∧ n ∈ {k | k % 7 = 4}}",
    ),
    "nested: a bounded quantifier over a nested set": (
        _prop("∀ n, Even n ∧ Nat.Prime (n + 3) → A n"),
        "∀ n ∈ {m ∈ {k | Even k} | Nat.Prime (m + 3)}, A n",
        "∀ n ∈ {m ∈ {k | Even k} | Nat.Prime (m + 3)}, A (n + 1)",
    ),
}
GROUPS = ("cast", "congruence", "ascription", "grouping", "nested")


def copies_and_twins(classes: dict[str, tuple[str, str, str]], groups: Sequence[str]) -> list[Any]:
    """Each class twice, ``(statement, value, refused)``: its copy must be refused, its near-twin must pass;
    by default only the first class of each group (keys are "group: class"), the rest marked slow."""
    in_ci = {next(k for k in classes if k.startswith(group)) for group in groups}
    verdicts = {
        f"{key} / {side}": (statement, value, side == "copy")
        for key, (statement, copy, twin) in classes.items()
        for side, value in (("copy", copy), ("twin", twin))
    }
    return sampled(verdicts, {k for k in verdicts if k.split(" / ")[0] in in_ci})


def pinned_cases(
    copies: dict[str, tuple[str, str, str]], honest: dict[str, tuple[str, str]]
) -> dict[str, tuple[str, str, bool]]:
    """Each pinned copy and its near-twin, ``(problem, value, refused)`` keyed "key / copy" and "key / twin",
    and each honest answer, keyed "key / honest", that must pass."""
    return {
        **{
            f"{key} / {side}": (problem, value, side == "copy")
            for key, (problem, *pair) in copies.items()
            for side, value in zip(("copy", "twin"), pair, strict=True)
        },
        **{f"{key} / honest": (problem, value, False) for key, (problem, value) in honest.items()},
    }


@pytest.mark.parametrize(("statement", "value", "refused"), copies_and_twins(CLASSES, GROUPS))
def test_each_copy_is_refused_and_its_near_twin_passes(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused


def test_the_benchmark_question_with_its_ascription_written_out_is_refused(lean_putnambench: Benchmark) -> None:
    divides = "(n : ℤ) ∣ (2^n : ℤ) ∧ ((n : ℤ) - 1) ∣ (2^n - 1 : ℤ) ∧ ((n : ℤ) - 2) ∣ (2^n - 2 : ℤ)"
    assert COPIED in _g2(lean_putnambench, "putnam_2018_b3", f"{{n | n < 10^100 ∧ ({divides})}}")
    official = "n = 2^2 ∨ n = 2^4 ∨ n = 2^16 ∨ n = 2^256"
    assert _g2(lean_putnambench, "putnam_2018_b3", f"{{n | n < 10^100 ∧ ({official})}}") == ""


# pinned problems' questions restated (casts written out, a pair's set over a set): refused; an honest set passes
BENCHMARK = {
    "putnam_1998_b4": (
        "{p ∈ Set.univ | ∑ i ∈ Finset.range (p.2 * p.1), (-1 : ℤ)^(i/p.2 + i/p.1) = 0}",
        "{p ∈ Set.univ | p.1 % 2 = 1 ∧ p.2 % 2 = 1}",
    ),
    "putnam_1994_b1": (
        "{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 250}.encard = 15}",
        "{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 251}.encard = 15}",
    ),
    "putnam_2023_b5": (
        "{n | 0 < n ∧ ∀ m : ℤ, IsRelPrime m n → ∃ p : Equiv.Perm (Fin n), ∀ k : Fin n, "
        "(↑(p (p k)).1 + 1) ≡ m * (↑k.1 + 1) [ZMOD ↑n]}",
        "{n | n = 1 ∨ n % 2 = 1}",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("problem", list(BENCHMARK))
def test_a_pinned_question_restated_is_refused(lean_putnambench: Benchmark, problem: str) -> None:
    copy, honest = BENCHMARK[problem]
    assert COPIED in _g2(lean_putnambench, problem, copy)
    assert _g2(lean_putnambench, problem, honest) == ""
