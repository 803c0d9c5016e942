"""Every part of Inspect AI's private API this package uses, in one place.

Inspect exports no public name for these; each use says why it needs one. Upgrading the pinned
``inspect-ai`` means checking only this module (``tests/unit/test_inspect_private.py`` imports each name
on the pinned version). Importing this module has no side effects beyond importing Inspect.
"""

from __future__ import annotations

import contextlib
import io

from inspect_ai._util.package import get_installed_package_name
from inspect_ai.log._samples import active_samples, sample_active
from inspect_ai.model._model import sample_model_usage
from inspect_ai.model._providers.mockllm import MockLLM
from inspect_ai.model._throughput import _registry as throughput_registry
from inspect_ai.util._concurrency import adaptive_controllers
from inspect_ai.util._sandbox._cli import SANDBOX_CLI
from inspect_ai.util._sandbox.local import LocalSandboxEnvironment

__all__ = [
    "SANDBOX_CLI",
    "LocalSandboxEnvironment",
    "MockLLM",
    "active_samples",
    "adaptive_controllers",
    "installed_package",
    "load_hooks_quietly",
    "sample_active",
    "sample_model_usage",
    "throughput_registry",
]
"""The run budget interrupts the samples in flight and the live view reads their tokens, turns and start
(``active_samples``: ``ActiveSample.total_tokens``, ``total_turns``, ``started``); the scorer reads its sample's
transcript and model usage (``sample_active``, ``sample_model_usage``); the live view reads the
provider's rate limiting and the adaptive connection limit (``throughput_registry``,
``adaptive_controllers``); the CLI sandbox extends Inspect's local sandbox and answers its CLI calls
(``LocalSandboxEnvironment``, ``SANDBOX_CLI``); the Inspect tasks name themselves after how Inspect will see
the package installed (``installed_package``: ``get_installed_package_name``); the offline mock model's
outputs are given a usage, its default reply kept (``MockLLM.default_output``)."""


def installed_package(obj: object) -> str | None:
    """The installed package Inspect takes ``obj`` to come from (it prefixes registry names with it)."""
    return get_installed_package_name(obj)


def load_hooks_quietly() -> None:
    """Load Inspect's hooks now, with stdout silenced.

    Inspect announces the hooks it loads on stdout, once per process; ours is part of ``putnam solve``,
    whose stdout carries only the run's result. Loading them here, before the first evaluation, makes
    Inspect's own later load a no-op."""
    from inspect_ai.hooks._startup import init_hooks

    with contextlib.redirect_stdout(io.StringIO()):
        init_hooks()
