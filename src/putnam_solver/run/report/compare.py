"""Two runs side by side (``putnam report --compare``): who solved what, at what cost, and a warning when
the runs are not on the same benchmark (the comparison then covers only the problems both have) or were not
judged alike (another prover, track, acceptance profile or gate option: their counts are not the same
measure)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from putnam_solver.run.prices import cost_text
from putnam_solver.run.report._page import COLORS, esc, figure_html, href, layout, page, plotly_go, section
from putnam_solver.run.report.charts import no_chart, no_cost_reason
from putnam_solver.run.report.data import Comparison, Headline, RunData, compare, headline, problem_costs
from putnam_solver.run.report.evidence import attempt_dir
from putnam_solver.run.report.grid import compare_grid_html
from putnam_solver.run.report.progress import format_seconds
from putnam_solver.run.report.run_page import settings_rows


def render_comparison(a: RunData, b: RunData, base: Path, plotly_file: str | None) -> str:
    """Two runs side by side; ``plotly_file`` as for ``render_report``."""
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
    warning = "".join(
        f'<p class="warning" id="{key}">warning: {esc(text)}</p>'
        for key, text in (
            ("benchmark-mismatch", benchmark_mismatch(a, b)),
            ("judging-mismatch", judging_mismatch(a, b)),
        )
        if text
    )
    sections = [
        section(
            "headline",
            "Side by side",
            warning + f"<p>Over the {len(c.common)} problems both runs have. On the {len(c.both)} both solved, A spent "
            f"${both_cost[0]:.2f} and B ${both_cost[1]:.2f}.</p>"
            f'<div class="stats">{counts}</div>' + _compare_table(a, b),
        ),
        section(
            "costs",
            "Cost per problem, A against B",
            _cost_chart(a, b, c, cost_a, cost_b),
        ),
        section("grid", "Problems", compare_grid_html(a, b, c, base)),
        section("lists", "Solved by one run only", _compare_lists(a, b, c, base)),
    ]
    return page(f"putnam report: {a.name} vs {b.name}", f"{a.name} (A) vs {b.name} (B)", sections, plotly_file)


def _compare_table(a: RunData, b: RunData) -> str:
    ha, hb = headline(a), headline(b)

    def per(h: Headline) -> str:
        value = h.dollars_per_solved
        return f"${value:.2f}" if value is not None else ("unknown" if h.unpriced else "n/a")

    rows = [
        ("run directory", str(a.run_dir), str(b.run_dir)),
        *((k, va, vb) for (k, va), (_, vb) in zip(settings_rows(a), settings_rows(b), strict=True)),
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


def _cost_chart(a: RunData, b: RunData, c: Comparison, cost_a: Mapping[str, float], cost_b: Mapping[str, float]) -> str:
    """The scatter of costs, or why there is none: neither run has a cost to show."""
    reasons = [no_cost_reason(a), no_cost_reason(b)]
    if reasons[0] and reasons[1]:
        return no_chart("chart-compare-cost", f"Neither run has a cost to compare. A: {reasons[0]} B: {reasons[1]}")
    return figure_html("chart-compare-cost", _compare_scatter(a, b, c, cost_a, cost_b))


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
    folder = run.run_dir / attempt_dir(passing)
    return f'<a href="{href(folder, base)}/">{esc(problem)}</a> (campaign {passing.campaign})'


def benchmark_mismatch(a: RunData, b: RunData) -> str | None:
    """Why the two runs' numbers do not compare (None when both ran on the same benchmark bytes): the
    comparison then covers only the problems both have, and their statements may differ."""
    pins = [(r.settings.benchmark_sha256, r.settings.pin) for r in (a, b)]
    if pins[0][0] == pins[1][0]:
        return None
    common = len(set(a.problems) & set(b.problems))
    named = [
        f"{run.name} on {pin or 'an unpinned file'} (sha256 {str(sha)[:12]})"
        for run, (sha, pin) in zip((a, b), pins, strict=True)
    ]
    return (
        f"the runs are on different benchmarks: {named[0]}, {named[1]}; the comparison covers only the "
        f"{common} problem{'' if common == 1 else 's'} both have, whose statements may differ"
    )


def judging_mismatch(a: RunData, b: RunData) -> str | None:
    """How the two runs were judged differently (None when alike): a count made on the text profile, on
    another track, with candidate recursion allowed, with other kernels or with more samples per problem
    is not the same measure as the other's, however the numbers line up."""

    def terms(run: RunData) -> dict[str, str]:
        config = run.settings.config
        return {
            "prover": config.prover,
            "track": str(config.track),
            "acceptance profile": str(config.acceptance_profile),
            "AXLE": "on" if config.axle else "off",
            "recursion": "allowed" if config.allow_recursion else "refused",
            "kernels": ",".join(config.kernels),
            "samples per problem": str(config.samples),
        }

    ta, tb = terms(a), terms(b)
    differ = [f"{name} {ta[name]} in {a.name}, {tb[name]} in {b.name}" for name in ta if ta[name] != tb[name]]
    if not differ:
        return None
    return f"the runs were not judged alike ({'; '.join(differ)}): their counts are not the same measure"
