"""``putnam export``: a run's passes as a proof bundle (``bundles``) and as a PutnamBench proof folder.

Everything comes from the ledger alone. Per problem the newest verified pass is exported (its stored
verdict accepted exactly its stored bytes); a pass whose newest audit did not confirm it is left out and
named, never silently dropped. The bundle states the claim and its evidence; it does not have to be
trusted: ``putnam verify --bundle`` checks it against the checker's own benchmark file.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver import __version__
from putnam_solver.bundles import (
    FORMAT,
    INDEX,
    VERSION,
    BundleError,
    challenge_name,
    is_archive_name,
    proof_name,
    verdict_name,
    write_bundle,
)
from putnam_solver.core.provers import Prover
from putnam_solver.core.util import InputError
from putnam_solver.directories import check_directory
from putnam_solver.run.audit import run_toolchains
from putnam_solver.run.campaign import StoredSettings, required_settings
from putnam_solver.run.ledger import LEDGER_NAME, AttemptRow, AuditRow, Ledger, LedgerError, ProblemRow, now
from putnam_solver.run.ledger_checks import check_attempts
from putnam_solver.run.report.evidence import run_prover
from putnam_solver.run.report.tables import audit_summary
from putnam_solver.safe_write import check_output_file, write_under
from putnam_solver.withheld import no_answer_view

TOOL_EVIDENCE = ("tools", "toolchain", "coq_version", "comparator_rev", "fingerprint", "client", "environment")
"""Evidence keys of a gate that name the tools it ran (paths, hashes, versions, pinned revisions)."""


@dataclass(frozen=True)
class ExportOutcome:
    """What was exported where, and each pass left out with why."""

    problems: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]
    bundle: Path | None
    proofs: Path | None


@dataclass(frozen=True)
class _Pass:
    attempt: AttemptRow
    audit: AuditRow | None
    toolchain: str | None


def export_run(run_dir: Path, bundle: Path | None = None, proofs: Path | None = None) -> ExportOutcome:
    """Write the bundle (a directory, or an archive when ``bundle`` ends in .tar.gz) and/or the proof
    folder (one ``<problem><suffix>`` per problem). Raises InputError when there is nothing to export or
    a target exists."""
    if bundle is None and proofs is None:
        raise InputError("say where to export: -o BUNDLE (a directory or .tar.gz) and/or --proofs DIR")
    if not (run_dir / LEDGER_NAME).is_file():
        raise InputError(f"{run_dir}: no run here (no {LEDGER_NAME}); give the directory `putnam solve` wrote")
    for target in (bundle, proofs):
        if target is not None and (target.is_symlink() or (target.exists() and not _empty_dir(target))):
            raise InputError(f"{target}: already exists; choose another path or remove it")
    if bundle is not None:
        if is_archive_name(bundle):
            check_output_file(bundle, "-o", "bundle.tar.gz")
        else:
            check_directory(bundle, f"-o {bundle}")
    if proofs is not None:
        check_directory(proofs, f"--proofs {proofs}")
    try:
        settings, prover, chosen, skipped, problems = _read(run_dir)
    except LedgerError as exc:
        raise InputError(str(exc)) from exc
    if not chosen:
        why = "; ".join(f"{p}: {w}" for p, w in skipped)
        raise InputError(f"{run_dir}: no verified pass to export{f' ({why})' if why else ''}")
    if bundle is not None:
        if bundle.exists():
            bundle.rmdir()  # empty, checked above
        try:
            write_bundle(bundle, _bundle_files(settings, prover, chosen, problems))
        except BundleError as exc:
            raise InputError(str(exc)) from exc
    if proofs is not None:
        _write_proofs(proofs, {f"{p.attempt.problem}{prover.suffix}": _candidate(p) for p in chosen})
    return ExportOutcome(tuple(p.attempt.problem for p in chosen), tuple(skipped), bundle, proofs)


def _read(run_dir: Path) -> tuple[StoredSettings, Prover, list[_Pass], list[tuple[str, str]], dict[str, ProblemRow]]:
    """What the export needs from the ledger: settings, prover, the passes chosen and left out, problems."""
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        settings = required_settings(ledger, "export")
        check_attempts(ledger, settings)
        return settings, run_prover(settings), *_passes(ledger), ledger.problems()
    finally:
        ledger.close()


def _passes(ledger: Ledger) -> tuple[list[_Pass], list[tuple[str, str]]]:
    """Per problem its newest verified pass whose newest audit (if any) accepted its bytes."""
    latest = ledger.latest_audits()
    toolchain = run_toolchains(ledger)
    by_problem: dict[str, list[AttemptRow]] = {}
    for attempt in ledger.attempts():
        if attempt.status == "passed":
            by_problem.setdefault(attempt.problem, []).append(attempt)
    chosen: list[_Pass] = []
    skipped: list[tuple[str, str]] = []
    for problem in sorted(by_problem):
        backed = sorted((a for a in by_problem[problem] if a.verified_pass), key=lambda a: a.campaign, reverse=True)
        if not backed:
            skipped.append((problem, "marked passed, but its stored verdict is not for its stored bytes"))
            continue
        good = [a for a in backed if _audit_ok(a, latest.get(a.id))]
        if not good:
            audit = latest[backed[0].id]
            state = (
                "of other bytes"
                if audit.candidate_sha256 != backed[0].candidate_sha256
                else "of another problem"
                if audit.verdict.get("problem") != problem
                else audit_summary(audit)
            )
            skipped.append((problem, f"its newest audit ({audit.audited_at}) is {state}; `putnam audit` says why"))
            continue
        chosen.append(_Pass(good[0], latest.get(good[0].id), toolchain(good[0])))
    return chosen, skipped


def _audit_ok(attempt: AttemptRow, audit: AuditRow | None) -> bool:
    return audit is None or audit.confirms(attempt)


def _bundle_files(
    settings: StoredSettings, prover: Prover, chosen: list[_Pass], problems: dict[str, ProblemRow]
) -> dict[str, bytes]:
    """The bundle's files (without the manifest, which ``write_bundle`` adds)."""
    config = settings.config
    files: dict[str, bytes] = {}
    entries = []
    tools: list[Any] = []
    for p in chosen:
        attempt, recorded = p.attempt, p.attempt.verdict or {}
        # A bundle leaves the harness: on no-answer its verdicts are shown as every interface shows them
        # (the official answers, the answer check and the gates' evidence about the reference stay out).
        verdict = no_answer_view(recorded)
        pid = attempt.problem
        files[proof_name(pid, prover.suffix)] = _candidate(p)
        if (stored := problems.get(pid)) is not None:
            files[challenge_name(pid, prover.suffix)] = stored.challenge.encode("utf-8")
        audit = _audit_record(p.audit)
        files[verdict_name(pid)] = _dump({"problem": pid, "submission": verdict, "audit": audit})
        used = tools_used(recorded)
        tools += [used] if used not in tools else []
        entries.append(
            {
                "problem": pid,
                "campaign": attempt.campaign,
                "recorded_at": attempt.recorded_at,
                "candidate_sha256": attempt.candidate_sha256,
                "statement_sha256": verdict.get("statement_sha256"),
                "challenge_sha256": verdict.get("challenge_sha256"),
                "claimed": verdict.get("status"),
                "profile": verdict.get("profile"),
                "audit": p.audit.status if p.audit else None,
                "audited_at": p.audit.audited_at if p.audit else None,
                "toolchain": p.toolchain,
                "axle_request_ids": axle_request_ids(recorded, p.audit.verdict if p.audit else None),
                "proof": proof_name(pid, prover.suffix),
                "verdict": verdict_name(pid),
            }
        )
    index = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": now(),
        "putnam_version": __version__,
        "prover": prover.name,
        "track": config.track.value,
        "benchmark": {
            "name": settings.selection.benchmark.name,
            "sha256": settings.benchmark_sha256,
            "pin": settings.pin,
        },
        "acceptance": {
            "profile": config.acceptance_profile.value,
            "axle": config.axle,
            "kernels": list(config.kernels),
            "allow_recursion": config.allow_recursion,
            "unsafe_no_sandbox": config.unsafe_no_sandbox,
        },
        "run": {"model": config.model, "agent": config.agent, "reviewer": config.reviewer_model},
        "toolchain": {
            "fingerprints": sorted({p.toolchain for p in chosen if p.toolchain}),
            "pins": dict(prover.pins),
            "tools": tools,
        },
        "problems": entries,
    }
    files[INDEX] = _dump(index)
    return files


def tools_used(verdict: dict[str, Any]) -> dict[str, Any]:
    """Per gate, the evidence that names the tools it ran (``TOOL_EVIDENCE``)."""
    used: dict[str, Any] = {}
    for gate in verdict.get("gates", []):
        evidence = gate.get("evidence") or {}
        picked = {k: evidence[k] for k in TOOL_EVIDENCE if k in evidence}
        if picked:
            used[str(gate.get("id"))] = picked
    return used


def axle_request_ids(*verdicts: dict[str, Any] | None) -> list[str]:
    """The AXLE request ids G7 recorded in these verdicts (submission, audit)."""
    ids = []
    for verdict in verdicts:
        for gate in (verdict or {}).get("gates", []):
            request = (gate.get("evidence") or {}).get("request_id")
            if gate.get("id") == "G7" and request:
                ids.append(str(request))
    return ids


def _audit_record(audit: AuditRow | None) -> dict[str, Any] | None:
    if audit is None:
        return None
    return {
        "audited_at": audit.audited_at,
        "status": audit.status,
        "toolchain": audit.toolchain,
        "toolchain_changed": audit.toolchain_changed,
        "benchmark_sha256": audit.benchmark_sha256,
        "verdict": no_answer_view(audit.verdict),
    }


def _candidate(p: _Pass) -> bytes:
    return (p.attempt.candidate or "").encode("utf-8")


def _write_proofs(target: Path, files: dict[str, bytes]) -> None:
    """The proof folder, written beside ``target`` and renamed into place (an empty one is replaced)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for name, data in sorted(files.items()):
            write_under(tmp, name, data)
        if target.exists():
            target.rmdir()
        os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _empty_dir(path: Path) -> bool:
    return path.is_dir() and not any(path.iterdir())


def _dump(value: Any) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True, default=str) + "\n").encode("utf-8")
