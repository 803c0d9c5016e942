"""Red team 29 (Lean, no-answer): copies of the question that red team 28 left, and more found after.

Each was accepted by G2 on the text profile before (the answer check can say no more than ``unknown``):

* an eta-reduced predicate: ``setOf Function.Injective`` beside more, ``setOf Function.Injective ∩ {f | f 0
  = 0}`` for ``Function.Injective f ∧ f 0 = 0`` (``_answer_reduce``: ``setOf p`` is ``{x | p x}``);
* an order fact that holds on ``ℕ`` or ``ℤ`` only: ``n ≠ 0`` (``¬n = 0``, ``\\ {0}``, ``{n ≠ 0 | ..}``) for
  ``0 < n`` on ``ℕ`` (``putnam_2022_b2``), ``n < 1`` for ``n = 0``, ``a + 1 ≤ b`` for ``a < b``
  (``_answer_types``: only where the statement shows the type; a bound variable is read as before);
* a set-builder with a binder predicate other than ``∈``: ``{n < 10^100 | C n}`` for ``n < 10^100 ∧ C n``
  (``putnam_2018_b3``; ``_answer_sets.predicated``), and any set beside a set-builder, ``S ∩ {n | C n}``
  for ``n ∈ S ∧ C n`` (``_answer_cover``);
* quantifiers restated (``_answer_commute``): a bounded binder written out (``∀ k, k ∈ S → P k`` for ``∀ k ∈
  S, P k``, left by red team 27), ``(∀ k, A k) ∧ (∀ k, B k)`` for ``∀ k, A k ∧ B k`` (``∃``/``∨`` alike),
  ``(A → B) ∧ (B → A)`` for ``A ↔ B``, and the set relations that unfold to a quantifier: ``S ⊆ {k | A k}``
  for ``∀ k ∈ S, A k``, ``{k | A k} = Set.univ`` for ``∀ k, A k``, ``{k | A k}.Nonempty`` and ``{k | A k} ≠
  ∅`` for ``∃ k, A k``;
* a set applied or asked through ``Set.Mem`` (``Set.Mem m {k | C k}``, either argument order, ``setOf p x``),
  and a bounded quantifier over an ascribed singleton (``∀ k ∈ ({m} : Set ℕ), C k``: ``x ∈ {a}`` is ``x = a``,
  the ascription no term).

And the numeral step of red team 28 (``1 ≤ a`` as ``0 < a``) read whatever the type: ``x ≤ 1`` against ``x
< 2`` on ``ℝ`` was refused as a copy. It is no longer taken where a leaf shows a field.

Each refusal has a valid near-twin that passes (a closed form in the same spelling). Wrappers of the
question (``decide``, ``if h : Q then ..``, ``Nat.find``, ``Classical.choose``, ``sInf {x | Q}``, ``Set.univ
∩``, ``fun x => x ∈ {..}``, ``id ⁻¹'``) were tried too and were refused already: the value holds the question.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.adversarial.test_lean_redteam28_copies import Q2018
from tests.helpers import sampled

HEAD = "theorem t (S : Set ℕ) (f : ℕ → ℕ → ℕ)"
SET = "abbrev t_solution : Set {T} := sorry\n" + HEAD + " : ∀ n : {T}, ({Q} ↔ n ∈ t_solution) := sorry\n"
PROP = "abbrev t_solution : Prop := sorry\n" + HEAD + " (A B : ℕ → Prop) : ({Q}) ↔ t_solution := sorry\n"
INJ = (
    "abbrev t_solution : Set (ℕ → ℕ) := sorry\n"
    "theorem t : ∀ f : ℕ → ℕ, (Function.Injective f ∧ f 0 = 0 ↔ f ∈ t_solution) := sorry\n"
)
ASKED = "0 < n ∧ Even (n + 1)"


def _nat(question: str) -> str:
    return SET.format(T="ℕ", Q=question)


def _int(question: str) -> str:
    return SET.format(T="ℤ", Q=question)


def _real(question: str) -> str:
    return SET.format(T="ℝ", Q=question)


def _prop(question: str) -> str:
    return PROP.format(Q=question)


# (statement, copy, near-twin that must pass), one row per class
CLASSES = {
    "setOf of a name beside a set-builder": (
        INJ,
        "setOf Function.Injective ∩ {f | f 0 = 0}",
        "setOf Function.Surjective ∩ {f | f 0 = 0}",
    ),
    "setOf of a name after a set-builder": (
        INJ,
        "{f | f 0 = 0} ∩ setOf Function.Injective",
        "{f | f 0 = 1} ∩ setOf Function.Injective",
    ),
    "n ≠ 0 for 0 < n on ℕ": (_nat(ASKED), "{n | n ≠ 0 ∧ Even (n + 1)}", "{n | n ≠ 0 ∧ n = 3}"),
    "¬n = 0 for 0 < n on ℕ": (_nat(ASKED), "{n | ¬n = 0 ∧ Even (n + 1)}", "{n | ¬n = 0 ∧ Odd n}"),
    "0 removed for 0 < n on ℕ": (_nat(ASKED), "{n | Even (n + 1)} \\ {0}", "{n | n = 2} \\ {0}"),
    "a binder predicate ≠ 0 on ℕ": (_nat(ASKED), "{n ≠ 0 | Even (n + 1)}", "{n ≠ 0 | n % 4 = 2}"),
    "n < 1 for n = 0 on ℕ": (_nat("n = 0 ∨ Even (n + 1)"), "{n | n < 1 ∨ Even (n + 1)}", "{n | n < 2 ∨ n = 5}"),
    "a + 1 ≤ b for a < b on ℤ": (_int("n < 7 ∧ Even n"), "{n | n + 1 ≤ 7 ∧ Even n}", "{n | n + 1 ≤ 6 ∧ Even n}"),
    "a < b + 1 for a ≤ b on ℕ": (_nat("n ≤ 7 ∧ Even n"), "{n | n < 7 + 1 ∧ Even n}", "{n | n < 6 + 1 ∧ Even n}"),
    "a binder predicate ≤": (_nat("n ≤ 10 ∧ Even (n + 1)"), "{n ≤ 10 | Even (n + 1)}", "{n ≤ 9 | Even (n + 1)}"),
    "a binder predicate <, stepped": (_nat("n ≤ 10 ∧ Even (n + 1)"), "{n < 11 | Even (n + 1)}", "{n < 11 | n = 5}"),
    "a binder predicate on ℝ": (_real("n < 2 ∧ 0 < f 0 0"), "{x < 2 | 0 < f 0 0}", "{x < 3 | 0 < f 0 0}"),
    "a set name beside the set-builder": (_nat("n ∈ S ∧ Even (n + 1)"), "S ∩ {n | Even (n + 1)}", "S ∩ {n | n = 4}"),
    "a set name after the set-builder": (_nat("n ∈ S ∧ Even (n + 1)"), "{n | Even (n + 1)} ∩ S", "{n | Odd n} ∩ S"),
    "∀ k ∈ S written out": (_nat("∀ k ∈ S, f n k = 0"), "{n | ∀ k, k ∈ S → f n k = 0}", "{n | ∀ k, k ∈ S → f n k = 1}"),
    "∀ k, k ∈ S → bounded": (_nat("∀ k, k ∈ S → f n k = 0"), "{n | ∀ k ∈ S, f n k = 0}", "{n | ∀ k ∉ S, f n k = 0}"),
    "∃ k ∈ S written out": (_nat("∃ k ∈ S, f n k = 0"), "{n | ∃ k, k ∈ S ∧ f n k = 0}", "{n | ∃ k, k ∈ S ∧ f k k = 0}"),
    "∀ k > 0 written out": (_nat("∀ k > 0, f n k = 0"), "{n | ∀ k, 0 < k → f n k = 0}", "{n | ∀ k, 1 < k → f n k = 0}"),
    "∀ over ∧ split": (_prop("∀ k, A k ∧ B k"), "(∀ k, A k) ∧ (∀ k, B k)", "(∀ k, A k) ∨ (∀ k, B k)"),
    "∃ over ∨ split": (_prop("∃ k, A k ∨ B k"), "(∃ k, A k) ∨ (∃ k, B k)", "(∃ k, A k) ∧ (∃ k, B k)"),
    "↔ as two implications": (_prop("A 0 ↔ B 0"), "(A 0 → B 0) ∧ (B 0 → A 0)", "(A 0 → B 0) ∧ (B 1 → A 1)"),
    "∀ as ⊆ Set.univ": (_prop("∀ k, A k"), "Set.univ ⊆ {k | A k}", "Set.univ ⊆ {k | A (k + 1)}"),
    "∀ as = Set.univ": (_prop("∀ k, A k"), "{k | A k} = Set.univ", "{k | B k} = Set.univ"),
    "∃ as Nonempty": (_prop("∃ k, A k"), "{k | A k}.Nonempty", "{k | B k}.Nonempty"),
    "∃ as ≠ ∅": (_prop("∃ k, A k"), "{k | A k} ≠ ∅", "{k | A k} = ∅"),
    "∀ k ∈ S as ⊆": (_prop("∀ k ∈ S, A k"), "S ⊆ {k | A k}", "{k | A k} ⊆ S"),
}

GAME = (
    "abbrev t_solution : ℕ → Prop := sorry\n"
    "theorem t (A B : ℕ → Prop) (n : ℕ) : t_solution n ↔ A n ∧ B (n + 1) := sorry\n"
)
CLASSES |= {
    "Set.Mem, element first": (
        GAME,
        "fun m => Set.Mem m {k | A k ∧ B (k + 1)}",
        "fun m => Set.Mem m {k | A k ∧ B (k + 2)}",
    ),
    "Set.Mem, set first": (GAME, "fun m => Set.Mem {k | A k ∧ B (k + 1)} m", "fun m => Set.Mem {k | A k ∧ B k} m"),
    "∀ over an ascribed singleton": (
        GAME,
        "fun m => ∀ k ∈ ({m} : Set ℕ), A k ∧ B (k + 1)",
        "fun m => ∀ k ∈ ({m, 0} : Set ℕ), A k ∧ B (k + 1)",
    ),
    "∃ over an ascribed singleton": (
        GAME,
        "fun m => ∃ k ∈ ({m} : Set ℕ), A k ∧ B (k + 1)",
        "fun m => ∃ k ∈ ({m + 1} : Set ℕ), A k ∧ B (k + 1)",
    ),
}


def _copied(statement: str, value: str) -> bool:
    return bool(copied_violations(lex_code(value), "t_solution", parse_statement(statement), "t_solution"))


COPY_CASES = {k: (s, c) for k, (s, c, _) in CLASSES.items()}
TWIN_CASES = {k: (s, t) for k, (s, _, t) in CLASSES.items()}


@pytest.mark.parametrize(("statement", "value"), sampled(COPY_CASES, set(COPY_CASES)))
def test_each_class_is_refused_as_a_copy(statement: str, value: str) -> None:
    assert _copied(statement, value)


@pytest.mark.parametrize(("statement", "value"), sampled(TWIN_CASES, set(TWIN_CASES)))
def test_each_near_twin_passes(statement: str, value: str) -> None:
    assert not _copied(statement, value)


TYPED = {
    # the numeral step is not taken where a leaf shows a field: `x ≤ 1` is no `x < 2` on ℝ
    "x ≤ 1 for x < 2 on ℝ": (_real("n < 2 ∧ 0 < f 0 0"), "{x | x ≤ 1 ∧ 0 < f 0 0}", False),
    # a cast is taken off by the normal form (`(n : ℝ)` reads `n`): a natural number cast is still one
    "n ≤ 1 for n < 2 through a cast": (_nat("(n : ℝ) < 2 ∧ Even n"), "{n | (n : ℝ) ≤ 1 ∧ Even n}", True),
    "n ≤ 1 for n < 2 on ℕ": (_nat("n < 2 ∧ Even n"), "{n | n ≤ 1 ∧ Even n}", True),
    "n ≤ 1 for n < 2 on ℤ": (_int("n < 2 ∧ Even n"), "{n | n ≤ 1 ∧ Even n}", True),
    # n ≠ 0 is 0 < n on ℕ only
    "n ≠ 0 for 0 < n on ℤ": (_int(ASKED), "{n | n ≠ 0 ∧ Even (n + 1)}", False),
    "0 removed for 0 < n on ℤ": (_int(ASKED), "{n | Even (n + 1)} \\ {0}", False),
    "n ≠ 0 for 0 < n on ℝ": (_real("0 < n ∧ 0 < f 0 0"), "{x | x ≠ 0 ∧ 0 < f 0 0}", False),
    "n - 5 ≠ 0 for 0 < n - 5 on ℕ": (
        _nat("0 < n - 5 ∧ Even n"),
        "{n | n - 5 ≠ 0 ∧ Even n}",
        False,
    ),  # a cast may make it negative
    # a + 1 ≤ b only where both are shown integers: not on ℝ, nor through a division (a cast may be off)
    "a + 1 ≤ b through a division": (_nat("(n : ℝ) / 2 < 7 ∧ Even n"), "{n | (n : ℝ) / 2 + 1 ≤ 7 ∧ Even n}", False),
    "a + 1 ≤ b through a cast": (_nat("(n : ℝ) < 7 ∧ Even n"), "{n | (n : ℝ) + 1 ≤ 7 ∧ Even n}", True),
    "a + 1 ≤ b on ℝ": (_real("n < 7 ∧ 0 < f 0 0"), "{x | x + 1 ≤ 7 ∧ 0 < f 0 0}", False),
}


@pytest.mark.parametrize(("statement", "value", "copied"), sampled(TYPED, {next(iter(TYPED))}))
def test_order_facts_are_read_by_the_type_the_statement_shows(statement: str, value: str, copied: bool) -> None:
    assert _copied(statement, value) is copied


CARD = "∃ S : Finset (Fin 3 → ℝ), S.card = n ∧ P S"
BENCHMARK = {
    "a binder predicate for the bound": ("putnam_2018_b3", f"{{n < 10^100 | {Q2018}}}"),
    "n ≠ 0 for 0 < n": ("putnam_2022_b2", f"{{n | n ≠ 0 ∧ {CARD}}}"),
    "a binder predicate n ≠ 0": ("putnam_2022_b2", f"{{n ≠ 0 | {CARD}}}"),
    "0 removed": ("putnam_2022_b2", f"{{n | {CARD}}} \\ {{0}}"),
}
HONEST = {
    "the official set under a binder predicate": (
        "putnam_2018_b3",
        "{n < 10^100 | n = 2^2 ∨ n = 2^4 ∨ n = 2^16 ∨ n = 2^256}",
    ),
    "the official set beside n ≠ 0": ("putnam_2022_b2", "{n | n ≠ 0 ∧ (n = 1 ∨ n = 7)}"),
    "the official set under n ≠ 0": ("putnam_2022_b2", "{n ≠ 0 | n = 1 ∨ n = 7}"),
    "the official set without 0": ("putnam_2022_b2", "{1, 7} \\ {0}"),
}


@pytest.mark.parametrize(("problem", "value"), sampled(BENCHMARK, {next(iter(BENCHMARK))}))
def test_benchmark_copies_are_refused(lean_putnambench: Benchmark, problem: str, value: str) -> None:
    assert COPIED in _g2(lean_putnambench, problem, value)


@pytest.mark.parametrize(("problem", "value"), sampled(HONEST, {next(iter(HONEST))}))
def test_benchmark_near_twins_pass(lean_putnambench: Benchmark, problem: str, value: str) -> None:
    assert _g2(lean_putnambench, problem, value) == ""
