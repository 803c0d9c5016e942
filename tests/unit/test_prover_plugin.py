"""A prover is a registration: an installed distribution that declares the entry points
``putnam_solver.provers`` and ``putnam_solver.kits``, as the built-in provers do in pyproject.toml.

The toy prover (``tests/fixtures/toyplugin``: a package folder and its ``.dist-info``) touches nothing
of the project; putting its folder on the import path is installing it. The CLI, the agent's workspace
writer, doctor and ``--tool`` then take it like a built-in prover.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover, prover_names
from putnam_solver.core.verify import Track, VerifyOptions
from putnam_solver.kits import get_kit
from putnam_solver.selftest.runner import gate_readiness

PLUGIN = Path(__file__).resolve().parents[1] / "fixtures" / "toyplugin"
CLAIM = "claim: 1 + 1 = 2\n"


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Install the toy prover (for this test only: its folder on the path) and write its benchmark."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    benchmark = tmp_path / "toy.jsonl"
    benchmark.write_text(json.dumps({"problem_id": "toy_one", "formal_statement": CLAIM + "proof: sorry\n"}) + "\n")
    yield benchmark


def _app() -> Any:
    from putnam_solver.cli import app

    return app


def _putnam(*args: str) -> tuple[int, str]:
    """Run the CLI; its exit code and what it printed on stdout."""
    result = CliRunner().invoke(_app(), list(args))
    return result.exit_code, result.stdout


def test_cli_lists_shows_policy_and_verifies_with_a_registered_prover(toy: Path, tmp_path: Path) -> None:
    code, out = _putnam("list", "--prover", "toy", "--benchmark", str(toy), "--json")
    assert code == 0 and json.loads(out.splitlines()[-1])["problem"] == "toy_one"
    code, out = _putnam("policy", "--prover", "toy")
    assert code == 0 and "without sorry" in out
    good, bad = tmp_path / "good" / "toy_one.toy", tmp_path / "bad" / "toy_one.toy"
    good.parent.mkdir()
    bad.parent.mkdir()
    good.write_text(CLAIM + "proof: arithmetic\n")
    bad.write_text(CLAIM + "proof: sorry\n")
    verdicts = tmp_path / "verdicts.json"
    code, out = _putnam("verify", "--prover", "toy", "--gates", "text", "--benchmark", str(toy), str(good))
    assert code == 0, out
    code, out = _putnam(
        "verify", "--prover", "toy", "--gates", "text", "--benchmark", str(toy), "--json", str(verdicts), str(bad)
    )
    assert code != 0 and "sorry" in verdicts.read_text()


def test_workspace_and_readiness_come_from_the_registered_prover(toy: Path, tmp_path: Path) -> None:
    from putnam_solver.run.agent.task import prepare_workspaces
    from putnam_solver.run.agent.types import Budgets, SolveConfig

    bench = load_benchmark(toy)
    config = SolveConfig("toy", Track.WITH_ANSWER, "mockllm/model", None, None, "react", "local", 1, 1, Budgets())
    (where,) = prepare_workspaces(list(bench.problems.values()), bench, config, tmp_path / "work")
    assert (where / "ToyOne.toy").read_text() == CLAIM + "proof: sorry\n"
    assert (where / "toy.project").is_file()
    assert "Toy logic" in (where / "PROMPT.md").read_text()
    rows = {r.name.split()[0]: r for r in gate_readiness(get_prover("toy"), VerifyOptions())}
    assert rows["G2"].ok and rows["G3"].ok and not rows["G5"].ok, "a gate the prover lacks is not ready"


def _gate(verdicts: Path, gate_id: str) -> dict[str, Any]:
    (result,) = json.loads(verdicts.read_text())["results"]
    gate: dict[str, Any] = next(g for g in result["gates"] if g["id"] == gate_id)
    return gate


def test_a_registered_prover_declares_its_tools_and_the_user_chooses_them(
    toy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--tool NAME=PATH`` reaches a new prover's gate with no edit outside the prover; its
    environment variable does the same; a name no prover runs is refused, naming the choices."""
    monkeypatch.delenv("PUTNAM_TOYCHECK", raising=False)
    checker = tmp_path / "bin" / "toycheck"
    checker.parent.mkdir()
    checker.write_text("#!/bin/sh\nexit 0\n")
    checker.chmod(0o755)
    good = tmp_path / "toy_one.toy"
    good.write_text(CLAIM + "proof: arithmetic\n")
    verdicts = tmp_path / "verdicts.json"
    args = ["verify", "--prover", "toy", "--gates", "fast", "--benchmark", str(toy), "--json", str(verdicts), str(good)]
    code, out = _putnam(*args[:-1], "--tool", f"toycheck={checker}", str(good))
    assert code == 0, out
    g4 = _gate(verdicts, "G4")
    assert g4["evidence"]["tool"]["path"] == str(checker) and g4["evidence"]["tool"]["origin"] == "--tool toycheck"
    monkeypatch.setenv("PUTNAM_TOYCHECK", str(checker))
    code, out = _putnam(*args, "--no-cache")
    assert code == 0, out
    assert _gate(verdicts, "G4")["evidence"]["tool"]["origin"] == "PUTNAM_TOYCHECK"
    code, out = _putnam("doctor", "--prover", "toy")
    assert "choose toycheck: --tool toycheck=PATH or PUTNAM_TOYCHECK=PATH" in out
    result = CliRunner().invoke(_app(), [*args[:-1], "--tool", "nosuch=/bin/true", str(good)])
    assert result.exit_code == 2 and "no prover runs a tool 'nosuch'" in result.output
    assert "toycheck" in result.output and "coqc" in result.output


def test_the_registry_loads_no_prover_until_asked() -> None:
    code = (
        "import sys, putnam_solver.core.provers as p; "
        "assert p.prover_names() == ('lean', 'rocq'); "
        "assert not [m for m in sys.modules if m.startswith(('putnam_solver.core.provers.lean', "
        "'putnam_solver.core.provers.rocq'))], sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_built_in_provers_register_through_the_same_entry_points(toy: Path) -> None:
    """Built-in and third-party provers come from one entry-point group; each has a kit by its name."""
    assert prover_names() == ("lean", "rocq", "toy")
    suites = [[d.name for d in get_kit(name).selftest_suites] for name in prover_names()]
    assert suites == [["lean-core", "lean-mathlib", "lean-answers"], ["rocq", "rocq-answers"], []]


def test_an_installed_plugin_is_a_prover_for_the_cli_in_a_new_process(toy: Path, tmp_path: Path) -> None:
    """What a user does: install the distribution (here: put it on PYTHONPATH), run ``putnam``."""
    good = tmp_path / "toy_one.toy"
    good.write_text(CLAIM + "proof: arithmetic\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGIN), os.environ.get("PYTHONPATH", "")])}
    argv = [
        sys.executable,
        "-c",
        "from putnam_solver.cli import main; main()",
        "verify",
        "--prover",
        "toy",
        "--gates",
        "text",
    ]
    done = subprocess.run([*argv, "--benchmark", str(toy), str(good)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "accepted" in done.stdout
