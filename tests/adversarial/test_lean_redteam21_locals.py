"""Red team 21 (Lean, no-answer): the copy rule's reading of the names the theorem binds.

The copy rule (``_answer_contains``) looks for no needle that names a variable of the theorem: a value can
hold such a name only by binding it itself. Its list of those variables (``theorem_locals``) took every
plain name in a bracket that ended at a binder's end, wherever it stood and whatever its scope: ``Fin``,
``ℝ``, ``𝓝``, ``floor``, an ascription's function, and the variables the other side binds itself (a
tuple pattern's ``p, q``), in about 80 of the no-answer problems. A needle naming one was never searched
for. Two bypasses, accepted on the text profile before, each the statement's side padded:

* ``putnam_1976_a3`` states ``{(p, r, q, s) : ℕ × ℕ × ℕ × ℕ | C} = solution``: the canonical form left a
  typed pattern's names free (only ``{(a, b) | C}`` bound them), and the list held them, so
  ``{(p, r, q, s) : .. | C} ∩ Set.univ`` passed, renamed too.
* ``putnam_1990_a6`` states ``(Finset.univ.filter fun ⟨S, T⟩ ↦ ..).card = solution``: ``S`` and ``T``,
  bound by the side's own ``fun``, were in the list, and ``(..).card + 0`` passed.

Fix, by class: the copy rule reads the theorem's variables with ``syntax.bound_scopes``, the reading G2's
helper-name rule uses (a bracket binds only where Lean reads a binder group), now with tuple patterns
(set-builder, ``fun``, ``let``), binder predicates (``{r > 0 | C}``, ``∀ᵉ (x ∈ s)``), the image
set-builder that begins with a bracket, and each name's scope; a needle is skipped only for a name bound
AROUND the solution's use (a parameter, an enclosing ``∀ n``), never for one the side binds itself or one
bound elsewhere (a big operator's body ends at a relation: ``∑ x ∈ s, f x = c``). The canonical form binds
a typed pattern's names (and drops its type, as for one binder) and numbers the variables of ``∫``,
``∑'``, ``∀ᶠ``... Every official answer still passes (the sweeps of ``test_lean_redteam9`` and
``test_lean_redteam15``), and the conformance corpus's verdicts are unchanged.

A condition holding an absolute value, ``|x| = 1``, was no needle alone (its ``|`` read as a separator),
so ``{(p, r, q, s) | (C) ∧ True}`` against ``putnam_1976_a3`` still passed: refused since
``test_lean_redteam21_abs`` (an absolute value's bars read as brackets).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.syntax import bound_names, bound_scopes, code_tokens, lex_code, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

COPIED = "the answer is the other side of the statement's own"
PRIMES = "putnam_1976_a3"
COND = "Nat.Prime p ∧ Nat.Prime q ∧ r > 1 ∧ s > 1 ∧ |(p^r : ℤ) - q^s| = 1"
PAIRS = "putnam_1990_a6"
FILTER = (
    "(Finset.univ : Finset <| Finset (Set.Icc 1 10) × Finset (Set.Icc 1 10)).filter "
    "fun ⟨S, T⟩ ↦ (∀ s ∈ S, T.card < s) ∧ (∀ t ∈ T, S.card < t)"
)
RATES = "putnam_1994_b3"
K_SET = "{k | ∀ f (hf : (∀ x, 0 < f x ∧ f x < deriv f x) ∧ Differentiable ℝ f), ∃ N, ∀ x > N, Real.exp (k * x) < f x}"


def _failed(bench: Benchmark, problem: str, value: str) -> dict[str, str]:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value)
    verdict = lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER)
    return failures(verdict) if verdict.status != "accepted" else {}


BYPASSES = {
    # accepted before this round
    "a typed tuple pattern, intersected with univ": (PRIMES, f"{{(p, r, q, s) : ℕ × ℕ × ℕ × ℕ | {COND}}} ∩ Set.univ"),
    "the same, renamed": (
        PRIMES,
        "Set.univ ∩ {(a, b, c, d) : ℕ × ℕ × ℕ × ℕ | Nat.Prime a ∧ Nat.Prime c ∧ b > 1 ∧ d > 1 ∧ |(a^b : ℤ) - c^d| = 1}",
    ),
    "fun ⟨S, T⟩ counted, plus zero": (PAIRS, f"({FILTER}).card + 0"),
    "the condition holding an absolute value, and True": (PRIMES, f"{{(p, r, q, s) | ({COND}) ∧ True}}"),
    "fun ⟨S, T⟩ counted, times one": (PAIRS, f"1 * ({FILTER}).card"),
    # refused already (kept so they stay refused)
    "the typed pattern copied": (PRIMES, f"{{(p, r, q, s) : ℕ × ℕ × ℕ × ℕ | {COND}}}"),
    "the filter copied": (PAIRS, f"({FILTER}).card"),
    "a set with a bracketed binder, padded": (RATES, f"{K_SET} ∩ Set.univ"),
}


@pytest.mark.parametrize("case", list(BYPASSES))
def test_a_padded_copy_naming_a_side_bound_variable_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = BYPASSES[case]
    assert COPIED in _failed(lean_putnambench, problem, value).get("G2", ""), case


HONEST = {
    "the official answer, a finite set of tuples": (PRIMES, "{(3, 2, 2, 3), (2, 3, 3, 2)}"),
    "a typed tuple pattern of its own": (PRIMES, "{(p, r, q, s) : ℕ × ℕ × ℕ × ℕ | p = 3 ∧ r = 2 ∧ q = 2 ∧ s = 3}"),
    "the same names, another condition": (PRIMES, "{(p, r, q, s) | Nat.Prime p ∧ p < 4 ∧ q = 2 ∧ r + s = 5}"),
    "a count": (PAIRS, "17711"),
    "a filter of its own over the same names": (PAIRS, "(Finset.filter (fun S => S.card = 2) (Finset.range 20)).card"),
    "an interval": (RATES, "Set.Iio 1"),
    "a set-builder with the side's names": (RATES, "{k | ∀ x > (0 : ℝ), k * x < x}"),
}


@pytest.mark.parametrize("case", list(HONEST))
def test_an_honest_answer_with_those_names_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    assert _failed(lean_putnambench, problem, value) == {}, case


def _scopes(text: str) -> list[tuple[str, int, int]]:
    return bound_scopes(code_tokens(lex_code(text)))


def test_bound_names_read_patterns_predicates_and_images() -> None:
    texts = {
        "theorem t : {(p, q) : ℕ × ℕ | p < q} = s := sorry": {"p", "q"},
        "theorem t : (fun ⟨S, T⟩ ↦ S ∩ T) = s := sorry": {"S", "T"},
        "theorem t : (fun (a, b) (c, d) ↦ a + d) = s := sorry": {"a", "b", "c", "d"},
        "theorem t : let (a, b) := s; a = b := sorry": {"a", "b"},
        "theorem t : sInf {r > 0 | f r = 0} = s := sorry": {"r"},
        "theorem t : sInf {(digits 2 (2023*n)).sum | n > 0} = s := sorry": {"n"},
        "theorem t : ∀ᵉ (x ∈ A) (y ∈ A), x = y := sorry": {"x", "y"},
        "theorem t : ∫ y in (Ico 0 1), f y = s := sorry": {"y"},
        "theorem t : Tendsto f atTop (𝓝 (Fin.val 0 : ℝ)) ↔ s := sorry": set(),
        "theorem t (A : Matrix (Fin n) (Fin n) ℝ) : A = s := sorry": {"A"},
    }
    for text, names in texts.items():
        assert bound_names(code_tokens(lex_code(text))) == names, text


def test_a_scope_ends_where_the_binder_does() -> None:
    text = "theorem t (n : ℕ) : (∑ x ∈ S, f x = s n) ∧ ∀ m, g m = s m := sorry"
    tokens = [t.text for t in code_tokens(lex_code(text))]
    use, later = tokens.index("s"), len(tokens) - 3  # `s n` (after the sum's body), `s m` (under `∀ m`)
    scopes = {name: (at, until) for name, at, until in _scopes(text)}
    assert scopes["n"][0] < use <= scopes["n"][1]
    assert scopes["x"][1] < use  # the sum's body ends at `=`
    assert scopes["m"][0] < later <= scopes["m"][1]


def test_the_problems_of_this_round_bind_what_lean_binds(lean_putnambench: Benchmark) -> None:
    for problem, names in ((PRIMES, {"p", "q", "r", "s"}), (PAIRS, {"S", "T", "s", "t"})):
        statement = parse_statement(lean_putnambench.problems[problem].formal_statement)
        assert statement.bound_names == names, problem
