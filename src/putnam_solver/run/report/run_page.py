"""One run's report page: the headline, the settings, the charts, the grid, the vetoes and disputes, and
every attempt."""

from __future__ import annotations

from pathlib import Path

from putnam_solver.run.prices import cost_text
from putnam_solver.run.report._page import esc, page, section
from putnam_solver.run.report.attempts import attempts_html, flagged_html
from putnam_solver.run.report.charts import chart_sections
from putnam_solver.run.report.data import Headline, RunData, headline, unsealed_note
from putnam_solver.run.report.grid import run_grid_html
from putnam_solver.run.report.pass_at_k_html import pass_at_k_section
from putnam_solver.run.report.progress import format_seconds
from putnam_solver.run.report.sketches import sketch_html, sketch_lines
from putnam_solver.run.report.tables import acceptance_gates, lifted_note


def render_report(run: RunData, base: Path, plotly_file: str | None) -> str:
    """The report page; links to evidence are relative to ``base`` (the folder the page is written to);
    ``plotly_file`` names plotly's bundle beside the page (None: inlined)."""
    progress, costs, gates, rate_limits = chart_sections(run)
    sections = [
        section("headline", "At a glance", _headline_html(headline(run)) + _settings_html(run)),
        progress,
        costs,
        pass_at_k_section(run),
        sketch_html(sketch_lines(run.sketches, run.attempts)),
        section("grid", "Problems", run_grid_html(run, base)),
        section("flagged", "Vetoed and disputed", flagged_html(run, base)),
        gates,
        rate_limits,
        section("attempts", "Every attempt", attempts_html(run, base)),
    ]
    return page(f"putnam report: {run.name}", run.name, sections, plotly_file)


def _headline_html(h: Headline) -> str:
    share = f"{100 * h.solved / h.selected:.1f}% of {h.selected} selected" if h.selected else "none selected"
    per = h.dollars_per_solved
    stats = [
        ("solved", "solved", str(h.solved), h.solved, share + (f"; {unsealed_note(h.unsealed)}" if h.unsealed else "")),
        (
            "solved-apart",
            "solved (statement known defective)",
            str(h.solved_apart),
            h.solved_apart,
            "counted apart: the benchmark's errata say a proof of these statements says nothing of the problem",
        ),
        (
            "audited",
            "audited",
            str(h.audited),
            h.audited,
            f"of {h.solved} solved, re-verified by putnam audit"
            + (f"; {lifted_note(h.audited_lifted)}" if h.audited_lifted else "")
            + (
                f"; {h.foreign_audits} audit rows not counted: not written by this account's putnam audit"
                if h.foreign_audits
                else ""
            ),
        ),
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
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in settings_rows(run))
    return f'<table class="settings">{rows}</table>'


def settings_rows(run: RunData) -> list[tuple[str, str]]:
    settings, config = run.settings, run.settings.config
    outcome = run.outcome
    state = f"finished: {outcome.get('message')}" if outcome else "in progress or interrupted"
    return [
        ("run", state),
        ("model", f"{config.model} (agent {config.agent}, reviewer {config.reviewer_model or 'none'})"),
        ("prover, track", f"{config.prover}, {config.track.value}"),
        ("acceptance gates", acceptance_gates(config)),
        ("toolchain", settings.toolchain or "not recorded"),
        ("benchmark", f"{settings.pin or 'unpinned'} (sha256 {settings.benchmark_sha256})"),
        ("campaigns", f"{len(run.campaigns)} run ({settings.campaigns or 'no'} limit)"),
    ]
