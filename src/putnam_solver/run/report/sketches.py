"""What the agent's informal-first stage did in a run, per problem: how many sketches its attempts made (an
interrupted attempt's included), how many holes those skeletons left and how many of them sub-attempts
proved, and whether the problem's verified pass is the very file the harness pasted together from a
sketch whose holes were all proved (same SHA-256). SUMMARY.md and the report show the same table; it is
read from the ledger's ``sketches`` table alone, so a run without sketches shows none."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from putnam_solver.run.ledger import AttemptRow
from putnam_solver.run.ledger_sketches import SketchRow
from putnam_solver.run.report._page import esc, section

NOTE = (
    "Per problem: the sketch calls of its attempts (interrupted ones included), the holes their skeletons "
    "left and how many sub-attempts proved, and whether its verified pass is the file pasted together "
    "from a sketch with every hole proved (byte for byte)."
)


@dataclass(frozen=True)
class SketchLine:
    """One problem's sketches: ``unchecked`` of them stopped before their skeleton was checked (no hole
    count); ``from_sketch`` is None when the problem has no verified pass."""

    problem: str
    sketches: int
    holes: int
    proved: int
    unchecked: int
    from_sketch: bool | None

    @property
    def holes_text(self) -> str:
        unchecked = f" ({self.unchecked} not checked)" if self.unchecked else ""
        return f"{self.proved} of {self.holes}{unchecked}"

    @property
    def pass_text(self) -> str:
        return "no pass" if self.from_sketch is None else "yes" if self.from_sketch else "no"


def sketch_lines(sketches: Iterable[SketchRow], attempts: Iterable[AttemptRow]) -> list[SketchLine]:
    """One line per problem with at least one sketch, by problem id."""
    mine: dict[str, list[SketchRow]] = {}
    for row in sketches:
        mine.setdefault(row.problem, []).append(row)
    passes: dict[str, set[str | None]] = {}
    for attempt in attempts:
        if attempt.verified_pass:
            passes.setdefault(attempt.problem, set()).add(attempt.candidate_sha256)
    lines = []
    for problem, rows in sorted(mine.items()):
        assembled = {r.assembled_sha256 for r in rows if r.assembled_sha256}
        passed = passes.get(problem)
        lines.append(
            SketchLine(
                problem,
                len(rows),
                sum(r.holes or 0 for r in rows),
                sum(r.proved or 0 for r in rows),
                sum(r.holes is None for r in rows),
                None if passed is None else bool(passed & assembled),
            )
        )
    return lines


def sketch_section(lines: Sequence[SketchLine]) -> list[str]:
    """SUMMARY.md's section (nothing when no attempt sketched)."""
    if not lines:
        return []
    rows = [f"| {s.problem} | {s.sketches} | {s.holes_text} | {s.pass_text} |" for s in lines]
    head = ["| problem | sketches | holes proved | pass from a sketch |", "|---|---:|---:|---|"]
    return ["## Sketches", "", NOTE, "", *head, *rows, ""]


def sketch_html(lines: Sequence[SketchLine]) -> str:
    """The report's section (``""`` when no attempt sketched)."""
    if not lines:
        return ""
    body = "".join(
        f'<tr data-problem="{esc(s.problem)}"><th>{esc(s.problem)}</th><td>{s.sketches}</td>'
        f'<td data-holes="{s.holes}" data-proved="{s.proved}">{esc(s.holes_text)}</td>'
        f"<td>{esc(s.pass_text)}</td></tr>"
        for s in lines
    )
    table = (
        '<table class="plain" id="sketches-table"><thead><tr><th>problem</th><th>sketches</th>'
        f"<th>holes proved</th><th>pass from a sketch</th></tr></thead><tbody>{body}</tbody></table>"
    )
    return section("sketches", "Sketches", f"<p>{esc(NOTE)}</p>{table}")
