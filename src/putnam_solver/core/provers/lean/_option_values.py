"""A global ``set_option NAME false`` for the options whose ``false`` only makes elaboration stricter or
sequential (round 34: Aristotle's generated files open with the first two).

* ``autoImplicit false`` and ``relaxedAutoImplicit false``: Lean reads ``relaxedAutoImplicit`` only where
  ``autoImplicit`` is on (leanprover/lean4 src/Lean/Elab/Term.lean, ``resolveName``, and
  src/Lean/Elab/Level.lean, ``elabLevel``: both behind the context's ``autoBoundImplicit``, which
  ``withAutoBoundImplicit`` sets from ``autoImplicit``). Where the benchmark's ``leanOptions`` already turn
  ``autoImplicit`` off (PutnamBench's), both settings leave the options as they were: harmless. Where it
  is on (Lean's default), ``false`` turns an auto-bound name into an "unknown identifier" error, which
  overload resolution may catch and drop (``Term.observing`` rethrows the auto-bound exception but keeps
  an error as a failed alternative), so the statement could elaborate another way instead of failing:
  left to G6, like the other options that steer elaboration.
* ``Elab.async false``: the theorem's proof is elaborated and kernel-checked in the command's own thread
  instead of a task (src/Lean/Elab/MutualDef.lean, ``elabMutualDef``: ``elabAsync`` only under
  ``Elab.async``; src/Lean/AddDecl.lean, ``addDecl``: ``doAdd`` at once when it is off, the same
  ``addDeclAux`` check either way). The statement is elaborated before that choice, so it is the same.

``true`` stays refused for each: ``autoImplicit true`` in force at the theorem makes an unknown name in the
statement a variable (``_signature_options``); ``Elab.async true`` is what the command line already
chooses when the option is unset, and nothing needs to force it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._helpers import needs_g6
from putnam_solver.core.provers.lean._signature_options import signature_option
from putnam_solver.core.provers.lean.syntax import Command, Statement, normalize_name

STRICT_SETTINGS: Final = {"autoImplicit": "false", "relaxedAutoImplicit": "false", "Elab.async": "false"}
"""Option -> the one value a candidate may set it to globally."""


def strict_setting(command: Command) -> bool:
    """``set_option NAME V`` as a whole command, with ``V`` the value :data:`STRICT_SETTINGS` gives ``NAME``."""
    tokens = command.tokens
    if command.keyword != "set_option" or command.head != 0 or len(tokens) != 3:
        return False
    return STRICT_SETTINGS.get(normalize_name(tokens[1].text)) == tokens[2].text


def strict_violations(command: Command, expected: Statement, semantic: bool) -> list[Violation]:
    """A :func:`strict_setting`: harmless, but for ``autoImplicit``'s pair under a benchmark that leaves
    ``autoImplicit`` on, which only G6 can clear."""
    name = command.tokens[1].text
    if signature_option(name) and expected.auto_bound and not semantic:
        return [Violation(command.line, f"set_option {name}", needs_g6(f"`{name} false` where it is on"))]
    return []


def decided_settings(commands: Sequence[Command]) -> Counter[tuple[int, str]]:
    """The G3 findings (``(line, construct)``) of every :func:`strict_setting`, which G2 judges."""
    found: Counter[tuple[int, str]] = Counter()
    for command in filter(strict_setting, commands):
        name = command.tokens[1]
        found[(command.line, f"set_option {name.text}")] += 1
        found[(name.line, name.text)] += signature_option(name.text)
    return found
