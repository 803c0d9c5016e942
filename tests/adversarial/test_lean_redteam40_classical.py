"""Classical red team 40 (Lean, no-answer): the false rejections red team 39 left where ``Classical`` is in
force at a value. ``insert`` and ``image`` were refused by name whatever their element type, a chain operand
of several tokens (``Finset.range n ∪ {n}``, ``Finset.Icc 1 5 ∪ {7}``) left the chain unread,
``Fintype.card (Fin 3 → Bool)`` was refused (a function type is not plain), and a literal ascribed ``Finset
(ℕ × Bool)`` was refused at its ``Bool`` (an element may be a proposition coerced to ``Bool``).

Now (``_finset_types``, ``_number_decisions.plain_type``): ``insert a s`` passes where ``s`` or the whole
application is ascribed ``Finset T`` of a plain ``T`` (core's ``class Insert (α : outParam ..)``: the
collection's type fixes the element's), or ``a`` and a literal ``s`` are number terms; ``image`` where the
application is ascribed ``(… : Finset T)`` (``T`` is the codomain whose ``DecidableEq`` ``Finset.image``
asks); a chain reads an operand ``Finset.range n`` (a ``Finset ℕ``) and ``Finset.Icc a b`` (of its bounds'
type: a literal when they are number terms, else typed by the chain's ascription); a function type between
plain finite types is plain (Mathlib/Data/Fintype/Pi.lean, commit 7079dfd, line 139: ``instance
Pi.instFintype [DecidableEq α] [Fintype α] [∀ a, Fintype (β a)]``; Mathlib/Data/Fintype/Defs.lean, commit
f9347ec, line 199: ``instance decidablePiFintype``): ``Fintype.card`` and ``Finset.univ`` of one pass, and
a ``Finset (Fin 2 → Fin 3)`` holds no undecided elements; a ``Bool`` passes inside a counted literal, a
bracket group read only by ``.card`` whose every token is a numeral, ``true``/``false``, a bracket, a
separator or a word of a plain type.
Over ``ℝ``, propositions, sets, functions into ``Prop`` or an infinite type, subtypes, an unread operand or
bounds, ``insert`` given as a function, ``image`` piped or of ``Finset.univ``, and a ``Bool`` beside any
name or read by another function, the operation stays refused.

Measured on the tables below (G2 of the full profile, with ``open scoped Classical`` and with ``open
Classical`` before the solution): ``HONEST`` (22) before 0 accepted, now 22 under both; ``ATTACKS`` (24)
refused as a classical decision before and now, under both (the two that insert into a ``Finset (ℕ ×
Bool)`` now at its ``Bool``, before at ``insert``; ``image of univ`` at ``Finset.univ.image``, whose ``univ``
is read with it). Official answers beside either ``open``: 346 of 346 before and after (red teams 37 and
38's sweeps); the verdict snapshot is identical.

Left (refused, though harmless): ``insert``/``image`` in other shapes (``s |>.image f``, ``insert a
(Finset.range n)``, an ``image`` not ascribed), a literal of ``Bool``s not ascribed (``{true} ∪ {false}``) or
not only counted (``.sum f``), a function type with an infinite part (``Fin 2 → ℕ``), and
``range``/``Icc`` spelled without ``Finset.``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_decisions import deciding_token
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.adversarial.test_lean_redteam37_classical import LEAST, SCOPED, P, g2
from tests.adversarial.test_lean_redteam39_classical import CLASSICAL, PR, SUM
from tests.helpers import assert_linear_work, putnambench_dir, sampled

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"
OPEN = "open Classical\n\n"
REAL = f"sInf {{x : ℝ | x = k ∧ {PR}}}"  # `k` when it has the property, else 0
SUBTYPE = f"{{k : Fin 4000 // {P.replace('k', '(k : ℕ)')}}}"

# name: value of `putnam_1993_b1` (3987); each must pass the full profile's G2 with `Classical` in force
HONEST: dict[str, str] = {
    # `insert` whose collection or application shows a plain type, or of number terms
    "insert into an ascribed finset": "(insert 3 ({1, 2} : Finset ℕ)).card * 1329",
    "insert ascribed as a whole": "((insert 3987 {1} : Finset ℕ)).sum id - 1",
    "insert of numerals": "(insert 3986 {1}).sum id",
    "insert of a typed variable": "(fun n : ℕ => (insert n {0}).card) 5 * 1993 + 1",
    # `image` ascribed a plain codomain
    "image ascribed": "(((Finset.range 3).image (fun n => n * 2) : Finset ℕ)).card * 1329",
    "image of a bare fun": "((Finset.range 3).image fun n => n * 2 : Finset ℕ).card * 1329",
    "Finset.image ascribed": "((Finset.image (fun n => n + 1) (Finset.range 3) : Finset ℕ)).card * 1329",
    "image of a name ascribed": "(fun s : Finset ℕ => (s.image (· + 1) : Finset ℕ).card) {1, 2, 3} * 1329",
    "image into Fin": "((Finset.range 2).image (fun n => (n : Fin 2)) : Finset (Fin 2)).card * 1993 + 1",
    # functions between plain finite types
    "Fintype.card of functions": "Fintype.card (Fin 3 → Bool) * 498 + 3",
    "Fintype.card of functions between Fin": "Fintype.card (Fin 2 → Fin 3) * 443",
    "Finset.univ of functions": "(Finset.univ : Finset (Fin 2 → Fin 3)).card * 443",
    # chain operands of several tokens
    "range operand": "(Finset.range 3986 ∪ {3986}).card",
    "range operand on the right": "({3987} ∪ Finset.range 0).sum id",
    "range of a variable": "(fun n => (Finset.range n ∪ {n}).card) 3986",
    "Icc of numerals": "(Finset.Icc 1 2 ∪ {7}).card * 1329",
    "Icc of typed bounds": "(fun n : ℕ => (Finset.Icc 1 n ∪ {n + 1}).card) 3986",
    "Icc of ℤ": "(Finset.Icc (1 : ℤ) 3986 ∪ {0}).card",
    "Icc ascribed": "(fun a b => (Finset.Icc a b ∪ {0} : Finset ℕ).card) 1 3986",
    # literals of `Bool`s, counted
    "literal of Bool pairs in a chain": "(({(1, true)} : Finset (ℕ × Bool)) ∪ {(2, false)}).card * 1993 + 1",
    "literal of Bool pairs": "({(1, true), (2, false), (1, false)} : Finset (ℕ × Bool)).card * 1329",
    "chain of Bool ascribed": "({true} ∪ {false} : Finset Bool).card * 1993 + 1",
}

# name: value of `putnam_1993_b1`; each a lookalike of an allowance above, refused as a classical decision
ATTACKS: dict[str, str] = {
    # `insert` over a type only `Classical.propDecidable` decides, or unread
    "insert into reals": SUM.format(f"(insert ({REAL}) ({{0}} : Finset ℝ)).card"),
    "insert beside numerals": SUM.format(f"(insert ({REAL}) {{0}}).card"),
    "insert ascribed ℝ": SUM.format(f"((insert ({REAL}) {{0}} : Finset ℝ)).card"),
    "insert of a proposition": SUM.format(f"(insert {P} ({{True}} : Finset Prop)).card"),
    "insert passed as a function": SUM.format(f"(List.foldr insert (∅ : Finset Prop) [{P}, True]).card"),
    "insert of a pair into Bool pairs": SUM.format(f"(insert (0, {P}) ({{(0, true)}} : Finset (ℕ × Bool))).card"),
    # `image` into such a type, or not ascribed as a whole
    "image into reals": SUM.format(
        f"((Finset.range 2).image (fun j => sInf {{x : ℝ | x = k * j ∧ {PR}}}) : Finset ℝ).card"
    ),
    "image unascribed": SUM.format(f"((Finset.range 2).image fun j => sInf {{x : ℝ | x = k * j ∧ {PR}}}).card"),
    "image into sets, then ℕ": SUM.format(
        f"((Finset.range 2).image (fun j => ({{m : ℕ | m = j * k ∧ {P}}} : Set ℕ)) |>.image Set.ncard : "
        "Finset ℕ).sum id + 1"
    ),
    "image of an argument": SUM.format(
        f"(Finset.card (Finset.image (fun j => ({{m : ℕ | m = j * k ∧ {P}}} : Set ℕ)) (Finset.range 2)) : ℕ)"
    ),
    "image of univ": f"(Finset.univ.image (fun x : {SUBTYPE} => (x : ℕ)) : Finset ℕ).card",
    # function types into `Prop`, a subtype, `ℝ`, or from a decided size
    "Fintype.card of functions to Prop": "4000 - Fintype.card (Fin 3 → Prop)",
    "Fintype.card of functions to a subtype": f"4000 - Fintype.card (Fin 1 → {SUBTYPE})",
    "Finset.univ of functions to reals": "(Finset.univ : Finset (Fin 2 → ℝ)).card * 3987",
    "Fin of a coerced size, to Bool": f"∑ k ∈ Finset.range 4000, Fintype.card (Fin (Bool.toNat {P}) → Bool) - 1",
    # chain operands whose type is not shown, or not plain
    "Icc of unread bounds": SUM.format(f"(Finset.Icc ({REAL}) ({REAL}) ∪ {{0}}).card"),
    "Icc of stated sets": SUM.format(f"(Finset.Icc ({{j : Fin 2 | (j : ℕ) = 0 ∧ {P}}} : Set (Fin 2)) ∅ ∪ {{∅}}).card"),
    "Icc of unread bounds, unread operand": SUM.format(f"(fun a b => (Finset.Icc a b ∪ {{{REAL}}}).card) 0 1"),
    "range beside reals": SUM.format(f"(Finset.range 1 ∪ ({{{REAL}}} : Finset ℝ)).card"),
    "range beside a set-builder": SUM.format(f"(Finset.range 1 ∪ {{j | j = k ∧ {P}}}).card"),
    # a `Bool` where a proposition may be coerced
    "decide in a Bool literal": SUM.format(f"(({{(1, decide {P})}} : Finset (ℕ × Bool)) ∪ {{(1, true)}}).card"),
    "proposition in a Bool chain": SUM.format(f"(({{(1, true)}} : Finset (ℕ × Bool)) ∪ {{(1, {P})}}).card"),
    "Bool literal summed over a list": SUM.format(
        f"(({{(0, true)}} : Finset (ℕ × Bool)).sum fun q => (List.map (fun r => r.2.toNat) [q, (q.1, {P})]).sum) + 1"
    ),
    "Bool literal given to a function": SUM.format(
        f"Finset.card (insert (1, {P}) ({{(1, true)}} : Finset (ℕ × Bool)))"
    ),
}


@pytest.mark.parametrize("before", [pytest.param(SCOPED, id="open scoped"), pytest.param(OPEN, id="open")])
@pytest.mark.parametrize(
    "value",
    sampled(
        HONEST, {"insert into an ascribed finset", "image ascribed", "Fintype.card of functions", "Icc of numerals"}
    ),
)
def test_each_plain_decision_passes(bench: Benchmark, before: str, value: str) -> None:
    assert g2(bench, LEAST, before, value) == ""


@pytest.mark.parametrize("before", [pytest.param(SCOPED, id="open scoped"), pytest.param(OPEN, id="open")])
@pytest.mark.parametrize(
    "value",
    sampled(ATTACKS, {"insert of a pair into Bool pairs", "image of univ", "Icc of stated sets"}),
)
def test_each_classical_lookalike_is_refused(bench: Benchmark, before: str, value: str) -> None:
    assert CLASSICAL in g2(bench, LEAST, before, value)


# name: (value of a solution `ℕ`, the token refused); a shape the reader does not show plain
UNREAD: dict[str, tuple[str, str]] = {
    "range of another namespace": ("(List.range 3 ∪ {1}).card", "∪"),
    "Icc without its namespace": ("(Icc 1 2 ∪ {3}).card", "∪"),
    "range of two arguments": ("(Finset.range 1 2 ∪ {3}).card", "∪"),
    "operand of four tokens": ("(Finset.Icc 1 2 3 ∪ {3}).card", "∪"),
    "insert with a third argument": ("(insert 1 ({2} : Finset ℕ) 3).card", "insert"),
    "insert of a field": ("(insert 1 ({2} : Finset ℕ).val).card", "insert"),
    "insert of an unread collection": ("(insert 1 s).card", "insert"),
    "image piped": ("((Finset.range 2).image f |>.image g : Finset ℕ).card", "image"),
    "image of three arguments": ("(Finset.image f s t : Finset ℕ).card", "Finset.image"),
    "image into an infinite function type": ("(s.image f : Finset (ℕ → Bool)).card", "s.image"),
    "image ascribed Set": ("(s.image f : Set ℕ).ncard", "s.image"),
    "Bool beside a name": ("(({(1, b)} : Finset (ℕ × Bool)) ∪ {(2, false)}).card", "Bool"),
    "Bool read by a sum": ("({(1, true)} : Finset (ℕ × Bool)).sum f", "Bool"),
    "Bool in an untyped Fin": ("Fintype.card (Fin m → Bool)", "Fintype.card"),
}


@pytest.mark.parametrize(("value", "said"), list(UNREAD.values()), ids=list(UNREAD))
def test_an_unread_shape_is_refused_where_it_stands(value: str, said: str) -> None:
    tokens = lex_code(value)
    at = deciding_token(tokens, ("ℕ",))
    assert at is not None and tokens[at].text == said


@pytest.mark.parametrize(
    ("unit", "close"),
    [
        pytest.param("Finset.range 3 ∪ ", "", id="operands of several tokens"),
        pytest.param("Finset.Icc 1 3 ∪ ", "", id="intervals"),
        pytest.param("(insert 1 ", ")", id="nested insertions"),
        pytest.param("((Finset.range 2).image (fun n => n + ", ") : Finset ℕ)", id="nested images"),
        pytest.param("({(1, true)} : Finset (ℕ × Bool)).card + (", ")", id="counted literals"),
    ],
)
def test_the_reading_of_operations_is_linear_in_the_value(unit: str, close: str) -> None:
    """A hostile value of many operands, insertions, images or counted literals: the reading stays linear."""
    assert_linear_work(lambda n: deciding_token(lex_code(unit * n + "({0} : Finset ℕ)" + close * n), ("ℕ",)), 100)
