"""Red team 35, sweep (Lean, G2 on the text profile): command keywords of the import closure no list held.

Every ``: command`` syntax of Mathlib, Batteries, Aesop, Qq, ProofWidgets, Plausible, LeanSearchClient and
ImportGraph was read (the first atom after any optional parser, multi-line syntaxes and ``@[command_parser]``
definitions included) and compared with the gates' lists: none was missing there. Core's were read from
its command parsers and from other projects' keyword inventories, each word confirmed in core's source.
Six were missing, and each passed the text profile indented at a tactic's place, where Lean ends the
proof and runs the command (src/Lean/Parser/Module.lean, ``parseCommand``): core's
``declare_eval_bin_bitwise`` and ``declare_eval_bin_bool_pred`` (plain macros to a ``def``, beside
``declare_eval_bin``), ``set_library_suggestions`` (a builtin command that defines the ``meta`` premise
selector later tactics run), ``reprove`` and the deprecated ``declare_config_elab_legacy`` and
``declare_command_config_elab_legacy``. They are in ``_more_commands.MORE_COMMANDS`` now, cited there.

Checked and left out, since ``import Mathlib`` cannot make them active at a tactic's place: ``scoped``
commands (core's ``ensure_eval_expr_instance``, ``ensure_eval_term_instance``,
``derive_eval_expr_instance_using_meta_eval``, ``postprocess_traces``, ``wait_for_cancel_once_command``:
they need an ``open`` of a ``Lean.`` namespace, which G3 refuses), ``local`` ones (core's
``make_elab_grind_config``, ``gen_cnstr_fns``; Mathlib's ``stop_at_first_error``), ones outside the
library (Mathlib's tests' ``flex?``, Counterexamples' ``guard_decl``) and Lake's configuration language.
``run_tac`` is a tactic (Mathlib/NumberTheory/Bertrand.lean uses it in a proof), never a command.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam34 import _found
from tests.adversarial.test_lean_redteam35 import NEW_COMMAND
from tests.helpers import sampled

PLACES = {
    # name: (helpers, proof, what G2 says where Lean begins a command; nothing for an honest twin)
    "core: a bitwise evaluator defined at a tactic's place": (
        "",
        "by\n  simp\n  declare_eval_bin_bitwise zzAnd (· &&& ·)",
        "`declare_eval_bin_bitwise`: " + NEW_COMMAND,
    ),
    "core: a predicate evaluator defined in a helper's tactic block": (
        "theorem zz : True := by\n  trivial\n  declare_eval_bin_bool_pred zzLt (· < ·)\n\n",
        "by\n  simp",
        "`declare_eval_bin_bool_pred`: " + NEW_COMMAND,
    ),
    "core: a premise selector set at a tactic's place": (
        "",
        "by\n  simp\n  set_library_suggestions (fun _ _ => pure #[])",
        "`set_library_suggestions`: " + NEW_COMMAND,
    ),
    "core: declarations reproved by a tactic at a tactic's place": (
        "",
        "by\n  simp\n  reprove Nat.add_comm by omega",
        "`reprove`: " + NEW_COMMAND,
    ),
    "core: a legacy configuration elaborator in a helper's tactic block": (
        "theorem zz : True := by\n  trivial\n  declare_config_elab_legacy zzElab Nat\n\n",
        "by\n  simp",
        "`declare_config_elab_legacy`: " + NEW_COMMAND,
    ),
    "core: a legacy command configuration elaborator at a tactic's place": (
        "",
        "by\n  simp\n  declare_command_config_elab_legacy zzElab Nat",
        "`declare_command_config_elab_legacy`: " + NEW_COMMAND,
    ),
    "honest: names holding the words": (
        "theorem set_library_suggestions_zz : True := trivial\n\n"
        "theorem zz_declare_eval_bin_bitwise : True := set_library_suggestions_zz\n\n",
        "by\n  have declare_eval_bin_bool_pred' : True := zz_declare_eval_bin_bitwise\n  simp",
        "",
    ),
}

IN_CI = {"core: a bitwise evaluator defined at a tactic's place", "honest: names holding the words"}


@pytest.mark.parametrize(("before", "proof", "said"), sampled(PLACES, IN_CI))
def test_a_swept_command_word_in_a_proof_is_refused(
    lean_putnambench: Benchmark, before: str, proof: str, said: str
) -> None:
    found = _found(lean_putnambench, before, proof)
    assert said in found.get("G2", "") if said else found == {}
