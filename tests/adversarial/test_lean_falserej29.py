"""False rejections of honest Lean proofs by the text gates (G2, G3), round 29, and the bypasses around
each relaxed spot, on the red team 22 problem (text profile).

* ``@[aesop unsafe 50% apply]`` on a helper: Aesop's attribute (``_aesop_clauses.aesop_rule_arguments``)
  was refused as an attribute not permitted (G2, G3) and its phase word ``unsafe`` as the modifier (G3) and,
  on a ``where`` declaration, as a command starting mid-proof (G2).
  Free with rule expressions that name no code: phases, priorities, builders but ``tactic`` (which runs the
  declaration as code), lists, ``(rule_sets := [..])``; any term, builder option or extra name stays refused.
* ``aesop_graph``, ``aesop_graph?``, ``aesop_graph_nonterminal``, ``aesop_mat``: Mathlib macros that hand
  their clauses to ``aesop``; their ``(add unsafe r)`` clauses are read like Aesop's own.
* ``local grind_pattern`` / ``scoped grind_pattern``: core's ``Term.attrKind >> "grind_pattern "`` (only
  ``grind`` reads the pattern, wherever it is in force); another modifier before it stays refused.
* a term-mode ``if .. then f (x := a) ..``: a ``then``/``else`` branch was always taken for a tactic's
  place, so a named argument there was read as a configuration item (G3); a branch is a tactic's place
  only where its ``if`` stands in one (``_tactic_position``); likewise an arm of a ``match`` is a tactic's
  place only where its ``match`` stands in one (found back through the arms to ``with`` and ``match`` on
  that line; a ``fun``'s or ``intro``'s alternatives stay taken for tactics), and the body after a
  ``let x := v;`` or ``have x := v;`` on one line is a tactic's place only where that ``let`` is.

One case of each class runs in CI; the others are marked slow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam22_g2g3 import Edit, _verdict
from tests.helpers import sampled

HELPER = "theorem zz (n : ℕ) : n ≤ n + 1 := Nat.le_succ n\n\n"
PATTERN = "theorem zz (n : ℕ) : n + 0 = n := rfl\n\n"
NAMED = "def ff (x : ℕ := 0) (y : ℕ) : ℕ := x + y\n"
MATCH = "def gg (a : ℕ) : ℕ := match a with\n"

VALID: dict[str, dict[str, Edit]] = {
    "aesop attribute": {
        "unsafe 50% apply": {"before": "@[aesop unsafe 50% apply]\n" + HELPER},
        "safe apply": {"before": "@[aesop safe apply]\n" + HELPER},
        "norm simp": {"before": "@[aesop norm simp]\n" + PATTERN},
        "phase alone": {"before": "@[aesop safe]\n" + HELPER},
        "norm with a negative priority": {"before": "@[aesop norm -100 unfold]\ndef zz (n : ℕ) : ℕ := n\n\n"},
        "local": {"before": "@[local aesop unsafe 20% apply]\n" + HELPER},
        "beside simp": {"before": "@[simp, aesop unsafe 20% apply]\n" + HELPER},
        "a list of rules": {"before": "@[aesop [safe apply, unsafe 50% forward]]\n" + HELPER},
        "rule sets": {"before": "@[aesop safe apply (rule_sets := [SimpleGraph])]\n" + HELPER},
        "default builder": {"before": "@[aesop safe default]\n" + HELPER},
        "constructors of a helper type": {"before": "@[aesop safe constructors]\ninductive Zz : Prop\n  | mk\n\n"},
        "on a where declaration": {"proof": "by\n  simp\nwhere\n  @[aesop unsafe 50% apply] zz : True := trivial"},
    },
    "Mathlib aesop macros": {
        "aesop_graph": {"proof": "by\n  aesop_graph (add unsafe 50% apply foo)"},
        "aesop_mat": {"proof": "by\n  aesop_mat (add unsafe 50% apply foo)"},
        "aesop_graph?": {"proof": "by\n  aesop_graph? (add unsafe foo)"},
        "aesop_graph_nonterminal": {"proof": "by\n  aesop_graph_nonterminal (add unsafe 10% foo)\n  simp"},
    },
    "grind_pattern scope": {
        "local": {"before": PATTERN + "local grind_pattern zz => n + 0\n\n"},
        "scoped": {"before": PATTERN + "scoped grind_pattern zz => n + 0\n\n"},
        "docstring, then local": {"before": PATTERN + "/-- the pattern -/\nlocal grind_pattern zz => n + 0\n\n"},
    },
    "term-mode if": {
        "then a named argument": {"before": NAMED + "def gg (a : ℕ) : ℕ := if a = 0 then ff (x := a) 1 else 2\n\n"},
        "else a named argument": {"before": NAMED + "def gg (a : ℕ) : ℕ := if a = 0 then 1 else ff (x := a) 2\n\n"},
        "else if": {
            "before": NAMED + "def gg (a : ℕ) : ℕ := if a = 0 then 1 else if a = 1 then ff (x := a) 1 else 2\n\n"
        },
        "branches on lines of their own": {
            "before": NAMED
            + "def gg (a : ℕ) : ℕ :=\n  if a = 0 then\n    ff (x := a) 1\n  else\n    ff (x := a + 1) 2\n\n"
        },
        "nested if in the then branch": {
            "before": NAMED + "def gg (a : ℕ) : ℕ := if a = 0 then if a = 1 then 3 else 4 else ff (x := a) 2\n\n"
        },
        "after exact": {
            "before": NAMED + "theorem gg (a : ℕ) : ℕ := by\n  exact if a = 0 then ff (x := a) 1 else 2\n\n"
        },
        "the matrix trace": {
            "before": "open Matrix in\ndef gg (A : Matrix (Fin 2) (Fin 2) ℕ) (a : ℕ) : ℕ :=\n"
            "  if a = 0 then trace A else 2\n\n"
        },
    },
    "term-mode match": {
        "an arm's named argument": {"before": NAMED + MATCH + "  | 0 => ff (x := a) 1\n  | _ => 2\n\n"},
        "the second arm": {"before": NAMED + MATCH + "  | 0 => 1\n  | n + 1 => ff (x := n) 2\n\n"},
        "on one line": {"before": NAMED + "def gg (a : ℕ) : ℕ := match a with | 0 => 1 | _ => ff (x := a) 2\n\n"},
        "after exact": {
            "before": NAMED
            + "theorem gg (a : ℕ) : ℕ := by\n  exact match a with\n  | 0 => ff (x := a) 1\n  | _ => 2\n\n"
        },
        "a named discriminant": {
            "before": NAMED + "def gg (a : ℕ) : ℕ := match h : a with\n  | 0 => ff (x := a) 1\n  | _ => 2\n\n"
        },
    },
    "term-mode let": {
        "let x := v; body": {"before": NAMED + "def gg (a : ℕ) : ℕ := let b := a; ff (x := b) 1\n\n"},
        "have x := v; body": {"before": NAMED + "def gg (a : ℕ) : ℕ := have b := a; ff (x := b) 1\n\n"},
        "a typed let": {"before": NAMED + "def gg (a : ℕ) : ℕ := let b : ℕ := a + 1; ff (x := b) 1\n\n"},
        "after exact": {"before": NAMED + "theorem gg (a : ℕ) : ℕ := by\n  exact let b := a; ff (x := b) 1\n\n"},
    },
}

REFUSED: dict[str, dict[str, tuple[Edit, str, str]]] = {
    "aesop attribute": {
        "the tactic builder": ({"before": "@[aesop safe tactic]\n" + HELPER}, "G3", "@[aesop]"),
        "unsafe def after the list": (
            {"before": "@[aesop unsafe 50% apply] unsafe def zz : ℕ := 0\n\n"},
            "G3",
            "unsafe",
        ),
        "a builder option holding an unsafe term": (
            {"before": "@[aesop unsafe 50% apply (pattern := unsafe foo)]\n" + HELPER},
            "G3",
            "unsafe",
        ),
        "a term feature": ({"before": "@[aesop unsafe (unsafe foo)]\n" + HELPER}, "G3", "unsafe"),
        "an extra name": ({"before": "@[aesop unsafe apply foo]\n" + HELPER}, "G2", "attribute not permitted"),
        "the tactic builder on a where declaration": (
            {"proof": "zz\nwhere\n  @[aesop safe tactic] zz : True := trivial"},
            "G3",
            "@[aesop]",
        ),
        "an unsafe where declaration after the list": (
            {"proof": "by\n  simp\nwhere\n  @[aesop unsafe 50% apply] unsafe zz : True := trivial"},
            "G3",
            "unsafe",
        ),
        "inside another list": ({"before": "@[simp @[aesop unsafe tactic]]\n" + HELPER}, "G3", "@[aesop]"),
        "a rule set in the Lean namespace": (
            {"before": "@[aesop safe apply (rule_sets := [Lean.Elab])]\n" + HELPER},
            "G3",
            "Lean",
        ),
        "on an instance": ({"before": "@[aesop safe apply] instance zz : Inhabited ℕ := ⟨0⟩\n\n"}, "G2", "attribute"),
        "unsafe term in the helper's value": (
            {"before": "@[aesop unsafe 20% apply] theorem zz (n : ℕ) : n ≤ n + 1 := unsafe (Nat.le_succ n)\n\n"},
            "G3",
            "unsafe",
        ),
        "the attribute command": ({"before": HELPER + "attribute [aesop unsafe 50% apply] zz\n\n"}, "G3", "attribute"),
        "an Aesop rule name": ({"before": "@[aesop safe apply (rule_sets := [Aesop.Zz])]\n" + HELPER}, "G3", "Aesop"),
    },
    "Mathlib aesop macros": {
        "an unsafe term in a clause's parentheses": (
            {"proof": "by\n  aesop_graph (add unsafe (unsafe foo))"},
            "G3",
            "unsafe",
        ),
        "an unsafe term after aesop_mat": ({"proof": "by\n  aesop_mat\n  exact unsafe foo"}, "G3", "unsafe"),
        "an add clause of a macro not listed": ({"proof": "by\n  aesop_zz (add unsafe foo)"}, "G3", "unsafe"),
    },
    "grind_pattern scope": {
        "private": ({"before": PATTERN + "private grind_pattern zz => n + 0\n\n"}, "G2", "grind_pattern"),
        "local twice": ({"before": PATTERN + "local local grind_pattern zz => n + 0\n\n"}, "G2", "local"),
        "without a pattern": ({"before": PATTERN + "local grind_pattern zz\n\n"}, "G2", "grind_pattern"),
        "a forbidden constraint": (
            {"before": PATTERN + "local grind_pattern zz => n + 0 where\n  guard native_decide\n\n"},
            "G3",
            "native_decide",
        ),
        "inside a proof": ({"proof": "by\n  local grind_pattern zz => n + 0\n  simp"}, "G2", "grind_pattern"),
        "local notation stays deferred": ({"before": 'local notation "zz" => 1\n\n'}, "G2", "notation"),
    },
    "term-mode if": {
        "a tactic if's then branch": (
            {"proof": "by\n  if h : 1 = 1 then\n    simp (maxSteps := zz)\n  else\n    simp"},
            "G3",
            "maxSteps",
        ),
        "a tactic if on one line": (
            {"proof": "by\n  if h : 1 = 1 then simp (maxSteps := zz) else simp"},
            "G3",
            "maxSteps",
        ),
        "a tactic if's else branch": (
            {"proof": "by\n  if h : 1 = 1 then simp else simp (maxSteps := zz)"},
            "G3",
            "maxSteps",
        ),
        "a tactic else if": (
            {"proof": "by\n  if h : 1 = 1 then simp else if h2 : 2 = 2 then simp (maxSteps := zz) else simp"},
            "G3",
            "maxSteps",
        ),
        "a by block in a term if's branch": (
            {"proof": "by\n  exact if h : 1 = 1 then by simp (maxSteps := zz) else by simp"},
            "G3",
            "maxSteps",
        ),
        "a tactic if in parentheses": (
            {"proof": "by\n  (if h : 1 = 1 then simp (maxSteps := zz) else simp)"},
            "G3",
            "maxSteps",
        ),
        "after a tactic combinator": (
            {"proof": "by\n  first | if h : 1 = 1 then simp (maxSteps := zz) else simp | simp"},
            "G3",
            "maxSteps",
        ),
        "trace in a tactic if": ({"proof": "by\n  if h : 1 = 1 then trace zz else simp"}, "G3", "trace e"),
        "an if past the walk": (
            {"proof": "by\n  if h : 1 = 1 then simp else\n" + "    skip\n" * 300 + "    simp (maxSteps := zz)"},
            "G3",
            "maxSteps",
        ),
    },
    "term-mode match": {
        "a tactic match's arm": (
            {"proof": "by\n  match h : (1 : ℕ) with\n  | 0 => simp (maxSteps := zz)\n  | _ => simp"},
            "G3",
            "maxSteps",
        ),
        "a tactic match's second arm": (
            {"proof": "by\n  match h : (1 : ℕ) with\n  | 0 => simp\n  | _ => simp (maxSteps := zz)"},
            "G3",
            "maxSteps",
        ),
        "a cases alternative": (
            {"proof": "by\n  cases h with\n  | inl h => simp (maxSteps := zz)\n  | inr h => simp"},
            "G3",
            "maxSteps",
        ),
        "induction alternatives after a match left open on the line before": (
            {"proof": "by\n  exact match a\n  induction n with\n  | zero => simp (maxSteps := zz)"},
            "G3",
            "maxSteps",
        ),
        "first's alternatives after a term match": (
            {
                "proof": "by\n  have := match 1 with | 0 => 1 | _ => 2\n"
                "  first\n  | simp\n  | conv => simp (maxSteps := zz)"
            },
            "G3",
            "maxSteps",
        ),
        "conv after a term match": (
            {"proof": "by\n  have := match 1 with | 0 => 1 | _ => 2\n  conv => simp (maxSteps := zz)"},
            "G3",
            "maxSteps",
        ),
        "a by block in a term arm": (
            {"before": NAMED + MATCH + "  | 0 => by simp (maxSteps := zz)\n  | _ => 2\n\n"},
            "G3",
            "maxSteps",
        ),
        "intro's alternatives": (
            {"proof": "by\n  intro\n  | 0 => simp (maxSteps := zz)\n  | _ => simp"},
            "G3",
            "maxSteps",
        ),
        "a tactic after a term match's arms": (
            {"proof": "by\n  refine match 1 with\n  | 0 => ?_\n  | _ => ?_\n  all_goals simp (maxSteps := zz)"},
            "G3",
            "maxSteps",
        ),
    },
    "term-mode let": {
        "a tactic let": ({"proof": "by\n  let x := 1; simp (maxSteps := zz)"}, "G3", "maxSteps"),
        "a tactic have": ({"proof": "by\n  have h : True := trivial; simp (maxSteps := zz)"}, "G3", "maxSteps"),
        "a have proved by a tactic": (
            {"proof": "by\n  have h : True := by trivial; simp (maxSteps := zz)"},
            "G3",
            "maxSteps",
        ),
        "set ... with": ({"proof": "by\n  set x := 1 with hx; simp (maxSteps := zz)"}, "G3", "maxSteps"),
        "a let on the line before": ({"proof": "by\n  exact let b := 1\n  ; simp (maxSteps := zz)"}, "G3", "maxSteps"),
        "a by block as a term let's body": (
            {"before": NAMED + "def gg (a : ℕ) : ℕ := let b := a; by simp (maxSteps := zz)\n\n"},
            "G3",
            "maxSteps",
        ),
        "a tactic let in parentheses": ({"proof": "by\n  (let x := 1; simp (maxSteps := zz))"}, "G3", "maxSteps"),
        "obtain": ({"proof": "by\n  obtain ⟨a, b⟩ := h; simp (maxSteps := zz)"}, "G3", "maxSteps"),
    },
}


def _cases(table: Mapping[str, Mapping[str, Any]]) -> list[Any]:
    """Every case of the table as ``class: case``; each class's first runs in CI, the rest under -m slow."""
    flat = {f"{group}: {name}": case for group, by_name in table.items() for name, case in by_name.items()}
    return sampled(flat, {f"{group}: {next(iter(by_name))}" for group, by_name in table.items()})


def honest_and_refused(valid: Mapping[str, Mapping[str, Edit]], refused: Mapping[str, Mapping[str, Any]]) -> list[Any]:
    """An honest table and a refused one (``(edit, gate, word)`` cases) as one list of ``(edit, gate, word)``
    parameters, the honest ones with no gate, sampled as :func:`_cases`."""
    return _cases(
        {
            **{
                f"honest, {group}": {name: (edit, "", "") for name, edit in by_name.items()}
                for group, by_name in valid.items()
            },
            **{f"refused, {group}": by_name for group, by_name in refused.items()},
        }
    )


def assert_verdict(bench: Benchmark, edit: Edit, gate: str, word: str) -> None:
    """An honest case (no ``gate``) passes G2 and G3; a near-twin fails ``gate`` with ``word`` in its reason."""
    found = _verdict(bench, edit)
    assert (word in found.get(gate, "")) if gate else not found, found


@pytest.mark.parametrize("edit", _cases(VALID))
def test_honest_proofs_pass_the_text_gates(lean_putnambench: Benchmark, edit: Edit) -> None:
    assert _verdict(lean_putnambench, edit) == {}


@pytest.mark.parametrize(("edit", "gate", "word"), _cases(REFUSED))
def test_the_bypasses_stay_refused(lean_putnambench: Benchmark, edit: Edit, gate: str, word: str) -> None:
    assert word in _verdict(lean_putnambench, edit).get(gate, "")
