"""Command keywords that a reading of each syntax's first atom misses (red team 35).

A command's keyword need not be the first thing its syntax names: core and Mathlib declare several as
``syntax (docComment)? attrKind "kw" ...`` or ``macro doc:(docComment)? "kw" ...``, so a reading of the
``: command`` syntaxes by their leading string saw an optional parser there and no keyword. A word no list
holds is read as more of the command before it wherever it is indented: at a tactic's place, a structure's
field or a ``where`` declaration. Lean ends the command before it (a command keyword is a token no tactic,
field or term begins with; src/Lean/Parser/Module.lean, ``parseCommand``), then runs it. Each of these was
accepted by the text profile there (``tests/adversarial/test_lean_redteam35.py``):

* ``cbv_simproc``, ``builtin_cbv_simproc``: leanprover/lean4 src/Init/CbvSimproc.lean lines 25 and 33,
  ``syntax (docComment)? attrKind "cbv_simproc " ... ident " (" term ")" " := " term : command``, which
  expands to a ``meta def`` that the ``cbv`` tactic runs and an ``attribute [cbv_simproc]``.
* ``register_grind_attr``: src/Lean/Meta/Tactic/Grind/RegisterCommand.lean lines 12-13, ``macro ...
  doc:(docComment)? "register_grind_attr" id:ident : command``, which expands to an ``initialize`` and four
  ``syntax ... : attr``; ``register_sym_simp_attr`` (src/Lean/Meta/Sym/Simp/RegisterCommand.lean lines
  14-15) and Mathlib's ``register_tag_attr`` (Mathlib/Tactic/TagAttr.lean) have the same shape.
* ``def_eval_config_item``, ``declare_core_config_elab``, ``declare_term_config_elab``: core's
  ``Lean.Elab.ConfigEval`` syntaxes (``syntax (name := declareCoreConfigElab) (docComment)? (visibility)?
  "declare_core_config_elab" ...``), and ``declare_config_getter`` (``Lean.Elab.elabConfigGetter``, ``elab
  ... doc?:(docComment)? "declare_config_getter" ...``): each defines functions, some derive instances.

The same reading missed commands whose syntax is only a keyword and arguments: core's
``declare_uint_simprocs`` and ``declare_sint_simprocs`` (src/Lean/Meta/Tactic/Simp/BuiltinSimprocs/UInt.lean
and SInt.lean, ``macro "declare_uint_simprocs" typeName:ident : command``: a namespace of simplification
procedures) and ``declare_eval_bin`` (core's ``Sym`` arithmetic simprocs, ``macro "declare_eval_bin"
id:ident op:term : command``: a ``def``); Aesop's ``register_aesop_check_option`` (Aesop/Check.lean: an
option registered by ``initialize``); Mathlib's ``sudo`` (Mathlib/Tactic/SudoSetOption.lean, ``sudo
set_option name val``, which "also allows to set undeclared options"). Every module named here is in
``import Mathlib``'s closure, which imports all of ``Lean`` (ImportGraph/Imports.lean: ``import Lean``).

A sweep of every ``: command`` syntax of Mathlib, Batteries, Aesop, Qq, ProofWidgets, Plausible,
LeanSearchClient and ImportGraph, and of core's command syntaxes, found six more, each accepted at a
tactic's place (``tests/adversarial/test_lean_redteam35c.py``): ``declare_eval_bin_bitwise`` and
``declare_eval_bin_bool_pred`` (src/Lean/Meta/Sym/Simp/EvalGround.lean beside ``declare_eval_bin``, ``macro
"declare_eval_bin_bitwise" id:ident op:term : command``: a ``def``); ``set_library_suggestions`` (a
builtin command, src/Lean/LibrarySuggestions/Basic.lean ``elabSetLibrarySuggestions``: it elaborates
``@[library_suggestions] public meta def`` of the term it is given, the premise selector later tactics run;
formerly ``set_premise_selector``); ``reprove`` (core's ``Lean.Elab.Command.elabReprove``, ``syntax (name :=
reprove) "reprove " ident+ " by " tacticSeq : command``: an ``example`` per name); and the deprecated
``declare_config_elab_legacy`` and ``declare_command_config_elab_legacy`` (the ``Lean.Elab.Tactic.Config``
forms ``declare_config_elab`` had before ``Lean.Elab.ConfigEval``, formatted as commands by core's
``Lean.Fmt.fmtDeclareConfigElabLegacy``: they define an elaborator). All six are identifier-like tokens of
core's own ``Std``/``Lean`` token table (the words no ``scoped`` syntax adds).

Later Lean sources expand ``c in d`` (src/Lean/Elab/BuiltinCommand.lean, ``expandInCmd``) into builtin
commands a candidate can write as well: ``push_scope% tk``, ``with_local_scope_restriction%``,
``with_global_scope_restriction%`` and ``pop_scope% tk`` (beside them ``elabWithoutScopeRestriction``, whose
parser ``without_scope_restriction%`` is taken to follow the same naming). At a tactic's place
``push_scope%`` would open a scope that the candidate's next ``end`` closes in place of its own ``section``,
keeping that section's local instance in force at the theorem (tests/adversarial/test_lean_redteam36.py).
No pinned release has them yet (there they fail to parse); they are listed so that a toolchain bump cannot
open the hole unseen. Lean lexes ``push_scope%`` as ``push_scope`` then ``%`` here, as ``simproc_pattern%``.

The list stays incomplete by nature (see ``_commands.COMMAND_ONLY_KEYWORDS``). A scoped command (``scoped
syntax``: active only after an ``open`` of its ``Lean.`` namespace, which G3 refuses) and a ``local`` one
(active in its own file only) need no entry."""

from __future__ import annotations

from typing import Final

MORE_COMMANDS: Final = frozenset(
    {"cbv_simproc", "builtin_cbv_simproc", "register_grind_attr", "register_sym_simp_attr", "register_tag_attr",
     "def_eval_config_item", "declare_core_config_elab", "declare_term_config_elab", "declare_config_getter",
     "declare_uint_simprocs", "declare_sint_simprocs", "declare_eval_bin", "register_aesop_check_option", "sudo",
     "declare_eval_bin_bitwise", "declare_eval_bin_bool_pred", "set_library_suggestions", "reprove",
     "declare_config_elab_legacy", "declare_command_config_elab_legacy", "push_scope", "pop_scope",
     "with_local_scope_restriction", "with_global_scope_restriction", "without_scope_restriction"}
)  # fmt: skip
