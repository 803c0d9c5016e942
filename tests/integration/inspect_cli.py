"""`inspect eval` as its users run it, for the tests of the Inspect tasks: Inspect's own CLI in a process of
its own, finding ``putnam_solver/...`` through the package's ``inspect_ai`` entry point, against the
loopback model server (tests/fakes/openai_server.py)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from tests.helpers import REPO
from tests.processes import FAKE_MODEL, checkout_env

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog

TASK = "putnam_solver/putnambench"


def entry_point(site: Path) -> None:
    """The ``inspect_ai`` entry point of pyproject.toml, in a dist-info folder under ``site`` (where
    ``importlib.metadata`` finds it, as it finds an installed wheel's)."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"]["inspect_ai"]
    assert declared == {"putnam_solver": "putnam_solver._registry"}
    info = site / "putnam_inspect_entry-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: putnam-inspect-entry\nVersion: 0\n")
    lines = [f"{name} = {target}" for name, target in declared.items()]
    (info / "entry_points.txt").write_text("[inspect_ai]\n" + "\n".join(lines) + "\n")


def run_inspect(tmp_path: Path, url: str, *task_args: str) -> subprocess.CompletedProcess[str]:
    """``inspect eval putnam_solver/putnambench -T ARG ...`` against the model server at ``url``, its logs
    in ``tmp_path/logs``."""
    site = tmp_path / "site"
    entry_point(site)
    env = checkout_env()
    env["PYTHONPATH"] = f"{env['PYTHONPATH']}:{site}"
    args = ["-m", "inspect_ai", "eval", TASK, "--model", FAKE_MODEL, "--model-base-url", url]
    args += ["--log-dir", str(tmp_path / "logs"), "--display", "plain", "--max-retries", "1"]
    args += [arg for value in task_args for arg in ("-T", value)]
    return subprocess.run([sys.executable, *args], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)


def inspect_eval(tmp_path: Path, url: str, *task_args: str) -> EvalLog:
    """``run_inspect``, which must exit 0 and write one log, which is returned."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    done = run_inspect(tmp_path, url, *task_args)
    assert done.returncode == 0, done.stdout + done.stderr
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.status == "success", log.error
    assert log.eval.task == TASK
    return log
