"""``putnam report``: one static HTML file that shows what a run did, derived from its ledger alone.

The page holds the headline (solved, audited, unresolved, dollars, tokens, dollars per solved problem,
wall time), solved problems over time and over cumulative cost, the cost per problem, a year x problem
grid of the benchmark linking each problem to its evidence folder, which gate stopped how many attempts,
the provider's rate limiting over time and a sortable table of every attempt. ``--compare`` puts two runs
side by side. A problem whose statement the benchmark's errata call defective is counted apart wherever
"solved" is counted (its own headline figure, its own grid state, left out of the charts).

Charts are drawn by plotly, whose JavaScript bundle (from the pinned wheel) is inlined once, so the file
opens offline: it loads nothing, and links only to evidence files of the run, relative to the report.
Every number comes from the ledger (``putnam_solver.run.report.data``); none from the evidence files.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from putnam_solver.run.ledger import LEDGER_NAME, AttemptRow
from putnam_solver.run.prices import cost_text
from putnam_solver.run.report._page import (
    COLORS,
    axis_time,
    esc,
    figure_html,
    href,
    layout,
    page,
    plotly_go,
    problem_cell,
    section,
    year_table,
)
from putnam_solver.run.report.data import (
    Comparison,
    Headline,
    ReportError,
    RunData,
    compare,
    headline,
    in_order,
    load_run,
    problem_costs,
    rate_limited_requests,
    stop_counts,
)
from putnam_solver.run.report.evidence import AUDIT_FILE, COMPLETE_MARKER, TURNS_FILE, evidence_dir, prover_suffix
from putnam_solver.run.report.progress import format_seconds
from putnam_solver.run.report.summary import REPORT_FILE, verdict_summary
from putnam_solver.safe_write import write_under

REPORT_NAME = REPORT_FILE

# -- writing ---------------------------------------------------------------------------------------------


def write_report(run_dir: Path, output: Path | None = None) -> Path:
    """Write the report of ``run_dir`` to ``output`` (default ``RUN_DIR/report.html``); returns its path."""
    run = load_run(run_dir)
    target = output or run_dir / REPORT_NAME
    _write(target, render_report(run, target.resolve().parent))
    return target


def write_comparison(run_a: Path, run_b: Path, output: Path | None = None) -> Path:
    """Write the side-by-side report of two runs (default ``RUN_A/compare-<RUN_B's name>.html``)."""
    a, b = load_run(run_a), load_run(run_b)
    target = output or run_a / f"compare-{run_b.resolve().name}.html"
    _write(target, render_comparison(a, b, target.resolve().parent))
    return target


def build(run_dirs: Sequence[Path], compare: bool, output: Path | None) -> Path:
    """What ``putnam report`` does: one run's report, or with ``compare`` two runs side by side."""
    if compare and len(run_dirs) != 2:
        raise ReportError(f"--compare takes two run directories (RUN_A RUN_B), got {len(run_dirs)}")
    if not compare and len(run_dirs) != 1:
        raise ReportError(f"give one run directory (or --compare RUN_A RUN_B), got {len(run_dirs)}")
    if compare:
        return write_comparison(run_dirs[0], run_dirs[1], output)
    return write_report(run_dirs[0], output)


def report_after_run(run_dir: Path) -> str:
    """Write ``RUN_DIR/report.html`` at the end of ``putnam solve``; returns the line that says where it is,
    or why it is not there ("" when the run left no ledger)."""
    if not (run_dir / LEDGER_NAME).is_file():
        return ""
    try:
        path = write_report(run_dir)
    except Exception as exc:  # the run is over and its ledger safe: a report failure must not hide its result
        return f"warning: no report.html ({type(exc).__name__}: {exc}); `putnam report {run_dir}` tries again"
    return f"report: {path} (`putnam report {run_dir}` rebuilds it at any time)"


def _write(target: Path, page: str) -> None:
    try:
        write_under(target.parent, target.name, page.encode("utf-8"), durable=True)
    except OSError as exc:
        raise ReportError(f"{target}: cannot write the report: {exc.strerror or exc}") from exc


# -- one run ---------------------------------------------------------------------------------------------


def render_report(run: RunData, base: Path) -> str:
    """The report page; links to evidence are relative to ``base`` (the folder the page is written to)."""
    head = headline(run)
    sections = [
        section("headline", "At a glance", _headline_html(head) + _settings_html(run)),
        section(
            "progress",
            "Solved over time and over cost",
            '<div class="pair">'
            + figure_html("chart-solved-time", _solved_over_time(run))
            + figure_html("chart-solved-cost", _solved_over_cost(run))
            + "</div>",
        ),
        section(
            "costs",
            "Cost per problem",
            "<p>Dollars spent on each problem over all its attempts, failed ones included.</p>"
            + figure_html("chart-problem-cost", _cost_histogram(run)),
        ),
        section("grid", "Problems", _grid_html(run, base)),
        section("gates", "What stopped the attempts", _gates_html(run)),
        section("rate-limits", "Rate limiting", _rate_limits_html(run)),
        section("attempts", "Every attempt", _attempts_html(run, base)),
    ]
    return page(f"putnam report: {run.name}", run.name, sections)


def _headline_html(h: Headline) -> str:
    share = f"{100 * h.solved / h.selected:.1f}% of {h.selected} selected" if h.selected else "none selected"
    per = h.dollars_per_solved
    stats = [
        ("solved", "solved", str(h.solved), h.solved, share),
        (
            "solved-apart",
            "solved (statement known defective)",
            str(h.solved_apart),
            h.solved_apart,
            "counted apart: the benchmark's errata say a proof of these statements says nothing of the problem",
        ),
        ("audited", "audited", str(h.audited), h.audited, f"of {h.solved} solved, re-verified by putnam audit"),
        ("unresolved", "unresolved", str(h.unresolved), h.unresolved, "selected, without a verified pass"),
        (
            "dollars",
            "dollars",
            cost_text(h.cost_dollars, h.unpriced),
            "" if h.unpriced else h.cost_dollars,
            f"no price for {', '.join(h.unpriced)} (--prices)"
            if h.unpriced
            else f"{h.attempts} attempts, {h.turns} turns",
        ),
        (
            "tokens",
            "tokens",
            f"{h.tokens:,}",
            h.tokens,
            f"{h.input_tokens:,} input, {h.output_tokens:,} output",
        ),
        (
            "dollars-per-solved",
            "dollars per solved problem",
            f"${per:.2f}" if per is not None else ("unknown" if h.unpriced else "n/a"),
            per if per is not None else "",
            "all spend over the problems solved",
        ),
        ("wall-time", "wall time", format_seconds(h.wall_seconds), h.wall_seconds, "campaigns added up"),
    ]
    cells = "".join(
        f'<div class="stat" id="stat-{key}" data-value="{esc(str(raw))}"><div class="value">{esc(shown)}</div>'
        f'<div class="label">{esc(label)}</div><div class="sub">{esc(sub)}</div></div>'
        for key, label, shown, raw, sub in stats
    )
    return f'<div class="stats">{cells}</div>'


def _settings_html(run: RunData) -> str:
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in _settings_rows(run))
    return f'<table class="settings">{rows}</table>'


def _settings_rows(run: RunData) -> list[tuple[str, str]]:
    config: dict[str, Any] = run.settings.get("config", {})
    selection: dict[str, Any] = run.settings.get("selection", {})
    outcome = run.outcome
    state = f"finished: {outcome.get('message')}" if outcome else "in progress or interrupted"
    gates = f"profile {config.get('acceptance_profile')}{' + AXLE' if config.get('axle') else ''}"
    return [
        ("run", state),
        (
            "model",
            f"{config.get('model')} (agent {config.get('agent')}, reviewer {config.get('reviewer_model') or 'none'})",
        ),
        ("prover, track", f"{config.get('prover')}, {config.get('track')}"),
        ("acceptance gates", gates),
        ("benchmark", f"{selection.get('pin') or 'unpinned'} (sha256 {run.settings.get('benchmark_sha256')})"),
        ("campaigns", f"{len(run.campaigns)} run ({run.settings.get('campaigns', 0) or 'no'} limit)"),
    ]


def _solved_over_time(run: RunData) -> Any:
    go = plotly_go()
    times, counts, labels = [], [], []
    if run.campaigns:
        times.append(axis_time(run.campaigns[0].started_at))
        counts.append(0)
        labels.append("run started")
    seen: set[str] = set()
    for a in in_order(run.attempts):
        if a.verified_pass and a.problem not in seen and a.problem not in run.defects:  # those count apart
            seen.add(a.problem)
            times.append(axis_time(a.recorded_at))
            counts.append(len(seen))
            labels.append(a.problem)
    trace = go.Scatter(
        x=times, y=counts, text=labels, mode="lines+markers", line={"shape": "hv", "color": COLORS["solved"]}
    )
    return layout(go.Figure(trace), "Solved over time", "time (UTC)", "problems solved")


def _solved_over_cost(run: RunData) -> Any:
    go = plotly_go()
    spent, costs, counts, labels = 0.0, [0.0], [0], ["start"]
    seen: set[str] = set()
    for a in in_order(run.attempts):
        spent += a.cost_dollars
        if a.verified_pass and a.problem not in run.defects:
            seen.add(a.problem)
        costs.append(round(spent, 6))
        counts.append(len(seen))
        labels.append(f"{a.problem} (campaign {a.campaign}): {a.status}")
    trace = go.Scatter(
        x=costs, y=counts, text=labels, mode="lines+markers", line={"shape": "hv", "color": COLORS["solved"]}
    )
    return layout(go.Figure(trace), "Solved over cumulative cost", "dollars spent", "problems solved")


def _cost_histogram(run: RunData) -> Any:
    go = plotly_go()
    costs = problem_costs(run.attempts)
    solved = run.passed
    traces = [
        go.Histogram(
            x=[costs[p] for p in sorted(costs) if (p in solved) == won],
            name=name,
            marker={"color": COLORS[state]},
            hovertemplate="$%{x}: %{y} problems<extra></extra>",
        )
        for won, name, state in ((True, "solved", "solved"), (False, "not solved", "attempted"))
    ]
    figure = layout(go.Figure(traces), "Cost per problem", "dollars (all attempts)", "problems")
    figure.update_layout(barmode="stack", showlegend=True)
    return figure


def _gates_html(run: RunData) -> str:
    counts = stop_counts(run.attempts)
    if not counts:
        return '<p class="note">No attempt was stopped: every attempt passed (or none was made).</p>'
    order = sorted({stopper for stopper, _ in counts}, key=_stopper_key)
    go = plotly_go()
    hows = sorted({how for _, how in counts})
    traces = [
        go.Bar(
            y=order,
            x=[counts[(s, how)] for s in order],
            name=how,
            orientation="h",
            marker={"color": COLORS.get(how, "#8e24aa")},
        )
        for how in hows
    ]
    figure = layout(go.Figure(traces), "Attempts stopped, by what stopped them", "attempts", "")
    figure.update_layout(
        barmode="stack", showlegend=True, yaxis={"autorange": "reversed"}, height=150 + 40 * len(order)
    )
    rows = "".join(
        f'<tr data-stopper="{esc(s)}" data-how="{esc(how)}" data-count="{n}"><td>{esc(s)}</td><td>{esc(how)}</td>'
        f'<td class="num">{n}</td></tr>'
        for s in order
        for how in hows
        if (n := counts[(s, how)])
    )
    total = sum(counts.values())
    return (
        f"<p>{total} of {len(run.attempts)} attempts did not pass. For each, the first gate of its verdict that "
        "did not pass, or why it has no accepted verdict.</p>"
        + figure_html("chart-gates", figure)
        + '<table class="plain" id="gate-stops"><thead><tr><th>stopped by</th><th>how</th><th>attempts</th></tr>'
        f"</thead><tbody>{rows}</tbody></table>"
    )


def _stopper_key(stopper: str) -> tuple[int, str]:
    gate = re.match(r"G(\d+) ", stopper)
    return (int(gate.group(1)), stopper) if gate else (1000, stopper)


def _rate_limits_html(run: RunData) -> str:
    if run.rate_limits_since is None:
        return (
            '<p class="note" id="rate-limit-note">This run was recorded before putnam solve kept the provider\'s '
            "rate limiting in the ledger: there is nothing to show.</p>"
        )
    since = f" (recorded from campaign {run.rate_limits_since} on)" if run.rate_limits_since > 1 else ""
    total = rate_limited_requests(run.rate_limits)
    if not run.rate_limits:
        return (
            f'<p class="note" id="rate-limit-note" data-requests="0">The provider rate-limited no request'
            f"{esc(since)}.</p>"
        )
    go = plotly_go()
    times, new, hover, limits = [], [], [], []
    previous: dict[int, int] = {}
    for row in run.rate_limits:
        times.append(axis_time(row.observed_at))
        new.append(row.retries - previous.get(row.campaign, 0))
        previous[row.campaign] = row.retries
        hover.append(f"campaign {row.campaign}: {row.retries} so far; {row.connections or 'connection limit unknown'}")
        found = re.match(r"(\d+) of (\d+)", row.connections or "")
        limits.append(int(found.group(1)) if found else None)
    traces = [go.Bar(x=times, y=new, text=hover, name="rate-limited requests", marker={"color": "#c62828"})]
    if any(v is not None for v in limits):
        traces.append(
            go.Scatter(x=times, y=limits, name="connection limit", yaxis="y2", mode="lines+markers", line_shape="hv")
        )
    figure = layout(go.Figure(traces), "Rate-limited requests", "time (UTC)", "requests rate-limited since last")
    figure.update_layout(showlegend=True, yaxis2={"title": {"text": "connections"}, "overlaying": "y", "side": "right"})
    return (
        f'<p id="rate-limit-note" data-requests="{total}">The provider rate-limited {total} requests{esc(since)}; '
        "each bar is an observation of the campaign (at most one a second), with the adaptive connection "
        "limit then.</p>" + figure_html("chart-rate-limits", figure)
    )


ATTEMPT_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("id", "attempt", "number"),
    ("campaign", "campaign", "number"),
    ("problem", "problem", "text"),
    ("status", "status", "text"),
    ("verdict", "verdict", "text"),
    ("audit", "audit", "text"),
    ("turns", "turns", "number"),
    ("input", "input tokens", "number"),
    ("output", "output tokens", "number"),
    ("cost", "cost", "number"),
    ("recorded", "recorded (UTC)", "text"),
    ("note", "error", "text"),
    ("evidence", "evidence", "none"),
)


def _attempts_html(run: RunData, base: Path) -> str:
    sortable = ' class="sortable"'
    heads = "".join(
        f'<th data-key="{key}" data-type="{kind}"{sortable if kind != "none" else ""}>{esc(label)}</th>'
        for key, label, kind in ATTEMPT_COLUMNS
    )
    rows = "".join(_attempt_row(a, run, base) for a in run.attempts)
    return (
        "<p>Click a column to sort (again to reverse); the address keeps the order "
        "(<code>report.html#sort=cost-desc</code>).</p>"
        f'<table class="plain sortable-table" id="attempts-table"><thead><tr>{heads}</tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


def _attempt_row(a: AttemptRow, run: RunData, base: Path) -> str:
    audit = run.audits.get(a.id) if a.verified_pass else None  # audits re-verify passes; ids are per table
    status_class = "pass" if a.verified_pass else a.status
    cells = [
        (str(a.id), a.id),
        (str(a.campaign), a.campaign),
        (a.problem, a.problem),
        (a.status + ("" if a.verified_pass or a.status != "passed" else " (unverified)"), a.status),
        (verdict_summary(a) or "none", verdict_summary(a)),
        (audit.status if audit else "", audit.status if audit else ""),
        (str(a.turns), a.turns),
        (f"{a.input_tokens:,}", a.input_tokens),
        (f"{a.output_tokens:,}", a.output_tokens),
        (cost_text(a.cost_dollars, run.unpriced, digits=4), a.cost_dollars),
        (a.recorded_at.replace("T", " ").removesuffix("+00:00"), a.recorded_at),
    ]
    tds = "".join(f'<td data-sort="{esc(str(raw))}">{esc(shown)}</td>' for shown, raw in cells)
    note = a.error or ""
    shown_note = note if len(note) <= NOTE_CHARS else note[: NOTE_CHARS - 3] + "..."
    tds += f'<td data-sort="{esc(note)}" title="{esc(note)}">{esc(shown_note)}</td>'
    links = _evidence_links(run, a, base)
    row = f'id="attempt-{a.id}" class="{esc(status_class)}" data-problem="{esc(a.problem)}"'
    return f"<tr {row}>{tds}<td>{links}</td></tr>"


NOTE_CHARS = 120
"""An attempt's error is cut to this many characters in the table (the whole text is its tooltip)."""
EVIDENCE_FILES = (
    ("candidate", "candidate"),
    ("challenge", "challenge"),
    ("verdict", "verdict.json"),
    ("gates", "gates.log"),
    ("turns", TURNS_FILE),
    ("record", COMPLETE_MARKER),
    ("audit", AUDIT_FILE),
)


def _evidence_links(run: RunData, a: AttemptRow, base: Path) -> str:
    """Links to the attempt's evidence files that exist (the candidate and challenge carry the prover's
    suffix), and to its Inspect transcript."""
    folder = run.run_dir / evidence_dir(a.campaign, a.problem)
    suffix = prover_suffix(run.settings)
    links = []
    for label, name in EVIDENCE_FILES:
        path = folder / (name + suffix if name in ("candidate", "challenge") else name)
        if path.is_file():
            links.append(f'<a href="{href(path, base)}">{label}</a>')
    if a.transcript and _inside(run.run_dir, Path(a.transcript)):  # a path the ledger holds: linked only within
        links.append(f'<a href="{href(Path(a.transcript), base)}">transcript</a>')
    return " ".join(links)


def _inside(run_dir: Path, path: Path) -> bool:
    """``path`` is a file of the run directory (resolved, so no link leads out of it)."""
    resolved = path.resolve()
    return resolved.is_relative_to(run_dir.resolve()) and resolved.is_file()


# -- the grid ------------------------------------------------------------------------------------------


def _grid_html(run: RunData, base: Path) -> str:
    universe = run.benchmark_ids or run.problems
    note = (
        f"Every problem of the benchmark ({len(universe)})."
        if run.benchmark_ids
        else f"The run's {len(universe)} problems (no registered benchmark with the run's SHA-256 here)."
    )
    states = {p: _state(run, p) for p in universe}
    counts = Counter(states.values())
    legend = "".join(
        f'<span class="key {state}" data-state="{state}" data-count="{counts[state]}">{esc(text)}: '
        f"{counts[state]}</span>"
        for state, text in (
            ("solved", "solved"),
            ("defective", "solved (statement known defective), counted apart"),
            ("attempted", "attempted, not solved"),
            ("pending", "selected, not attempted"),
            ("outside", "not selected"),
        )
    )
    cells = {p: problem_cell(run, p, states[p], base) for p in universe}
    return f'<p>{esc(note)} A cell links to the problem\'s evidence folder.</p><p class="legend">{legend}</p>' + (
        year_table(cells)
    )


def _state(run: RunData, problem: str) -> str:
    if problem in run.passed:
        return "defective" if problem in run.defects else "solved"
    if problem in run.by_problem:
        return "attempted"
    return "pending" if problem in run.selected else "outside"


# -- two runs side by side -----------------------------------------------------------------------------


def render_comparison(a: RunData, b: RunData, base: Path) -> str:
    c = compare(a, b)
    cost_a, cost_b = problem_costs(a.attempts), problem_costs(b.attempts)
    both_cost = (sum(cost_a.get(p, 0.0) for p in c.both), sum(cost_b.get(p, 0.0) for p in c.both))
    counts = "".join(
        f'<div class="stat" id="stat-{key}" data-value="{len(items)}"><div class="value">{len(items)}</div>'
        f'<div class="label">{esc(label)}</div></div>'
        for key, label, items in (
            ("both", "solved by both", c.both),
            ("only-a", f"only by A ({a.name})", c.only_a),
            ("only-b", f"only by B ({b.name})", c.only_b),
            ("neither", "by neither", c.neither),
            ("apart", "on statements known defective (counted apart)", c.apart),
        )
    )
    sections = [
        section(
            "headline",
            "Side by side",
            f"<p>Over the {len(c.common)} problems both runs have. On the {len(c.both)} both solved, A spent "
            f"${both_cost[0]:.2f} and B ${both_cost[1]:.2f}.</p>"
            f'<div class="stats">{counts}</div>' + _compare_table(a, b),
        ),
        section(
            "costs",
            "Cost per problem, A against B",
            figure_html("chart-compare-cost", _compare_scatter(a, b, c, cost_a, cost_b)),
        ),
        section("grid", "Problems", _compare_grid(a, b, c, base)),
        section("lists", "Solved by one run only", _compare_lists(a, b, c, base)),
    ]
    return page(f"putnam report: {a.name} vs {b.name}", f"{a.name} (A) vs {b.name} (B)", sections)


def _compare_table(a: RunData, b: RunData) -> str:
    ha, hb = headline(a), headline(b)

    def per(h: Headline) -> str:
        value = h.dollars_per_solved
        return f"${value:.2f}" if value is not None else ("unknown" if h.unpriced else "n/a")

    rows = [
        ("run directory", str(a.run_dir), str(b.run_dir)),
        *((k, va, vb) for (k, va), (_, vb) in zip(_settings_rows(a), _settings_rows(b), strict=True)),
        ("selected", str(ha.selected), str(hb.selected)),
        ("solved", str(ha.solved), str(hb.solved)),
        ("audited", str(ha.audited), str(hb.audited)),
        ("unresolved", str(ha.unresolved), str(hb.unresolved)),
        ("attempts", str(ha.attempts), str(hb.attempts)),
        ("tokens", f"{ha.tokens:,}", f"{hb.tokens:,}"),
        ("dollars", cost_text(ha.cost_dollars, ha.unpriced), cost_text(hb.cost_dollars, hb.unpriced)),
        ("dollars per solved problem", per(ha), per(hb)),
        ("wall time", format_seconds(ha.wall_seconds), format_seconds(hb.wall_seconds)),
    ]
    body = "".join(
        f'<tr data-row="{esc(k)}"><th>{esc(k)}</th><td>{esc(va)}</td><td>{esc(vb)}</td></tr>' for k, va, vb in rows
    )
    head = "<thead><tr><th></th><th>A</th><th>B</th></tr></thead>"
    return f'<table class="plain" id="compare-table">{head}{body}</table>'


def _compare_scatter(
    a: RunData, b: RunData, c: Comparison, cost_a: Mapping[str, float], cost_b: Mapping[str, float]
) -> Any:
    go = plotly_go()
    traces = []
    for key, label, items in (
        ("both", "solved by both", c.both),
        ("only-a", "only A", c.only_a),
        ("only-b", "only B", c.only_b),
        ("neither", "neither", c.neither),
    ):
        traces.append(
            go.Scatter(
                x=[cost_a.get(p, 0.0) for p in items],
                y=[cost_b.get(p, 0.0) for p in items],
                text=list(items),
                mode="markers",
                name=label,
                marker={"color": COLORS[key], "size": 9},
            )
        )
    top = max([*cost_a.values(), *cost_b.values(), 0.0])
    traces.append(go.Scatter(x=[0, top], y=[0, top], mode="lines", name="same cost", line={"dash": "dot"}))
    figure = layout(go.Figure(traces), "Dollars per problem", f"A: {a.name}", f"B: {b.name}")
    figure.update_layout(showlegend=True)
    return figure


def _compare_grid(a: RunData, b: RunData, c: Comparison, base: Path) -> str:
    state = {p: "both" for p in c.both} | {p: "only-a" for p in c.only_a} | {p: "only-b" for p in c.only_b}
    state |= {p: "neither" for p in c.neither} | {p: "defective" for p in c.apart}
    universe = sorted(set(a.benchmark_ids or a.problems) | set(b.benchmark_ids or b.problems))
    cells = {}
    for p in universe:
        s = state.get(p, "outside")
        run = b if s == "only-b" else a
        cells[p] = problem_cell(run, p, s, base)
    counts = Counter(state.get(p, "outside") for p in universe)
    legend = "".join(
        f'<span class="key {s}" data-state="{s}" data-count="{counts[s]}">{esc(text)}: {counts[s]}</span>'
        for s, text in (
            ("both", "both"),
            ("only-a", "only A"),
            ("only-b", "only B"),
            ("neither", "neither"),
            ("defective", "statement known defective, counted apart"),
            ("outside", "not in both runs"),
        )
    )
    return (
        "<p>A cell links to the evidence of the run that solved it (A when both did).</p>"
        f'<p class="legend">{legend}</p>' + year_table(cells)
    )


def _compare_lists(a: RunData, b: RunData, c: Comparison, base: Path) -> str:
    parts = []
    for key, run, items in (("only-a", a, c.only_a), ("only-b", b, c.only_b)):
        entries = "".join(f"<li>{_problem_link(run, p, base)}</li>" for p in items) or "<li>none</li>"
        parts.append(f'<h3>{"A" if run is a else "B"}: {esc(run.name)}</h3><ul id="list-{key}">{entries}</ul>')
    return "".join(parts)


def _problem_link(run: RunData, problem: str, base: Path) -> str:
    passing = next((x for x in run.by_problem.get(problem, []) if x.verified_pass), None)
    if passing is None:
        return esc(problem)
    folder = run.run_dir / evidence_dir(passing.campaign, problem)
    return f'<a href="{href(folder, base)}/">{esc(problem)}</a> (campaign {passing.campaign})'
