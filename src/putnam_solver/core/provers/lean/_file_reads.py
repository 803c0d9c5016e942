"""G3's words for Lean's term syntax that reads the machine's files while elaborating.

Lean's own ``include_str`` (syntax in ``src/Init/Notation.lean``, elaborated by the builtin
``elabIncludeStr`` of ``src/Lean/Elab/BuiltinTerm.lean``) is available to every file with no ``import``
and no ``open``: it evaluates its path term in the interpreter (``evalTerm``, code run by the checker
like ``#eval``) and becomes a string literal holding ``IO.FS.readFile`` of that path. A candidate's
compile runs in the sandbox, which shows the system directories and the toolchain read-only; whatever
of them the proof reads (a benchmark copy installed under ``/usr`` with its official answers, where
putnam is installed system-wide) reaches its kernel term and its messages, which the agent's ``check``
returns to the model: ``decide`` on one character of it is an oracle bit by bit. A verdict rests on the
candidate's bytes alone, so no proof may read a file (red team round 8 of the trust paths).
"""

from __future__ import annotations

from typing import Final

FILE_READING: Final = (
    (
        "include_str",
        "meta",
        "Lean's `include_str` evaluates its path in the interpreter and reads a file of the machine while "
        "elaborating: a proof may rest on its own bytes only",
    ),
)
"""Each rule as ``(construct, rule, reason)`` of a word ``ForbiddenRule`` (``_policy`` builds them)."""

EFFECTS: Final = (
    "IO",
    "EIO",
    "BaseIO",
    "unsafeBaseIO",
    "unsafeIO",
    "unsafeEIO",
    "timeit",
    "allocprof",
    "System",
    "with_panel_widgets",
    "show_panel_widgets",
)
"""Red team 27: the names through which pure code performs input and output (leanprover/lean4
src/Init/System/IO.lean): the monads ``IO``, ``EIO``, ``BaseIO`` and everything in their namespaces
(``IO.FS.readFile``, ``IO.Process.spawn``, ``IO.getEnv``), the ``unsafe def``s that run such an action from
pure code, the root ``timeit``/``allocprof``, and ``System`` (``System.FilePath.pathExists``, ``readDir``,
``metadata`` are ``IO`` actions); and the widget commands that evaluate their ``with props`` term and
widget (src/Lean/Widget/Commands.lean ``evalWidgetInstance``; ProofWidgets' tactic ``with_panel_widgets``),
which only draw in an editor. ``EIO`` is ``EStateM`` over ``IO.RealWorld``, itself a
``def`` of ``Unit``, so an action applied to ``()`` runs wherever the interpreter evaluates the term (a tactic
configuration, ``_evaluated``): no proof of a mathematical statement names them."""
EFFECT_REASON: Final = (
    "input and output (files, processes, the environment) or code run while elaborating (widgets): a proof "
    "may rest on its own bytes only"
)
