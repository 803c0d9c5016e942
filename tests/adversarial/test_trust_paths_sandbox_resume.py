"""A run directory's stored sandbox on ``putnam solve --resume``: no container the user did not name.

A run's settings record its ``--sandbox``. A stored ``docker`` was taken on resume as it came, and Inspect's
docker sandbox then built or pulled and ran a container for every workspace: from a ``compose.yaml`` or
``Dockerfile`` in the working directory (a compose file can mount any host path into the container), else
Inspect's default image, pulled. As for a stored model name a local provider loads
(``test_trust_paths_redteam13``), a resume now runs a container only when its command line says
``--sandbox docker`` again, never from a working directory inside the run directory (its compose file is
the directory author's), and takes ``--sandbox`` only to say the run's own again (``resume_checks``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.run.campaign import RunSettings, stored_run
from putnam_solver.run.resume_checks import check_resumable
from tests.adversarial.test_trust_paths_redteam10 import edit_settings, made_run
from tests.adversarial.test_trust_paths_redteam12 import said
from tests.processes import putnam


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run of ``test_trust_paths_redteam10``, at the full profile (what ``putnam solve`` records), resumed
    from the folder that holds it."""
    folder = made_run(tmp_path, monkeypatch)
    edit_settings(folder, lambda data: data["config"].update(acceptance_profile="full"))
    monkeypatch.chdir(tmp_path)
    return folder


def _stored(run_dir: Path, sandbox: str) -> RunSettings:
    edit_settings(run_dir, lambda data: data["config"].update(sandbox=sandbox))
    stored = stored_run(run_dir)
    assert stored is not None
    return stored


def test_a_stored_docker_sandbox_is_refused_unless_said_again(run_dir: Path) -> None:
    """Before: taken, and every workspace ran in a container Inspect pulled or built from this directory."""
    stored = _stored(run_dir, "docker")
    with pytest.raises(InputError) as refused:
        check_resumable(stored, {}, None)
    text = str(refused.value)
    assert "`config.sandbox`" in text and "Resume with --sandbox docker" in text and str(run_dir) in text, text
    check_resumable(stored, {}, None, given_sandbox="docker")  # said again: the user's choice


def test_a_stored_local_sandbox_resumes_with_or_without_the_flag(run_dir: Path) -> None:
    """Valid beside: the default sandbox runs no container; saying it again is no change."""
    stored = _stored(run_dir, "local")
    check_resumable(stored, {}, None)
    check_resumable(stored, {}, None, given_sandbox="local")


@pytest.mark.parametrize(("own", "given"), [("docker", "local"), ("local", "docker")])
def test_a_resume_s_sandbox_flag_must_be_the_run_s_own(run_dir: Path, own: str, given: str) -> None:
    stored = _stored(run_dir, own)
    with pytest.raises(InputError, match=f"the run's sandbox is {own}") as refused:
        check_resumable(stored, {}, None, given_sandbox=given)
    assert "takes --sandbox only to say the run's own again" in str(refused.value)


def test_a_docker_sandbox_is_refused_from_inside_the_run_directory_even_when_named(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inspect takes the working directory's ``compose.yaml``: from within the run directory, the one it ships
    (refused by place, whether or not the file is there yet)."""
    stored = _stored(run_dir, "docker")
    (run_dir / "compose.yaml").write_text("services:\n  default:\n    image: planted\n    volumes: ['/:/host']\n")
    monkeypatch.chdir(run_dir)
    with pytest.raises(InputError, match="lies inside the run directory") as refused:
        check_resumable(stored, {}, None, given_sandbox="docker")
    assert "Resume from a working directory outside the run directory" in str(refused.value)
    monkeypatch.chdir(run_dir.parent)  # the same resume from outside: the user's own directory
    check_resumable(stored, {}, None, given_sandbox="docker")


def test_the_cli_refuses_an_unsaid_docker_sandbox_and_takes_a_said_one(
    run_dir: Path, no_slow_checks: list[str]
) -> None:
    """``--sandbox`` is a flag a resume takes (to say the run's own again), checked before anything slow runs."""
    _stored(run_dir, "docker")
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    text = said(stderr)
    assert code == 2 and "Resume with --sandbox docker" in text and "`config.sandbox`" in text, stdout + stderr
    assert not no_slow_checks
    code, stdout, stderr = putnam("solve", "--resume", run_dir, "--sandbox", "docker")
    text = said(stderr)
    assert f"resuming run {run_dir}" in text and "config.sandbox" not in text, stdout + stderr  # past the checks
