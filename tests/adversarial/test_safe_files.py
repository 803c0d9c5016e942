"""Files left behind by untrusted code: links, FIFOs, devices and huge files are refused, never followed."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from putnam_solver.core.safe_files import UnsafeFile, copy_regular_file, read_regular_file


def test_regular_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "a.vo").write_bytes(b"abc")
    assert read_regular_file(tmp_path / "a.vo", 10) == b"abc"


@pytest.mark.parametrize("target", ["/etc/hostname", "/proc/self/environ", "/proc/self/pagemap"])
def test_symlink_to_a_host_file_is_refused(tmp_path: Path, target: str) -> None:
    (tmp_path / "a.vo").symlink_to(target)
    with pytest.raises(UnsafeFile, match="symbolic link"):
        read_regular_file(tmp_path / "a.vo", 1 << 20)


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "a.vo")
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_regular_file(tmp_path / "a.vo", 10)
        except BaseException as exc:  # collected and checked below
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(5)
    assert not reader.is_alive(), "reading a FIFO blocked"
    assert isinstance(outcome[0], UnsafeFile) and "FIFO" in str(outcome[0])


def test_device_and_directory_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UnsafeFile, match="character device"):
        read_regular_file(Path("/dev/zero"), 10)
    with pytest.raises(UnsafeFile, match="directory"):
        read_regular_file(tmp_path, 10)


def test_file_over_the_cap_is_refused(tmp_path: Path) -> None:
    (tmp_path / "big").write_bytes(b"x" * 11)
    with pytest.raises(UnsafeFile, match="cap of 10"):
        read_regular_file(tmp_path / "big", 10)
    assert read_regular_file(tmp_path / "big", 11) == b"x" * 11


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(UnsafeFile, match=r"missing\.vo: cannot open"):
        read_regular_file(tmp_path / "missing.vo", 10)


def test_copy_never_writes_through_an_existing_link(tmp_path: Path) -> None:
    (tmp_path / "src").write_bytes(b"data")
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep")
    (tmp_path / "dst").symlink_to(victim)
    with pytest.raises(FileExistsError):
        copy_regular_file(tmp_path / "src", tmp_path / "dst", 10)
    assert victim.read_bytes() == b"keep"
    assert copy_regular_file(tmp_path / "src", tmp_path / "new", 10) == b"data"
    assert (tmp_path / "new").read_bytes() == b"data"
