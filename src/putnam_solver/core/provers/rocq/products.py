"""What the compiled Rocq gates make for each other, each once per verification (``core.artifacts``).

- ``CANDIDATE_VO``: the candidate compiled by coqc (G4's run; G5, G6 and the answer check use its ``.vo``).
- ``REFERENCE_VO``: the reference module, derived from the pinned statement alone. It depends only on
  trusted inputs, so it is also kept across verifications: in the cache directory, under a key that
  hashes its source, the module name, the toolchain's identity (coqc's version and hash, coqchk's, and
  the size and modification time of every file of the Coq library it loads) and the gates' code
  (``core.pinned_store``, shared with the Lean challenge build: an entry whose bytes do not hash to its
  header is built again and replaced, never used). Nothing derived from a candidate is kept across
  verifications.

The candidate's compile and the reference's overlap: the pipeline starts both (``Gate.needs``) when the
compiled gates begin.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

from putnam_solver.core.artifacts import Artifact
from putnam_solver.core.gatekit import sandbox_limits
from putnam_solver.core.pinned_store import building, entry_path, read_entry, write_entry
from putnam_solver.core.provers.rocq.build import CANDIDATE, REFERENCE, Built, build, kept_dir
from putnam_solver.core.provers.rocq.challenge import reference_source, statement_of
from putnam_solver.core.provers.rocq.toolchain import COQC, find_tool, toolchain_fingerprint
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.verify import GateResult, GateStatus, Submission, Track

PINNED_DIR = "rocq-pinned"
"""The folder of the cache directory holding compiles of pinned statements."""


def candidate_vo(sub: Submission) -> Built:
    return build(sub, CANDIDATE, sub.candidate, candidate=True)


def reference_vo(sub: Submission) -> Built:
    return build_pinned(sub, REFERENCE, reference_source(statement_of(sub.problem)))


CANDIDATE_VO: Artifact[Built] = Artifact("rocq.candidate", candidate_vo)
REFERENCE_VO: Artifact[Built] = Artifact("rocq.reference", reference_vo, pinned=True)


def build_pinned(sub: Submission, module: str, source: str) -> Built:
    """``build`` for a file derived from the pinned statement alone, kept in the cache directory (see the
    module docstring); a cached ``.vo`` is copied into this verification's own folder and used from there."""
    coqc = find_tool(COQC, sub.options)
    entry = _entry(sub, module, source)
    limit = sandbox_limits(sub.options).disk_bytes
    with building(entry):
        stored = read_entry(entry, limit, sub.options.kept_builds)
        if stored is not None and set(stored) == {module}:
            data = stored[module]
            kept = kept_dir(sub) / f"{module}.vo"
            kept.unlink(missing_ok=True)
            kept.write_bytes(data)
            return Built(module, None, kept, hashlib.sha256(data).hexdigest(), coqc)
        built = build(sub, module, source)
        if built.judgement(sub) is None and built.vo is not None:
            with contextlib.suppress(OSError, UnsafeFile):  # a lost cache entry costs the next one a compile
                write_entry(entry, {module: read_regular_file(built.vo, limit)})
        return built


def _entry(sub: Submission, module: str, source: str) -> Path:
    key = {
        "module": module,
        "source_sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
        "toolchain": toolchain_fingerprint(sub.options),
    }
    return entry_path(PINNED_DIR, key, f"{module}.vo", producer=build_pinned)


def compiled_candidate(sub: Submission, gate: tuple[str, str]) -> Built | GateResult:
    """The candidate's ``.vo``, or the result that says why it is missing."""
    candidate = sub.artifacts.get(CANDIDATE_VO, sub)
    judged = candidate.judgement(sub)
    if judged is not None:
        return GateResult(*gate, judged[0], f"the candidate does not compile: {judged[1]}", candidate.evidence())
    return candidate


def prerequisites(sub: Submission, gate: tuple[str, str]) -> tuple[Built, Built] | GateResult:
    """The candidate's and the reference's ``.vo``, or the result that says why they are missing."""
    candidate = compiled_candidate(sub, gate)
    if isinstance(candidate, GateResult):
        return candidate
    reference = compiled_reference(sub, gate)
    if isinstance(reference, GateResult):
        return reference
    return candidate, reference


def compiled_reference(sub: Submission, gate: tuple[str, str]) -> Built | GateResult:
    """The reference's compile, or the ``error`` of ``gate`` that says it failed."""
    reference = sub.artifacts.get(REFERENCE_VO, sub)
    judged = reference.judgement(sub)
    if judged is None and reference.vo is not None:
        return reference
    # the reference holds the official solution, which coqc's message may quote: on no-answer that
    # message stays in the evidence (harness-side), out of the detail that models are shown
    why = "its .vo is missing" if judged is None else judged[1]
    if sub.track is not Track.WITH_ANSWER:
        why = "coqc's message is in the evidence"
    detail = f"the harness's reference module does not compile: {why}"
    return GateResult(*gate, GateStatus.ERROR, detail, reference.evidence())
