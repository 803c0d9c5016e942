"""Plug-ins by name, found through Python's entry points: how provers and their kits are registered.

A package registers a plug-in by declaring ``NAME = "module:attribute"`` in an entry-point group of its
metadata (``[project.entry-points."putnam_solver.provers"]`` in its pyproject.toml); this project
registers its own provers the same way, so a third-party prover is a peer of the built-in ones. The
module is imported only when the plug-in is first asked for, so listing names costs no import.
"""

from __future__ import annotations

import functools
import importlib.metadata
import sys
from typing import Any

from putnam_solver.core.code_identity import plugin_code


class PluginError(LookupError):
    """No plug-in of that name is registered (the message names the group and the choices)."""


@functools.cache
def _entry_points(group: str, search_path: tuple[str, ...]) -> dict[str, importlib.metadata.EntryPoint]:
    """The group's entry points on ``search_path`` (a key of the cache: a path added later is seen)."""
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=group)}


def plugin_names(group: str) -> tuple[str, ...]:
    """The names registered in ``group``, sorted."""
    return tuple(sorted(_entry_points(group, tuple(sys.path))))


def load_plugin(group: str, name: str) -> Any:
    """The object ``name`` is registered as in ``group`` (its module imported now)."""
    entry = _entry_points(group, tuple(sys.path)).get(name)
    if entry is None:
        known = ", ".join(plugin_names(group)) or "none: is the package installed?"
        raise PluginError(f"no {group} plug-in named {name!r} (registered: {known})")
    return entry.load()


EXTERNAL_CHECKS_GROUP = "putnam_solver.external_checks"
"""Checks by an outside service a gate may ask for (G7: ``axle``), registered like a prover: the object has
``ready(options, release) -> (bool, why)`` and ``run(submission) -> GateResult``. The trusted package
holds no network code; an unregistered check makes its gate an error, never a pass."""


def external_identity(name: str) -> str:
    """Who answers for the external check ``name`` (its ``identity()``, AXLE's URL) and by which code (the
    check lives outside the trusted package: ``code_identity.plugin_code``): a verdict, or a selftest record,
    made by one service is not one of another (a mirror, a staging or a test server), nor one made by other
    code reading that service's answers (another release's G7), so their keys take both. An unregistered
    check, or one that names no identity, says so instead."""
    try:
        check = load_plugin(EXTERNAL_CHECKS_GROUP, name)
    except PluginError:
        return f"{name}: not registered"
    identity = getattr(check, "identity", None)
    said = f"{name}: {identity()}" if callable(identity) else f"{name}: no identity"
    return f"{said} (code {plugin_code(check)})"
