"""A run's evidence folders (``attempts/campaign-N/<problem>/``), derived from its ledger alone.

Every file is written with ``safe_write.write_under``: whatever the run directory holds (it may be
one handed over, with links planted in it), a file lands under the run directory and nowhere else. The
folders are derived from the ledger (which is synced to disk), so their files are written atomically but
not synced one by one: a ``kill -9`` cannot lose them, and after a power loss resume rebuilds them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from putnam_solver.core.benchmark import IDENTIFIER
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.util import InputError
from putnam_solver.run.ledger import AttemptRow, AuditRow, LedgerError, ProblemRow, SubAttemptRow
from putnam_solver.run.ledger_sketches import SketchRow
from putnam_solver.run.report.model_text import as_text
from putnam_solver.run.stored_settings import StoredSettings
from putnam_solver.safe_write import holds, write_under
from putnam_solver.terminal import terminal_text

TURNS_FILE = "turns.json"
COMPLETE_MARKER = "attempt.json"
"""Written last in an evidence folder: a folder without it is incomplete and is rewritten."""
AUDIT_FILE = "audit.json"


def run_prover(settings: StoredSettings) -> Prover:
    """The registered prover the run names (LedgerError when it names none): its suffix, gates and pins come
    from the registry, never from the ledger (a suffix the ledger holds would become part of file names)."""
    try:
        return get_prover(settings.config.prover)
    except InputError as exc:
        raise LedgerError(f"the run's settings name no registered prover ({exc})") from exc


def prover_suffix(settings: StoredSettings) -> str:
    """The suffix of the run's candidate files (``run_prover``)."""
    return run_prover(settings).suffix


def evidence_dir(campaign: int, problem: str, sample: int = 1) -> Path:
    """Where an attempt's evidence lives, relative to the run directory: ``attempts/campaign-N/<problem>/``
    for sample 1 (every attempt of a run without ``--samples``), ``.../<problem>/sample-<n>/`` for the
    others. The ledger's rows are checked as they are read (``ledger_rows``); this checks again, since the
    folder's name is made of them."""
    if not isinstance(campaign, int) or not IDENTIFIER.fullmatch(problem):
        raise LedgerError(f"campaign {campaign!r}, problem {problem!r}: not a campaign number and problem id")
    if not isinstance(sample, int) or isinstance(sample, bool) or sample < 1:
        raise LedgerError(f"campaign {campaign}, problem {problem}: sample {sample!r} is not a sample number")
    folder = Path("attempts") / f"campaign-{campaign}" / problem
    return folder if sample == 1 else folder / f"sample-{sample}"


def attempt_dir(row: AttemptRow) -> Path:
    """The evidence folder of a stored attempt (``evidence_dir`` of its campaign, problem and sample)."""
    return evidence_dir(row.campaign, row.problem, row.sample)


def write_audit_file(run_dir: Path, row: AttemptRow, audit: AuditRow) -> None:
    """``audit.json`` in the attempt's evidence folder: its newest audit, as the ledger holds it."""
    record = {
        "audit_id": audit.id,
        "audited_at": audit.audited_at,
        "status": audit.status,
        "candidate_sha256": audit.candidate_sha256,
        "matches_stored_candidate": audit.candidate_sha256 == row.candidate_sha256,
        "toolchain": audit.toolchain,
        "toolchain_changed": audit.toolchain_changed,
        "benchmark_sha256": audit.benchmark_sha256,
        "verdict": audit.verdict,
    }
    _put(run_dir, attempt_dir(row) / AUDIT_FILE, _json(record))


def write_evidence(
    run_dir: Path,
    row: AttemptRow,
    problem: ProblemRow | None,
    suffix: str,
    turns: Sequence[dict[str, Any]] = (),
) -> None:
    """Write one attempt's evidence folder; ``attempt.json`` goes last and marks it complete.

    ``turns`` is the attempt's turn log as the ledger keeps it (``turns.json``).

    The folder is derived from the ledger (which is synced to disk), so its files are written atomically
    but not synced one by one: a ``kill -9`` cannot lose them, and after a power loss resume rebuilds
    them from the ledger.
    """
    folder = attempt_dir(row)
    if row.candidate is not None:
        _put(run_dir, folder / f"candidate{suffix}", row.candidate.encode("utf-8"))
    if problem is not None:
        _put(run_dir, folder / f"challenge{suffix}", problem.challenge.encode("utf-8"))
    if row.verdict is not None:
        _put(run_dir, folder / "verdict.json", _json(row.verdict))
        _put(run_dir, folder / "gates.log", _gates_log(row.verdict).encode("utf-8"))
    _put(run_dir, folder / TURNS_FILE, _json(list(turns)))
    record = {
        "campaign": row.campaign,
        "problem": row.problem,
        "sample": row.sample,
        "status": row.status,
        "verified_pass": row.verified_pass,
        "turns": row.turns,
        "input_tokens": row.input_tokens,
        "output_tokens": row.output_tokens,
        "cost_dollars": row.cost_dollars,
        "candidate_sha256": row.candidate_sha256,
        "challenge_sha256": problem.challenge_sha256 if problem else None,
        "reviewer_feedback": row.reviewer_feedback,
        "error": row.error,
        "transcript": row.transcript,
    }
    _put(run_dir, folder / COMPLETE_MARKER, _json(record))


def _gates_log(verdict: dict[str, Any]) -> str:
    """``gates.log``: the verdict's line, then a line per gate with its evidence indented under it.

    Read with ``cat`` or ``tail``, so every value is shown as text (``terminal.terminal_text``) and each line
    of a value after its first is indented under its gate: the tools' text is the candidate's to choose
    (coqc prints a ``fail "..."`` message as it is), and before, ``ESC [1A ESC [2K`` in it erased the
    verdict's first line, ``<problem>: rejected``, writing ``accepted`` there, and a line break in coqc's
    stderr wrote a ``G6 ...: passed`` line of a gate that never ran (red team round 6)."""
    lines = [_shown(f"{verdict.get('problem')}: {verdict.get('status')} (profile {verdict.get('profile')})", "")]
    for gate in verdict.get("gates", []):
        lines.append(_shown(f"{gate['id']} {gate['name']}: {gate['status']}: {gate['detail']}", "    "))
        for key, value in sorted(gate.get("evidence", {}).items()):
            lines.append(_shown(f"    {key}: {value}", "        "))
    return "\n".join(lines) + "\n"


def _shown(text: str, indent: str) -> str:
    """``text`` as lines of gates.log: control characters as escapes, each line after the first indented."""
    return f"\n{indent}".join(terminal_text(text).split("\n"))


def _put(run_dir: Path, relative: Path, data: bytes) -> None:
    """Write ``data`` at ``relative`` unless the file there holds exactly it (``holds``: a regular file, not a
    link). Evidence is derived from the ledger every time the outputs are written: a folder handed over with
    its marker was kept as it was, so a shipped ``verdict.json`` saying ``accepted`` (and ``gates.log``, the
    candidate) stood beside the ledger's rejection, linked from ``report.html`` (red team round 10)."""
    if not holds(run_dir / relative, data):
        write_under(run_dir, relative, data)


TEMPORARY = re.compile(r"\..+\.[0-9a-f]{16}")
"""The name ``write_below`` gives the temporary it renames over ``NAME``: ``.NAME.`` and 16 hexadecimal
digits. Only those are stale writes of ours: a ``.gitignore`` or any other file a user keeps in the run
directory is not (red team round 5: a resume deleted every regular file whose name starts with a dot)."""


def remove_stale_temporaries(run_dir: Path) -> list[Path]:
    """Delete the temporary files of atomic writes a killed process left behind (``.NAME.random``).

    Only call this while holding the run directory's lock: then no writer of ours is running. The
    agent's ``work/`` and ``logs/`` folders are not ours and are left alone.
    """
    places = [
        run_dir,
        run_dir / "selections",
        *(run_dir / "attempts").glob("campaign-*/*"),
        *(run_dir / "attempts").glob("campaign-*/*/lemmas/*"),
    ]
    own = [place for place in places if _no_links(run_dir, place)]
    stale = [
        p
        for place in own
        for p in place.glob(".*")
        if TEMPORARY.fullmatch(p.name) and p.is_file() and not p.is_symlink()
    ]
    for path in stale:
        path.unlink()
    return stale


SUBATTEMPT_MARKER = "subattempt.json"


def subattempt_dir(row: SubAttemptRow) -> Path:
    """Where a sub-attempt's evidence lives: under its attempt's folder."""
    name = "".join(c if c.isalnum() or c in "_-" else "_" for c in row.lemma)[:80] or "lemma"
    return evidence_dir(row.campaign, row.problem) / "lemmas" / f"{row.id}-{name}"


def write_subattempt_evidence(run_dir: Path, row: SubAttemptRow, suffix: str) -> None:
    """A sub-attempt's folder: its lemma's statement file, the file it submitted last, the proved lemma's
    text, its verdict and gates; ``subattempt.json`` last."""
    folder = subattempt_dir(row)
    _put(run_dir, folder / f"statement{suffix}", row.statement.encode("utf-8"))
    if row.candidate is not None:
        _put(run_dir, folder / f"candidate{suffix}", row.candidate.encode("utf-8"))
    if row.proved and row.lemma_text:
        _put(run_dir, folder / f"lemma{suffix}", row.lemma_text.encode("utf-8"))
    if row.verdict is not None:
        _put(run_dir, folder / "verdict.json", _json(row.verdict))
        _put(run_dir, folder / "gates.log", _gates_log(row.verdict).encode("utf-8"))
    record = {
        "campaign": row.campaign,
        "problem": row.problem,
        "attempt": row.parent,
        "lemma": row.lemma,
        "status": row.status,
        "proved": row.proved,
        "turns": row.turns,
        "input_tokens": row.input_tokens,
        "output_tokens": row.output_tokens,
        "cost_dollars": row.cost_dollars,
        "statement_sha256": row.statement_sha256,
        "candidate_sha256": row.candidate_sha256,
        "error": row.error,
    }
    _put(run_dir, folder / SUBATTEMPT_MARKER, _json(record))


def write_agent_evidence(
    run_dir: Path,
    attempts: Sequence[AttemptRow],
    notes: dict[int, dict[str, str]],
    subattempts: Sequence[SubAttemptRow],
    suffix: str,
    sketches: Sequence[SketchRow] = (),
) -> None:
    """The parts of the evidence only the react worker produces: each attempt's plan (``plan.md``) and each
    sub-attempt's folder where missing, and the sketches of each (campaign, problem, sample) in
    ``sketch.md``, written again when the ledger holds more of them."""
    for row in attempts:
        plan = notes.get(row.id, {}).get("plan")
        path = attempt_dir(row) / "plan.md"
        if plan and not holds(run_dir / path, shown := plan_markdown(plan).encode("utf-8")):
            write_under(run_dir, path, shown)
    slots: dict[tuple[int, str, int], list[SketchRow]] = {}
    for sketch in sketches:
        slots.setdefault((sketch.campaign, sketch.problem, sketch.sample), []).append(sketch)
    for (campaign, problem, sample), made in slots.items():
        path = run_dir / evidence_dir(campaign, problem, sample) / "sketch.md"
        text = sketch_markdown(made).encode("utf-8")
        if not holds(path, text):  # a resumed attempt may have sketched since
            write_under(run_dir, path.relative_to(run_dir), text)
    for sub in subattempts:
        write_subattempt_evidence(run_dir, sub, suffix)


def plan_markdown(plan: str) -> str:
    """``plan.md``: the react worker's plan, the model's text shown as text (``model_text.as_text``)."""
    return f"# Plan\n\nThe worker's own plan, as it wrote it (model text, not a result):\n\n{as_text(plan)}"


def sketch_markdown(sketches: Sequence[SketchRow]) -> str:
    """``sketch.md``: every sketch call of one attempt's slot, in the order made (an interrupted run of the
    attempt's first), each with its informal proof, skeleton and holes; the model's texts shown as text
    (``model_text.as_text``)."""
    parts = []
    for row in sketches:
        holes = "not checked" if row.holes is None else f"{row.proved or 0} of {row.holes} holes proved"
        pasted = "; pasted together, it passed the fast gates" if row.assembled_sha256 else ""
        parts.append(
            f"# Sketch {row.call_index} of attempt {row.attempt_key} ({holes}{pasted})\n\n## Informal proof\n\n"
            f"{as_text(row.informal_proof)}\n## Skeleton\n\n{as_text(row.skeleton)}"
        )
    return "\n".join(parts)


def _no_links(run_dir: Path, place: Path) -> bool:
    """``place`` is a directory under ``run_dir`` reached through no link (a planted link to a folder of
    the user's must not make its dot-files look like our stale temporaries)."""
    parts = place.relative_to(run_dir).parts
    on_way = [run_dir.joinpath(*parts[: k + 1]) for k in range(len(parts))]
    return place.is_dir() and not any(p.is_symlink() for p in on_way)


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True, default=str) + "\n").encode("utf-8")
