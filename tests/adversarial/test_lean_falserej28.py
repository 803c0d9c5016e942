"""False rejections of honest Lean proofs by the text gates (G2, G3), round 28, and the bypasses around
each relaxed spot, on ``putnam_1962_a1`` (text profile).

* ``aesop (add unsafe 50% apply foo)``: Aesop's phase word ``unsafe`` (``_aesop_clauses``) was read as a
  command starting mid-proof (G2) and as the forbidden modifier (G3). Free only inside an ``(add ...)`` or
  ``(erase ...)`` clause of ``aesop``/``aesop?``/``aesop_cat``, outside any nested ``( )`` term.
* ``trace A`` after ``open Matrix``: a function applied in a term's place, not Mathlib's ``trace e`` tactic
  (``_evaluated``); the tactic, where a tactic may stand, must still take a string literal; so must
  ``success_if_fail_with_msg``.
* ``nonrec`` before a helper and core's ``grind_pattern`` command: harmless by meaning (``_policy``,
  ``_grind_attribute``).

One case of each class runs in CI; the others are marked slow.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam22_g2g3 import Edit, _verdict

MATRIX = "open Matrix in\ntheorem zz (A : Matrix (Fin 2) (Fin 2) ℝ) : trace A = trace A := by\n"
PATTERN = "theorem zz (n : ℕ) : n + 0 = n := rfl\n\n"

VALID: dict[str, dict[str, Edit]] = {
    "aesop": {
        "unsafe 50% apply": {"proof": "by\n  aesop (add unsafe 50% apply foo)"},
        "unsafe rule": {"proof": "by\n  aesop (add unsafe foo)"},
        "safe 2 apply": {"proof": "by\n  aesop (add safe 2 apply foo)"},
        "norm simp": {"proof": "by\n  aesop (add norm simp foo)"},
        "rule_sets": {"proof": "by\n  aesop (rule_sets := [-builtin])"},
        "several clauses and lists": {
            "proof": "by\n  aesop (add unsafe 50% apply foo, safe 2 [bar], unsafe 10% [baz]) (erase unsafe qux)"
            " (rule_sets := [-builtin])"
        },
        "aesop?": {"proof": "by\n  aesop? (add unsafe 30% foo)"},
        "aesop_cat": {"proof": "by\n  aesop_cat (add unsafe 20% foo)"},
        "clause on the next line": {"proof": "by\n  aesop\n    (add unsafe 50% apply foo)\n    (add safe bar)"},
        "priority before the phase": {"proof": "by\n  aesop (add 50% unsafe apply foo)"},
        "in a helper's proof": {"before": "theorem zz : True := by\n  aesop (add unsafe 50% apply trivial)\n\n"},
    },
    "trace": {
        "after rw [": {"before": MATRIX + "  rw [show trace A = trace A from rfl]\n\n"},
        "after exact (": {"before": MATRIX + "  exact (rfl : trace A = trace A)\n\n"},
        "after :=": {
            "before": "open Matrix in\ntheorem zz (A : Matrix (Fin 2) (Fin 2) ℝ) : trace A = trace A :=\n  rfl\n\n"
        },
        "as an argument": {"before": MATRIX + "  exact congrArg id (rfl : trace A = trace A)\n\n"},
        "after =": {"before": MATRIX + "  have h : trace A = trace A := rfl\n  exact h\n\n"},
        "a string literal in tactic position": {"proof": 'by\n  trace "checking"\n  simp'},
        "success_if_fail_with_msg with a literal": {"proof": 'by\n  success_if_fail_with_msg "no" simp\n  simp'},
    },
    "helper modifiers and commands": {
        "nonrec def": {"before": "nonrec def zz (n : ℕ) : ℕ := n\n\n"},
        "nonrec theorem": {"before": "nonrec theorem zz : True := trivial\n\n"},
        "private nonrec def": {"before": "private nonrec def zz (n : ℕ) : ℕ := n\n\n"},
        "grind_pattern": {"before": PATTERN + "grind_pattern zz => n + 0\n\n"},
        "grind_pattern with a docstring": {"before": PATTERN + "/-- the pattern -/\ngrind_pattern zz => n + 0\n\n"},
        "grind_pattern with a name": {"before": PATTERN + "grind_pattern [zzp] zz => n + 0\n\n"},
        "grind_pattern after the theorem": {"after": "\n" + PATTERN + "grind_pattern zz => n + 0\n"},
        # red team 20 refused this as an unknown command; read by `grind` only, it cannot change the statement
        "grind_pattern on a library theorem": {"before": "grind_pattern Nat.add_comm => x + y\n\n"},
        # red team 21 refused it as a new kind of declaration: it only keeps `zz` out of its own body
        "nonrec def, red team 21's case": {"before": "nonrec def zz : ℕ := 3\n\n"},
    },
}

REFUSED: dict[str, dict[str, tuple[Edit, str, str]]] = {
    "aesop": {
        "unsafe def after the clause on the same line": (
            {"proof": "by\n  aesop (add unsafe foo) unsafe def zz : False := sorry"},
            "G2",
            "`unsafe`",
        ),
        "unsafe in a term position": ({"proof": "by\n  exact unsafe foo"}, "G3", "unsafe"),
        "unsafe term inside a clause's parentheses": (
            {"proof": "by\n  aesop (add unsafe (unsafe foo))"},
            "G3",
            "unsafe",
        ),
        "an add clause of another tactic": ({"proof": "by\n  simp (add unsafe foo)"}, "G3", "unsafe"),
        "a clause reaching a column-0 unsafe def": (
            {"proof": "by\n  aesop (add unsafe\nunsafe def zz : ℕ := 0\n  foo)"},
            "G3",
            "unsafe",
        ),
        "unsafe in a builder option": (
            {"proof": "by\n  aesop (add unsafe 50% apply (pattern := unsafe foo) bar)"},
            "G3",
            "unsafe",
        ),
        "a clause holding a declaration word": (
            {"proof": "by\n  aesop (add unsafe def zz)"},
            "G3",
            "unsafe",
        ),
        "an Aesop rule tactic stays refused": (
            {"proof": "by\n  aesop (add unsafe 50% tactic Aesop.BuiltinRules.zz)"},
            "G3",
            "Aesop",
        ),
        "unsafe after aesop without a clause": ({"proof": "by\n  aesop\n  exact unsafe foo"}, "G3", "unsafe"),
    },
    "trace": {
        "tactic trace of a name": ({"proof": "by\n  trace zz\n  simp"}, "G3", "trace e"),
        "right after by": ({"proof": "by trace zz"}, "G3", "trace e"),
        "after ;": ({"proof": "by\n  simp; trace zz"}, "G3", "trace e"),
        "after <;>": ({"proof": "by\n  constructor <;> trace zz"}, "G3", "trace e"),
        "after all_goals": ({"proof": "by\n  all_goals trace (zz 1)"}, "G3", "trace e"),
        "in a tactic block in parentheses": ({"proof": "by\n  (trace zz)"}, "G3", "trace e"),
        "after a bullet": ({"proof": "by\n  · trace zz"}, "G3", "trace e"),
        "in a tactic block inside a term": ({"proof": "by\n  exact (by trace zz; simp)"}, "G3", "trace e"),
        "success_if_fail_with_msg of a name": (
            {"proof": "by\n  success_if_fail_with_msg zz simp\n  simp"},
            "G3",
            "trace e",
        ),
        "grind +trace": ({"proof": "by\n  grind +trace"}, "G3", "trace e"),
        "an alternative of first": ({"proof": "by\n  first\n  | trace zz\n  | simp"}, "G3", "trace e"),
        "an induction alternative": (
            {"proof": "by\n  induction n with\n  | zero => trace zz\n  | succ n ih => simp"},
            "G3",
            "trace e",
        ),
        "a by block in a show term": ({"proof": "by\n  exact (show True by trace zz)"}, "G3", "trace e"),
        "a line after a nested block": (
            {"proof": "by\n  have h : True := by\n    trivial\n  trace zz"},
            "G3",
            "trace e",
        ),
        "after classical": ({"proof": "by\n  classical trace zz"}, "G3", "trace e"),
        "a parenthesised term": ({"proof": "by\n  trace (zz)"}, "G3", "trace e"),
        "after an aesop clause": ({"proof": "by\n  aesop (add unsafe 50% apply foo); trace zz"}, "G3", "trace e"),
    },
    "helper modifiers and commands": {
        "partial def": ({"before": "partial def zz (n : ℕ) : ℕ := n\n\n"}, "G2", "`partial`"),
        "unsafe def": ({"before": "unsafe def zz (n : ℕ) : ℕ := n\n\n"}, "G2", "`unsafe`"),
        # round 29 accepts `local grind_pattern` (test_lean_falserej29); another modifier stays refused
        "private grind_pattern": ({"before": PATTERN + "private grind_pattern zz => n + 0\n\n"}, "G2", "grind_pattern"),
        "grind_pattern without a pattern": ({"before": "grind_pattern zz\n\n"}, "G2", "grind_pattern"),
        "grind_pattern with a forbidden constraint": (
            {"before": PATTERN + "grind_pattern zz => n + 0 where\n  guard native_decide\n\n"},
            "G3",
            "native_decide",
        ),
        "a forbidden attribute before grind_pattern": (
            {"before": PATTERN + "@[csimp] grind_pattern zz => n + 0\n\n"},
            "G3",
            "csimp",
        ),
    },
}


def _params(cases: Mapping[str, Mapping[str, object]]) -> list[object]:
    """Every case of every class; all but each class's first are slow."""
    return [
        pytest.param(group, name, id=f"{group}: {name}", marks=[pytest.mark.slow] if n else [])
        for group, by_name in cases.items()
        for n, name in enumerate(by_name)
    ]


@pytest.mark.parametrize(("group", "name"), _params(VALID))
def test_honest_proofs_pass_the_text_gates(lean_putnambench: Benchmark, group: str, name: str) -> None:
    assert _verdict(lean_putnambench, VALID[group][name]) == {}


@pytest.mark.parametrize(("group", "name"), _params(REFUSED))
def test_the_bypasses_around_each_relaxed_spot_stay_refused(lean_putnambench: Benchmark, group: str, name: str) -> None:
    edit, gate, word = REFUSED[group][name]
    found = _verdict(lean_putnambench, edit)
    assert word in found.get(gate, ""), found
