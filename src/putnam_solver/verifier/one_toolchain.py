"""A verdict is kept (and counted) only when one toolchain made it: the one its cache key names.

The verdict cache's key holds the toolchain's fingerprint, which ``putnam verify`` and ``putnam serve`` read
before the gates run (to look the key up). A Coq or Lean replaced while the gates ran (an upgrade, a package
rebuilt, a binary swapped in place) judged the candidate, and the verdict was stored under the key of the
toolchain that was there before: from then on that toolchain's requests were answered by a verdict it never
made (red team round 7: a good proof rejected by a broken ``coqc`` swapped in for one verification stayed
``rejected (cached)`` after the good ``coqc`` was back). So the fingerprint is read again once the verdict is
made; when it differs, the verdict is not stored, and an acceptance is an ``error``: no single toolchain's
gates judged it, and none that a selftest passed is known to have. A rejection is shown as it is (it counts
for nothing) but is not stored either.

The check holds with or without a cache: ``putnam verify --no-cache`` reported an acceptance made across a
toolchain change as ``accepted`` (the fingerprints were read only to make a cache key). Reading a fingerprint
costs a stat of every library file the prover loads (``core.tree_state``: about 3 ms for Debian's Coq
library on an idle machine, tens of ms for a Mathlib-sized Lean one; tool hashes are remembered by file
identity, ``gatekit.file_sha256``), against seconds per verification.
"""

from __future__ import annotations

import dataclasses

from putnam_solver.core.gatekit import ToolWatch
from putnam_solver.core.provers import Prover
from putnam_solver.core.verdict import GateResult, GateStatus
from putnam_solver.core.verify import Verdict, VerifyOptions

MOVED_GATE = "G4"
"""The gate under which a verdict made across a toolchain change reports it (the compile: the first gate a
toolchain runs)."""


def on_one_toolchain(
    prover: Prover, options: VerifyOptions, before: str, verdict: Verdict, watch: ToolWatch
) -> tuple[Verdict, bool]:
    """``verdict`` and whether it may be stored under the key made with the fingerprint ``before``: as it is
    and True when the toolchain still has that fingerprint and no tool file hashed while ``watch`` (a
    ``gatekit.watched_tool_files`` block open around the gates) was written or replaced; else False, and an
    acceptance made an ``error`` by a gate result naming both fingerprints or the files (see the module's
    docstring). Call it inside the block: the fingerprint read here is the tools' last state.

    The fingerprint holds each tool's SHA-256, so a ``coqc`` replaced by another and put back while the
    gates ran (A, B, A) left it the same, and ``serve``, ``mcp`` and ``verify`` kept and stored an
    acceptance B's compile made as A's (red team 20); the states ``watch`` kept show the file rewritten."""
    now = prover.toolchain_fingerprint(options)
    rewritten = watch.rewritten()
    if now == before and not rewritten:
        return verdict, True
    if not verdict.accepted:
        return verdict, False
    what = f"before: {before}; after: {now}" if now != before else f"{', '.join(rewritten)} written or replaced"
    why = (
        f"the {prover.name} toolchain changed while this candidate was judged ({what}), "
        "so no single toolchain's gates made this verdict; verify it again"
    )
    evidence = {"toolchain": now, "toolchain_before": before, "rewritten": ", ".join(rewritten)}
    gate = GateResult(MOVED_GATE, "compile", GateStatus.ERROR, why, evidence)
    return dataclasses.replace(verdict, gates=[*verdict.gates, gate]), False
