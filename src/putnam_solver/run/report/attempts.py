"""The attempts of one run's report: the sortable table of every attempt with links to its evidence, and
the list of attempts a reviewer vetoed or whose acceptance the answer check disputed (both easy to miss
among rejections, both things a reader of the results must see)."""

from __future__ import annotations

from pathlib import Path

from putnam_solver.run.agent.types import slot_label
from putnam_solver.run.ledger import AttemptRow
from putnam_solver.run.prices import cost_text
from putnam_solver.run.report._page import esc, href
from putnam_solver.run.report.data import RunData
from putnam_solver.run.report.evidence import AUDIT_FILE, COMPLETE_MARKER, TURNS_FILE, attempt_dir, prover_suffix
from putnam_solver.run.report.tables import verdict_summary

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


def attempts_html(run: RunData, base: Path) -> str:
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
        (slot_label(a.problem, a.sample), a.problem),  # ``problem#n`` for sample n >= 2 of --samples
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
    links = evidence_links(run, a, base)
    row = f'id="attempt-{a.id}" class="{esc(status_class)}" data-problem="{esc(a.problem)}" data-sample="{a.sample}"'
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


def evidence_links(run: RunData, a: AttemptRow, base: Path) -> str:
    """Links to the attempt's evidence files that exist (the candidate and challenge carry the prover's
    suffix), and to its Inspect transcript."""
    folder = run.run_dir / attempt_dir(a)
    suffix = prover_suffix(run.settings)
    links = []
    # only what the ledger backs: a run directory handed over may hold a file of any of these names (an
    # ``audit.json`` no audit of this account wrote, a verdict of an attempt that has none, the challenge of
    # a problem the ledger holds none of: red team round 11)
    backed = {
        "candidate": a.candidate is not None,
        "challenge": a.problem in run.challenges,
        "verdict.json": a.verdict is not None,
        AUDIT_FILE: a.id in run.audits,
    }
    backed["gates.log"] = backed["verdict.json"]
    for label, name in EVIDENCE_FILES:
        path = folder / (name + suffix if name in ("candidate", "challenge") else name)
        if backed.get(name, True) and path.is_file():
            links.append(f'<a href="{href(path, base)}">{label}</a>')
    if a.transcript and _transcript(run.run_dir, Path(a.transcript)):  # a path the ledger holds
        links.append(f'<a href="{href(Path(a.transcript), base)}">transcript</a>')
    return " ".join(links)


TRANSCRIPT_SUFFIXES = (".eval", ".json")
"""The files Inspect writes its logs as: a zip archive (``.eval``) or JSON; a browser runs neither."""


def _transcript(run_dir: Path, path: Path) -> bool:
    """``path`` is an Inspect log among the run directory's files (resolved, so no link leads out of it). The
    ledger names it, so a run directory handed over chose it: a ``logs/transcript.svg`` or ``.html`` of its
    own, linked as the transcript, ran its script when opened, outside the report's content security policy
    (red team round 11)."""
    resolved = path.resolve()
    inside = resolved.is_relative_to(run_dir.resolve()) and resolved.is_file()
    return inside and resolved.suffix.lower() in TRANSCRIPT_SUFFIXES and path.suffix.lower() in TRANSCRIPT_SUFFIXES


FLAGGED = {
    "disputed": "disputed: the gates accepted the proof, but the answer check proved its answer different from "
    "the official one (an unsound proof or a wrong statement: a candidate erratum)",
    "vetoed": "vetoed: the gates accepted the proof, and the reviewer refused it",
}


def flagged_html(run: RunData, base: Path) -> str:
    """Every vetoed or disputed attempt, with why (the reviewer's words, or the verdict) and its evidence."""
    flagged = [a for a in run.attempts if a.status in FLAGGED]
    if not flagged:
        return '<p class="note" id="flagged-note">No attempt was vetoed by the reviewer or disputed.</p>'
    items = "".join(
        f'<li data-problem="{esc(a.problem)}" data-status="{esc(a.status)}"><span class="key {esc(a.status)}">'
        f"{esc(a.status)}</span> {esc(a.problem)} (campaign {a.campaign}): {esc(_why(a))} "
        f"{evidence_links(run, a, base)}</li>"
        for a in flagged
    )
    legend = "".join(f"<li>{esc(text)}</li>" for text in FLAGGED.values())
    return f'<ul class="plain-list">{legend}</ul><ul id="flagged-attempts">{items}</ul>'


def _why(a: AttemptRow) -> str:
    why = (a.reviewer_feedback if a.status == "vetoed" else None) or verdict_summary(a) or a.error or ""
    return why if len(why) <= NOTE_CHARS else why[: NOTE_CHARS - 3] + "..."
