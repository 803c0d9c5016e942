"""Red team 35b (Lean, G2 on the text profile): a library command after an inductive's constructors or a
declaration's match alternatives.

Found and fixed (7 of the 8 attacks below passed the text profile): a word the keyword lists do not hold (a
made-up ``zz_library_command``, standing for any library's command) on a line after the last constructor of an
``inductive`` or the last alternative of a definition by pattern matching (or of a ``match`` that is its whole
value), at or left of the first ``|``, or among the ``where`` declarations after such alternatives (after a doc
comment there the splitter already ends the command). Lean ends the command there (``many ctor``,
src/Lean/Parser/Command.lean; ``matchAlts`` and ``matchAltsWhereDecls``, src/Lean/Parser/Term.lean) and reads the
word as a command if a library made it one; the splitter read it as more of the command. G2 now refuses such a
line by its shape (``_alternative_shapes``), whatever the word, as round 35 did for fields and ``where``
declarations; ``where`` after alternatives is now judged as after a value. Measured on the 1464 Lean texts of the
conformance corpora (65 commands with alternatives judged), the pinned statements and the verdict snapshot: no
verdict changed.

Left to the keyword list: a word right of the first ``|`` (an argument of the last right-hand side for Lean
unless it is a keyword), and alternatives in a tactic's place (the next line is a tactic). ``let rec`` needs no
rule: its body must follow its declarations, so the word there is that body.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam34 import _found
from tests.helpers import sampled

NO_ALTERNATIVE = "neither a constructor or match alternative"
NO_MEMBER = "neither a field or `where` declaration"
WORD = "zz_library_command 1"
INDUCTIVE = "inductive ZzT where\n  | a : ZzT\n  | b : ℕ → ZzT\n"
ARMS = "def zzf : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => zzf n\n"
MATCH = "def zzm (n : ℕ) : ℕ := match n with\n  | 0 => 0\n  | k + 1 => k\n"

CASES = {
    # name: (helpers, what G2 says; nothing for an honest twin)
    "a word after an inductive's constructors": (f"{INDUCTIVE}  {WORD}\n\n", NO_ALTERNATIVE),
    "a word left of the first constructor": (f"inductive ZzT where | a : ZzT\n  {WORD}\n\n", NO_ALTERNATIVE),
    "a documented word after the constructors": (f"{INDUCTIVE}  /-- d -/ {WORD}\n\n", "`zz_library_command 1`"),
    "a word after a definition's alternatives": (f"{ARMS}  {WORD}\n\n", NO_ALTERNATIVE),
    "a word after a theorem's alternatives": (
        f"theorem zzt : ∀ n : ℕ, n = n\n  | 0 => rfl\n  | _ + 1 => rfl\n  {WORD}\n\n",
        NO_ALTERNATIVE,
    ),
    "a word after a match that is the whole value": (f"{MATCH}  {WORD}\n\n", NO_ALTERNATIVE),
    "a word after a multi-line right-hand side": (
        f"def zzf : ℕ → ℕ\n  | 0 => 0\n  | n + 1 =>\n    zzf\n      n\n  {WORD}\n\n",
        NO_ALTERNATIVE,
    ),
    "a word among where declarations after alternatives": (
        f"{ARMS.replace('zzf n', 'zzg n')}where\n  zzg : ℕ → ℕ := id\n  {WORD}\n\n",
        NO_MEMBER,
    ),
    "honest: constructors over several lines, documented, then deriving": (
        "/-- t -/\ninductive ZzT : Type where\n  /-- a -/\n  | a : ZzT\n  -- b\n  | b (x : ℕ)\n      (y : ℕ) : ZzT\n"
        "  | c : ℕ →\n    ℕ → ZzT\n  | d : List\n      ℕ → ZzT\n  deriving Repr, DecidableEq\n\n",
        "",
    ),
    "honest: constructors on one line": ("inductive ZzT | a | b\n  deriving Repr\n\n", ""),
    "honest: alternatives with bodies, nested matches, termination and a where helper": (
        "def zzf : ℕ → ℕ\n  -- base\n  | 0 => 0\n  | 1 =>\n    match 1 with\n    | 0 => 1\n    | k + 1 =>\n"
        "      zzg k\n  /- between -/\n  | n + 2 => zzf n\ntermination_by n => n\ndecreasing_by all_goals omega\n"
        "where\n  zzg : ℕ → ℕ\n  | 0 => 0\n  | k + 1 => k\n\n",
        "",
    ),
    "honest: a match value with a let rec body and a type with absolute values": (
        "def zzm (n : ℕ) : ℕ := match n with\n  | 0 =>\n    let rec go : ℕ → ℕ\n      | 0 => 0\n      | k + 1 => go k\n"
        "    go 5\n  | k + 1 => k\n\ntheorem zzabs (x : ℤ) :\n    |x| = |x| := rfl\n\n",
        "",
    ),
    "honest: alternatives in a tactic block before a tactic": (
        "theorem zzc (h : True ∨ True) : True := by\n  cases h with\n  | inl h => exact h\n  | inr h => exact h\n\n"
        "theorem zzd (n : ℕ) : n = n := by\n  exact match n with\n  | 0 => rfl\n  | _ + 1 => rfl\n\n",
        "",
    ),
}

IN_CI = {
    "a word after an inductive's constructors",
    "honest: alternatives with bodies, nested matches, termination and a where helper",
}


@pytest.mark.parametrize(("before", "said"), sampled(CASES, IN_CI))
def test_a_word_where_constructors_or_alternatives_end_is_refused(
    lean_putnambench: Benchmark, before: str, said: str
) -> None:
    found = _found(lean_putnambench, before)
    assert said in found.get("G2", "") if said else found == {}
