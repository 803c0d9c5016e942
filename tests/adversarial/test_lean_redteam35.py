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

SIMPROC = "cbv_simproc zzP (Nat.succ _) := fun e => pure (.visit { expr := e })"
"""Core's ``cbv_simproc`` command (src/Init/CbvSimproc.lean): a procedure the ``cbv`` tactic runs."""

PLACES = {
    # name: (helpers, proof, whether Lean begins a command in them)
    "a simproc at a tactic's place in the proof": ("", f"by\n  simp\n  {SIMPROC}", True),
    "an attribute registered in a helper's tactic block": (
        "theorem zz : True := by\n  trivial\n  register_grind_attr zz_grind\n\n",
        "by\n  simp",
        True,
    ),
    "a config elaborator among a structure's fields": (
        _structure("declare_core_config_elab zzElab Nat.le"),
        "by\n  simp",
        True,
    ),
    "a definition among where declarations": (
        "",
        "by\n  simp\nwhere\n  zz : ℕ := 1\n  declare_eval_bin zzE (· + ·)",
        True,
    ),
    "an attribute registered in a decreasing_by block": (
        "def zzf : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => zzf n\ndecreasing_by\n  simp\n  register_sym_simp_attr zz_sym\n\n",
        "by\n  simp",
        True,
    ),
    "an option set unchecked before a library command": (
        "theorem zz : True := by\n  trivial\n  sudo set_option pp.all true in\n  zz_library_command 1\n\n",
        "by\n  simp",
        True,
    ),
    "honest: the cbv tactic": ("", "by\n  cbv", False),
    "honest: an option in a tactic block": ("", "by\n  set_option maxHeartbeats 400000 in\n  simp", False),
    "honest: a field and a helper named after a command": (
        _structure("cbv : ℕ") + "theorem zz_cbv_simproc : True := trivial\n\n",
        "by\n  simp",
        False,
    ),
    "honest: a where declaration": ("", "by\n  simp\nwhere\n  zz : ℕ := 1\n  zzE : ℕ := zz + 1", False),
}


IN_CI = {"a simproc at a tactic's place in the proof", "honest: the cbv tactic"}


@pytest.mark.parametrize(("before", "proof", "command"), sampled(PLACES, IN_CI))
def test_a_prefixed_command_keyword_ends_the_body(
    lean_putnambench: Benchmark, before: str, proof: str, command: bool
) -> None:
    found = _found(lean_putnambench, before, proof)
    assert "starts a new command" in found.get("G2", "") if command else found == {}


@pytest.mark.parametrize("word", sampled({w: w for w in sorted(MORE_COMMANDS)}, {"register_tag_attr"}))
def test_every_added_keyword_is_a_command_at_a_tactic_place(lean_putnambench: Benchmark, word: str) -> None:
    assert f"`{word}`: starts a new command" in _found(lean_putnambench, "", f"by\n  simp\n  {word} zz").get("G2", "")
