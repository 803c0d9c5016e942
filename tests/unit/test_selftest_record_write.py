"""A selftest record that cannot be written (red team: on a full disk ``putnam selftest`` ended in a
traceback): the error names the file, the problem and the fix, and nothing is left half-written (the
record is written to a temporary file and renamed; an earlier record stays whole)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core import safe_files
from putnam_solver.core.cache import CACHE_DIR_VARIABLE
from putnam_solver.core.selftest_record import JUDGEMENTS
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.selftest.record import Cell, CellResult, SelftestRecord, SuiteSkip, write_record

OPTIONS = VerifyOptions()


def record(seconds: float = 1.5) -> SelftestRecord:
    cell = CellResult("suite", "good", "G4", "compile", "pass", "passed", Cell.RIGHT, "x" * 4000)
    return SelftestRecord("rocq", "f" * 64, "c" * 64, False, 1.0, seconds, [cell], [SuiteSkip("m", "M", "no")])


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(tmp_path))
    return tmp_path


def folder(cache: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (cache / "selftest").iterdir()}


def test_a_record_is_written_whole(cache: Path) -> None:
    path = write_record(record(), OPTIONS)
    assert path.parent == cache / "selftest" and list(folder(cache)) == [path.name]
    assert json.loads(path.read_text())["seconds"] == 1.5


def half_then_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up in the middle of the write: half the bytes reach the file, then ENOSPC."""
    real = os.fdopen

    class HalfFull:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> HalfFull:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def fileno(self) -> int:
            return int(self.handle.fileno())

        def flush(self) -> None:
            self.handle.flush()

        def write(self, data: bytes) -> int:
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safe_files.os, "fdopen", lambda fd, *a, **k: HalfFull(real(fd, *a, **k)))


def test_a_full_disk_is_a_clear_error_and_the_earlier_record_stays_whole(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_record(record(), OPTIONS)
    before = folder(cache)
    half_then_full(monkeypatch)
    with pytest.raises(InputError) as failed:
        write_record(record(seconds=9.0), OPTIONS)
    message = str(failed.value)
    assert message.startswith(f"{path}: cannot write the selftest record: No space left on device"), message
    assert f"free space on the disk of {path.parent}, or set {CACHE_DIR_VARIABLE}" in message
    assert "then run `putnam selftest` again" in message and "nothing was written" in message
    assert folder(cache) == before, "no temporary file left, the earlier record unchanged"
    assert json.loads(path.read_text())["seconds"] == 1.5


def test_a_first_record_on_a_full_disk_leaves_no_file(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    half_then_full(monkeypatch)
    with pytest.raises(InputError, match="No space left on device"):
        write_record(record(), OPTIONS)
    assert folder(cache) == {}


def test_a_read_only_directory_is_a_clear_error(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As a read-only file system answers (the tests run as root, whom a mode does not stop): creating the
    temporary file fails with EROFS."""
    real = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real(path, flags, *args, **kwargs)

    (cache / "selftest").mkdir()
    monkeypatch.setattr(safe_files.os, "open", read_only)
    with pytest.raises(InputError) as failed:
        write_record(record(), OPTIONS)
    message = str(failed.value)
    assert "cannot write the selftest record: Read-only file system" in message and "selftest/rocq-" in message
    assert f"make {cache / 'selftest'} writable by this user, or set {CACHE_DIR_VARIABLE}" in message
    monkeypatch.undo()
    assert folder(cache) == {}


def test_a_file_where_the_records_folder_belongs_is_a_clear_error(cache: Path) -> None:
    (cache / "selftest").write_text("not a folder")
    with pytest.raises(InputError) as failed:
        write_record(record(), OPTIONS)
    message = str(failed.value)
    assert "cannot write the selftest record" in message and "is a link or not a directory" in message
    assert f"set {CACHE_DIR_VARIABLE} to a directory of your own" in message
    assert (cache / "selftest").read_text() == "not a folder"


def test_the_gates_reader_accepts_exactly_the_judgements_the_writer_makes() -> None:
    """The trusted reader holds a stored cell of any other judgement for a damaged record: the two must agree."""
    assert {cell.value for cell in Cell} == JUDGEMENTS
