"""The output files of a ``putnam solve`` run directory, derived from its ledger alone.

Nothing here holds state: every file is recomputed from the ledger and written atomically, so after a
``kill -9`` at any moment (even half-way through writing these files) running ``write_outputs`` again
gives exactly the files an uninterrupted run would have written.

Run directory layout::

    ledger.sqlite            the source of truth (see putnam_solver.run.ledger)
    run.json                 the settings the run was started (or last resumed) with
    SUMMARY.md               the result at a glance
    attempts.tsv             one line per attempt
    initial.txt              the problems selected for the run
    selections/campaign-N.txt  the problems campaign N ran
    unresolved.txt           selected problems without a verified pass
    attempts/campaign-N/<problem>/  evidence: candidate, challenge, verdict.json, gates.log, attempt.json
    logs/                    the agent layer's Inspect ``.eval`` transcripts
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from putnam_solver.core.answer_check import AnswerStatus, check_counts
from putnam_solver.core.util import write_atomic
from putnam_solver.run.ledger import AttemptRow, CampaignRow, Ledger, ProblemRow, Usage

ATTEMPT_COLUMNS = (
    "campaign",
    "problem",
    "status",
    "turns",
    "input_tokens",
    "output_tokens",
    "cost_dollars",
    "candidate_sha256",
    "candidate_path",
    "verdict",
)
COMPLETE_MARKER = "attempt.json"
"""Written last in an evidence folder: a folder without it is incomplete and is rewritten."""


def evidence_dir(campaign: int, problem: str) -> Path:
    """Where an attempt's evidence lives, relative to the run directory."""
    return Path("attempts") / f"campaign-{campaign}" / problem


def candidate_path(row: AttemptRow, suffix: str) -> str:
    """The candidate's path relative to the run directory ('' when the attempt submitted nothing)."""
    if row.candidate is None:
        return ""
    return str(evidence_dir(row.campaign, row.problem) / f"candidate{suffix}")


def verdict_summary(row: AttemptRow) -> str:
    """``accepted``, or the verdict status with the first gate that did not pass (``rejected:G3``)."""
    if row.verdict is None:
        return ""
    first = next((g for g in row.verdict.get("gates", []) if g.get("status") != "passed"), None)
    return f"{row.verdict_status}:{first['id']}" if first else row.verdict_status


def write_evidence(run_dir: Path, row: AttemptRow, problem: ProblemRow | None, suffix: str) -> None:
    """Write one attempt's evidence folder; ``attempt.json`` goes last and marks it complete.

    The folder is derived from the ledger (which is synced to disk), so its files are written atomically
    but not synced one by one: a ``kill -9`` cannot lose them, and after a power loss resume rebuilds
    them from the ledger.
    """
    folder = run_dir / evidence_dir(row.campaign, row.problem)
    if row.candidate is not None:
        write_atomic(folder / f"candidate{suffix}", row.candidate.encode("utf-8"), durable=False)
    if problem is not None:
        write_atomic(folder / f"challenge{suffix}", problem.challenge.encode("utf-8"), durable=False)
    if row.verdict is not None:
        write_atomic(folder / "verdict.json", _json(row.verdict), durable=False)
        write_atomic(folder / "gates.log", _gates_log(row.verdict).encode("utf-8"), durable=False)
    record = {
        "campaign": row.campaign,
        "problem": row.problem,
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
    write_atomic(folder / COMPLETE_MARKER, _json(record), durable=False)


def _gates_log(verdict: dict[str, Any]) -> str:
    lines = [f"{verdict.get('problem')}: {verdict.get('status')} (profile {verdict.get('profile')})"]
    for gate in verdict.get("gates", []):
        lines.append(f"{gate['id']} {gate['name']}: {gate['status']}: {gate['detail']}")
        for key, value in sorted(gate.get("evidence", {}).items()):
            lines.append(f"    {key}: {value}")
    return "\n".join(lines) + "\n"


def incomplete_evidence(run_dir: Path, rows: Iterable[AttemptRow]) -> list[AttemptRow]:
    return [r for r in rows if not (run_dir / evidence_dir(r.campaign, r.problem) / COMPLETE_MARKER).is_file()]


def remove_stale_temporaries(run_dir: Path) -> list[Path]:
    """Delete the temporary files of atomic writes a killed process left behind (``.NAME.random``).

    Only call this while holding the run directory's lock: then no writer of ours is running. The
    agent's ``work/`` and ``logs/`` folders are not ours and are left alone.
    """
    places = [run_dir, run_dir / "selections", *(run_dir / "attempts").glob("campaign-*/*")]
    stale = [p for place in places if place.is_dir() for p in place.glob(".*") if p.is_file()]
    for path in stale:
        path.unlink()
    return stale


def write_outputs(run_dir: Path, ledger: Ledger) -> None:
    """Regenerate every output file of the run from the ledger (and any missing evidence folder)."""
    settings = ledger.settings() or {}
    suffix = str(settings.get("suffix", ""))
    attempts = ledger.attempts()
    problems = ledger.problems()
    for row in incomplete_evidence(run_dir, attempts):
        write_evidence(run_dir, row, problems.get(row.problem), suffix)
    campaigns = ledger.campaigns()
    selected: list[str] = list(settings.get("selected", []))
    passed = {a.problem for a in attempts if a.verified_pass}
    unresolved = [p for p in selected if p not in passed]
    write_atomic(run_dir / "run.json", _json(settings))
    write_atomic(run_dir / "initial.txt", _lines(selected))
    for campaign in campaigns:
        write_atomic(run_dir / "selections" / f"campaign-{campaign.number}.txt", _lines(campaign.problems))
    write_atomic(run_dir / "unresolved.txt", _lines(unresolved))
    write_atomic(run_dir / "attempts.tsv", attempts_tsv(attempts, suffix).encode("utf-8"))
    outcome = json.loads(ledger.meta("outcome") or "null")
    text = summary_markdown(settings, campaigns, attempts, ledger.usage(), unresolved, outcome)
    write_atomic(run_dir / "SUMMARY.md", text.encode("utf-8"))


def attempts_tsv(attempts: Sequence[AttemptRow], suffix: str) -> str:
    lines = ["\t".join(ATTEMPT_COLUMNS)]
    for a in attempts:
        cells = (
            a.campaign,
            a.problem,
            a.status,
            a.turns,
            a.input_tokens,
            a.output_tokens,
            f"{a.cost_dollars:.6f}",
            a.candidate_sha256 or "",
            candidate_path(a, suffix),
            verdict_summary(a),
        )
        lines.append("\t".join(str(c) for c in cells))
    return "\n".join(lines) + "\n"


def summary_markdown(
    settings: dict[str, Any],
    campaigns: Sequence[CampaignRow],
    attempts: Sequence[AttemptRow],
    usage: Usage,
    unresolved: Sequence[str],
    outcome: dict[str, Any] | None,
) -> str:
    """SUMMARY.md. The ``Generated:`` line is the only one that depends on the clock."""
    config: dict[str, Any] = settings.get("config", {})
    selection: dict[str, Any] = settings.get("selection", {})
    selected = len(settings.get("selected", []))
    errata = selected_errata(settings)
    solved = [p for p in settings.get("selected", []) if p not in set(unresolved)]
    apart = [p for p in solved if any(e.get("defective") for e in errata.get(p, []))]
    passes = len(solved) - len(apart)
    share = f" ({100 * passes / selected:.1f}%)" if selected else ""
    if apart:
        share += f", plus {len(apart)} on statements known defective (counted apart: {', '.join(apart)})"
    pin = selection.get("pin")
    pinned = f"pinned as {pin}" if pin else "UNPINNED (no SHA-256 pin; results are not comparable)"
    limit = settings.get("campaigns", 0)
    state = (
        f"finished, exit code {outcome['exit_code']}: {outcome['message']}"
        if outcome
        else "in progress or interrupted (resume with --resume)"
    )
    rows = [
        ("Run", state),
        (
            "Benchmark",
            f"{_benchmark_name(settings)}{selection.get('benchmark')} (sha256 "
            f"{selection.get('benchmark_sha256')}); {pinned}",
        ),
        ("Prover, track", f"{config.get('prover')}, {config.get('track')}"),
        ("Model", _model_line(config)),
        (
            "Acceptance gates",
            f"profile {config.get('acceptance_profile')}{' + AXLE' if config.get('axle') else ''}",
        ),
        ("Selected", str(selected)),
        ("Verified passes", f"{passes}{share}"),
        ("Unresolved", str(len(unresolved))),
        (
            "Campaigns",
            f"{len(campaigns)} of {limit or 'unlimited (until resolved or a run budget)'}; "
            + ("fresh restarts" if settings.get("fresh") else "best candidate and diagnostics carried forward"),
        ),
        ("Limits per attempt", _budget_line(config.get("budgets", {}), ATTEMPT_BUDGETS)),
        ("Limits per problem (all its attempts)", _budget_line(config.get("budgets", {}), PROBLEM_BUDGETS)),
        ("Limits per run", _run_limits_line(settings.get("limits", {}))),
        ("Attempts, turns", f"{usage.attempts} attempts, {usage.turns} turns"),
        ("Tokens", f"{usage.tokens:,} ({usage.input_tokens:,} input, {usage.output_tokens:,} output)"),
        ("Cost", f"${usage.cost_dollars:.2f}"),
    ]
    if config.get("track") == "no-answer":
        rows.append(("Answers of verified passes vs official", answer_check_line(attempts)))
    out = [
        "# putnam solve",
        "",
        f"Generated: {datetime.now(UTC).isoformat(timespec='seconds')}",
        "",
        "| | |",
        "|---|---|",
        *(f"| {k} | {_cell(v)} |" for k, v in rows),
        "",
        "A problem counts as passed only with a stored verdict in which every acceptance gate passed for",
        "exactly the candidate's bytes; evidence is under attempts/campaign-N/<problem>/.",
        "",
        "## Campaigns",
        "",
        "| campaign | problems | passed | attempts | tokens | cost |",
        "|---:|---:|---:|---:|---:|---:|",
        *_campaign_rows(campaigns, attempts),
        "",
        "## Unresolved",
        "",
        *(f"- {p}" for p in unresolved),
        *([] if unresolved else ["none"]),
        "",
        *errata_section(errata, set(solved), _benchmark_notes(settings)),
    ]
    return "\n".join(out)


def selected_errata(settings: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The benchmark record's errata (as the run recorded it) of the selected problems, by problem."""
    record = settings.get("benchmark", {}).get("record", {})
    chosen = set(settings.get("selected", []))
    found: dict[str, list[dict[str, Any]]] = {}
    for erratum in record.get("errata", []):
        if erratum.get("problem") in chosen:
            found.setdefault(erratum["problem"], []).append(erratum)
    return found


def errata_section(errata: dict[str, list[dict[str, Any]]], solved: set[str], notes: Sequence[str]) -> list[str]:
    """SUMMARY.md's list of the selected statements with known errata, and the benchmark's notes."""
    if not errata and not notes:
        return []
    lines = ["## Known defects of the selected statements", ""]
    for problem in sorted(errata):
        for e in errata[problem]:
            state = (
                "unresolved" if problem not in solved else "solved, counted apart" if e.get("defective") else "solved"
            )
            lines.append(f"- {problem} ({state}): {e.get('kind')}: {e.get('defect')} (source: {e.get('source')})")
    if not errata:
        lines.append("none listed in the benchmark's errata")
    lines += ["", *(f"Note: {n}" for n in notes), ""] if notes else [""]
    return lines


def _benchmark_name(settings: dict[str, Any]) -> str:
    label = settings.get("benchmark", {}).get("label")
    name = settings.get("benchmark", {}).get("name")
    return f"{label}: " if name and label else ""


def _benchmark_notes(settings: dict[str, Any]) -> list[str]:
    return [str(n) for n in settings.get("benchmark", {}).get("record", {}).get("notes", [])]


def answer_check_line(attempts: Iterable[AttemptRow]) -> str:
    """On no-answer: how many answers of verified passes were confirmed, differ, or stayed unknown."""
    counts = sum(
        (check_counts(a.verdict.get("answers", {})) for a in attempts if a.verified_pass and a.verdict), Counter()
    )
    return ", ".join(f"{counts[s]} {s}" for s in AnswerStatus) + " (answer check: a record, not a gate)"


def _campaign_rows(campaigns: Sequence[CampaignRow], attempts: Sequence[AttemptRow]) -> list[str]:
    rows = []
    for c in campaigns:
        mine = [a for a in attempts if a.campaign == c.number]
        tokens = sum(a.input_tokens + a.output_tokens for a in mine)
        cost = sum(a.cost_dollars for a in mine)
        passed = sum(a.verified_pass for a in mine)
        done = "" if c.finished else " (unfinished)"
        rows.append(f"| {c.number}{done} | {len(c.problems)} | {passed} | {len(mine)} | {tokens:,} | ${cost:.2f} |")
    return rows


def _model_line(config: dict[str, Any]) -> str:
    parts = [str(config.get("model"))]
    if config.get("reasoning_effort"):
        parts.append(f"reasoning effort {config['reasoning_effort']}")
    parts.append(f"reviewer {config.get('reviewer_model') or 'none'}")
    parts.append(f"agent {config.get('agent')}, {config.get('jobs')} jobs (fallback {config.get('fallback_jobs')})")
    return "; ".join(parts)


ATTEMPT_BUDGETS = {
    "max_turns": "turns",
    "worker_timeout_seconds": "worker seconds",
    "reviewer_timeout_seconds": "reviewer seconds",
}
PROBLEM_BUDGETS = {"token_limit": "tokens", "cost_limit_dollars": "dollars"}


def _budget_line(budgets: dict[str, Any], names: dict[str, str]) -> str:
    set_ = [f"{label} {budgets[key]}" for key, label in names.items() if budgets.get(key) is not None]
    return ", ".join(set_) or "none"


def _run_limits_line(limits: dict[str, Any]) -> str:
    parts = []
    if limits.get("max_tokens") is not None:
        parts.append(f"{limits['max_tokens']:,} tokens")
    if limits.get("max_cost_dollars") is not None:
        parts.append(f"${limits['max_cost_dollars']:.2f}")
    return ", ".join(parts) or "none"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _lines(items: Iterable[str]) -> bytes:
    return "".join(f"{i}\n" for i in items).encode("utf-8")


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True, default=str) + "\n").encode("utf-8")
