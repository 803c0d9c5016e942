"""Red team 35 (Lean, G2 on the text profile): library commands whose keyword follows an optional parser.

Found and fixed (each passed the text profile): a real command keyword of the import closure that no list
held, indented where the gates read a tactic, a structure field or a ``where`` declaration. Lean ends the
command before a command keyword at any column and runs it (src/Lean/Parser/Module.lean, ``parseCommand``);
the gates read it as more of the body. Round 30 read every ``: command`` syntax by its leading string, which
misses those whose keyword follows an optional parser: core's ``syntax (docComment)? attrKind "cbv_simproc "
...`` (src/Init/CbvSimproc.lean: a ``meta def`` the ``cbv`` tactic runs), ``macro ... doc:(docComment)?
"register_grind_attr" ...`` (src/Lean/Meta/Tactic/Grind/RegisterCommand.lean: an ``initialize`` and four
attribute syntaxes), the ``Lean.Elab.ConfigEval`` commands (``(docComment)? (visibility)? attrKind
"def_eval_config_item "``), Mathlib's ``register_tag_attr``; and a few plain ones (core's
``declare_eval_bin``, ``declare_uint_simprocs``, Mathlib's ``sudo set_option``). They are command keywords
now (``_more_commands.MORE_COMMANDS``, each cited there), so G2 reports one wherever it stands.

The list cannot be complete, so where members stand the class is judged by shape too: Lean reads a
structure's fields and a ``where`` clause's declarations while each line at the first member's column is
a member (``manyIndent``/``sepByIndent``: ``checkColGe``), and ends them at a word that is none; G2 now
refuses such a line (``_member_shapes``), whatever the word: a field is a name right after which ``:``,
``:=``, ``::`` or a binder comes, a declaration a name, binders, then ``:``, ``:=`` or ``|``. Measured on
every Lean proof of the conformance corpora and the verdict snapshot: no verdict changed. A tactic's place
has no such shape and stays with the keyword list.

Checked and sound: lexing of char literals holding a quote (``'"'``, ``'\\"'``, ``'\\x22'``), raw strings with
hashes, interpolations holding a string, a char or a comment with braces, nested comments in doc comments,
an identifier with a prime before ``/-``: an ``axiom`` line after each is still seen; ``variable``,
``universe``, an unmatched ``end``, ``open ... in`` chains, ``open scoped``, ``export``, ``include``,
``omit``, ``local notation`` and ``attribute [local instance]`` before the theorem stay refused.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._more_commands import MORE_COMMANDS
from tests.adversarial.test_lean_redteam34 import _found, _structure
from tests.helpers import sampled

NEW_COMMAND = "starts a new command"
NO_MEMBER = "neither a field or `where` declaration"
SIMPROC = "cbv_simproc zzP (Nat.succ _) := fun e => pure (.visit { expr := e })"
"""Core's ``cbv_simproc`` command (src/Init/CbvSimproc.lean): a procedure the ``cbv`` tactic runs."""

PLACES = {
    # name: (helpers, proof, what G2 says where Lean begins a command; nothing for an honest twin)
    "a simproc at a tactic's place in the proof": ("", f"by\n  simp\n  {SIMPROC}", NEW_COMMAND),
    "an attribute registered in a helper's tactic block": (
        "theorem zz : True := by\n  trivial\n  register_grind_attr zz_grind\n\n",
        "by\n  simp",
        NEW_COMMAND,
    ),
    "a config elaborator among a structure's fields": (
        _structure("declare_core_config_elab zzElab Nat.le"),
        "by\n  simp",
        NEW_COMMAND,
    ),
    "a definition among where declarations": (
        "",
        "by\n  simp\nwhere\n  zz : ℕ := 1\n  declare_eval_bin zzE (· + ·)",
        NEW_COMMAND,
    ),
    "an attribute registered in a decreasing_by block": (
        "def zzf : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => zzf n\ndecreasing_by\n  simp\n  register_sym_simp_attr zz_sym\n\n",
        "by\n  simp",
        NEW_COMMAND,
    ),
    "an option set unchecked before a library command": (
        "theorem zz : True := by\n  trivial\n  sudo set_option pp.all true in\n  zz_library_command 1\n\n",
        "by\n  simp",
        NEW_COMMAND,
    ),
    "honest: the cbv tactic": ("", "by\n  cbv", ""),
    "honest: an option in a tactic block": ("", "by\n  set_option maxHeartbeats 400000 in\n  simp", ""),
    "honest: a field and a helper named after a command": (
        _structure("cbv : ℕ") + "theorem zz_cbv_simproc : True := trivial\n\n",
        "by\n  simp",
        "",
    ),
    "honest: a where declaration": ("", "by\n  simp\nwhere\n  zz : ℕ := 1\n  zzE : ℕ := zz + 1", ""),
}


@pytest.mark.parametrize("word", sampled({w: w for w in sorted(MORE_COMMANDS)}, {"register_tag_attr"}))
def test_every_added_keyword_is_a_command_at_a_tactic_place(lean_putnambench: Benchmark, word: str) -> None:
    assert f"`{word}`: starts a new command" in _found(lean_putnambench, "", f"by\n  simp\n  {word} zz").get("G2", "")


SHAPES = {
    # name: (helpers, proof, what G2 says where a line stands where members do and is none)
    "a word among a structure's fields": (_structure("zz_library_command 1"), "by\n  simp", NO_MEMBER),
    "a word with a name among a class's fields": (
        "class ZzC (α : Type) where\n  op : α → α\n  zz_library_command zzName\n\n",
        "by\n  simp",
        NO_MEMBER,
    ),
    "a word left of the first field": (
        "structure ZzS where x : ℕ\n  zz_library_command zz : True\n\n",
        "by\n  simp",
        NO_MEMBER,
    ),
    "a word among where declarations": (
        "",
        "by\n  simp\nwhere\n  zz : ℕ := 1\n  zz_library_command zz (Nat.succ _) := 1",
        NO_MEMBER,
    ),
    "honest: declarations with bare, implicit and instance binders and alternatives": (
        "",
        "by\n  simp\nwhere\n  zz {α : Type} (x : α) := x\n  zzG n := n + 1\n  zzH [Inhabited ℕ] : ℕ := default\n"
        "  zzF : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => zzF n",
        "",
    ),
    "honest: fields of every shape": (
        "structure ZzS where\n  mk ::\n  x : ℕ\n  (y z : ℕ)\n  {w : ℕ}\n  f : ℕ →\n  ℕ\n"
        "  g : ℕ := 0\nderiving Repr\n\n",
        "by\n  simp",
        "",
    ),
    "honest: a class's field with a bare binder and a default": (
        "class ZzC (α : Type) where\n  op : α → α\n  op2 x : α := op x\n\n",
        "by\n  simp",
        "",
    ),
    "honest: a structure instance's where fields": (
        "def zzI : Inhabited ℕ where\n  default := 1\n\n",
        "by\n  simp",
        "",
    ),
}


IN_CI = {
    "a simproc at a tactic's place in the proof",
    "a word among a structure's fields",
    "honest: the cbv tactic",
    "honest: fields of every shape",
}


@pytest.mark.parametrize(("before", "proof", "said"), sampled(PLACES | SHAPES, IN_CI))
def test_a_command_word_where_a_body_or_its_members_stand_is_refused(
    lean_putnambench: Benchmark, before: str, proof: str, said: str
) -> None:
    found = _found(lean_putnambench, before, proof)
    assert said in found.get("G2", "") if said else found == {}
