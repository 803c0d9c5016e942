"""A ``set_option NAME V`` that leaves the statement as it was: ``false`` for the options whose ``false`` only
makes elaboration stricter or sequential (round 34: Aristotle's generated files open with the first two),
and Lean's own default restated (round 35).

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

Round 35: the same settings as ``set_option NAME V in`` at the head of a command, the theorem's included.
Lean expands ``c in d`` to ``section c d end`` (src/Lean/Elab/BuiltinCommand.lean, ``expandInCmd``), so
the options the theorem elaborates under are exactly those of the global setting, which reaches further:
the same verdict, the theorem's ``autoImplicit`` pair left to G6 where the benchmark leaves it on.

``synthInstance.maxSize 128`` (Aristotle's header, after its ``synthInstance.maxHeartbeats 20000``) is
Lean's default (src/Lean/Meta/SynthInstance.lean, ``register_builtin_option synthInstance.maxSize``:
``defValue := 128``): where neither the benchmark's ``leanOptions`` nor the challenge set the option, it
leaves the options every command reads as they were. Another value can change which instance the statement
gets (``_policy._ELABORATION_OPTIONS``) and stays with G6, as does this one where something else set it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._helpers import needs_g6
from putnam_solver.core.provers.lean._signature_options import signature_option
from putnam_solver.core.provers.lean._tokens import Token
from putnam_solver.core.provers.lean.syntax import Command, Statement, normalize_name

STRICT_SETTINGS: Final = {"autoImplicit": "false", "relaxedAutoImplicit": "false", "Elab.async": "false"}
"""Option -> the one value a candidate may set it to globally."""
DEFAULT_SETTINGS: Final = {"synthInstance.maxSize": "128"}
"""Option -> Lean's default value, which a candidate may restate where nothing else set the option."""


def strict_setting(command: Command) -> bool:
    """``set_option NAME V`` as a whole command, with ``V`` the value :data:`STRICT_SETTINGS` or
    :data:`DEFAULT_SETTINGS` gives ``NAME``."""
    tokens = command.tokens
    return command.keyword == "set_option" and command.head == 0 and len(tokens) == 3 and _settled(tokens, 0)


def strict_group(tokens: Sequence[Token], i: int) -> bool:
    """``set_option NAME V in`` at ``i``, with ``V`` the value :func:`strict_setting` takes."""
    return i + 3 < len(tokens) and tokens[i].text == "set_option" and tokens[i + 3].text == "in" and _settled(tokens, i)


def _settled(tokens: Sequence[Token], i: int) -> bool:
    name, value = normalize_name(tokens[i + 1].text), tokens[i + 2].text
    return (STRICT_SETTINGS.get(name) or DEFAULT_SETTINGS.get(name)) == value


def strict_violations(name: Token, expected: Statement, semantic: bool) -> list[Violation]:
    """The setting of option ``name`` (:func:`strict_setting` or :func:`strict_group`) in force at the
    theorem: harmless, but for ``autoImplicit``'s pair under a benchmark that leaves ``autoImplicit`` on,
    and a default restated where the benchmark or the challenge set the option, which only G6 can clear."""
    if semantic:
        return []
    text = normalize_name(name.text)
    if signature_option(text) and expected.auto_bound:
        what = f"`{name.text} false` where it is on"
    elif text in DEFAULT_SETTINGS and (text in expected.project_options or _set_by(expected, text)):
        what = f"`{name.text}` where the benchmark or the challenge sets it"
    else:
        return []
    return [Violation(name.line, f"set_option {name.text}", needs_g6(what))]


def _set_by(expected: Statement, name: str) -> bool:
    tokens = expected.tokens
    return any(t.text == "set_option" and normalize_name(tokens[i + 1].text) == name for i, t in enumerate(tokens[:-1]))


def decided_settings(commands: Sequence[Command]) -> Counter[tuple[int, str]]:
    """The G3 findings (``(line, construct)``) of every :func:`strict_setting` and every :func:`strict_group`
    among a command's leading ``... in`` groups, which G2 judges."""
    found: Counter[tuple[int, str]] = Counter()
    for command in commands:
        tokens = command.tokens
        for i in range(max(command.head, 1)):
            if strict_group(tokens, i) or (i == 0 and strict_setting(command)):
                name = tokens[i + 1]
                found[(tokens[i].line, f"set_option {name.text}")] += 1
                found[(name.line, name.text)] += signature_option(name.text)
    return found
