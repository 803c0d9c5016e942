"""Copy red team 38 (Lean, no-answer): the defects round 37 left in the copy rule's readers.

* body precedence: ``_answer_scopes`` read ``∫``/``∮`` bodies at 67, ``_answer_order`` at 60, and
  ``_answer_contains`` knew only ``∑``/``∏``. Mathlib reads ``∫ x, b`` at 60 (``notation3 "∫ "(...)",
  "r:60:..``), so in ``∫ x in a..b, f x + g x`` the ``x`` of ``g x`` is the integral's: the scope reader took it
  for a free name and a copy with its bound name renamed (``∫ y in a..b, f y + g y``) passed. Now one table,
  ``_answer_nodes.BODY`` (cited there), serves all three.
* binder names: ``_answer_unwrap`` read a ``fun`` header by its identifiers (``⟨a, b⟩`` as two arguments,
  ``[C]`` as a name ``C``), ``_answer_terms`` by its own rules. Now ``_answer_terms.binder_names`` reads
  Lean's ``funBinder`` for both (a pattern takes one argument; ``_`` binds nothing; an anonymous instance
  binder names nothing).
  The ``∀`` headers of ``_answer_reduce`` (a hypothesis's definition, with its ``∀ k ≥ 1,`` special case) and
  ``_answer_extremal`` (its own reader) use it too.
* identifier letters: ``_answer_naturals`` asked Python's ``str.isalnum`` (``℘``, Lean's letter, is no
  Python letter) and ``_answer_binders.plain_name`` took no ``_a``: a carrier copy over a name ``℘`` or
  ``_a`` passed. Now ``_idchars.starts_name``/``starts_term`` (Lean's ``isIdFirst``) everywhere.
* ``.val`` for ``.1``: a copy spelling the first field ``.val`` passed (``∃ i : Fin 5, P i.val n`` for ``..
  i.1 ..``). ``val`` is now read as field 1 (``_answer_nodes.NUMBERED``: the first field of ``Subtype``,
  ``Fin``, ``Finset``, ``Units``; ``ZMod.val`` agrees with ``.1`` wherever ``.1`` elaborates). The merge only
  refuses more.

Left (module doc of ``_answer_copy``: a check by meaning's): ring rearrangements (``a - c + b`` for ``a + b -
c``, ``X - 1 = 0`` for ``X = 1``) and a hypothesis's defining equation unfolded. Neither can pass a WRONG
answer: the kernel proves the candidate's theorem with its value, and a copy of the side of ``side =
solution`` (``C n ↔ n ∈ solution``) is, by that theorem, the value the official answer is too; where the
statement does not pin the value down, the answer check compares it with the official one and a proved
difference makes the verdict ``disputed``. What passes is an uninformative spelling of the right answer
(answer gaming), which only a check by meaning can refuse: both readings depend on the type (on ``ℕ``,
``a - c + b`` is not ``a + b - c`` and ``X - 1 = 0`` is ``X ≤ 1``), which the text rule does not know.

Measured: every official answer (346) still a valid no-answer value and none read as a copy
(``test_lean_redteam.py``, ``test_lean_redteam15.py``), the honest spellings of red team 27 pass; the copy
test files of rounds 18-37 pass unchanged; the verdict snapshot is identical.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.lean import _answer_contains, _answer_nodes, _answer_order, _answer_scopes
from putnam_solver.core.provers.lean._answer_binders import plain_name
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean._answer_scopes import scopes
from putnam_solver.core.provers.lean._answer_terms import binder_names
from putnam_solver.core.provers.lean._answer_unwrap import readings
from putnam_solver.core.provers.lean._idchars import starts_name, starts_term
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from tests.adversarial.test_lean_redteam29_copies import _int

REAL = "abbrev t_solution : ℝ := sorry\ntheorem t (f g : ℝ → ℝ) (c : ℝ) : ({Q}) = t_solution := sorry\n"
SUB = "abbrev t_solution : Set ℤ := sorry\ntheorem t (P : ℤ → ℤ → Prop) : ∀ n : ℤ, ({Q} ↔ n ∈ t_solution) := sorry\n"
CUBES = "∃ a b c : ℤ, 0 ≤ a ∧ 0 ≤ b ∧ 0 ≤ c ∧ a ^ 3 + b ^ 3 + c ^ 3 = n"
INTEGRAL = "∫ x in (0:ℝ)..1, f x + g x"


def _copied(statement: str, value: str) -> bool:
    return bool(copied_violations(lex_code(value), "t_solution", parse_statement(statement), "t_solution"))


# (statement, value, refused as a copy)
CASES = {
    "∫ body at 60: renamed copy": (REAL.replace("{Q}", INTEGRAL), "∫ y in (0:ℝ)..1, f y + g y", True),
    "∫ body at 60: commuted copy": (REAL.replace("{Q}", INTEGRAL), "∫ y in (0:ℝ)..1, g y + f y", True),
    "∫ body at 60: twin, another function": (REAL.replace("{Q}", INTEGRAL), "(∫ y in (0:ℝ)..1, f y) + g 0", False),
    "⨆ body at 60: commuted copy": (REAL.replace("{Q}", "⨆ x, f x + g x"), "⨆ y, g y + f y", True),
    "∑' body at 67: the sum moved": (REAL.replace("{Q}", "∑' n : ℕ, f n + c"), "c + ∑' n : ℕ, f n", True),
    "∑' body at 67: twin, a closed form": (REAL.replace("{Q}", "∑' n : ℕ, f n + c"), "c + 2", False),
    "letter ℘: a carrier copy": (_int(CUBES), "{n | ∃ ℘ b c : ℕ, ↑(℘ ^ 3 + b ^ 3 + c ^ 3) = n}", True),
    "letter ℘: twin": (_int(CUBES), "{n | ∃ ℘ b c : ℕ, ↑(℘ ^ 3 + b ^ 3 + c ^ 2) = n}", False),
    "name _a: a carrier copy": (_int(CUBES), "{n | ∃ _a b c : ℕ, ↑(_a ^ 3 + b ^ 3 + c ^ 3) = n}", True),
    "name _a: beside an ascription": (_int(CUBES), "{n | ∃ _a b c : ℕ, (b : ℤ) ^ 3 + _a ^ 3 + (c ^ 3) = n}", True),
    "name _a: twin": (_int(CUBES), "{n | ∃ _a b c : ℕ, ↑(_a ^ 3 + b ^ 3 + c ^ 2) = n}", False),
    ".val for .1 on Fin": (SUB.replace("{Q}", "∃ i : Fin 5, P i.1 n"), "{n | ∃ i : Fin 5, P i.val n}", True),
    "Fin.val for .1": (SUB.replace("{Q}", "∃ i : Fin 5, P i.1 n"), "{n | ∃ i : Fin 5, P (Fin.val i) n}", True),
    ".1 for .val on a subtype": (
        SUB.replace("{Q}", "∃ x : {z : ℤ // 0 ≤ z}, P x.val n"),
        "{n | ∃ x : {z : ℤ // 0 ≤ z}, P x.1 n}",
        True,
    ),
    ".val: twin, another argument": (SUB.replace("{Q}", "∃ i : Fin 5, P i.1 n"), "{n | ∃ i : Fin 5, P i.val 0}", False),
    ".val: honest closed form": (SUB.replace("{Q}", "∃ i : Fin 5, P i.1 n"), "{n | 0 ≤ n ∧ n < 5}", False),
}


@pytest.mark.parametrize(("statement", "value", "refused"), CASES.values(), ids=list(CASES))
def test_copies_are_refused_and_twins_pass(statement: str, value: str, refused: bool) -> None:
    assert _copied(statement, value) is refused


def test_one_body_table_serves_every_reader() -> None:
    body = _answer_nodes.BODY
    readers = (_answer_scopes, _answer_order, _answer_contains)
    assert all(vars(module)["BODY"] is body for module in readers)
    assert {k: body[k] for k in ("∑", "∏", "∑'", "∏'")} == dict.fromkeys(("∑", "∏", "∑'", "∏'"), 67)
    assert {k: body[k] for k in ("⋃", "⋂", "⨆", "⨅", "∫", "∮")} == dict.fromkeys(("⋃", "⋂", "⨆", "⨅", "∫", "∮"), 60)
    assert not {"∀", "∃", "fun", "λ"} & set(body)  # a `term` at 0: the body runs on


@pytest.mark.parametrize(
    ("term", "end"),
    [
        ("∫ x , f x + g x", 8),  # `+` (65) is inside a body read at 60
        ("∑ x ∈ s , f x + g x", 7),  # ... and ends one read at 67
        ("⋃ i , A i ∪ B i", 8),  # `∪` (65) inside
        ("∀ x , P x → Q x", 8),  # a `term` at 0: to the end
    ],
)
def test_scopes_end_where_lean_ends_the_body(term: str, end: int) -> None:
    assert scopes(term.split(), {0})[0][1] == end


@pytest.mark.parametrize(
    ("header", "names", "tupled"),
    [
        ("x y", ["x", "y"], ["x", "y"]),
        ("(x y : ℕ) z", ["x", "y", "z"], ["x", "y", "z"]),
        ("x : ℕ × ℕ", ["x"], ["x"]),
        ("(x : Fin (n + 1)) {g : Set (ℕ × ℕ)}", ["x", "g"], ["x", "g"]),  # a type's own brackets
        ("((a, b) : ℕ × ℕ)", None, None),
        ("k ≥ 1", ["k"], ["k"]),  # a binder predicate's bound (`∀ k ≥ 1,`)
        ("x y ∈ s", ["x", "y"], ["x", "y"]),
        ("(x) ≥ 1", None, None),
        ("(x ∈ s) (y ∈ t)", ["x", "y"], ["x", "y"]),  # `∀ᵉ (x ∈ s) (y ∈ t),`
        ("_ x", ["_", "x"], ["_", "x"]),
        ("{x} ⦃y⦄ (z : T)", ["x", "y", "z"], ["x", "y", "z"]),
        ("[inst : C] x", ["inst", "x"], ["inst", "x"]),
        ("[C] x", None, None),  # an anonymous instance binder: no name, no explicit argument
        ("⟨a, b⟩", None, ["a", "b"]),  # a pattern: one argument (its components only for the tuple readings)
        ("(a, b)", None, ["a", "b"]),
        ("⟨a, b⟩ c", None, ["a", "b", "c"]),
        ("(a + b)", None, None),
        ("p.1", None, None),
    ],
)
def test_one_binder_reader(header: str, names: list[str] | None, tupled: list[str] | None) -> None:
    tokens = lex_code(header)
    assert binder_names(tokens) == names
    assert binder_names(tokens, patterns=True) == tupled


@pytest.mark.parametrize(
    ("value", "params"),
    [
        ("fun ⟨a, b⟩ => a + b", ("a", "b")),
        ("fun (a, b) => a + b", ("a", "b")),
        ("fun (x : ℕ) _ => x", ("x", "_")),
        ("fun [C] x => x", ()),  # was read as parameters `C`, `x`
    ],
)
def test_the_readings_use_the_same_reader(value: str, params: tuple[str, ...]) -> None:
    assert readings(lex_code(value))[-1][0] == params


def test_a_pattern_lambda_is_not_applied_to_two_arguments() -> None:
    """``(fun ⟨a, b⟩ => e) x y`` takes ONE argument: the unwrapper read ``a := x, b := y``."""
    whole = readings(lex_code("fun x y => (fun ⟨a, b⟩ => a + b) x y"))[-1][1]
    assert [t.text for t in whole][:3] == ["(", "fun", "⟨"]


@pytest.mark.parametrize(
    ("text", "name", "term"),
    [
        ("℘", True, True),
        ("ℓ", True, True),
        ("_a", True, True),
        ("«a b»", True, True),
        ("λ", False, False),
        ("²", False, False),
        ("3", False, True),
        ("Π", False, False),
    ],
)
def test_identifier_letters_are_leans(text: str, name: bool, term: bool) -> None:
    assert starts_name(text) is name and starts_term(text) is term
    assert plain_name(text) is (name and text != "_")
