"""Rocq's known critical kernel bugs per version, and what they make the gates refuse.

The table is data (``kernel_bugs.json`` beside this module), read from rocq-prover/rocq's
``dev/doc/critical-bugs.md``; this module only loads it and answers per Coq version. While the detected
Coq has guard-checker bugs, candidate recursion is refused (G3's words, G5's kernel terms).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources

Version = tuple[int, ...]
VERSION_LINE = re.compile(r"\bversion (\d+(?:\.\d+)*)")
TABLE = "kernel_bugs.json"


class BugClass(StrEnum):
    """What a candidate needs to write to reach a bug, which decides the rule that keeps it out."""

    GUARD = "guard"
    """A guard checker bug: exploited by a fixpoint or cofixpoint the candidate writes itself."""
    OTHER = "other"
    """Reached only through constructs the text gates refuse anyway (modules, primitives, plugins,
    universe-polymorphic or candidate-declared inductives, unsafe flags) or through the VM/native
    machines, which coqchk (G6) does not use and the harness's coqc runs leave off
    (``build.COQC_MACHINES_OFF``)."""


@dataclass(frozen=True)
class KernelBug:
    """One entry of Rocq's ``dev/doc/critical-bugs.md``: versions in ``[first, fixed)`` are affected."""

    issue: str
    title: str
    component: str
    bug_class: BugClass
    first: Version
    fixed: Version | None
    """The first release without the bug (None: not fixed yet)."""
    coqchk: bool
    """Whether coqchk (G6) shares the bug; if not, G6 catches what coqc let through."""

    def affects(self, version: Version) -> bool:
        return self.first <= version and (self.fixed is None or version < self.fixed)


def _version(text: str) -> Version:
    return tuple(int(p) for p in text.split("."))


@functools.cache
def kernel_bugs() -> tuple[KernelBug, ...]:
    """The table, as shipped with the package."""
    data = json.loads(resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8"))
    return tuple(
        KernelBug(
            issue=row["issue"],
            title=row["title"],
            component=row["component"],
            bug_class=BugClass(row["class"]),
            first=_version(row["first"]),
            fixed=None if row["fixed"] is None else _version(row["fixed"]),
            coqchk=bool(row["coqchk"]),
        )
        for row in data["bugs"]
    )


def parse_version(version_line: str | None) -> Version | None:
    """``The Coq Proof Assistant, version 8.16.1`` -> ``(8, 16, 1)``; None when there is no version."""
    found = VERSION_LINE.search(version_line or "")
    return _version(found.group(1)) if found else None


def known_kernel_bugs(version: Version | None) -> tuple[KernelBug, ...]:
    """The bugs that affect ``version``; an unknown version (no coqc, odd output) is affected by all."""
    return tuple(b for b in kernel_bugs() if version is None or b.affects(version))


def guard_bugs(version: Version | None) -> tuple[KernelBug, ...]:
    """The guard checker bugs of ``version``: while any exist, candidate-defined recursion is refused."""
    return tuple(b for b in known_kernel_bugs(version) if b.bug_class is BugClass.GUARD)


def kernel_bug_evidence(version: Version | None) -> dict[str, object]:
    """What every Rocq verdict records about the checker it trusted: its version and known bugs."""
    return {
        "coq_version": None if version is None else ".".join(map(str, version)),
        "known_kernel_bugs": [f"rocq#{b.issue} ({b.component})" for b in known_kernel_bugs(version)],
    }


def recursion_refused(allow_recursion: bool, version: Version | None) -> bool:
    """Candidate recursion is refused unless the user allowed it or this Coq has no known guard bug."""
    return not allow_recursion and bool(guard_bugs(version))


def guard_note(version: Version | None) -> str:
    """Why candidate recursion is refused, said once after the violations that name it."""
    where = "this Coq (version unknown)" if version is None else "Coq " + ".".join(map(str, version))
    issues = ", ".join(f"rocq#{b.issue}" for b in guard_bugs(version))
    return (
        f"recursion is refused because {where} has known guard checker bugs shared by coqc and coqchk "
        f"({issues}): prove with induction or library recursors instead; --allow-recursion lifts this "
        "rule at the user's risk"
    )
