"""The report's pass@k section: pass@1..K per split over the first campaign's samples (``run.pass_at_k``
says which attempts count), the same numbers SUMMARY.md gives, for a run of ``--samples K`` with K >= 2."""

from __future__ import annotations

from putnam_solver.run.pass_at_k import run_pass_at_k
from putnam_solver.run.report._page import esc, section
from putnam_solver.run.report.data import RunData

NOTE = (
    "Unbiased estimator of Chen et al. (2021) over the samples of the first campaign (each an attempt "
    "with an outcome; later campaigns carry candidates forward, so their attempts are not independent "
    "samples); a sample passes with a verified pass; statements known defective are left out."
)


def pass_at_k_section(run: RunData) -> str:
    """The section, or ``""`` for a run of one sample per problem."""
    table = run_pass_at_k(run.settings, run.attempts, run.defects)
    if not table:
        return ""
    k_max = max(len(row.values) for row in table)
    head = "".join(f"<th>pass@{k}</th>" for k in range(1, k_max + 1))
    body = []
    for row in table:
        cells = []
        for k, (value, counted) in enumerate(zip(row.values, row.counted, strict=True), start=1):
            shown = "n/a" if value is None else f"{value:.3f}"
            over = f" (over {counted})" if value is not None and counted < row.problems else ""
            raw = "" if value is None else repr(value)
            cells.append(f'<td data-k="{k}" data-value="{esc(raw)}">{esc(shown + over)}</td>')
        body.append(
            f'<tr data-split="{esc(row.split)}"><th>{esc(row.split)}</th><td>{row.problems}</td>{"".join(cells)}</tr>'
        )
    table_html = (
        f'<table class="plain" id="pass-at-k"><thead><tr><th>split</th><th>problems</th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )
    return section("pass-at-k", "pass@k", f"<p>{esc(NOTE)}</p>{table_html}")
