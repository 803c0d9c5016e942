"""Commands Lean begins inside what the column-0 split reads as one command: the indented declarations of a
``mutual`` block, and an indented ``#`` command where no tactic may stand (round 31). Lean ends a command
where its parser stops, at any column (leanprover/lean4 src/Lean/Parser/Module.lean, ``parseCommand``: the
next command is parsed from where the last one stopped)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, count
from operator import itemgetter
from typing import Final

from putnam_solver.core.provers.lean._tactic_position import TacticPlaces
from putnam_solver.core.provers.lean._tokens import Token

_TEXT: Final = itemgetter(1)


HASH_COMMANDS: Final = frozenset({"#check", "#check_failure", "#print", "#eval", "#reduce", "#exit", "#synth"})
"""Core's ``#`` commands that read or run a term. Lean ends a command at one wherever it stands, except
where a tactic of the same word may stand: Mathlib's ``#check`` tactic (Mathlib/Tactic/Check.lean, ``elab
tk:"#check " colGt term:term : tactic``); no library makes a tactic of the others. Read as more of a
helper's body, an indented ``#check`` after a term body or in a ``where`` block let a ``/--`` after it pass
for a ``where`` declaration's doc where Lean begins a library command with it; a ``#print`` did so even in
a tactic block. G3 refuses every ``#`` word but ``#check`` and ``#print`` wherever it stands."""
_TACTIC_TOO: Final = frozenset({"#check"})


def hash_commands(code: Sequence[Token]) -> frozenset[int]:
    """The offsets of the indented :data:`HASH_COMMANDS` of ``code`` that begin a command: all but a
    ``#check`` where a tactic may stand (``_tactic_position``: read as more of the proof there, as G3 reads
    every token of it, fail closed)."""
    found = [i for i in compress(count(), map(HASH_COMMANDS.__contains__, map(_TEXT, code))) if code[i].col]
    if not found:
        return frozenset()
    places = TacticPlaces(code) if any(code[i].text in _TACTIC_TOO for i in found) else None
    return frozenset(
        code[i].offset
        for i in found
        if places is None or code[i].text not in _TACTIC_TOO or not places.begins_tactic(i)
    )


def mutual_candidates(tokens: Sequence[Token], starters: frozenset[str]) -> frozenset[int]:
    """Indices of the indented tokens first on their line that may begin a declaration of a ``mutual``
    block (``starters``: ``_commands._MUTUAL_STARTERS``); empty in a file without one. Python runs once per
    such word only."""
    texts = list(map(_TEXT, tokens))
    if "mutual" not in texts:
        return frozenset()
    words = compress(count(), map(starters.__contains__, texts))
    return frozenset(i for i in words if i and tokens[i].col and tokens[i].line != tokens[i - 1].line)
