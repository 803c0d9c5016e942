"""What every prover's installer speaks: a plan of steps, what ``putnam bootstrap`` was asked for, and
the one error type an install step raises."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class InstallError(Exception):
    """An install step could not finish; the message names the command, its output and what to do."""


class InstallStep(Protocol):
    """One step of a prover's install plan; it skips itself when already done."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def run(self, progress: Callable[[str], None]) -> None: ...


@dataclass(frozen=True)
class InstallRequest:
    """What ``putnam bootstrap`` was asked for; a prover refuses an option that does not apply to it
    rather than ignoring it silently."""

    directory: Path | None = None
    """Where the toolchain goes (None: the prover's default)."""
    build_mathlib: bool = False
    """Build the library from source rather than fetching a prebuilt cache."""
    nanoda: bool = False
    """Also build the optional external kernel."""
    toolchain: str | None = None
    """The release to install where a prover installs several side by side (Lean: ``v4.24.0``, the one a
    benchmark states); None: the prover's default."""

    def options_given(self) -> list[str]:
        """The command-line options that asked for something other than the defaults."""
        given = {"--dir": self.directory is not None, "--build-mathlib": self.build_mathlib, "--nanoda": self.nanoda}
        return [flag for flag, on in given.items() if on]
