"""`putnam --help` and the messages a user meets on a first day, read as the user reads them.

Choices shown as choices and checked by the parser, one metavar per kind of value, the environment
variables on the options they stand for, help texts that describe their own command, one line per command
in the list; output paths refused before any work, naming the path given; `doctor` on a machine without
Lean; downloads that fail for want of a network naming what works offline.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from putnam_solver.cli import app
from tests.helpers import PUTNAMBENCH, REPO

runner = CliRunner()
COMMANDS = ["report", "audit", "export", "mcp", "serve", "bootstrap", "selftest", "doctor", "solve", "list"]
COMMANDS += ["check", "verify", "policy", "dataset fetch"]


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(PUTNAMBENCH))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("PUTNAM_TRACEBACK", raising=False)


def _run(*args: str | Path) -> Result:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def _help(command: str) -> str:
    result = _run(*command.split(), "--help")
    assert result.exit_code == 0, result.output
    return result.stdout


def _option_help(command: str, option: str) -> str:
    """The help of one option of ``command``, its wrapped lines joined."""
    text = _help(command)
    start = text.index(f"│ {option} ")
    rows = [text[start:].splitlines()[0]]
    for line in text[start:].splitlines()[1:]:
        if re.match(r"│ +--?[a-z]", line) or not line.startswith("│"):
            break
        rows.append(line)
    return " ".join(" ".join(r.strip("│ ").split()) for r in rows)


def test_choices_are_shown_as_choices_and_checked() -> None:
    assert "<react|codex|claude-code>" in _option_help("solve", "--agent")
    assert "<local|docker>" in _option_help("solve", "--sandbox")
    assert "<stdio|http>" in _option_help("mcp", "--transport")
    refused = _run("solve", "--model", "openai/gpt-5", "--agent", "aider", "--max-problems", "1")
    assert refused.exit_code == 2 and "'aider' is not one of 'react', 'codex', 'claude-code'" in refused.stderr
    refused = _run("mcp", "--transport", "tcp")
    assert refused.exit_code == 2 and "'tcp' is not one of 'stdio', 'http'" in refused.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_shows_a_metavar_of_the_projects_own(command: str) -> None:
    """No Typer type names (<str>, <int range>, <path>): N, PATH, NAME... or the choices themselves."""
    text = _help(command)
    assert not re.search(r"<(str|int|float|path|int range|float range|file|directory|list\[\w+\])>", text), text
    assert not re.search(r"\s(TEXT|N|PATH) \[default: None\]", text)


def test_help_keeps_bracketed_syntax_and_names_the_variables() -> None:
    assert "NAME[@VARIANT][:SPLIT] of a registered benchmark" in _option_help("verify", "--benchmark")
    assert "NAME|PATH" in _option_help("verify", "--benchmark")
    tool = _option_help("verify", "--tool")
    assert "lean: PUTNAM_LEAN" in tool and "coqc: PUTNAM_COQC" in tool and "coqchk: PUTNAM_COQCHK" in tool
    assert "AXLE_API_KEY" in _option_help("verify", "--axle") and "AXLE_API_KEY" in _option_help("solve", "--axle")
    assert "OPENAI_API_KEY" in _option_help("solve", "--model")
    assert "PUTNAM_SERVE_KEYS" in _option_help("serve", "--keys")
    assert "PUTNAM_TOOLCHAIN_DIR" in _option_help("bootstrap", "--dir")


def test_help_texts_describe_their_own_command() -> None:
    """Three options had another command's help: bootstrap's --toolchain (it installs, it judges nothing),
    doctor's --tool (it checks the tool) and policy's --tool (it reads the tool's version)."""
    assert "the release to install" in _option_help("bootstrap", "--toolchain")
    assert "said in every verdict" not in _option_help("bootstrap", "--toolchain")
    assert "the release to check" in _option_help("doctor", "--toolchain")
    assert _option_help("doctor", "--tool").split(" NAME=PATH ")[1].startswith("Check this executable")
    assert "decide the recursion rule" in _option_help("policy", "--tool")
    assert "the bootstrapped Lean/Mathlib release to judge with" in _option_help("verify", "--toolchain")


def test_the_command_list_has_one_line_per_command() -> None:
    text = _help("")
    panel = text[text.index("Commands") :].splitlines()[1:]
    rows = [line for line in panel if line.startswith("│")]
    names = [row.split()[1] for row in rows]
    assert sorted(names) == sorted({c.split()[0] for c in COMMANDS}), rows
    assert all(len(row) <= 200 for row in rows)
    audit = next(row for row in rows if row.split()[1] == "audit")
    assert "with your own benchmark, tools and gate options" in audit and "history" not in audit


# ------------------------------------------------------------------------------------------ output paths


@pytest.fixture(scope="module")
def prepared_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run_dir = tmp_path_factory.mktemp("run") / "run"
    args = ["solve", "--model", "openai/gpt-5", "--prover", "rocq", "--max-problems", "1", "--prepare-only"]
    done = runner.invoke(app, [*args, "--run-dir", str(run_dir)], env={"PUTNAM_BENCHMARK": str(PUTNAMBENCH)})
    assert done.exit_code == 0, done.output
    return run_dir


@pytest.mark.parametrize(
    ("args", "given"),
    [
        (["report", "{run}", "-o", "{file}/report.html"], "-o {file}/report.html"),
        (["report", "{run}", "-o", "{run}"], "{run}: -o names a directory; give a file path, e.g. {run}/report.html"),
        (["export", "{run}", "-o", "{file}/bundle.tar.gz"], "-o {file}/bundle.tar.gz"),
        (["export", "{run}", "--proofs", "{file}/proofs"], "--proofs {file}/proofs"),
        (["solve", "--model", "openai/gpt-5", "--prepare-only", "--run-dir", "{file}/run"], "--run-dir {file}/run"),
        (["dataset", "fetch", "--benchmark", "minif2f", "--dir", "{file}/data"], "--dir {file}/data"),
        (["bootstrap", "--dir", "{file}/lean"], "--dir {file}/lean"),
    ],
)
def test_an_output_path_that_cannot_be_written_is_refused_before_any_work(
    prepared_run: Path, tmp_path: Path, args: list[str], given: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    fill = {"run": str(prepared_run), "file": str(blocker)}
    result = _run(*(a.format(**fill) for a in args))
    assert result.exit_code == 2, result.output
    message = " ".join(result.stderr.split())
    assert given.format(**fill) in message, message
    assert "cloning" not in result.output and "download" not in result.output and "prepared" not in result.output
    assert blocker.read_text() == "" and list(tmp_path.iterdir()) == [blocker]


def test_a_writable_output_path_is_used(prepared_run: Path, tmp_path: Path) -> None:
    result = _run("report", prepared_run, "-o", tmp_path / "new" / "page.html")
    assert result.exit_code == 0 and (tmp_path / "new" / "page.html").is_file()


# ------------------------------------------------------------------------------------------ doctor


def test_doctor_on_a_machine_without_lean_says_so_once_and_exits_by_rocq(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "no-lean"))
    monkeypatch.delenv("PUTNAM_LEAN", raising=False)
    result = _run("doctor")
    lean = [line for line in result.stdout.splitlines() if line.startswith("lean")]
    assert len(lean) == 1 and lean[0].startswith("lean: not installed here (this machine has rocq only)"), lean
    assert "`putnam bootstrap --prover lean` installs it" in lean[0] and "G1, G2, G3" in lean[0]
    assert "rocq: full profile can run" in result.stdout
    assert result.exit_code == 0, result.stdout
    asked = _run("doctor", "--prover", "lean")
    assert asked.exit_code == 1 and "MISS G4 compile" in asked.stdout and "not installed here (this" not in asked.stdout


# ------------------------------------------------------------------------------------------ without network


def _offline(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``putnam ARGS`` in a network namespace with no route, as on a machine without a network."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO / "src"), "HOME": str(cwd), "COLUMNS": "200"}
    argv = ["unshare", "-n", sys.executable, "-m", "putnam_solver", *args]
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


NO_NAMESPACE = shutil.which("unshare") is None or subprocess.run(["unshare", "-n", "true"], check=False).returncode


@pytest.mark.skipif(bool(NO_NAMESPACE), reason="`unshare -n` cannot make a network namespace here")
def test_downloads_without_a_network_name_the_offline_ways(tmp_path: Path) -> None:
    fetch = _offline("dataset", "fetch", "--benchmark", "minif2f", "--dir", str(tmp_path / "data"), cwd=tmp_path)
    assert fetch.returncode == 2 and "git clone failed" in fetch.stderr
    assert "they ship with putnam byte for byte as pinned" in fetch.stderr and "--source ID=PATH" in fetch.stderr
    boot = _offline("bootstrap", "--dir", str(tmp_path / "lean"), cwd=tmp_path)
    assert boot.returncode == 2 and "without the network:" in boot.stderr, boot.stderr
    assert "--tool lean=PATH" in boot.stderr and "--gates text" in boot.stderr
    local = _offline(
        "dataset", "fetch", "--benchmark", "minif2f", "--source", f"lean={tmp_path / 'nope'}", cwd=tmp_path
    )
    assert local.returncode == 2 and "git clone failed" in local.stderr
    assert "ship with putnam" not in local.stderr, "a clone that fails for another reason says only why"
