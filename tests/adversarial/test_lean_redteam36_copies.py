"""Copy red team 36 (Lean, no-answer): the items round 35 left, and copies of pinned questions in spellings no
round had tried. Each class was accepted by G2 on the text profile before (the answer check says no more than
``unknown``):

* carrier (``_answer_naturals.carriers``): ``∃ A B C : ℕ, ↑A ^ 3 + ..`` (and ``↑(A ^ 3 + ..)``, groups
  ``(A : ℕ) (B : ℕ)``) is ``∃ A B C : ℤ, 0 ≤ A ∧ .. ∧ ↑A ^ 3 + ..``, and ``∃ A : {z : ℤ // 0 ≤ z}, P ↑A`` is
  ``∃ A : ℤ, 0 ≤ A ∧ P A``, where every use of the name is cast;
* cases (``_answer_naturals.cases``): a zero/successor ``match`` with its patterns bracketed, spelled
  ``.zero``/``.succ k``/``Nat.succ k``, in either order, and the successor in the arm as ``k.succ`` or
  ``k + 1`` wherever it stands whole;
* projection (``_answer_nodes.projected``): ``p.fst``/``p.snd``/``Prod.fst p`` are ``p.1``/``p.2``, one node
  per path (``t.snd.fst`` is ``t.2.1``), so a bound tuple used by its components is split as with ``.1``;
* field head (``_answer_reduce.anonymous``): ``∃ s : T, P s.card`` holds ``s`` (it was read ``T ∧ P s.card``,
  the binder taken for a proposition's, so the bound name left free).

Red team on the pinned questions (``COPIES`` below and the scratch table it was drawn from): 49 copies of 15
no-answer problems (``putnam_2024_a1``, ``2019_a1``, ``2009_b3``, ``1998_a4``, ``2001_a3``, ``2023_b5``,
``2022_b4``, ``2021_a5``, ``1980_b3``, ``1991_b1``, ``2025_a3``...) in nested ``∃``, ``Exists fun``, tuples
by ``.fst``/``.snd``, ``ℕ+``, ``≠ 0``, ``¬∀ ¬``, sides swapped, ``1 ≤``, subtypes, ``↑(..)``, ``A*A*A``,
binder predicates, ``Set.Ici``, ``¬ <``, ``min``, sums moved across ``=``, ``% 11 = 0``, ``Dvd.dvd``,
``.val``, ``Int.ModEq``, ``Nonempty {x // ..}``, ``setOf fun``, hypotheses unfolded and ``match`` spellings:
the previous code accepted 22, this one 16; of round 35's open copies (the scratch table's 14) 11 were
accepted before, 2 now. Left (a check by meaning's): a natural number used bare where Lean's unifier casts it
(``(A : ℤ) ^ 3 + B ^ 3``), ``ℕ+``, ``Exists fun``, a binder predicate with an ascribed bound (``∃ A ≥ (0 :
ℤ),``), ``0 ≤ min A (min B C)``, a sum moved across ``=`` (``X - 1 = 0`` for ``X = 1``), ``x % 11 = 0`` for
``11 ∣ x``, ``Dvd.dvd``, ``Fin.val`` for ``.1``, ``Nonempty`` of a subtype, a hypothesis's definition
unfolded, ``≡ 0 [ZMOD]``.

Honest answers (``HONEST``, and every official answer: ``test_lean_redteam15``) pass before and after.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.adversarial.test_lean_redteam29_copies import _copied, _int, _nat
from tests.adversarial.test_lean_redteam31_copies import copies_and_twins
from tests.helpers import sampled

CUBES = "∃ a b c : ℤ, 0 ≤ a ∧ 0 ≤ b ∧ 0 ≤ c ∧ a ^ 3 + b ^ 3 + c ^ 3 = n"
ASKED = "Even n ∧ 3 ∣ n"
SPLIT = "{{n | match n with | {zero} => Even 0 ∧ 3 ∣ 0 | {step} => Even {k} ∧ 3 ∣ {k}}}"

# (statement, copy, near-twin that must pass), one row per class; keys are "group: class"
CLASSES = {
    "carrier: ℕ cast into ℤ": (
        _int(CUBES),
        "{n | ∃ a b c : ℕ, ↑a ^ 3 + ↑b ^ 3 + ↑c ^ 3 = n}",
        "{n | ∃ a b c : ℕ, ↑a ^ 3 + ↑b ^ 3 + ↑c ^ 2 = n}",
    ),
    "carrier: a cast of a sum": (
        _int(CUBES),
        "{n | ∃ a b c : ℕ, ↑(a ^ 3 + b ^ 3 + c ^ 3) = n}",
        "{n | ∃ a b c : ℕ, ↑(a ^ 3 + b ^ 3 + c ^ 2) = n}",
    ),
    "carrier: one group per name": (
        _int(CUBES),
        "{n | ∃ (a : ℕ) (b : ℕ) (c : ℕ), (a : ℤ) ^ 3 + (b : ℤ) ^ 3 + (c : ℤ) ^ 3 = n}",
        "{n | ∃ (a : ℕ) (b : ℕ) (c : ℕ), (a : ℤ) ^ 3 + (b : ℤ) ^ 3 - (c : ℤ) ^ 3 = n}",
    ),
    "carrier: a subtype": (
        _int(CUBES),
        "{n | ∃ a b c : {z : ℤ // 0 ≤ z}, a.1 ^ 3 + (b : ℤ) ^ 3 + ↑c ^ 3 = n}",
        "{n | ∃ a b c : {z : ℤ // 0 < z}, a.1 ^ 3 + (b : ℤ) ^ 3 + ↑c ^ 3 = n}",
    ),
    "cases: a bracketed successor": (
        _nat(ASKED),
        SPLIT.format(zero="0", step="(k + 1)", k="(k + 1)"),
        SPLIT.format(zero="0", step="(k + 1)", k="k"),
    ),
    "cases: constructors by name": (
        _nat(ASKED),
        SPLIT.format(zero=".zero", step=".succ k", k="k.succ"),
        SPLIT.format(zero=".zero", step=".succ k", k="(k + 2)"),
    ),
    "cases: Nat.succ, the successor arm first": (
        _nat(ASKED),
        "{n | match n with | Nat.succ k => Even (Nat.succ k) ∧ 3 ∣ k + 1 | Nat.zero => Even 0 ∧ 3 ∣ 0}",
        "{n | match n with | Nat.succ k => Even (Nat.succ k) ∧ 3 ∣ 2 * k + 1 | Nat.zero => Even 0 ∧ 3 ∣ 0}",
    ),
    "projection: .fst and .snd": (
        _int("∃ a b : ℤ, 0 < a ∧ n = a * b + 1"),
        "{n | ∃ p : ℤ × ℤ, 0 < p.fst ∧ n = p.fst * p.snd + 1}",
        "{n | ∃ p : ℤ × ℤ, 0 < p.snd ∧ n = p.fst * p.snd + 1}",
    ),
    "projection: Prod.fst, a triple": (
        _int(CUBES),
        "{n | ∃ t : ℤ × ℤ × ℤ, 0 ≤ Prod.fst t ∧ 0 ≤ t.snd.fst ∧ 0 ≤ (t.2).2 ∧ t.1 ^ 3 + t.2.1 ^ 3 + t.2.2 ^ 3 = n}",
        "{n | ∃ t : ℤ × ℤ × ℤ, 0 ≤ Prod.fst t ∧ 0 ≤ t.snd.fst ∧ 0 ≤ (t.2).2 ∧ t.1 ^ 3 + t.2.1 ^ 3 + t.2.1 ^ 3 = n}",
    ),
}
GROUPS = ("carrier", "cases", "projection")


@pytest.mark.parametrize(("statement", "value", "refused"), copies_and_twins(CLASSES, GROUPS))
def test_each_copy_is_refused_and_its_near_twin_passes(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused


def test_a_natural_number_used_at_its_own_type_keeps_its_type() -> None:
    """``a - 1`` on ``ℕ`` truncates and ``Nat.Prime a`` is no statement on ``ℤ``: a use of the name uncast is a
    use at ``ℕ``, so the quantifier is not read over ``ℤ`` and the answer is no copy of the integer question."""
    statement = _int("∃ a : ℤ, 0 ≤ a ∧ n = a - 1")
    assert not _copied(statement, "{n | ∃ a : ℕ, n = ↑(a - 1)}")
    assert _copied(statement, "{n | ∃ a : ℕ, n = ↑a - 1}")


def test_a_field_of_a_typed_bound_name_keeps_it_bound() -> None:
    """``∃ s : Finset ℤ, s.card = n`` binds ``s``: read as a proposition's binder it was ``Finset ℤ ∧ s.card =
    n`` with ``s`` free, and a copy with ``s.card`` spelled ``Finset.card s`` was another term."""
    statement = _nat("∃ s : Finset ℕ, Finset.card s = n ∧ 0 ∈ s")
    assert _copied(statement, "{n | ∃ s : Finset ℕ, s.card = n ∧ 0 ∈ s}")
    assert not _copied(statement, "{n | ∃ s : Finset ℕ, s.card = n + 1 ∧ 0 ∈ s}")


def test_a_successor_inside_a_product_is_no_case() -> None:
    """``2 * k + 1`` holds the tokens ``k + 1`` but is ``(2 * k) + 1``: the arm is not read with ``n`` there."""
    value = "{n | match n with | 0 => Even 0 | k + 1 => Even (2 * k + 1)}"
    assert not _copied(_nat("Even n"), value)


A2024 = "0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ "
ALICE = "AliceHasWinningStrategy"
COPIES = {
    "putnam_2019_a1: a subtype": (
        "putnam_2019_a1",
        "{n : ℤ | ∃ A B C : {z : ℤ // 0 ≤ z}, (A : ℤ)^3 + (B : ℤ)^3 + (C : ℤ)^3 - 3*A.1*B.1*C.1 = n}",
        "{n : ℤ | ∃ A B C : {z : ℤ // 0 ≤ z}, (A : ℤ)^3 + (B : ℤ)^3 + (C : ℤ)^3 - 2*A.1*B.1*C.1 = n}",
    ),
    "putnam_2019_a1: ℕ cast": (
        "putnam_2019_a1",
        "{n : ℤ | ∃ A B C : ℕ, n = ↑A ^ 3 + ↑B ^ 3 + ↑C ^ 3 - 3 * ↑A * ↑B * ↑C}",
        "{n : ℤ | ∃ A B C : ℕ, n = ↑A ^ 3 + ↑B ^ 3 + ↑C ^ 3 - 2 * ↑A * ↑B * ↑C}",
    ),
    "putnam_2024_a1: a triple by .fst/.snd": (
        "putnam_2024_a1",
        "{n : ℕ | 0 < n ∧ ∃ t : ℕ × ℕ × ℕ, 0 < t.fst ∧ 0 < t.snd.fst ∧ 0 < t.snd.snd ∧ "
        "2*t.fst^n + 3*t.snd.fst^n = 4*t.snd.snd^n}",
        "{n : ℕ | 0 < n ∧ ∃ t : ℕ × ℕ × ℕ, 0 < t.fst ∧ 0 < t.snd.fst ∧ 0 < t.snd.snd ∧ "
        "2*t.fst^n + 3*t.snd.fst^n = 5*t.snd.snd^n}",
    ),
    "putnam_2025_a3: constructors by name": (
        "putnam_2025_a3",
        f"fun n => match n with | .zero => {ALICE} 0 | .succ k => {ALICE} (k + 1)",
        f"fun n => match n with | .zero => False | .succ k => {ALICE} (k + 1)",
    ),
    "putnam_2025_a3: the successor arm first": (
        "putnam_2025_a3",
        f"fun n => match n with | k + 1 => {ALICE} (k + 1) | 0 => {ALICE} 0",
        f"fun n => match n with | k + 1 => {ALICE} (k + 2) | 0 => {ALICE} 0",
    ),
}

HONEST = {
    "putnam_2019_a1: residues over ℕ": (
        "putnam_2019_a1",
        "{n : ℤ | ∃ q r : ℕ, n = 9 * ↑q + ↑r ∧ r < 9 ∧ r ≠ 3 ∧ r ≠ 6}",
    ),
    "putnam_2019_a1: a subtype's image": (
        "putnam_2019_a1",
        "{n : ℤ | ∃ m : {z : ℤ // 0 ≤ z}, n = m.1 ∧ n % 9 ≠ 3 ∧ n % 9 ≠ 6}",
    ),
    "putnam_2025_a3: a split by name": ("putnam_2025_a3", "fun n => match n with | .zero => False | .succ _ => False"),
    "putnam_2024_a1: a pair's first": ("putnam_2024_a1", "{n | ∃ p : ℕ × ℕ, p = (1, 0) ∧ n = p.fst}"),
}

PINNED = {
    **{
        f"{key} / {side}": (problem, value, side == "copy")
        for key, (problem, *pair) in COPIES.items()
        for side, value in zip(("copy", "twin"), pair, strict=True)
    },
    **{f"{key} / honest": (problem, value, False) for key, (problem, value) in HONEST.items()},
}
IN_CI = {"putnam_2019_a1: ℕ cast / copy", "putnam_2019_a1: ℕ cast / twin", "putnam_2019_a1: residues over ℕ / honest"}


@pytest.mark.parametrize(("problem", "value", "refused"), sampled(PINNED, IN_CI))
def test_pinned_copies_are_refused_and_twins_and_honest_answers_pass(
    lean_putnambench: Benchmark, problem: str, value: str, refused: bool
) -> None:
    verdict = _g2(lean_putnambench, problem, value)
    assert COPIED in verdict if refused else verdict == ""
