"""The optional extras of the package: which modules each installs, and what to say when one is missing.

``pip install putnambench-solver`` gives ``verify``, ``audit``, ``check``, ``list``, ``doctor`` and the rest
of the gates; a command that needs more imports it when it runs. When such an import fails, the user is
told in one line which extra to install (``putnam solve needs the agent extra ...``), wherever in the
program the import happened, instead of being shown an unexpected error.
"""

from __future__ import annotations

import importlib.util

DISTRIBUTION = "putnambench-solver"

EXTRAS: dict[str, tuple[str, ...]] = {
    "agent": ("inspect_ai", "openai", "anthropic"),
    "axle": ("axle",),
    "codex": ("inspect_swe",),
    "ray": ("ray",),
    "serve": ("fastapi", "starlette", "uvicorn"),
    "mcp": ("mcp", "uvicorn"),
    "retrieval": ("tantivy",),
}
"""Extra -> the top-level modules its requirements install (pyproject's ``optional-dependencies``; a test
holds the two together). Only these modules name an extra: any other missing import stays a bug. A module
two extras install (uvicorn: both serve over HTTP, in the range ``listen.py`` extends) names the first."""

NEEDED_BY = {
    "agent": "putnam solve",
    "axle": "--axle (the AXLE gate, G7)",
    "codex": "solve --agent codex or claude-code",
    "mcp": "putnam mcp",
    "ray": "--ray",
    "retrieval": "the agent's find_declarations (ranked library search)",
    "serve": "putnam serve",
}
"""Which commands or flags need each extra, for ``putnam doctor`` and the README."""


def install_command(extra: str) -> str:
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def extra_of(module: str | None) -> str | None:
    """The extra that installs ``module`` (or the package it belongs to), None for any other module."""
    top = (module or "").partition(".")[0]
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


def missing_extra_message(exc: BaseException, command: str | None = None) -> str | None:
    """One line naming the extra to install when ``exc`` is a failed import of one of its modules, else None."""
    if not isinstance(exc, ImportError):
        return None
    extra = extra_of(exc.name)
    if extra is None:
        return None
    who = command or NEEDED_BY[extra]
    package = (exc.name or "").partition(".")[0]
    return f"{who} needs the {extra} extra ({package} is not installed): {install_command(extra)}"


def installed(extra: str) -> bool:
    """Whether every module of ``extra`` can be imported here (found, not imported: nothing is loaded)."""
    return all(importlib.util.find_spec(module) is not None for module in EXTRAS[extra])
