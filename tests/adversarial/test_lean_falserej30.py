"""False rejections of honest Lean proofs by the text gate G3, round 30, and the bypasses
around each relaxed spot, on the red team 22 problem (text profile).

* ``fun | p => f (x := a)``: a ``fun``'s (or ``λ``'s) alternatives were read as tactics, so a named argument
  there was refused as a configuration item; their right-hand sides are terms (``_match_arms``).
* An ``if .. then .. else if ..`` chain longer than 64 links: the walk back from a branch to its ``if`` gave
  up after 64 steps and read the branch as a tactic's place. The walk now has no bound: each place it passes
  is judged once (memoised), so any length costs linear work; a tactic ``if`` at any depth stays a tactic's.
* ``match a\\n  with``, discriminants over two lines, ``| 0\\n  | 1 => rhs``: the arm walk wanted ``with`` and
  ``match`` on one line and one pattern per ``|``. It now follows Lean's columns (``matchAlts``: each ``|`` at or
  right of the first), which also ends a bypass it had: an arm was given to the nearest ``match`` back even
  where a ``|`` left of that match's alternatives belongs to an enclosing ``intro`` (a tactic), or where an
  earlier arm's ``by`` block holds alternatives of its own.
* ``apply Aesop.BuiltinRules.not_intro`` (a lemma; DSP+'s published miniF2F proofs use it): G3 refused every
  name of the ``Aesop`` namespace, since Aesop runs a rule whose declaration has one of its rule types (red
  team 28). Only a rule reaches that, so the names stay refused in a file that adds rules (an ``(add ...)``
  clause, an ``@[aesop]`` attribute, ``add_aesop_rules``, ``attribute``) and are free elsewhere; the namespace
  itself (``open Aesop``, whose scoped extensions were not read) stays refused.

The refused tactic places use ``trace zz`` and ``noncomm_ring (maxSteps := zz)``, which only the place decides
(neither word is in ``_evaluated.CONFIG_TACTICS``). One case of each class runs in CI; the others are slow.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_falserej29 import _cases
from tests.adversarial.test_lean_redteam22_g2g3 import Edit, _verdict

NAMED = "def ff (x : ℕ := 0) (y : ℕ) : ℕ := x + y\n"
RUN = "noncomm_ring (maxSteps := zz)"


def _chain(links: int, last: str) -> str:
    """An ``if`` chain of ``links`` ``else if`` links on lines of their own, ending in ``last``."""
    return "".join(f"  if a = {i} then ff (x := a) {i}\n  else " for i in range(links)) + last


VALID: dict[str, dict[str, Edit]] = {
    "fun alternatives": {
        "on lines of their own": {
            "before": NAMED + "def gg : ℕ → ℕ := fun\n  | 0 => 1\n  | n + 1 => ff (x := n) 1\n\n"
        },
        "after exact": {
            "before": NAMED + "theorem gg : ℕ → ℕ := by\n  exact fun\n    | 0 => 1\n    | n => ff (x := n) 1\n\n"
        },
        "a have's value": {
            "before": NAMED
            + "theorem gg : True := by\n  have h : ℕ → ℕ := fun\n    | 0 => 1\n    | n => ff (x := n) 1\n  trivial\n\n"
        },
        "on one line": {"before": NAMED + "def gg : ℕ → ℕ := fun | 0 => 1 | n + 1 => ff (x := n) 1\n\n"},
        "λ": {"before": NAMED + "def gg : ℕ → ℕ := λ\n  | 0 => 1\n  | n + 1 => ff (x := n) 1\n\n"},
        "the right-hand side on the next line": {
            "before": NAMED + "def gg : ℕ → ℕ := fun\n  | 0 => 1\n  | n + 1 =>\n    ff (x := n) 1\n\n"
        },
    },
    "long if chains": {
        "70 links on lines": {"before": NAMED + "def gg (a : ℕ) : ℕ :=\n" + _chain(70, "ff (x := a) 0\n\n")},
        "70 links on one line": {
            "before": NAMED
            + "def gg (a : ℕ) : ℕ :=\n  "
            + "".join(f"if a = {i} then {i} else " for i in range(70))
            + "ff (x := a) 0\n\n"
        },
        "300 links": {"before": NAMED + "def gg (a : ℕ) : ℕ :=\n" + _chain(300, "ff (x := a) 0\n\n")},
    },
    "match layout": {
        "with on the next line": {
            "before": NAMED + "def gg (a : ℕ) : ℕ := match a\n  with\n  | 0 => ff (x := a) 1\n  | _ => 2\n\n"
        },
        "two patterns on two lines": {
            "before": NAMED + "def gg (a : ℕ) : ℕ := match a with\n  | 0\n  | 1 => ff (x := a) 1\n  | _ => 2\n\n"
        },
        "two patterns on one line": {
            "before": NAMED + "def gg (a : ℕ) : ℕ := match a with\n  | 0 | 1 => ff (x := a) 1\n  | _ => 2\n\n"
        },
        "discriminants on two lines": {
            "before": NAMED
            + "def gg (a b : ℕ) : ℕ := match a,\n    b with\n  | 0, _ => ff (x := a) 1\n  | _, _ => 2\n\n"
        },
        "after a nested match": {
            "before": NAMED + "def gg (a b : ℕ) : ℕ := match a with\n  | 0 => match b with\n    | 0 => 1\n"
            "    | _ => 2\n  | _ => ff (x := a) 2\n\n"
        },
        "after an arm's by block": {
            "before": NAMED + "def gg (a : ℕ) : ℕ := match a with\n  | 0 => by\n    exact 1\n  | _ => ff (x := a) 2\n\n"
        },
        "after an arm over two lines": {
            "before": NAMED + "def gg (a b : ℕ) : ℕ := match a, b with\n  | 0, _ =>\n    let c := a\n    c + 1\n"
            "  | _, _ => ff (x := a) 2\n\n"
        },
        "200 arms": {
            "before": NAMED
            + "def gg (a : ℕ) : ℕ := match a with\n"
            + "".join(f"  | {i} => ff (x := a) {i}\n" for i in range(200))
            + "  | _ => 2\n\n"
        },
    },
    "Aesop lemmas as terms": {
        "apply": {"proof": "by\n  apply Aesop.BuiltinRules.not_intro\n  intro h\n  simp at h"},
        "exact": {"proof": "by\n  exact Aesop.BuiltinRules.not_intro fun h => h"},
        "beside aesop without clauses": {"proof": "by\n  apply Aesop.BuiltinRules.not_intro\n  aesop"},
        "beside an erase clause": {"proof": "by\n  apply Aesop.BuiltinRules.not_intro\n  aesop (erase Nat.le_refl)"},
        "in a helper's proof": {
            "before": "theorem zz (P : Prop) (h : P → False) : ¬ P := by\n"
            "  apply Aesop.BuiltinRules.not_intro\n  exact h\n\n"
        },
    },
}
REFUSED: dict[str, dict[str, tuple[Edit, str]]] = {
    # class: case: (edit, the words of G3's refusal)
    "fun alternatives": {
        "intro's alternative left of a fun's": (
            {"proof": "by\n  intro\n  | 0 => exact fun\n    | 0 => 1\n  | _ => trace zz"},
            "trace e",
        ),
        "a by block in a fun's arm": (
            {"proof": "by\n  exact fun\n    | 0 => by trace zz\n    | _ => 2"},
            "trace e",
        ),
        "intro's alternatives in a fun arm's by block": (
            {"proof": "by\n  exact fun | 0 => by intro | 0 => trivial | _ => trace zz"},
            "trace e",
        ),
        "intro after the fun's alternatives end": (
            {"proof": "by\n  exact fun\n    | 0 => 1\n  intro | 1 => trace zz"},
            "trace e",
        ),
        "intro's own alternatives": ({"proof": f"by\n  intro\n  | 0 => {RUN}\n  | _ => simp"}, "maxSteps"),
        "a tactic after a fun": (
            {"proof": "by\n  have := fun | 0 => 1 | _ => 2\n  first\n  | simp\n  | trace zz"},
            "trace e",
        ),
    },
    "long if chains": {
        "a tactic if chain of 300 links": (
            {"proof": "by\n  " + "".join(f"if h{i} : {i} = {i} then simp else " for i in range(300)) + "trace zz"},
            "trace e",
        ),
        "a by block after a term chain": (
            {
                "proof": "by\n  exact "
                + "".join(f"if h{i} : {i} = {i} then {i} else " for i in range(300))
                + "by trace zz"
            },
            "trace e",
        ),
    },
    "match layout": {
        "intro's alternative left of a term match's": (
            {"proof": "by\n  intro\n  | 0 => exact match 1 with\n    | 0 => 1\n  | _ => " + RUN},
            "maxSteps",
        ),
        "intro after a term match's alternatives end": (
            {"proof": "by\n  exact match a with\n    | 0 => 1\n  intro | 1 => trace zz"},
            "trace e",
        ),
        "intro's alternatives in an arm's by block": (
            {"proof": "by\n  exact match a with | 0 => by intro | 0 => trivial | _ => trace zz"},
            "trace e",
        ),
        "intro's alternative in an arm's by block on the next lines": (
            {"proof": "by\n  exact match a with\n  | 0 => by\n  intro\n  | _ => trace zz"},
            "trace e",
        ),
        "a tactic match with with on the next line": (
            {"proof": "by\n  match h\n    with\n  | 0 => trace zz\n  | _ => simp"},
            "trace e",
        ),
        "a tactic match's two patterns": (
            {"proof": "by\n  match h with\n  | 0\n  | 1 => trace zz\n  | _ => simp"},
            "trace e",
        ),
        "a tactic match's discriminants on two lines": (
            {"proof": "by\n  match a,\n    b with\n  | 0, _ => trace zz\n  | _, _ => simp"},
            "trace e",
        ),
        "induction alternatives under a match left open": (
            {"proof": "by\n  exact match a\n  induction n with\n  | zero => trace zz"},
            "trace e",
        ),
    },
    "Aesop lemmas as terms": {
        "beside an add clause": (
            {"proof": "by\n  apply Aesop.BuiltinRules.not_intro\n  aesop (add safe Nat.le_refl)"},
            "`Aesop` namespace",
        ),
        "a rule type added by a clause": (
            {"before": "def zzTac : Aesop.RuleTac := fun _ => failure\n\n", "proof": "by\n  aesop (add safe zzTac)"},
            "`Aesop` namespace",
        ),
        "a rule type added by the attribute": (
            {"before": "@[simp, aesop safe] def zzTac : Aesop.RuleTac := fun _ => failure\n\n"},
            "`Aesop` namespace",
        ),
        "a rule type added by add_aesop_rules": (
            {"before": "def zzTac : Aesop.RuleTac := fun _ => failure\n\nadd_aesop_rules safe zzTac\n\n"},
            "`Aesop` namespace",
        ),
        "a where declaration added by a clause": (
            {"proof": "by\n  aesop (add safe zzTac)\nwhere zzTac : Aesop.RuleTac := fun _ => failure"},
            "`Aesop` namespace",
        ),
        "open Aesop in a file without rules": (
            {"before": "open Aesop in\ntheorem zz : True := trivial\n\n"},
            "`Aesop` namespace",
        ),
        "open Aesop in, added by aesop_cat": (
            {
                "before": "open Aesop in\ndef zzTac : SingleRuleTac := fun _ => failure\n\n",
                "proof": "by\n  aesop_cat (add safe zzTac)",
            },
            "`Aesop` namespace",
        ),
    },
}


@pytest.mark.parametrize("edit", _cases(VALID))
def test_honest_proofs_pass_the_text_gates(lean_putnambench: Benchmark, edit: Edit) -> None:
    assert _verdict(lean_putnambench, edit) == {}


@pytest.mark.parametrize(("edit", "word"), _cases(REFUSED))
def test_tactic_places_stay_refused_by_g3(lean_putnambench: Benchmark, edit: Edit, word: str) -> None:
    assert word in _verdict(lean_putnambench, edit).get("G3", "")
