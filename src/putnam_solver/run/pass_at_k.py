"""pass@k as the field reports it: the unbiased estimator of Chen et al. (2021), per benchmark split.

With ``n`` independent samples of a problem of which ``c`` passed, the chance that at least one of ``k``
samples drawn without replacement passes is ``1 - C(n-c, k) / C(n, k)``. The binomials overflow floats
long before ``n`` is large, so the ratio is computed as the product ``prod_{i=n-c+1}^{n} (1 - k/i)``,
term by term (as the paper's own code does).

Which attempts count (``samples_of_first_campaign``): the samples of the run's *first* campaign only,
each one an attempt with an outcome (an attempt stopped by Ctrl-C has none and runs again). Later
campaigns retry only unresolved problems with the best earlier candidate carried forward, so their
attempts are not independent samples. A sample passes when the ledger holds a verified pass for it (the
same rule as the solved count), or, for ``putnam audit``, when its pass was confirmed by the audit just
run. Statements known defective are left out, as from the headline. A problem with fewer than ``k``
recorded samples (a run stopped early) does not count towards pass@k; the number that did is shown.

What is verified (``ledger_seals``): every sample of the first campaign's sealed plan counts, and passes only
in an attempt row this account's ``putnam solve`` wrote and sealed; a sample without such a row counts as
failed, so no edit of the ledger raises the verified figures. Problems whose samples are not all in such
rows are named with why, and the table as the ledger states it is shown apart, marked not verified; a
ledger of another account or an older putnam (no sealed plan) shows only that, never mixed with verified
figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from putnam_solver.run.ledger_rows import INTERRUPTED, AttemptRow
from putnam_solver.run.ledger_seals import UNSEALED, SampleTrust
from putnam_solver.run.stored_settings import StoredSettings

ALL_SPLITS = "all"
"""The row of the pass@k table over every problem, whatever its split."""


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass@k for ``n`` samples with ``c`` passes (``0 <= c <= n``, ``1 <= k <= n``)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")
    if n - c < k:  # every draw of k samples holds a pass
        return 1.0
    failing_only = 1.0
    for i in range(n - c + 1, n + 1):
        failing_only *= 1.0 - k / i
    return 1.0 - failing_only


@dataclass(frozen=True)
class PassAtK:
    """pass@k for k = 1.. of one split: ``values[k-1]`` over ``counted[k-1]`` problems (None: none had k
    samples)."""

    split: str
    problems: int
    values: tuple[float | None, ...]
    counted: tuple[int, ...]


def samples_of_first_campaign(
    attempts: Iterable[AttemptRow], excluded: Iterable[str] = ()
) -> dict[str, list[AttemptRow]]:
    """The samples that pass@k is computed over, by problem: see the module's doc."""
    rows = [a for a in attempts if a.status != INTERRUPTED]
    if not rows:
        return {}
    first = min(a.campaign for a in rows)
    left_out = set(excluded)
    by_problem: dict[str, list[AttemptRow]] = {}
    for row in rows:
        if row.campaign == first and row.problem not in left_out and row.status != INTERRUPTED:
            by_problem.setdefault(row.problem, []).append(row)
    return by_problem


def pass_at_k_table(
    samples: Mapping[str, list[AttemptRow]],
    k_max: int,
    splits: Mapping[str, str | None],
    passed: Callable[[AttemptRow], bool] = lambda a: a.verified_pass,
) -> list[PassAtK]:
    """pass@1..``k_max`` per split (``splits``: each problem's split, None where it has none) and over all
    problems (first row); a sample passes when ``passed`` says so."""
    counts = {problem: (len(rows), sum(1 for r in rows if passed(r))) for problem, rows in samples.items()}
    return counts_table(counts, k_max, splits)


def counts_table(counts: Mapping[str, tuple[int, int]], k_max: int, splits: Mapping[str, str | None]) -> list[PassAtK]:
    """``pass_at_k_table`` from each problem's ``(n, c)``."""
    groups: dict[str, list[tuple[int, int]]] = {ALL_SPLITS: []}
    for problem, found in sorted(counts.items()):
        groups[ALL_SPLITS].append(found)
        split = splits.get(problem)
        if split:
            groups.setdefault(split, []).append(found)
    if len(groups) == 2:  # one split: its row says what the row of every problem says
        groups = {name: rows for name, rows in groups.items() if name != ALL_SPLITS}
    return [_row(name, found, k_max) for name, found in groups.items()]


def _row(split: str, counts: list[tuple[int, int]], k_max: int) -> PassAtK:
    values: list[float | None] = []
    counted: list[int] = []
    for k in range(1, k_max + 1):
        estimates = [pass_at_k(n, c, k) for n, c in counts if n >= k]
        values.append(sum(estimates) / len(estimates) if estimates else None)
        counted.append(len(estimates))
    return PassAtK(split, len(counts), tuple(values), tuple(counted))


def pass_at_k_lines(table: Iterable[PassAtK]) -> list[str]:
    """The table as Markdown (SUMMARY.md) and plain text alike: a row per split, a column per k."""
    rows = list(table)
    if not rows:
        return []
    k_max = max(len(r.values) for r in rows)
    head = "| split | problems | " + " | ".join(f"pass@{k}" for k in range(1, k_max + 1)) + " |"
    out = [head, "|---|---:|" + "---:|" * k_max]
    for row in rows:
        cells = [_cell(v, n, row.problems) for v, n in zip(row.values, row.counted, strict=True)]
        out.append(f"| {row.split} | {row.problems} | " + " | ".join(cells) + " |")
    return out


def _cell(value: float | None, counted: int, problems: int) -> str:
    if value is None:
        return "n/a"
    short = f" (over {counted})" if counted < problems else ""
    return f"{value:.3f}{short}"


@dataclass(frozen=True)
class PassAtKFigures:
    """pass@k of a run. ``verified``: over the problems of the first campaign's sealed sample plan, each with
    every planned sample and only the passes in rows this account's ``putnam solve`` sealed
    (``ledger_seals.SampleTrust``; a sample without such a row counts as failed, so no edit raises it);
    none when the plan has no valid seal. ``unverified``: every problem whose samples are not all in sealed
    rows, with why; ``claimed``: the table over every problem as the ledger states it, when there is one."""

    verified: tuple[PassAtK, ...]
    unverified: Mapping[str, str]
    claimed: tuple[PassAtK, ...] = ()


def pass_at_k_figures(
    attempts: Iterable[AttemptRow],
    k_max: int,
    splits: Mapping[str, str | None],
    trust: SampleTrust,
    excluded: Iterable[str] = (),
    passed: Callable[[AttemptRow], bool] = lambda a: a.verified_pass,
) -> PassAtKFigures:
    """pass@1..``k_max``, verified as ``trust`` allows, and as claimed when something is not verified."""
    rows, left_out = list(attempts), set(excluded)
    samples = samples_of_first_campaign(rows, left_out)
    unverified = {p: why for p, why in trust.unverified.items() if p not in left_out}
    unverified |= {p: UNSEALED for p in samples if not trust.planned(p) and trust.plan}
    if not trust.plan:
        unverified = {p: unverified.get(p, UNSEALED) for p in samples}
    planned = sorted(trust.plan - left_out)
    counts = {p: (trust.samples, trust.passes(p, rows, passed)) for p in planned}
    verified = tuple(counts_table(counts, k_max, splits)) if counts or not unverified else ()
    claimed = tuple(pass_at_k_table(samples, k_max, splits, passed)) if unverified else ()
    return PassAtKFigures(verified, unverified, claimed)


def run_pass_at_k(
    settings: StoredSettings,
    attempts: Iterable[AttemptRow],
    trust: SampleTrust,
    excluded: Iterable[str] = (),
) -> PassAtKFigures | None:
    """pass@1..K of a stored run (K its ``--samples``; None for a run of one sample per problem)."""
    k_max = settings.config.samples
    if k_max < 2:
        return None
    return pass_at_k_figures(attempts, k_max, dict(settings.splits), trust, excluded)


MAX_NAMED = 10
"""The most problems named per reason a problem's samples are not verified (the rest are counted)."""


def unverified_lines(figures: PassAtKFigures) -> list[str]:
    """What of pass@k is not verified and why, in plain words (nothing when everything is)."""
    if not figures.unverified:
        return []
    reasons: dict[str, list[str]] = {}
    for problem, why in sorted(figures.unverified.items()):
        reasons.setdefault(why, []).append(problem)
    left = len(figures.unverified)
    head = (
        f"NOT VERIFIED: {left} problems whose samples are not all in attempt rows this account's `putnam solve` "
        "wrote and sealed; each sample without such a row counts as failed in the pass@k above (a lower bound):"
        if figures.verified
        else f"pass@k NOT VERIFIED: none of the {left} problems' samples rest on a sample plan and attempt rows "
        "this account's `putnam solve` wrote and sealed:"
    )
    out = [head]
    for why, problems in reasons.items():
        more = f" and {len(problems) - MAX_NAMED} more" if len(problems) > MAX_NAMED else ""
        out.append(f"- {', '.join(problems[:MAX_NAMED])}{more}: {why}")
    return out


CLAIMED_HEAD = (
    "pass@k as the ledger states it, NOT VERIFIED (every problem; the solved count does not rest on these "
    "rows: `putnam audit` re-verifies each pass):"
)


def figures_lines(figures: PassAtKFigures | None) -> list[str]:
    """The verified table, then what is not verified and the table as claimed (Markdown and plain text)."""
    if figures is None:
        return []
    out = pass_at_k_lines(figures.verified)
    if figures.unverified:
        apart = ["", *unverified_lines(figures)] if out else unverified_lines(figures)
        out += [*apart, "", CLAIMED_HEAD, "", *pass_at_k_lines(figures.claimed)]
    return out


def pass_at_k_section(figures: PassAtKFigures | None) -> list[str]:
    """SUMMARY.md's section on pass@k (nothing when the run had one sample per problem)."""
    rows = figures_lines(figures)
    if not rows:
        return []
    return [
        "## pass@k",
        "",
        "Over the samples of the first campaign (an attempt with an outcome each; later campaigns carry",
        "candidates forward, so their attempts are not independent samples); a sample passes with a verified",
        "pass; statements known defective are left out; every sample of the sealed plan counts, passed only in",
        "a row this account's `putnam solve` sealed. Unbiased estimator of Chen et al. (2021).",
        "",
        *rows,
        "",
    ]


def audited_pass_at_k(
    k_max: int,
    attempts: Iterable[AttemptRow],
    confirmed: Iterable[int],
    splits: Mapping[str, str | None],
    excluded: Iterable[str],
    trust: SampleTrust,
) -> list[str]:
    """``putnam audit``'s pass@k lines: a sample passes only when the audit just run confirmed it
    (``confirmed``: attempt ids); splits and defects are the auditor's benchmark's, never the ledger's; a
    problem counts as verified only as ``trust`` says (the audit confirms passes, not the failed samples
    beside them, nor that none was removed)."""
    if k_max < 2:
        return []
    ids = set(confirmed)
    figures = pass_at_k_figures(attempts, k_max, splits, trust, excluded, lambda a: a.id in ids)
    return ["pass@k over the first campaign's samples, from the passes this audit confirmed:", *figures_lines(figures)]
