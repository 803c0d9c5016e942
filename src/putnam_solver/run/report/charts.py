"""The charts of one run's report, each with what it needs to say anything.

A chart with nothing to show is replaced by one sentence saying why: no problem solved (nothing rises
over time or cost), no price for the run's model (every cost is unknown, and a cost axis of zeros would
claim the run was free), no attempt stopped, no rate limiting. ``section_charts`` gives the page's
chart sections in order.
"""

from __future__ import annotations

import re
from typing import Any

from putnam_solver.run.report._page import COLORS, axis_time, esc, figure_html, layout, plotly_go, section
from putnam_solver.run.report.data import RunData, in_order, problem_costs, rate_limited_requests, stop_counts


def chart_sections(run: RunData) -> list[str]:
    """The sections of charts: progress, cost per problem, what stopped the attempts, rate limiting."""
    cost = no_cost_reason(run)
    solved = None if run.solved else "No problem was solved: there is no progress to draw."
    over_cost = solved or cost
    return [
        section(
            "progress",
            "Solved over time and over cost",
            '<div class="pair">'
            + (
                no_chart("chart-solved-time", solved)
                if solved
                else figure_html("chart-solved-time", _solved_over_time(run))
            )
            + (
                no_chart("chart-solved-cost", over_cost)
                if over_cost
                else figure_html("chart-solved-cost", _solved_over_cost(run))
            )
            + "</div>",
        ),
        section(
            "costs",
            "Cost per problem",
            no_chart("chart-problem-cost", cost)
            if cost
            else "<p>Dollars spent on each problem over all its attempts, failed ones included.</p>"
            + figure_html("chart-problem-cost", _cost_histogram(run)),
        ),
        section("gates", "What stopped the attempts", _gates_html(run)),
        section("rate-limits", "Rate limiting", _rate_limits_html(run)),
    ]


def no_chart(chart: str, why: str) -> str:
    """The sentence that stands in for ``chart``."""
    return f'<p class="note no-chart" data-chart="{chart}">{esc(why)}</p>'


def no_cost_reason(run: RunData) -> str | None:
    """Why the run's costs say nothing (None when they do)."""
    if run.usage.cost_dollars:
        return None
    if run.unpriced:
        return (
            f"No price for {', '.join(run.unpriced)}: the cost of this run is unknown, so no cost is drawn "
            "(putnam solve --resume RUN_DIR --prices FILE gives one)."
        )
    if not run.attempts:
        return "No attempt was made: there is no cost to draw."
    return "Every attempt cost $0.00: there is no cost to draw."


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
