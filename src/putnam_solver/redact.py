"""No path of the serving machine in what a service answers: ``putnam serve`` (``/verify``, its batch,
the Kimina endpoint, ``/ready``, errors) and ``putnam mcp``.

A verdict as the harness records it names where things are on this machine: the benchmark file, the tools
a gate ran (``argv``, ``tools.*.path``), the sandbox's workspace in a compiler's message, the cache. A
client needs none of it (the hashes identify what was judged) and a path tells a stranger about the
server's layout, its user and its temporary files. So every answer leaves through :class:`PathRedactor`:

- every occurrence of a directory of the server (the temporary directory, the verdict cache, the data and
  toolchain directories, each served benchmark's directory, this package, the Python environment, the
  home and working directories) becomes a placeholder (``<tmp>``, ``<cache>``, ``<benchmark>``, ...),
  the most specific one first;
- a value that is itself an absolute path (a tool's path, an ``argv`` entry) keeps only its file name.

It is a view, like ``withheld``'s: the ledger, the cache and the server's log keep the paths.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

import putnam_solver

_PATH_CHAR = r"[\w.+~-]"
_ABSOLUTE = re.compile(rf"(?:/{_PATH_CHAR}+)+/?")
_APP = "putnambench-solver"


def _forms(path: str | Path) -> set[str]:
    """A directory as written and as resolved (``/tmp`` may be a link), without a trailing slash."""
    given = os.path.abspath(os.path.expanduser(str(path)))
    return {given.rstrip("/"), os.path.realpath(given).rstrip("/")}


def server_directories(benchmarks: Iterable[Path] = (), cache: Path | None = None) -> dict[str, str]:
    """Each directory of this machine that an answer could name -> its placeholder."""
    named: list[tuple[str | Path | None, str]] = [
        (Path.cwd(), "<cwd>"),
        (Path.home(), "~"),
        (sys.prefix, "<python>"),
        (sys.base_prefix, "<python>"),
        (Path(putnam_solver.__file__).parent, "<package>"),
        (platformdirs.user_data_dir(_APP), "<data>"),
        (platformdirs.user_cache_dir(_APP), "<cache>"),
        (os.environ.get("PUTNAM_CACHE_DIR"), "<cache>"),
        (cache, "<cache>"),
        (os.environ.get("PUTNAM_TOOLCHAIN_DIR"), "<toolchain>"),
        (tempfile.gettempdir(), "<tmp>"),
        (os.environ.get("PUTNAM_BENCHMARK"), "<benchmark>"),
        *((path.parent, "<benchmark>") for path in benchmarks),
    ]
    directories: dict[str, str] = {}
    for path, placeholder in named:
        for form in _forms(path) if path else ():
            if form:  # never the root directory itself (an empty form)
                directories[form] = placeholder
    return directories


@dataclass(frozen=True)
class PathRedactor:
    """Replaces the server's directories (longest first) in every string of an answer."""

    directories: dict[str, str]
    _pattern: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    @classmethod
    def for_server(cls, benchmarks: Iterable[Path] = (), cache: Path | None = None) -> PathRedactor:
        """The directories of this server: its benchmark files' (each a path) and its verdict cache."""
        return cls(server_directories(benchmarks, cache))

    def __post_init__(self) -> None:
        ordered = sorted(self.directories, key=len, reverse=True)
        alternatives = "|".join(re.escape(d) for d in ordered)
        pattern = re.compile(f"(?:{alternatives})(?!{_PATH_CHAR})") if ordered else None
        object.__setattr__(self, "_pattern", pattern)

    def text(self, value: str) -> str:
        """``value`` with every server directory in it replaced by its placeholder."""
        pattern: re.Pattern[str] | None = self._pattern
        if pattern is None or "/" not in value:
            return value
        return pattern.sub(lambda m: self.directories[m.group(0)], value)

    def value(self, value: Any) -> Any:
        """A JSON value with every string redacted; a string that is an absolute path keeps its file name."""
        if isinstance(value, str):
            if _ABSOLUTE.fullmatch(value):
                return os.path.basename(value.rstrip("/"))
            return self.text(value)
        if isinstance(value, dict):
            return {key: self.value(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.value(item) for item in value]
        return value


__all__ = ["PathRedactor", "server_directories"]
