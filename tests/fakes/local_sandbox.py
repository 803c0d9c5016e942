"""Inspect's ``local`` sandbox as the default sandbox of code a test calls directly, outside an eval.

An eval installs its sample's sandboxes itself (``init_sandbox_environments_sample``); Inspect has no public
way to install one for code called outside an eval, as the tests of the agent's file worker call it. The
context variable that holds them is the one private name of Inspect the suite uses, here only (the
package's own private uses are listed in ``run/agent/_inspect.py`` and pinned by
tests/unit/test_inspect_private.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from inspect_ai.util import SandboxEnvironment, sandbox_default
from inspect_ai.util._sandbox.context import sandbox_environments_context_var

from putnam_solver.run.agent._inspect import LocalSandboxEnvironment


@contextmanager
def local_sandbox() -> Iterator[LocalSandboxEnvironment]:
    """A fresh ``local`` sandbox (a temporary directory on the host), removed afterwards."""
    environment = LocalSandboxEnvironment()
    try:
        yield environment
    finally:
        environment.directory.cleanup()


@contextmanager
def default_sandbox(box: SandboxEnvironment) -> Iterator[None]:
    """``box`` as the default sandbox of this context (what ``inspect_ai.util.sandbox()`` returns), as an
    eval makes its sample's."""
    token = sandbox_environments_context_var.set({"default": box})
    try:
        with sandbox_default("default"):
            yield
    finally:
        sandbox_environments_context_var.reset(token)
