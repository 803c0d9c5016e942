"""Untrusted JSON is parsed within size and depth limits, and files under a handed-over directory are
written and locked without following links (``bounded_json``, ``safe_write``, ``RunLock``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from putnam_solver.bounded_json import loads
from putnam_solver.core.json_depth import MAX_DEPTH, nesting_depth
from putnam_solver.core.util import InputError
from putnam_solver.run.run_lock import LOCK_NAME, RunLock
from putnam_solver.safe_write import UnsafePath, directory_under, write_under


def test_depth_counts_brackets_outside_strings_only() -> None:
    assert nesting_depth('{"a": [1, {"b": "[[[[\\"{"}], "c": []}') == 3
    assert nesting_depth('"[[[["') == 0 and nesting_depth("[]") == 1


def test_json_at_the_limit_loads_and_deeper_is_refused_without_recursing() -> None:
    at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert nesting_depth(at_limit) == MAX_DEPTH and isinstance(loads(at_limit, "x"), list)
    with pytest.raises(InputError, match=r"x: JSON nested 100000 levels deep, over the limit of 200"):
        loads("[" * 100_000 + "]" * 100_000, "x")
    with pytest.raises(InputError, match="over the limit of 10; refused unread"):
        loads(b'{"a": "0123456789"}', "x", max_bytes=10)
    with pytest.raises(InputError, match="not UTF-8"):
        loads(b'{"a": "\xff"}', "x")
    with pytest.raises(InputError, match="not valid JSON"):
        loads("{", "x")
    assert loads('{"a": [1, 2, {"b": null}]}', "x") == {"a": [1, 2, {"b": None}]}


def test_write_under_keeps_every_file_under_its_target(tmp_path: Path) -> None:
    root, outside = tmp_path / "run", tmp_path / "home"
    root.mkdir()
    outside.mkdir()
    assert write_under(root, "a/b/c.txt", b"ok").read_bytes() == b"ok"
    for name in ("../x", "/etc/x", "a/../../x", ""):
        with pytest.raises(UnsafePath):
            write_under(root, name, b"no")
    (root / "linked").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafePath, match="is a link or not a directory; not followed"):
        write_under(root, "linked/x.txt", b"no")
    (root / "file.txt").symlink_to(outside / "victim")
    write_under(root, "file.txt", b"replaced")  # the link itself is replaced, never written through
    assert not (outside / "victim").exists() and list(outside.iterdir()) == []
    assert not (root / "file.txt").is_symlink() and (root / "file.txt").read_bytes() == b"replaced"


def test_the_run_lock_is_never_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / LOCK_NAME).symlink_to("../victim.txt")
    with pytest.raises(InputError, match="is a symbolic link; not followed"), RunLock(run_dir):
        pass
    (run_dir / LOCK_NAME).unlink()
    os.link(victim, run_dir / LOCK_NAME)
    with pytest.raises(InputError, match="not a plain file of its own"), RunLock(run_dir):
        pass
    assert victim.read_text() == "precious\n"
    (run_dir / LOCK_NAME).unlink()
    with RunLock(run_dir):  # a plain lock file is made and holds the PID
        assert (run_dir / LOCK_NAME).read_text() == f"{os.getpid()}\n"


def test_a_directory_another_writer_fills_is_never_a_planted_link(tmp_path: Path) -> None:
    """``solve --resume`` hands Inspect ``RUN_DIR/logs`` by name: a link planted there is refused."""
    run = tmp_path / "run"
    assert directory_under(run, "logs") == run / "logs" and (run / "logs").is_dir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (run / "logs").rmdir()
    (run / "logs").symlink_to(elsewhere)
    with pytest.raises(UnsafePath, match="is a link or not a directory"):
        directory_under(run, "logs")
