"""What ``putnam doctor`` and ``putnam policy`` say of the installed Rocq toolchain: its tools, version,
libraries and known kernel bugs. Reports only: the gates find and identify the same tools themselves
(``core.provers.rocq.toolchain``) and apply the kernel-bug rules (``core.provers.rocq.kernel_bugs``)."""

from __future__ import annotations

from pathlib import Path

from putnam_solver.core.provers.rocq.kernel_bugs import Version, guard_bugs, known_kernel_bugs, parse_version
from putnam_solver.core.provers.rocq.toolchain import (
    BOOTSTRAP_HINT,
    COQC,
    COQCHK,
    ROCQ_VERSION,
    coq_library,
    optional_tool,
    tool_line,
)
from putnam_solver.core.verify import VerifyOptions

LIBRARIES = {
    "mathcomp (ssreflect)": ("user-contrib", "mathcomp", "ssreflect", "ssrnat.vo"),
    "mathcomp-analysis": ("user-contrib", "mathcomp", "analysis", "reals.vo"),
    "Coquelicot": ("user-contrib", "Coquelicot", "Coquelicot.vo"),
    "Coq Reals": ("theories", "Reals", "Reals.vo"),
}
"""One file of each library the statements import, under ``coqc -where``: present means installed."""


def kernel_bug_report(version: Version | None) -> str:
    """One line for ``putnam doctor`` and ``putnam policy``: how many known bugs, which guard bugs (a verdict
    records them as ``kernel_bugs.kernel_bug_evidence``)."""
    where = "unknown Coq version" if version is None else "Coq " + ".".join(map(str, version))
    bugs, guard = known_kernel_bugs(version), guard_bugs(version)
    if not bugs:
        return f"{where}: no known critical kernel bug"
    rule = (
        f"{len(guard)} guard checker bugs ({', '.join('rocq#' + b.issue for b in guard)}): candidate-defined "
        "recursion is refused unless --allow-recursion"
        if guard
        else "no guard checker bug: candidate recursion allowed"
    )
    return f"{where}: {len(bugs)} known critical kernel bugs; {rule}"


def rocq_status(options: VerifyOptions) -> list[tuple[str, bool, str]]:
    """``putnam doctor``'s Rocq checks: (check name, ok, detail with the fix when not ok)."""
    checks: list[tuple[str, bool, str]] = []
    coqc = optional_tool(COQC, options)
    version = tool_line(coqc, "--version") if coqc else None
    shown = f"{version} ({coqc.path})" if coqc and version else f"coqc not found; {BOOTSTRAP_HINT}"
    checks.append(("coqc", version is not None, shown))
    if version is not None:
        pinned = f"version {ROCQ_VERSION}" in version
        detail = f"Coq {ROCQ_VERSION}" if pinned else f"{version}; the gates and allow-list target {ROCQ_VERSION}"
        checks.append(("coq version", pinned, detail))
    coqchk = optional_tool(COQCHK, options)
    checks.append(("coqchk", coqchk is not None, str(coqchk.path) if coqchk else f"coqchk not found; {BOOTSTRAP_HINT}"))
    checks.append(("known kernel bugs", True, kernel_bug_report(parse_version(version))))
    where = coq_library(coqc) if coqc else None
    for name, parts in LIBRARIES.items():
        found = where is not None and Path(where, *parts).is_file()
        checks.append((name, found, "installed" if found else f"not found; {BOOTSTRAP_HINT}"))
    return checks
