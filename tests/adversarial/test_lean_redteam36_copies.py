"""Copy red team 36 (Lean, no-answer): the items round 35 left, and copies of pinned questions in spellings no
round had tried. Each class was accepted by G2 on the text profile before (the answer check says no more than
``unknown``):

* carrier (``_answer_naturals.carriers``): ``∃ A B C : ℕ, ↑A ^ 3 + ..`` (and ``↑(A ^ 3 + ..)``, groups
  ``(A : ℕ) (B : ℕ)``, a bare leaf of a ``binop%`` tree beside ``(A : ℤ)``) is ``∃ A B C : ℤ, 0 ≤ A ∧ .. ∧ ↑A
  ^ 3 + ..``, and ``∃ A : {z : ℤ // 0 ≤ z}, P ↑A`` (``ℕ+`` too) is ``∃ A : ℤ, 0 ≤ A ∧ P A``, where every use of
  the name is cast;
* cases (``_answer_naturals.cases``): a zero/successor ``match`` with its patterns bracketed, spelled
  ``.zero``/``.succ k``/``Nat.succ k``, in either order, and the successor in the arm as ``k.succ`` or
  ``k + 1`` wherever it stands whole;
* projection (``_answer_nodes.projected``): ``p.fst``/``p.snd``/``Prod.fst p`` are ``p.1``/``p.2``, one node
  per path (``t.snd.fst`` is ``t.2.1``), so a bound tuple used by its components is split as with ``.1``;
* field head (``_answer_reduce.anonymous``): ``∃ s : T, P s.card`` holds ``s`` (it was read ``T ∧ P s.card``,
  the binder taken for a proposition's, so the bound name left free);
* function (``_answer_reduce.QUANTIFIERS``, ``_answer_commute.applied``): ``Exists fun a => P a`` is ``∃ a, P
  a``, ``Nonempty {x // P x}`` is ``∃ x, P x`` (``nonempty_subtype``);
* lattice (``_answer_bounds.lattice_bounds``): ``a ≤ min b c`` is ``a ≤ b ∧ a ≤ c`` (``le_inf_iff``), ``max b
  c ≤ a`` likewise (``sup_le_iff``);
* divisibility (``_answer_modeq.divided``): ``a % b = 0`` is ``b ∣ a`` and ``0 % b`` is ``0``, so ``a ≡ 0
  [ZMOD b]`` is too;
* bound (``_answer_terms.ascription``): a binder predicate's bound is a term, ``∃ a ≥ (0 : ℤ),`` reads its
  ascription as ``∃ a ≥ 0,`` does;
* renumbered (``_answer_quantifiers._shifted``): a bound pair used by its components beside a later binder
  (``∃ p, .. ∃ n ∈ s, p.1.coeff n ≠ 0``) is split, the later names moved up.

Red team on the pinned questions (``COPIES`` below and the scratch table it was drawn from): 49 copies of 15
no-answer problems (``putnam_2024_a1``, ``2019_a1``, ``2009_b3``, ``1998_a4``, ``2001_a3``, ``2023_b5``,
``2022_b4``, ``2021_a5``, ``1980_b3``, ``1991_b1``, ``2025_a3``...) in nested ``∃``, ``Exists fun``, tuples
by ``.fst``/``.snd``, ``ℕ+``, ``≠ 0``, ``¬∀ ¬``, sides swapped, ``1 ≤``, subtypes, ``↑(..)``, ``A*A*A``,
binder predicates, ``Set.Ici``, ``¬ <``, ``min``, sums moved across ``=``, ``% 11 = 0``, ``Dvd.dvd``,
``.val``, ``Int.ModEq``, ``Nonempty {x // ..}``, ``setOf fun``, hypotheses unfolded and ``match`` spellings:
the previous code accepted 22, this one 6; of round 35's open copies (the scratch table's 14) 11 were
accepted before, none now. Left (a check by meaning's): a natural number used bare where only the other
side's type casts it (``n = B ^ 3`` for ``n : ℤ``), ring arithmetic (``a - c + b`` for ``a + b - c``, ``X - 1 = 0``
for ``X = 1``), ``.val`` for ``.1`` (``ZMod.val`` is no field), a hypothesis's defining equation unfolded
(``∀ j, S j = ∑ ..``), ``n ≠ 0`` for ``1 ≤ n`` on a variable whose type is unwritten.

Honest answers (``HONEST``: 23 in the new readings' shapes were tried, none refused before or after; and every
official answer: ``test_lean_redteam15``) pass.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.adversarial.test_lean_redteam29_copies import _copied, _int, _nat
from tests.adversarial.test_lean_redteam31_copies import copies_and_twins, pinned_cases
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
    "carrier: a bare leaf beside an ascription": (
        _int(CUBES),
        "{n | ∃ a b c : ℕ, (a : ℤ) ^ 3 + b ^ 3 + (c ^ 3) = n}",
        "{n | ∃ a b c : ℕ, (a : ℤ) ^ 3 + b ^ 3 + (c ^ 2) = n}",
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
    "function: Exists fun": (
        _nat("∃ a b : ℕ, 0 < a ∧ n = a * b + 1"),
        "{n | Exists fun a => Exists fun b => 0 < a ∧ n = a * b + 1}",
        "{n | Exists fun a => Exists fun b => 0 < b ∧ n = a * b + 1}",
    ),
    "function: Nonempty of a subtype": (
        _nat("∃ x : ℕ, x * x = n"),
        "{n | Nonempty {x : ℕ // x * x = n}}",
        "{n | Nonempty {x : ℕ // x * x = n + 1}}",
    ),
    "lattice: ≤ min": (
        _int(CUBES),
        "{n | ∃ a b c : ℤ, 0 ≤ min a (min b c) ∧ a ^ 3 + b ^ 3 + c ^ 3 = n}",
        "{n | ∃ a b c : ℤ, 0 ≤ max a (max b c) ∧ a ^ 3 + b ^ 3 + c ^ 3 = n}",
    ),
    "divisibility: % = 0": (
        _nat("11 ∣ n ^ 2 + 1"),
        "{n | (n ^ 2 + 1) % 11 = 0}",
        "{n | (n ^ 2 + 1) % 11 = 1}",
    ),
    "divisibility: ≡ 0 [ZMOD]": (
        _int("11 ∣ n ^ 2 + 1"),
        "{n | n ^ 2 + 1 ≡ 0 [ZMOD 11]}",
        "{n | n ^ 2 + 1 ≡ 1 [ZMOD 11]}",
    ),
    "bound: an ascribed binder predicate": (
        _int(CUBES),
        "{n | ∃ a ≥ (0 : ℤ), ∃ b ≥ (0 : ℤ), ∃ c ≥ (0 : ℤ), a ^ 3 + b ^ 3 + c ^ 3 = n}",
        "{n | ∃ a ≥ (1 : ℤ), ∃ b ≥ (0 : ℤ), ∃ c ≥ (0 : ℤ), a ^ 3 + b ^ 3 + c ^ 3 = n}",
    ),
    "renumbered: a later binder": (
        _int("∃ a b : ℤ, n = a * b ∧ ∃ k > 0, a ∣ k"),
        "{n | ∃ p : ℤ × ℤ, n = p.1 * p.2 ∧ ∃ k > 0, p.1 ∣ k}",
        "{n | ∃ p : ℤ × ℤ, n = p.1 * p.2 ∧ ∃ k > 0, p.2 ∣ k}",
    ),
}
GROUPS = ("carrier", "cases", "projection", "function", "lattice", "divisibility", "bound", "renumbered")


@pytest.mark.parametrize(("statement", "value", "refused"), copies_and_twins(CLASSES, GROUPS))
def test_each_copy_is_refused_and_its_near_twin_passes(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused


def test_a_natural_number_used_at_its_own_type_keeps_its_type() -> None:
    """``a - 1`` on ``ℕ`` truncates and ``Nat.Prime a`` is no statement on ``ℤ``: a use of the name uncast is a
    use at ``ℕ``, so the quantifier is not read over ``ℤ`` and the answer is no copy of the integer question."""
    statement = _int("∃ a : ℤ, 0 ≤ a ∧ n = a - 1")
    assert not _copied(statement, "{n | ∃ a : ℕ, n = ↑(a - 1)}")
    assert _copied(statement, "{n | ∃ a : ℕ, n = ↑a - 1}")


def test_a_natural_number_outside_the_cast_tree_keeps_its_type() -> None:
    """Lean casts the leaves of one ``binop%`` tree to its widest type, but not an exponent (``(a : ℤ) ^ b``:
    ``b`` stays in ``ℕ``) nor a function's argument (``f b``): there ``b`` is no integer, and the quantifier is
    not read over ``ℤ``."""
    assert not _copied(_int("∃ a b : ℤ, 0 ≤ a ∧ 0 ≤ b ∧ n = a ^ b"), "{n | ∃ a b : ℕ, n = (a : ℤ) ^ b}")
    assert not _copied(_int("∃ a b : ℤ, 0 ≤ a ∧ 0 ≤ b ∧ n = a + f b"), "{n | ∃ a b : ℕ, n = (a : ℤ) + f b}")
    assert _copied(_int("∃ a b : ℤ, 0 ≤ a ∧ 0 ≤ b ∧ n = a + (b - 1)"), "{n | ∃ a b : ℕ, n = (a : ℤ) + (b - 1)}")


def test_a_field_of_a_typed_bound_name_keeps_it_bound() -> None:
    """``∃ s : Finset ℤ, s.card = n`` binds ``s``: read as a proposition's binder it was ``Finset ℤ ∧ s.card =
    n`` with ``s`` free, and a copy with ``s.card`` spelled ``Finset.card s`` was another term."""
    statement = _nat("∃ s : Finset ℕ, Finset.card s = n ∧ 0 ∈ s")
    assert _copied(statement, "{n | ∃ s : Finset ℕ, s.card = n ∧ 0 ∈ s}")
    assert not _copied(statement, "{n | ∃ s : Finset ℕ, s.card = n + 1 ∧ 0 ∈ s}")


def test_min_below_is_no_conjunction() -> None:
    """``min a b ≤ c`` is ``a ≤ c ∨ b ≤ c`` only in a linear order, which the text does not show: it is not read
    as a conjunction, so it is no copy of ``a ≤ c ∧ b ≤ c``."""
    assert not _copied(_int("∃ a : ℤ, a ≤ n ∧ 0 ≤ n"), "{n | ∃ a : ℤ, min a 0 ≤ n}")


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
    "putnam_2024_a1: Exists fun": (
        "putnam_2024_a1",
        "{n : ℕ | 0 < n ∧ Exists fun a : ℕ => Exists fun b : ℕ => Exists fun c : ℕ => "
        "0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}",
        "{n : ℕ | 0 < n ∧ Exists fun a : ℕ => Exists fun b : ℕ => Exists fun c : ℕ => "
        "0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 5*c^n}",
    ),
    "putnam_2024_a1: ℕ+": (
        "putnam_2024_a1",
        "{n : ℕ | 0 < n ∧ ∃ a b c : ℕ+, 2*(a:ℕ)^n + 3*(b:ℕ)^n = 4*(c:ℕ)^n}",
        "{n : ℕ | 0 < n ∧ ∃ a b c : ℕ+, 2*(a:ℕ)^n + 3*(b:ℕ)^n = 4*(a:ℕ)^n}",
    ),
    "putnam_2019_a1: ≤ min": (
        "putnam_2019_a1",
        "{n : ℤ | ∃ A B C : ℤ, 0 ≤ min A (min B C) ∧ A^3 + B^3 + C^3 - 3*A*B*C = n}",
        "{n : ℤ | ∃ A B C : ℤ, 0 ≤ max A (max B C) ∧ A^3 + B^3 + C^3 - 3*A*B*C = n}",
    ),
    "putnam_2021_a5: ≡ 0 [ZMOD]": (
        "putnam_2021_a5",
        "{j | (S j : ℤ) ≡ 0 [ZMOD 2021]}",
        "{j | (S j : ℤ) ≡ 1 [ZMOD 2021]}",
    ),
    "putnam_2022_b4: Nonempty of a subtype": (
        "putnam_2022_b4",
        "{n | Nonempty {x // xprog x}}",
        "{n | Nonempty {x : ℕ → ℝ // ∀ i : Fin n, ap3 (x i.1) (x ((i.1 + 1) % n)) (x ((i.1 + 2) % n))}}",
    ),
    "putnam_2001_a3: a pair by .fst beside later binders": (
        "putnam_2001_a3",
        "{m : ℤ | ∃ p : Polynomial ℤ × Polynomial ℤ, P m = p.fst * p.snd ∧ (∃ n ∈ Ici 1, p.fst.coeff n ≠ 0) ∧ "
        "(∃ n ∈ Ici 1, p.snd.coeff n ≠ 0)}",
        "{m : ℤ | ∃ p : Polynomial ℤ × Polynomial ℤ, P m = p.fst * p.snd ∧ (∃ n ∈ Ici 2, p.fst.coeff n ≠ 0) ∧ "
        "(∃ n ∈ Ici 2, p.snd.coeff n ≠ 0)}",
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
    "putnam_2021_a5: remainders": ("putnam_2021_a5", "{j | j % 42 ≠ 0 ∧ j % 46 ≠ 0}"),
    "putnam_2017_a1: a remainder": ("putnam_2017_a1", "{x : ℤ | x > 0 ∧ (x = 1 ∨ x % 5 = 0)}"),
    "putnam_2009_b3: over ℕ+": ("putnam_2009_b3", "{n : ℤ | ∃ k : ℕ+, n = 2 ^ (k : ℕ) - 1}"),
    "putnam_2023_a6: a range over ℕ+": ("putnam_2023_a6", "Set.range (fun k : ℕ+ => (k : ℕ))"),
    "putnam_2001_a3: a pair by .fst": ("putnam_2001_a3", "{m : ℤ | ∃ p : ℤ × ℤ, p.fst ^ 2 = m ∨ 2 * p.snd ^ 2 = m}"),
    "putnam_2019_a1: a congruence": ("putnam_2019_a1", "{n : ℤ | 0 ≤ n ∧ ¬ (n ≡ 3 [ZMOD 9]) ∧ ¬ (n ≡ 6 [ZMOD 9])}"),
}

PINNED = pinned_cases(COPIES, HONEST)
IN_CI = {"putnam_2019_a1: ℕ cast / copy", "putnam_2019_a1: ℕ cast / twin", "putnam_2019_a1: residues over ℕ / honest"}


@pytest.mark.parametrize(("problem", "value", "refused"), sampled(PINNED, IN_CI))
def test_pinned_copies_are_refused_and_twins_and_honest_answers_pass(
    lean_putnambench: Benchmark, problem: str, value: str, refused: bool
) -> None:
    verdict = _g2(lean_putnambench, problem, value)
    assert COPIED in verdict if refused else verdict == ""
