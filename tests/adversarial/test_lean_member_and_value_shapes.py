"""The Lean text gates' readings of a declaration's members and alternatives (G2's member and alternative
shapes, G3's tactic places) and of a no-answer value's wrappers (G2's copy rule), each branch run in this
process so that coverage sees it (text profile).

The text gates run in worker processes (``gate_worker``), which coverage does not follow, so a coverage run of
the default suite listed these branches as never run although earlier red-team files reach many of them
through the workers. Here every case runs the gates in this process (``text_gates_in_process``), each rule
with the hostile case it refuses and an honest twin it lets pass:

* modifiers inside a type declaration (``_members``): ``| private noncomputable mk``, ``| @[simp] protected
  mk``, a documented or attributed ``private`` field, ``private (x y : ℕ)``, ``private f (n : ℕ) {m : ℕ}
  [Inhabited ℕ] : T`` and ``private mk ::`` pass; a modifier that is not a constructor's (after no ``|``,
  before no name, after a stray ``]``) or not a field's (no signature at once, a bare binder the signature
  never names, a number) begins a command: refused. A class's ``f [C α] : T`` (``signature_binder``) passes,
  ``[inst : C α]`` as a field is refused.
* the shape of a line among fields or ``where`` declarations (``_member_shapes``): a later declaration with a
  doc, attributes, an instance binder or its type on the next line passes; a library command word there is
  refused, now also after a doc comment or attributes (see below).
* a ``match`` that is a declaration's whole value (``_alternative_shapes``): a library command word after its
  alternatives is refused; bracketed discriminants pass.
* which ``match`` or ``fun`` owns an arm (``_match_arms``): a ``by`` arm before a term arm on one line passes,
  a tactic's alternatives (``intro``, ``induction .. with``, a ``by`` on the next line, a ``match`` whose
  ``with`` is left of its line) keep ``trace e`` refused.
* no-answer values (``_answer_normal._tactic``, ``_where``, ``_answer_unwrap.after_have``,
  ``_answer_members``): ``by exact``, ``by classical; exact``, ``by first | exact``, ``by (exact e)``, ``by
  show T; exact``, a ``where`` helper, a ``have`` before the value and memberships pass as honest answers; the
  question copied through each of them is refused.

Bugs found and fixed (soundness, G2; each passed the text profile before):

* a ``where`` declaration line that began with a doc comment or an attribute list was never judged by its
  shape (``_member_shapes._judged`` read only line-first identifiers), so ``def f : ℕ := g where\\n  g : ℕ :=
  1\\n  @[simp] zz_library_command zz`` (or ``/-- d -/ zz_library_command zz``) passed. Lean's ``letRecDecl``
  reads the attributes, fails at the keyword, and its command loop resumes there (src/Lean/Parser/Module.lean
  ``parseCommand``: after an error the next command is parsed from the error's position), running the
  library command. Such a line is now judged like the declaration it begins (``_declaration_follows`` reads
  the doc and attributes), and in a structure like a field after modifiers (``_members.field_follows``);
* ``inductive T : Type :=`` then constructors: ``_alternative_shapes._first_bar`` took the ``:=`` for a value,
  so the constructors were not read and a library command after them passed (``«inductive»`` takes ``" :="
  <|> " where"`` before ``many ctor``, src/Lean/Parser/Command.lean); the ``:=`` now reads like ``where``;
* a ``match`` value with no alternative (``:= match n with\\n  zz_library_command zz``): ``_match_bar`` found no
  ``|`` and nothing was judged, although Lean fails at the token after ``with`` (``matchAlts`` is
  ``many1Indent matchAlt``, each ``"| "`` first) and resumes a command there; that token is now refused.

Coverage (``coverage run --source=putnam_solver.core.provers.lean -m pytest -n 0 -q`` on this file and
``test_lean_grind_aesop_commands``; before, the default suite, whose gates ran in workers): ``_members``
100% (before: 45-47, 52-60, 70-76, 85-93, 107-116, 130, 136-139, 145-156, 161-171 unrun), ``_member_shapes``
100% (68-73, 87, 89, 113-115, 122-142, 148-153), ``_match_arms`` 100% (80-87, 110, 118-119, 138-150,
157-164), ``_alternative_shapes`` 94% (98-107 now run). ``_answer_normal``'s ``_tactic``/``_step_end``
(170-207) run but for one line (an ``intro`` followed by a second step), ``_where`` (338-348) runs;
``_answer_members`` runs ``_matched`` (63-70) and the complement; left unrun: ``_answer_unwrap.after_have``
and ``unwrapped``'s ``id``/``show``/``have``/``let``/``by``/ascription branches (67-80, 93-102) and
``_answer_members``' ascription and ``setOf`` branches (24, 46, 87-97): the normal form
(``_answer_normal.normalized``) takes every such wrapper off before the copy rule reads the value, so they
run only where normalization stopped at its work bound (``WORK``): kept as that fallback, not dead.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Track
from tests.helpers import lean_edit_failures

PID = "putnam_1962_a1"
ANSWER = "putnam_2024_a1"
FUNCTION = "putnam_2020_a2"  # `∑ j ∈ Finset.Icc 0 k, ... = putnam_2020_a2_solution k`
LIBRARY = "zz_library_command"
NAMED = "def ff (x : ℕ := 0) (y : ℕ) : ℕ := x + y\n"
COMMAND = "starts a new command here"
MEMBER = "neither a field or `where` declaration nor more of the one before"
ALTERNATIVE = "neither a constructor or match alternative nor more of the one before"
CLASS = "a class's parents become instances"
TRACE = "trace e"
COPY = "the answer is the other side of the statement's own `=`"
QUESTION = "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}"
EXISTS = "∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^{0} + 3*b^{0} = 4*c^{0}"
WHERE = "def zz_f : ℕ := zz_g + zz_h 1\nwhere\n  zz_g : ℕ := 1\n"

# name: the `lean_filled` keywords of an honest addition (the with-answer track of PID) or an answer (ANSWER's
# no-answer track, `value`), which the text gates accept
HONEST: dict[str, dict[str, str]] = {
    "a private constructor": {"before": "inductive ZzT where\n  | private mk : ZzT\n  | zz_b : ZzT\n\n"},
    "two modifiers on a constructor": {"before": "inductive ZzT where\n  | private noncomputable mk : ZzT\n\n"},
    "an attributed constructor": {"before": "inductive ZzT where\n  | @[simp] protected mk : ZzT\n\n"},
    "constructors after :=": {"before": "inductive ZzT : Type :=\n  | mk : ZzT\n  | zz_b : ZzT\n\n"},
    "a bracketed rule list on a constructor": {
        "before": "inductive ZzT where\n  | @[aesop safe [constructors]] private mk : ZzT\n\n"
    },
    "a structure without fields": {"before": "structure ZzE\n\n"},
    "a fun's alternatives": {"before": NAMED + "def gg : ℕ → ℕ := fun | 0 => by exact 1 | n => ff (x := n) 1\n\n"},
    "two attributes on a constructor": {"before": "inductive ZzT where\n  | @[simp high, inline] private mk : ZzT\n\n"},
    "a documented private field": {"before": "structure ZzS where\n  /-- the count -/ private x : ℕ\n  y : ℕ\n\n"},
    "an attributed field": {"before": "structure ZzS where\n  @[simp] protected x : ℕ\n\n"},
    "a private binder field": {"before": "structure ZzS where\n  private (x y : ℕ)\n\n"},
    "bare binders named in the type": {"before": "structure ZzS where\n  f n : Fin (n + 1)\n\n"},
    "a private field with bracketed binders": {
        "before": "structure ZzS where\n  private f (n : ℕ) {m : ℕ} [Inhabited ℕ] : Fin (n + m + 1)\n\n"
    },
    "a private constructor name": {"before": "structure ZzS where\n  private mk ::\n  x : ℕ\n\n"},
    "an indented deriving": {"before": "structure ZzS where\n  x : ℕ\n  deriving Repr\n\n"},
    "a field after a bracketed parameter": {
        "before": "structure ZzS (α : Type) where\n  x : α\n  private zz_f (n : List (Option ℕ)) : ℕ\n\n"
    },
    "a class field's instance binder": {"before": "class ZzC (α : Type) where\n  f [Inhabited α] : α\n\n"},
    "a documented private class field's instance binder": {
        "before": "class ZzC (α : Type) where\n  /-- d -/ private f [Inhabited α] : α\n\n"
    },
    "an instance binder after a binder": {"before": "class ZzC (α : Type) where\n  f (x : α) [Inhabited α] : α\n\n"},
    "a documented, attributed where declaration": {"before": WHERE + "  /-- h -/ @[simp] zz_h (n : ℕ) : ℕ := n\n\n"},
    "attributes on their own line": {"before": WHERE + "  @[simp]\n  zz_h (n : ℕ) : ℕ := n\n\n"},
    "a where declaration's instance binder": {"before": WHERE + "  zz_h [Inhabited ℕ] (n : ℕ) : ℕ := n\n\n"},
    "a where declaration's type on the next line": {"before": WHERE + "  zz_h (n : ℕ)\n    : ℕ := n\n\n"},
    "where declarations by alternatives": {
        "before": "def zz_f : ℕ := zz_g 1\nwhere\n  zz_g : ℕ → ℕ\n    | 0 => 0\n    | _ => 1\n\n"
    },
    "anonymous binders": {"before": "def zz_f : ℕ := zz_g 1 1\nwhere\n  zz_g (_ : ℕ) _ : ℕ := 1\n\n"},
    "a match value over a pair": {
        "before": "def zz_f (n : ℕ) : ℕ := match (n, n) with\n  | (0, _) => 0\n  | _ => 1\n\n"
    },
    "a by arm before a term arm": {
        "before": NAMED + "def gg (a : ℕ) : ℕ := match a with | 0 => by exact 1 | _ => ff (x := a) 1\n\n"
    },
    "two by arms": {
        "before": NAMED
        + "def gg (a : ℕ) : ℕ := match a with | 0 => by simp [ff] | 1 => by exact 2 | _ => ff (x := a) 1\n\n"
    },
    "two patterns on two lines": {
        "before": NAMED + "def gg (a : ℕ) : ℕ := match a with\n  | 0\n  | 1 => ff 1\n  | _ => ff (x := a) 1\n\n"
    },
    "two patterns on one line": {
        "before": NAMED + "def gg (a : ℕ) : ℕ := match a with | 0 | 1 => ff 1 | _ => ff (x := a) 1\n\n"
    },
    "discriminants over two lines": {
        "before": NAMED + "def gg (a : ℕ) : ℕ :=\n  match a\n    with | 0 => ff 1 | _ => ff (x := a) 1\n\n"
    },
    "a match in a later arm": {"proof": "by\n  exact match 1 with | 0 => 1 | _ => match 2 with | _ => 3"},
    "a conv block": {"proof": "by\n  conv_lhs => rw [Nat.add_zero]"},
    "by exact": {"value": "by exact {1}"},
    "by classical, exact": {"value": "by\n  classical\n  exact {1}"},
    "by first | exact": {"value": "by first | exact {1}"},
    "by (exact)": {"value": "by (exact {1})"},
    "by show, exact": {"value": "by\n  show Set ℕ\n  exact {1}"},
    "by simp": {"value": "by simp"},
    "a where helper": {"value": "zz_g 1\nwhere\n  zz_g (k : ℕ) : Set ℕ := {k}"},
    "a where helper by alternatives": {"value": "zz_g 1\nwhere\n  zz_g : ℕ → Set ℕ\n    | k => {k}"},
    "intro, then exact": {"value": "by\n  intro k\n  exact 4 ^ k", "problem": FUNCTION},
    "intro of a pattern": {"value": "by\n  intro ⟨k⟩\n  exact 4 ^ k", "problem": FUNCTION},
    "a have before the value": {"value": "have h : True := trivial; {1}"},
    "a have on its own line": {"value": "have h : True := trivial\n  {1}"},
    "membership of a setOf fun": {"value": "{n | n ∈ setOf (fun m => m = 1)}"},
    "membership of a setOf name": {"value": "{n | n ∈ setOf (Eq 1)}"},
    "membership of a setOf application": {"value": "{n | n ∈ setOf (Nat.le 1)}"},
    "membership of an ascribed set": {"value": "{n | n ∈ ({1} : Set ℕ)}"},
    "a set difference": {"value": "{n | n ∈ ({1, 2} : Set ℕ) \\ {2}}"},
    "a complement in a conjunction": {"value": "{n | n = 1 ∧ n ∈ ({2} : Set ℕ)ᶜ}"},
    "a setOf fun in a conjunction": {"value": "{n | n = 1 ∧ n ∈ setOf (fun m => 0 < m)}"},
    "a pattern set-builder": {"value": "{n | n = 1 ∧ (n, n) ∈ {(x, y) : ℕ × ℕ | x = y}}"},
    "a product of sets": {"value": "{n | n = 1 ∧ (n, n) ∈ ({1} : Set ℕ) ×ˢ ({1} : Set ℕ)}"},
    "Set.prod": {"value": "{n | n = 1 ∧ (n, n) ∈ Set.prod ({1} : Set ℕ) {1}}"},
}

# name: (the `lean_filled` keywords, the gate that refuses, words of its refusal)
HOSTILE: dict[str, tuple[dict[str, str], str, str]] = {
    "a modifier after no bar": (
        {"before": f"inductive ZzT where\n  | mk : ZzT\n  private {LIBRARY} zz : ZzT\n\n"},
        "G2",
        ALTERNATIVE,
    ),
    "a modifier before no name": ({"before": "inductive ZzT where\n  | private (mk) : ZzT\n\n"}, "G2", COMMAND),
    "a modifier after a stray ]": (
        {"before": "inductive ZzT where\n  | mk : ZzT ] private zz : ZzT\n\n"},
        "G2",
        COMMAND,
    ),
    "a modifier before a library command": (
        {"before": f"structure ZzS where\n  x : ℕ\n  private {LIBRARY} zz : True\n\n"},
        "G2",
        MEMBER,
    ),
    "a bare binder never named": ({"before": f"structure ZzS where\n  private {LIBRARY} zz : True\n\n"}, "G2", COMMAND),
    "a bare binder with a default": ({"before": "structure ZzS where\n  private f n := n\n\n"}, "G2", COMMAND),
    "a number for a binder": ({"before": "structure ZzS where\n  private f 1 : ℕ\n\n"}, "G2", COMMAND),
    "a constructor mark after binders": ({"before": "structure ZzS where\n  private f n :: ℕ\n\n"}, "G2", COMMAND),
    "a library command after a constructor name": (
        {"before": f"structure ZzS where\n  zz_mk ::\n  x : ℕ\n  {LIBRARY} zz\n\n"},
        "G2",
        MEMBER,
    ),
    "an instance field": ({"before": "class ZzC (α : Type) where\n  [inst : Inhabited α]\n\n"}, "G2", CLASS),
    "an instance field after a field": (
        {"before": "class ZzC (α : Type) where\n  x : α\n  [inst : Inhabited α]\n\n"},
        "G2",
        CLASS,
    ),
    "a modifier in a where declaration": ({"before": WHERE + "  private zz_h (n : ℕ) : ℕ := n\n\n"}, "G2", COMMAND),
    "a library command among where declarations": (
        {"before": "def zz_f : ℕ := zz_g 1\nwhere\n  zz_g (n : ℕ) : ℕ := n\n  declare_eval_bin zz (· + ·)\n\n"},
        "G2",
        MEMBER,
    ),
    "a library command left of the where declarations": (
        {"before": f"def zz_f : ℕ := zz_g 1\n  where\n    zz_g (n : ℕ) : ℕ := n\n  {LIBRARY} zz\n\n"},
        "G2",
        MEMBER,
    ),
    "a library command with a dotted binder": ({"before": WHERE + f"  {LIBRARY} (zz.a : ℕ)\n\n"}, "G2", MEMBER),
    "a library command before a declaration": (
        {"before": WHERE + f"  {LIBRARY} zz\n  zz_h (n : ℕ) : ℕ := n\n\n"},
        "G2",
        MEMBER,
    ),
    # the bug fixed here: a doc comment or attributes before the library command hid it from G2
    "attributes before a library command in a where block": (
        {"before": WHERE + f"  @[simp] {LIBRARY} zz\n\n"},
        "G2",
        MEMBER,
    ),
    "a doc before a library command in a where block": (
        {"before": WHERE + f"  /-- d -/ {LIBRARY} zz\n\n"},
        "G2",
        MEMBER,
    ),
    "a doc after a modifier": ({"before": "structure ZzS where\n  x : ℕ\n  private /-- d -/ y : ℕ\n\n"}, "G2", MEMBER),
    "a doc inside attributes": (
        {"before": "structure ZzS where\n  x : ℕ\n  @[simp /-- d -/] private y : ℕ\n\n"},
        "G2",
        "not a permitted addition",
    ),
    "unclosed attributes": (
        {"before": "structure ZzS where\n  x : ℕ\n  @[simp private y : ℕ\n\n"},
        "G2",
        "not a complete command",
    ),
    "attributes before no name": ({"before": WHERE + "  @[simp] (zz_h) : ℕ := 1\n\n"}, "G2", MEMBER),
    # fixed here: an inductive's constructors after `:=` and a `match` value with no alternative were not judged
    "a library command after constructors given by :=": (
        {"before": f"inductive ZzT : Type :=\n  | mk : ZzT\n  {LIBRARY} zz\n\n"},
        "G2",
        ALTERNATIVE,
    ),
    "a match value with no alternative": (
        {"before": f"def zz_f (n : ℕ) : ℕ := match n with\n  {LIBRARY} zz\n\n"},
        "G2",
        ALTERNATIVE,
    ),
    "a fun alternative's by block": ({"proof": "by\n  exact fun | 0 => by trace zz | _ => rfl"}, "G3", TRACE),
    "a library command after a match value": (
        {"before": f"def zz_f (n : ℕ) : ℕ := match n with\n  | 0 => 0\n  | _ => 1\n  {LIBRARY} zz\n\n"},
        "G2",
        ALTERNATIVE,
    ),
    "intro's alternatives in a by arm": (
        {"proof": "by\n  exact match 1 with | 0 => by intro | 0 => trivial | _ => trace zz"},
        "G3",
        TRACE,
    ),
    "a tactic match's arm": ({"proof": "by\n  match 1 with | 0 => by simp | _ => trace zz"}, "G3", TRACE),
    "a second tactic after ;": (
        {"proof": "by\n  exact match 1 with | 0 => by simp; intro | _ => trace zz"},
        "G3",
        TRACE,
    ),
    "a with left of its match's line": (
        {"proof": "by\n  exact match 1\n  with | 0 => by simp | _ => trace zz"},
        "G3",
        TRACE,
    ),
    "a by block over two lines": (
        {"proof": "by\n  exact match 1 with | 0 => by\n    simp | _ => trace zz"},
        "G3",
        TRACE,
    ),
    "a fun's by block": ({"proof": "by\n  exact fun x => by trace zz"}, "G3", TRACE),
    "intro's alternative in brackets": ({"proof": "by\n  exact (by intro\n | 0 => trace zz)"}, "G3", TRACE),
    "induction's alternatives": (
        {"proof": "by\n  induction n with\n  | zero => trace zz\n  | succ n ih => simp"},
        "G3",
        TRACE,
    ),
    "induction's alternatives in brackets": (
        {"proof": "by\n  (induction n with | zero => trace zz | succ n ih => simp)"},
        "G3",
        TRACE,
    ),
    "a conv block's trace": ({"proof": "by\n  conv => trace zz"}, "G3", TRACE),
    "a bracketed conv block's trace": ({"proof": "by\n  (conv => trace zz)"}, "G3", TRACE),
    "an unclosed binder at the end of the file": (
        {"after": "\nstructure ZzS where\n  x : ℕ\n  private f (n : ℕ : ℕ\n"},
        "G2",
        COMMAND,
    ),
    "the question by exact": ({"value": f"by exact {QUESTION}"}, "G2", COPY),
    "the question in a where helper": ({"value": f"zz_g\nwhere\n  zz_g : Set ℕ := {QUESTION}"}, "G2", COPY),
    "the question through intro": (
        {
            "value": "by\n  intro k\n  exact ∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j",
            "problem": FUNCTION,
        },
        "G2",
        COPY,
    ),
    "the question in a where helper by alternatives": (
        {"value": f"zz_g 1\nwhere\n  zz_g : ℕ → Set ℕ\n    | _ => {QUESTION}"},
        "G2",
        COPY,
    ),
    "the question after a have": ({"value": f"have h : True := trivial; {QUESTION}"}, "G2", COPY),
    "the question as a setOf fun": (
        {"value": f"{{n | n ∈ setOf (fun m : ℕ => 0 < m ∧ {EXISTS.format('m')})}}"},
        "G2",
        COPY,
    ),
    "the question's condition as a setOf fun in a conjunction": (
        {"value": f"{{n | 0 < n ∧ n ∈ setOf (fun m => {EXISTS.format('m')})}}"},
        "G2",
        COPY,
    ),
    "the question's condition through a pattern set-builder": (
        {"value": f"{{n | 0 < n ∧ (n, n) ∈ {{(x, y) : ℕ × ℕ | {EXISTS.format('x')}}}}}"},
        "G2",
        COPY,
    ),
}


def _failures(bench: Benchmark, edit: dict[str, str]) -> dict[str, str]:
    if "value" in edit:
        return lean_edit_failures(bench, edit.get("problem", ANSWER), edit, Track.NO_ANSWER)
    return lean_edit_failures(bench, PID, edit)


CASES: dict[str, tuple[dict[str, str], str, str]] = {**{n: (e, "", "") for n, e in HONEST.items()}, **HOSTILE}
"""Every case: an honest one (no gate named) must pass, a hostile one be refused by its gate in those words."""


@pytest.mark.parametrize("name", CASES)
def test_each_shape_is_read_as_lean_reads_it(lean_putnambench: Benchmark, name: str) -> None:
    edit, gate, words = CASES[name]
    found = _failures(lean_putnambench, edit)
    assert (words in found.get(gate, "")) if gate else not found, found
