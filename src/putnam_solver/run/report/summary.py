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
    attempts/campaign-N/<problem>/  evidence: candidate, challenge, verdict.json, gates.log, turns.json,
                             attempt.json, and audit.json (the newest ``putnam audit`` of a pass); plan.md (the react
                             worker's plan), sketch.md (its sketches: informal proof, skeleton, holes proved) and
                             lemmas/<id>-<lemma>/ (a lemma sub-attempt: statement, candidate, lemma,
                             verdict.json, gates.log, subattempt.json); sample-<n>/ (the same for sample
                             n >= 2 of a run of ``--samples``)
    logs/                    the agent layer's Inspect ``.eval`` transcripts
    report.html              the HTML report: written at the end of ``putnam solve`` and by ``putnam report
                             RUN_DIR`` (putnam_solver.run.report.html), not here
    plotly-<version>.min.js  plotly's script, which report.html loads (written beside it, once)

A pass is *verified* when every acceptance gate passed for its bytes at submission, and *audited* when
``putnam audit`` re-verified it afresh (``putnam_solver.run.audit``); once an audit ran, SUMMARY.md's
headline counts audited passes.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from putnam_solver.core.answer_check import AnswerStatus
from putnam_solver.core.verdict import Track
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import Budgets, SolveConfig, recorded_opinion
from putnam_solver.run.ledger import LEDGER_NAME, AttemptRow, AuditRow, CampaignRow, Ledger, Usage
from putnam_solver.run.ledger_checks import check_attempts
from putnam_solver.run.ledger_rows import outcome_record
from putnam_solver.run.ledger_seals import NOTHING_VERIFIED, SampleTrust, sample_trust, sealed_attempts
from putnam_solver.run.pass_at_k import pass_at_k_section, run_pass_at_k
from putnam_solver.run.prices import cost_text, run_unpriced
from putnam_solver.run.report.data import spent_unpriced, unsealed_note, unsealed_solved
from putnam_solver.run.report.errata import (
    apart_note,
    counted_apart,
    disputed_attempts,
    disputed_section,
    errata_section,
    selected_errata,
)
from putnam_solver.run.report.evidence import (
    prover_suffix,
    write_agent_evidence,
    write_audit_file,
    write_evidence,
)
from putnam_solver.run.report.sketches import sketch_lines, sketch_section
from putnam_solver.run.report.tables import (
    acceptance_gates,
    attempts_tsv,
    cell,
    lemma_summary,
    lifted_audits,
    lifted_note,
    subattempts_tsv,
)
from putnam_solver.run.stored_settings import StoredBenchmark, StoredSettings, required_settings
from putnam_solver.safe_write import write_under

REPORT_FILE = "report.html"


def check_counts(answers: Mapping[str, Any]) -> Counter[str]:
    """How many of a verdict's answers have each status (answers without a check count as none)."""
    return Counter(a["check"]["status"] for a in answers.values() if isinstance(a, dict) and "check" in a)


def write_outputs(run_dir: Path, ledger: Ledger, fresh: Mapping[int, AuditRow] | None = None) -> None:
    """Regenerate every output file of the run from the ledger (and any missing evidence folder); ``fresh``:
    the audits ``putnam audit`` just made, which the outputs show whatever else the ledger holds."""
    settings = required_settings(ledger, "summarise")
    check_attempts(ledger, settings)
    attempts = ledger.attempts()
    audits = {**ledger.latest_audits(), **(fresh or {})}
    write_evidence_folders(run_dir, ledger, settings, audits)
    suffix = prover_suffix(settings)
    campaigns = ledger.campaigns()
    selected = settings.selected
    passed = {a.problem for a in attempts if a.verified_pass}
    unresolved = [p for p in selected if p not in passed]
    write_under(run_dir, "run.json", _json(settings.to_json()), durable=True)
    write_under(run_dir, "initial.txt", _lines(selected), durable=True)
    for campaign in campaigns:
        write_under(run_dir, f"selections/campaign-{campaign.number}.txt", _lines(campaign.problems), durable=True)
    write_under(run_dir, "unresolved.txt", _lines(unresolved), durable=True)
    every = ledger.every_attempt()
    subattempts = ledger.subattempts()
    sketches = ledger.sketches()
    tsv = attempts_tsv(every, suffix, audits) + subattempts_tsv(subattempts, suffix)
    write_under(run_dir, "attempts.tsv", tsv.encode("utf-8"), durable=True)
    outcome = outcome_record(ledger.meta("outcome"), f"{ledger.path}: outcome")
    unknown = spent_unpriced(ledger, settings, every)
    trust = sample_trust(ledger, settings.config.samples)
    usage = ledger.usage()
    text = summary_markdown(
        settings, campaigns, every, usage, unresolved, outcome, audits, unknown, trust, sealed=sealed_attempts(ledger)
    )
    if foreign := ledger.foreign_audits():
        text += (
            f"Not counted as audits: {foreign} audit rows of the ledger that this account's `putnam audit` did "
            "not write (edited, or made by another account or machine); `putnam audit RUN_DIR` re-verifies "
            "every pass.\n\n"
        )
    text += lemma_summary(subattempts, unknown)
    text += "".join(f"{line}\n" for line in sketch_section(sketch_lines(sketches, attempts)))
    write_under(run_dir, "SUMMARY.md", text.encode("utf-8"), durable=True)


def write_evidence_folders(
    run_dir: Path, ledger: Ledger, settings: StoredSettings, audits: Mapping[int, AuditRow]
) -> None:
    """Every attempt's evidence folder (with its newest audit's ``audit.json``) and the react worker's files,
    as the ledger says they are, whatever a run directory handed over holds there (``evidence._put``: each
    file written only where it differs)."""
    suffix = prover_suffix(settings)
    attempts = ledger.attempts()
    problems = ledger.problems()
    for row in attempts:
        write_evidence(run_dir, row, problems.get(row.problem), suffix, ledger.turns(row.id))
        if (audit := audits.get(row.id)) is not None:
            write_audit_file(run_dir, row, audit)
    write_agent_evidence(run_dir, attempts, ledger.attempt_notes(), ledger.subattempts(), suffix, ledger.sketches())


def refresh_evidence(run_dir: Path) -> None:
    """``write_evidence_folders`` for ``putnam report``, which links the folders from its page: a folder
    handed over with its marker was linked as it came (a shipped ``verdict.json`` or ``audit.json`` saying
    ``accepted`` beside the ledger's rejection, red team round 10)."""
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        settings = required_settings(ledger, "report")
        check_attempts(ledger, settings)
        write_evidence_folders(run_dir, ledger, settings, ledger.latest_audits())
    finally:
        ledger.close()


@dataclass(frozen=True)
class AuditState:
    """What ``putnam audit`` found, per selected problem with a verified pass."""

    audited: tuple[str, ...]
    """Problems whose verified pass's newest audit accepted exactly its stored bytes."""
    failed: tuple[tuple[AttemptRow, AuditRow], ...]
    """Verified passes whose newest audit did not accept them (and no other pass of theirs was audited)."""
    pending: tuple[str, ...]
    """Problems with a verified pass never audited."""
    changed_toolchain: int
    """Audited problems whose accepting audit ran on another toolchain than the run's."""
    last: str
    """When the newest audit ran ('' when none did)."""
    against: str = ""
    """The benchmark the newest audit judged against, pinned or not ('' for audits that did not say)."""
    lifted: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """Audited problems confirmed only by audits that lifted a rule (``tables.lifted_audits``)."""

    @property
    def ran(self) -> bool:
        return bool(self.last)


def audit_state(attempts: Sequence[AttemptRow], audits: Mapping[int, AuditRow], selected: Iterable[str]) -> AuditState:
    wanted = set(selected)
    passes: dict[str, list[AttemptRow]] = {}
    for a in attempts:
        if a.verified_pass and a.problem in wanted:
            passes.setdefault(a.problem, []).append(a)
    audited, pending, changed = [], [], 0
    failed: list[tuple[AttemptRow, AuditRow]] = []
    for problem in sorted(passes):
        judged = [(a, audits[a.id]) for a in passes[problem] if a.id in audits]
        good = [x for a, x in judged if x.confirms(a)]
        if good:
            audited.append(problem)
            changed += all(x.toolchain_changed for x in good)
        elif judged:
            failed.append(max(judged, key=lambda pair: pair[1].id))
        else:
            pending.append(problem)
    last = max((x.audited_at for x in audits.values()), default="")
    newest = max(audits.values(), key=lambda x: x.id, default=None)
    bench = (newest.verdict.get("audit") or {}).get("benchmark") if newest else None
    against = f"against {bench.get('pin') or 'an UNPINNED benchmark'}" if isinstance(bench, dict) else ""
    lifted = lifted_audits(attempts, audits, audited)
    return AuditState(tuple(audited), tuple(failed), tuple(pending), changed, last, against, lifted)


def summary_markdown(
    settings: StoredSettings,
    campaigns: Sequence[CampaignRow],
    attempts: Sequence[AttemptRow],
    usage: Usage,
    unresolved: Sequence[str],
    outcome: dict[str, Any] | None,
    audits: Mapping[int, AuditRow] | None = None,
    unknown: Sequence[str] = (),
    trust: SampleTrust = NOTHING_VERIFIED,
    *,
    sealed: frozenset[int],
) -> str:
    """SUMMARY.md. The ``Generated:`` line is the only one that depends on the clock; ``unknown``: the
    models without a price when some of the run's spend was counted (``data.spent_unpriced``); ``trust``:
    which problems' samples pass@k counts as verified, ``sealed`` which attempt rows this account's ``putnam
    solve`` sealed (``ledger_seals``)."""
    config = settings.config
    unknown = list(dict.fromkeys([*run_unpriced(config), *unknown]))
    chosen = settings.selected
    selected = len(chosen)
    errata = selected_errata(settings)
    defective = set(counted_apart(settings, (audits or {}).values()))
    solved = [p for p in chosen if p not in set(unresolved)]
    apart = [p for p in solved if p in defective]
    passes = len(solved) - len(apart)
    unsealed = unsealed_solved([p for p in solved if p not in apart], attempts, sealed)
    audit = audit_state(attempts, audits or {}, [p for p in chosen if p not in defective])
    pin = settings.pin
    pinned = f"pinned as {pin}" if pin else "UNPINNED (no SHA-256 pin; results are not comparable)"
    limit = settings.campaigns
    if outcome is None:
        state = "in progress, or killed (resume with --resume)"
    else:
        ended = "interrupted" if outcome["exit_code"] == ExitCode.INTERRUPTED else "finished"
        state = f"{ended}, exit code {outcome['exit_code']}: {outcome['message']}"
    rows = [
        ("Run", state),
        (
            "Benchmark",
            f"{_benchmark_name(settings.benchmark)}{settings.selection.benchmark} (sha256 "
            f"{settings.benchmark_sha256}); {pinned}",
        ),
        ("Prover, track", f"{config.prover}, {config.track.value}"),
        ("Model", _model_line(config)),
        ("Acceptance gates", acceptance_gates(config)),
        ("Toolchain", settings.toolchain or "not recorded"),
        ("Selected", str(selected)),
        (
            "Verified passes",
            f"{passes}{_share(passes, selected)}{apart_note(apart)}"
            + (f"; {unsealed_note(unsealed)}" if unsealed else ""),
        ),
        ("Audited passes", _audited_line(audit, selected)),
        ("Unresolved", str(len(unresolved))),
        (
            "Campaigns",
            f"{len(campaigns)} of {limit or 'unlimited (until resolved or a run budget)'}; "
            + ("fresh restarts" if settings.fresh else "best candidate and diagnostics carried forward"),
        ),
        ("Limits per attempt", _budget_line(config.budgets, ATTEMPT_BUDGETS)),
        ("Limits per problem (all its attempts)", _budget_line(config.budgets, PROBLEM_BUDGETS)),
        ("Limits per run", _run_limits_line(settings.limits)),
        ("Attempts, turns", f"{usage.attempts} attempts, {usage.turns} turns"),
        ("Tokens", f"{usage.tokens:,} ({usage.input_tokens:,} input, {usage.output_tokens:,} output)"),
        (
            "Cost",
            f"{cost_text(usage.cost_dollars, unknown)} (no price for {', '.join(unknown)} when some of its tokens "
            "were spent: they are not in it; `putnam solve --resume RUN_DIR --prices FILE` prices what follows)"
            if unknown
            else f"${usage.cost_dollars:.2f}",
        ),
    ]
    if config.track is Track.NO_ANSWER:
        rows.append(("Answers of verified passes vs official", answer_check_line(attempts)))
    disputes = disputed_attempts(attempts)
    if disputes:
        rows.append(("Disputed (not counted)", f"{len(disputes)}: {', '.join(disputes)}"))
    if config.reviewer_model:
        rows.append(reviewer_row(config.reviewer_veto, attempts, solved))
    out = [
        "# putnam solve",
        "",
        f"Generated: {datetime.now(UTC).isoformat(timespec='seconds')}",
        "",
        _headline(audit, passes, selected)
        + (f" Also solved, on statements known defective (counted apart): {', '.join(apart)}." if apart else ""),
        "",
        f"Report: [{REPORT_FILE}]({REPORT_FILE}) in this directory, written at the end of the run and by "
        "`putnam report RUN_DIR`.",
        "",
        "| | |",
        "|---|---|",
        *(f"| {k} | {cell(v)} |" for k, v in rows),
        "",
        "A problem counts as passed only with a stored verdict in which every acceptance gate passed for",
        "exactly the candidate's bytes; evidence is under attempts/campaign-N/<problem>/. Verified: accepted",
        "when it was submitted. Audited: re-verified afresh by `putnam audit RUN_DIR` (full profile, fresh",
        "sandbox, no cache, challenge derived again from the pinned benchmark).",
        "",
        "## Campaigns",
        "",
        "| campaign | problems | passed | attempts | tokens | cost |",
        "|---:|---:|---:|---:|---:|---:|",
        *_campaign_rows(campaigns, attempts, unknown),
        "",
        *pass_at_k_section(run_pass_at_k(settings, attempts, trust, defective)),
        *_audit_section(audit),
        "## Unresolved",
        "",
        *(f"- {p}" for p in unresolved),
        *([] if unresolved else ["none"]),
        "",
        *errata_section(errata, set(solved), settings.benchmark.notes),
        *disputed_section(disputes),
    ]
    return "\n".join(out)


def _benchmark_name(benchmark: StoredBenchmark) -> str:
    return f"{benchmark.label}: " if benchmark.name and benchmark.label else ""


def _share(count: int, total: int) -> str:
    return f" ({100 * count / total:.1f}%)" if total else ""


def _headline(audit: AuditState, passes: int, selected: int) -> str:
    """The result in one line: the audited count once an audit ran, else the verified count."""
    if not audit.ran:
        return (
            f"**Solved: {passes} of {selected}{_share(passes, selected)}**, verified at submission; not audited "
            "yet (`putnam audit RUN_DIR` re-verifies every pass afresh)."
        )
    extra = [f"{passes} verified at submission"]
    if audit.failed:
        extra.append(f"{len(audit.failed)} failed their audit")
    if audit.pending:
        extra.append(f"{len(audit.pending)} not audited yet")
    count, lifted = len(audit.audited), lifted_note(audit.lifted)
    return (
        f"**Solved: {count} of {selected}{_share(count, selected)}, audited** (re-verified afresh by "
        f"`putnam audit`, last on {audit.last}{f'; {lifted}' if lifted else ''}); {', '.join(extra)}."
    )


def _audited_line(audit: AuditState, selected: int) -> str:
    if not audit.ran:
        return "not audited yet (`putnam audit RUN_DIR`)"
    parts = [f"{len(audit.audited)}{_share(len(audit.audited), selected)}", *([audit.against] if audit.against else [])]
    if audit.lifted:
        parts.append(lifted_note(audit.lifted))
    if audit.changed_toolchain:
        parts.append(f"{audit.changed_toolchain} on a changed toolchain (--allow-toolchain-change)")
    if audit.failed:
        parts.append(f"{len(audit.failed)} failed their audit (see Audit)")
    if audit.pending:
        parts.append(f"{len(audit.pending)} not audited yet")
    return "; ".join(parts)


def _audit_section(audit: AuditState) -> list[str]:
    """Passes whose audit did not confirm them, each with why; nothing before any audit ran."""
    if not audit.ran:
        return []
    lines = ["## Audit", ""]
    for row, x in audit.failed:
        first = next((g for g in x.verdict.get("gates", []) if g.get("status") != "passed"), None)
        why = f"{first['id']} {first['name']} {first['status']}: {first['detail']}" if first else "other bytes"
        lines.append(
            f"- {row.problem} (campaign {row.campaign}): audit {x.status} on {x.audited_at}: {cell(str(why)[:300])}"
        )
    lines += [f"- {p}: not audited yet" for p in audit.pending]
    if len(lines) == 2:
        lines.append(f"every verified pass was confirmed by its newest audit (last on {audit.last})")
    return [*lines, ""]


def reviewer_row(veto: bool, attempts: Iterable[AttemptRow], solved: Sequence[str]) -> tuple[str, str]:
    """What the reviewer said of the proofs the gates accepted. Advising, its opinions are counted beside
    the passes; vetoing, the problems it un-counted are a figure of their own."""
    if veto:
        vetoed = sorted({a.problem for a in attempts if a.status == "vetoed"} - set(solved))
        return "Accepted by the gates, vetoed by the reviewer (not counted)", (
            f"{len(vetoed)}: {', '.join(vetoed)}" if vetoed else "0"
        )
    opinions = Counter(recorded_opinion(a.reviewer_feedback) or "none" for a in attempts if a.status == "passed")
    said = ", ".join(f"{opinions[o]} {word}" for o, word in OPINION_WORDS if opinions[o])
    return "Reviewer (advisory: the gates decide)", said or "no accepted proof reviewed"


OPINION_WORDS = (("approve", "approved"), ("veto", "vetoed"), ("none", "without a clear opinion"))


def answer_check_line(attempts: Iterable[AttemptRow]) -> str:
    """On no-answer: how many answers of verified passes were confirmed, differ, or stayed unknown."""
    counts = sum(
        (check_counts(a.verdict.get("answers", {})) for a in attempts if a.verified_pass and a.verdict), Counter()
    )
    return ", ".join(f"{counts[s]} {s}" for s in AnswerStatus) + " (a proved difference makes a verdict disputed)"


def _campaign_rows(
    campaigns: Sequence[CampaignRow], attempts: Sequence[AttemptRow], unknown: Sequence[str]
) -> list[str]:
    rows = []
    for c in campaigns:
        mine = [a for a in attempts if a.campaign == c.number]
        tokens = sum(a.input_tokens + a.output_tokens for a in mine)
        cost = sum(a.cost_dollars for a in mine)
        passed = sum(a.verified_pass for a in mine)
        done = "" if c.finished else " (unfinished)"
        spent = cost_text(cost, unknown)
        rows.append(f"| {c.number}{done} | {len(c.problems)} | {passed} | {len(mine)} | {tokens:,} | {spent} |")
    return rows


def _model_line(config: SolveConfig) -> str:
    parts = [config.model]
    if config.reasoning_effort:
        parts.append(f"reasoning effort {config.reasoning_effort}")
    reviewer = config.reviewer_model
    mode = "veto" if config.reviewer_veto else "advise"
    parts.append(f"reviewer {reviewer} ({mode})" if reviewer else "no reviewer")
    parts.append(f"agent {config.agent}, {config.jobs} jobs (fallback {config.fallback_jobs})")
    return "; ".join(parts)


ATTEMPT_BUDGETS = {
    "max_turns": "turns",
    "worker_timeout_seconds": "worker seconds",
    "reviewer_timeout_seconds": "reviewer seconds",
}
PROBLEM_BUDGETS = {"token_limit": "tokens", "cost_limit_dollars": "dollars"}


def _budget_line(budgets: Budgets, names: dict[str, str]) -> str:
    values = dataclasses.asdict(budgets)
    set_ = [f"{label} {values[key]}" for key, label in names.items() if values[key] is not None]
    return ", ".join(set_) or "none"


def _run_limits_line(limits: RunLimits) -> str:
    parts = []
    if limits.max_tokens is not None:
        parts.append(f"{limits.max_tokens:,} tokens")
    if limits.max_cost_dollars is not None:
        parts.append(f"${limits.max_cost_dollars:.2f}")
    return ", ".join(parts) or "none"


def _lines(items: Iterable[str]) -> bytes:
    return "".join(f"{i}\n" for i in items).encode("utf-8")


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True, default=str) + "\n").encode("utf-8")
