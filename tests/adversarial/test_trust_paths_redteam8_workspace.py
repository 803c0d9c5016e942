"""Red team round 8 of the trust paths: the CLI agent's workspace handed to the layer's uid.

When the harness is root, ``hand_over`` gives the CLI agent's workspace to ``nobody`` before each process
inspect-swe starts in the layer, walking it as root. It changed each entry by its path
(``os.chown(root/dir/name, follow_symlinks=False)``), which follows every link but the last part: a
folder the agent swapped for a link to a host folder between the listing and the change (the agent owns
the workspace by then) had root give that host folder's file to ``nobody``. Each entry is now changed
relative to its folder's open descriptor (``os.fwalk``), so the swap leads nowhere. The swap is made here
at the worst moment, from inside the walk, rather than raced.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.run.agent import cli_sandbox
from putnam_solver.run.agent.cli_sandbox import hand_over

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the workspace is handed over when the harness is root")


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    workspace, victim = tmp_path / "workspace", tmp_path / "host-folder"
    (workspace / "sub").mkdir(parents=True)
    (workspace / "sub" / "proof.lean").write_text("theorem x : True := trivial\n")
    victim.mkdir()
    (victim / "proof.lean").write_text("a host file\n")
    return workspace, victim


def test_a_folder_swapped_for_a_link_during_the_hand_over_gives_away_no_host_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, victim = _workspace(tmp_path)
    real_chown = os.chown
    swapped: list[str] = []

    def chown(path: Any, *args: Any, **kwargs: Any) -> None:
        if str(path).endswith("proof.lean") and not swapped:  # the agent's move, just before the change
            (workspace / "sub").rename(workspace / "moved")
            (workspace / "sub").symlink_to(victim)
            swapped.append(str(path))
        real_chown(path, *args, **kwargs)

    monkeypatch.setattr(cli_sandbox.os, "chown", chown)
    hand_over(workspace)
    assert swapped, "the walk reached the file"
    assert (victim / "proof.lean").stat().st_uid == 0, "a host file was given to the agent's uid"
    nobody = cli_sandbox._agent_ids()
    assert nobody is not None
    assert (workspace / "moved" / "proof.lean").stat().st_uid == nobody[0], "the workspace's own file is handed over"


def test_an_honest_workspace_is_handed_over_whole(tmp_path: Path) -> None:
    workspace, victim = _workspace(tmp_path)
    (workspace / "link").symlink_to(victim / "proof.lean")
    hand_over(workspace)
    nobody = cli_sandbox._agent_ids()
    assert nobody is not None
    for path in (workspace, workspace / "sub", workspace / "sub" / "proof.lean", workspace / "link"):
        assert path.lstat().st_uid == nobody[0], path
    assert (victim / "proof.lean").stat().st_uid == 0, "a link is changed itself, never its target"
