"""The report's pass@k section: pass@1..K per split over the first campaign's samples (``run.pass_at_k``
says which attempts count), the same numbers SUMMARY.md gives, for a run of ``--samples K`` with K >= 2.

A sample without a row this account's ``putnam solve`` sealed counts as failed in the verified table
(``ledger_seals``); the problems with such samples are named with why, and the ledger's claim is shown in a
table of its own marked not verified."""

from __future__ import annotations

from collections.abc import Sequence

from putnam_solver.run.pass_at_k import CLAIMED_HEAD, PassAtK, run_pass_at_k, unverified_lines
from putnam_solver.run.report._page import esc, section
from putnam_solver.run.report.data import RunData

NOTE = (
    "Unbiased estimator of Chen et al. (2021) over the samples of the first campaign (each an attempt "
    "with an outcome; later campaigns carry candidates forward, so their attempts are not independent "
    "samples); a sample passes with a verified pass; statements known defective are left out; every sample "
    "of the sealed plan counts, passed only in a row this account's putnam solve sealed."
)


def pass_at_k_section(run: RunData) -> str:
    """The section, or ``""`` for a run of one sample per problem."""
    figures = run_pass_at_k(run.settings, run.attempts, run.sample_trust, run.defects)
    if figures is None:
        return ""
    parts = [f"<p>{esc(NOTE)}</p>"]
    if figures.verified:
        parts.append(_table("pass-at-k", figures.verified))
    if figures.unverified:
        head, *reasons = unverified_lines(figures)
        items = "".join(f"<li>{esc(line.removeprefix('- '))}</li>" for line in reasons)
        parts.append(f'<p class="warning" id="pass-at-k-unverified"><strong>{esc(head)}</strong></p><ul>{items}</ul>')
        parts.append(f"<p><strong>{esc(CLAIMED_HEAD)}</strong></p>{_table('pass-at-k-claimed', figures.claimed)}")
    return section("pass-at-k", "pass@k", "".join(parts))


def _table(ident: str, table: Sequence[PassAtK]) -> str:
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
    return (
        f'<table class="plain" id="{ident}"><thead><tr><th>split</th><th>problems</th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )
