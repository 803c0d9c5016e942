"""The CLI agents' bubblewrap layer on its own (no CLI, no model): what a process inside it can reach.

The end-to-end tests with the real CLIs are in test_cli_agent_host_view.py; these run in a second and
pin down each property of the layer: the host's files and the harness's environment are out of reach,
the workspace is writable, and a nested bubblewrap sandbox (as the CLIs make) still works inside it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from putnam_solver.run.agent.cli_sandbox import CliLayer, CliLayerUnavailable, hand_over, layer_argv, require_layer

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
REPOSITORY_FILE = Path(__file__).resolve()
LAYER = CliLayer(installs=(), path=())


@pytest.fixture
def workspace() -> Iterator[Path]:
    """A workspace as the local sandbox makes one: a private directory in the temp dir."""
    with tempfile.TemporaryDirectory(prefix="putnam-layer-test-") as made:
        yield Path(made)


def run_in_layer(workspace: Path, script: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    hand_over(workspace)
    argv = layer_argv(LAYER, workspace, str(workspace), env or {}, ["sh", "-c", script])
    return subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)


def test_the_host_is_out_of_reach(workspace: Path) -> None:
    result = run_in_layer(workspace, f"cat {REPOSITORY_FILE}; echo exit=$?; ls -a /; ls /etc")
    assert "exit=1" in result.stdout, result.stdout + result.stderr
    assert "def test_the_host_is_out_of_reach" not in result.stdout
    shown = set(result.stdout.split())
    assert not shown & {"root", "home", "var", "work", "shadow", "hostname"}, result.stdout
    assert {"usr", "tmp", "passwd", "hosts"} <= shown


def test_the_harness_environment_is_out_of_reach(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-harness-" + uuid.uuid4().hex
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    result = run_in_layer(workspace, "env; cat /proc/*/environ | tr '\\0' '\\n'; ps -e -o comm", {"GIVEN": "yes"})
    assert secret not in result.stdout
    assert "GIVEN=yes" in result.stdout, "what the CLI is given reaches it"
    assert "pytest" not in result.stdout and "python" not in result.stdout, "no harness process is visible"


def test_the_workspace_is_writable_and_a_nested_sandbox_works(workspace: Path) -> None:
    nested = "bwrap --unshare-user --unshare-net --unshare-pid --proc /proc --dev /dev --ro-bind / / true"
    result = run_in_layer(workspace, f"echo x > made.txt && {nested} && echo nested_ok")
    assert "nested_ok" in result.stdout, result.stderr
    assert (workspace / "made.txt").read_text() == "x\n"


def test_an_install_the_layer_cannot_read_is_refused(workspace: Path) -> None:
    hidden = workspace / "hidden"
    hidden.mkdir(mode=0o700)
    (hidden / "cli").write_text("#!/bin/sh\n")
    if not hasattr(shutil, "chown") or __import__("os").geteuid() != 0:
        pytest.skip("only the root harness runs the layer as another user")
    with pytest.raises(CliLayerUnavailable, match="Fix: "):
        require_layer(CliLayer(installs=(str(hidden / "cli"),), path=()))
