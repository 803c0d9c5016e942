"""What SUMMARY.md, the report and the audit say apart from solves: statements the benchmark's errata
call defective (a solve of one is counted apart) and verdicts whose answer is disputed (never solved,
candidate errata of our own)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from putnam_solver.run.ledger import AttemptRow, AuditRow
from putnam_solver.run.report.tables import cell
from putnam_solver.run.stored_settings import RecordedErratum, StoredSettings


def disputed_attempts(attempts: Iterable[AttemptRow]) -> dict[str, str]:
    """Problems with a ``disputed`` verdict (every gate passed, the answer provably not the official one),
    each with what its verdict says: never solved, listed as candidate errata."""
    return {
        a.problem: str(a.verdict.get("dispute", "disputed"))
        for a in sorted(attempts, key=lambda a: a.problem)
        if a.verdict is not None and a.verdict_status == "disputed"
    }


def disputed_section(disputes: Mapping[str, str]) -> list[str]:
    if not disputes:
        return []
    return [
        "## Disputed: candidate errata",
        "",
        "Every gate accepted these proofs, but the answer check proved their answer different from the official",
        "one: the proof is unsound (a kernel or gate bug) or the statement is wrong. Not counted as solved.",
        "",
        *(f"- {problem}: {cell(why)}" for problem, why in disputes.items()),
        "",
    ]


def selected_errata(settings: StoredSettings) -> dict[str, list[RecordedErratum]]:
    """The benchmark record's errata (as the run recorded it) of the selected problems, by problem."""
    chosen = set(settings.selected)
    found: dict[str, list[RecordedErratum]] = {}
    for erratum in settings.benchmark.errata:
        if erratum.problem in chosen:
            found.setdefault(erratum.problem, []).append(erratum)
    return found


def known_defects(settings: StoredSettings) -> dict[str, str]:
    """Problem -> what the run's recorded benchmark errata say is wrong with its statement, for the
    statements they call defective: a solve of one is counted apart from solved, wherever results are
    counted (SUMMARY.md, the report, the audit)."""
    found: dict[str, list[str]] = {}
    for e in settings.benchmark.errata:
        if e.defective:
            found.setdefault(e.problem, []).append(e.short())
    return {p: "; ".join(found[p]) for p in found}


def audited_defects(audits: Iterable[AuditRow]) -> dict[str, str]:
    """Problem -> what the benchmark of the audit that judged its pass calls defective (``putnam audit``
    records it with each audit): a count of audited passes leaves out what the auditor's errata call
    defective, even when the run's recorded errata do not (recorded before the erratum, or edited out)."""
    found: dict[str, str] = {}
    for audit in audits:
        said, problem = (audit.verdict.get("audit") or {}).get("defect"), audit.verdict.get("problem")
        if isinstance(said, str) and said and isinstance(problem, str):
            found[problem] = said
    return found


def counted_apart(settings: StoredSettings, audits: Iterable[AuditRow]) -> dict[str, str]:
    """``known_defects`` of the run, and ``audited_defects`` of its newest audits."""
    return {**audited_defects(audits), **known_defects(settings)}


def apart_note(apart: Sequence[str]) -> str:
    """``, plus N on statements known defective (counted apart: ...)``, or nothing."""
    if not apart:
        return ""
    return f", plus {len(apart)} on statements known defective (counted apart: {', '.join(sorted(apart))})"


def errata_section(errata: dict[str, list[RecordedErratum]], solved: set[str], notes: Sequence[str]) -> list[str]:
    """SUMMARY.md's list of the selected statements with known errata, and the benchmark's notes."""
    if not errata and not notes:
        return []
    lines = ["## Known defects of the selected statements", ""]
    for problem in sorted(errata):
        for e in errata[problem]:
            state = "unresolved" if problem not in solved else "solved, counted apart" if e.defective else "solved"
            lines.append(f"- {problem} ({state}): {cell(e.short())} (source: {cell(str(e.source))})")
    if not errata:
        lines.append("none listed in the benchmark's errata")
    lines += ["", *(f"Note: {cell(n)}" for n in notes), ""] if notes else [""]
    return lines
