"""The problem grid of a report: every problem of the benchmark as a coloured cell linked to its evidence.

PutnamBench ids form a table, a column per year and a row per problem (A1..B6), so that six decades fit
one screen. Other ids (miniF2F, ProofNet) carry their names in their cells: they flow in rows that wrap
at the page's width, so no cell is ever off the page (a fixed number per row clipped miniF2F's names at
four columns of eight, hiding the solved one). A state's colour is explained by the legend above.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from putnam_solver.run.report._page import esc, href
from putnam_solver.run.report.data import Comparison, RunData
from putnam_solver.run.report.evidence import attempt_dir

PUTNAM_ID = re.compile(r"putnam_(\d{4})_([ab])(\d+)")
RUN_STATES: tuple[tuple[str, str], ...] = (
    ("solved", "solved"),
    ("defective", "solved (statement known defective), counted apart"),
    ("disputed", "disputed: accepted, but the answer check proved the answer wrong"),
    ("vetoed", "vetoed by the reviewer, not solved"),
    ("attempted", "attempted, not solved"),
    ("pending", "selected, not attempted"),
    ("outside", "not selected"),
)
"""A problem's state in one run's grid, in the order they take precedence, with the legend's words."""
COMPARE_STATES: tuple[tuple[str, str], ...] = (
    ("both", "both"),
    ("only-a", "only A"),
    ("only-b", "only B"),
    ("neither", "neither"),
    ("defective", "statement known defective, counted apart"),
    ("outside", "not in both runs"),
)


def run_grid_html(run: RunData, base: Path) -> str:
    """One run's grid: the benchmark's problems when it is registered here, else the run's own."""
    universe = run.benchmark_ids or run.problems
    note = (
        f"Every problem of the benchmark ({len(universe)})."
        if run.benchmark_ids
        else f"The run's {len(universe)} problems (no registered benchmark with the run's SHA-256 here)."
    )
    states = {p: problem_state(run, p) for p in universe}
    cells = {p: problem_cell(run, p, states[p], base) for p in universe}
    return (
        f"<p>{esc(note)} A cell links to the problem's evidence folder.</p>"
        + legend_html(RUN_STATES, Counter(states.values()))
        + grid_html(cells)
    )


def problem_state(run: RunData, problem: str) -> str:
    """Solved (or counted apart) first; then a disputed acceptance or a reviewer's veto, which a reader
    must see rather than a plain "attempted"; then attempted, selected, or outside the run."""
    if problem in run.passed:
        return "defective" if problem in run.defects else "solved"
    statuses = {a.status for a in run.by_problem.get(problem, [])}
    for state in ("disputed", "vetoed"):
        if state in statuses:
            return state
    if statuses:
        return "attempted"
    return "pending" if problem in run.selected else "outside"


def compare_grid_html(a: RunData, b: RunData, c: Comparison, base: Path) -> str:
    state = {p: "both" for p in c.both} | {p: "only-a" for p in c.only_a} | {p: "only-b" for p in c.only_b}
    state |= {p: "neither" for p in c.neither} | {p: "defective" for p in c.apart}
    universe = sorted(set(a.benchmark_ids or a.problems) | set(b.benchmark_ids or b.problems))
    cells = {}
    for p in universe:
        s = state.get(p, "outside")
        cells[p] = problem_cell(b if s == "only-b" else a, p, s, base)
    return (
        "<p>A cell links to the evidence of the run that solved it (A when both did).</p>"
        + legend_html(COMPARE_STATES, Counter(state.get(p, "outside") for p in universe))
        + grid_html(cells)
    )


def legend_html(states: Sequence[tuple[str, str]], counts: Mapping[str, int]) -> str:
    keys = "".join(
        f'<span class="key {s}" data-state="{s}" data-count="{counts[s]}">{esc(text)}: {counts[s]}</span>'
        for s, text in states
    )
    return f'<p class="legend">{keys}</p>'


Cell = tuple[str, str]
"""A problem's cell: its attributes and its content, put in a table cell or a flowing box by ``grid_html``."""


def problem_cell(run: RunData, problem: str, state: str, base: Path) -> Cell:
    """One problem's cell: linked to the evidence folder of its pass, else of its last attempt."""
    mine = run.by_problem.get(problem, [])
    chosen = next((a for a in mine if a.verified_pass), mine[-1] if mine else None)
    title = f"{problem}: {state}"
    if problem in run.defects:
        title += f" (statement known defective: {run.defects[problem]})"
    if chosen is not None:
        title += f" (campaign {chosen.campaign}; {len(mine)} attempts, ${sum(a.cost_dollars for a in mine):.2f})"
    text = "" if PUTNAM_ID.fullmatch(problem) else esc(problem)  # the grid's row and column name those
    folder = run.run_dir / attempt_dir(chosen) if chosen else None
    inner = text
    if folder is not None and folder.is_dir():
        inner = f'<a href="{href(folder, base)}/" aria-label="{esc(problem)}">{text}</a>'
    attributes = f'class="cell {state}" data-problem="{esc(problem)}" data-state="{state}" title="{esc(title)}"'
    return attributes, inner


def grid_html(cells: Mapping[str, Cell]) -> str:
    """PutnamBench ids as a year x problem table; other ids after it, in id order, in rows that wrap at
    the page's width."""
    grid: dict[tuple[str, int], dict[int, str]] = {}
    years: set[int] = set()
    others = []
    for problem, (attributes, inner) in sorted(cells.items()):
        found = PUTNAM_ID.fullmatch(problem)
        if found is None:
            others.append(f"<span {attributes}>{inner}</span>")
            continue
        year = int(found.group(1))
        years.add(year)
        grid.setdefault((found.group(2), int(found.group(3))), {})[year] = f"<td {attributes}>{inner}</td>"
    parts = []
    if grid:
        order = sorted(years)
        head = "".join(f'<th class="year"><span>{year}</span></th>' for year in order)
        body = "".join(
            f"<tr><th>{side.upper()}{n}</th>"
            + "".join(grid[(side, n)].get(year, '<td class="cell none"></td>') for year in order)
            + "</tr>"
            for side, n in sorted(grid)
        )
        parts.append(f'<div class="scroll"><table class="grid" id="problem-grid"><thead><tr><th></th>{head}</tr>')
        parts.append(f"</thead><tbody>{body}</tbody></table></div>")
    if others:
        parts.append(f'<div class="cells" id="other-problems">{"".join(others)}</div>')
    return "".join(parts)
