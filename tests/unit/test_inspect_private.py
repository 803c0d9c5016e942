"""Inspect AI's private API, used only through ``agent/_inspect.py``, resolves on the pinned version."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.helpers import REPO

SRC = REPO / "src" / "putnam_solver"


def test_the_pinned_inspect_is_installed() -> None:
    pin = re.search(r'"inspect-ai==([^"]+)"', (REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert pin is not None
    assert importlib.metadata.version("inspect-ai") == pin.group(1)


def test_every_private_name_resolves() -> None:
    from putnam_solver.run.agent import _inspect

    for name in _inspect.__all__:
        assert getattr(_inspect, name) is not None, name
    _inspect.load_hooks_quietly()


def test_no_other_module_imports_inspect_private_api() -> None:
    private = re.compile(r"\binspect_ai(\.\w+)*\._\w+")
    users = [
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if private.search(path.read_text(encoding="utf-8")) and path != SRC / "run" / "agent" / "_inspect.py"
    ]
    assert users == []


def test_the_suite_imports_inspect_private_api_in_one_helper() -> None:
    """Tests use Inspect's public names; the one private name they need is in tests/fakes/local_sandbox.py
    (this file, which pins private behaviour on purpose, aside)."""
    private = re.compile(r"\binspect_ai(\.\w+)*\._\w+")
    tests = REPO / "tests"
    allowed = {tests / "fakes" / "local_sandbox.py", Path(__file__).resolve()}
    users = [
        path.relative_to(tests).as_posix()
        for path in tests.rglob("*.py")
        if private.search(path.read_text(encoding="utf-8")) and path not in allowed
    ]
    assert users == []
    assert private.search((tests / "fakes" / "local_sandbox.py").read_text(encoding="utf-8")), "the check can fail"


def test_importing_the_agent_layer_starts_nothing() -> None:
    """No import-time side effects: importing the task module neither loads Inspect's hooks (done when a
    campaign starts) nor leaves a campaign marked as running."""
    code = (
        "import inspect_ai.hooks._startup as startup\n"
        "import putnam_solver.run.agent.task\n"
        "from putnam_solver.run.agent.live import ACTIVE_RUN\n"
        "assert not startup._registry_hooks_loaded and ACTIVE_RUN.get() is None\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=REPO)


def test_a_running_sample_keeps_what_the_live_view_reads() -> None:
    """The live view reads each sample in flight's tokens, turns and start from ``ActiveSample``."""
    import inspect

    from putnam_solver.run.agent._inspect import active_samples

    samples = inspect.getmodule(active_samples)
    assert samples is not None
    source = inspect.getsource(samples.ActiveSample)
    for attribute in ("total_tokens", "total_turns", "started"):
        assert f"self.{attribute}" in source, attribute
