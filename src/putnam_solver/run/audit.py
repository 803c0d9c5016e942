"""``putnam audit``: re-verify every stored pass of a run, afresh, with the auditor's own settings.

A pass was accepted once, when it was submitted. An audit checks it again as a reviewer would: the
candidate's bytes are taken from the ledger, the challenge is derived again from the auditor's benchmark
(whose bytes must be the ones the run claims), and every gate of the full profile runs in a fresh
sandbox, with no verdict cache, with the tools and gate options of the auditor (``audit_settings``): the
run's settings are claims, compared and reported, never obeyed. Every audit re-verifies every claimed
pass; the audits stored before are history, shown as such, never counted: a ledger is text anyone can
edit, and a stored ``accepted`` row proves nothing. Each result is stored in the ledger's ``audits``
table as soon as it is known (time, toolchain fingerprint, verdict with every gate's evidence, hashes).

A pass whose audit fails is never dropped: it stays in the ledger, its newest audit says why, and the
run's outputs mark it (SUMMARY.md, attempts.tsv, ``audit.json`` in its evidence folder).

Refusals, before anything is verified: no benchmark to judge against (an unregistered one not named by
the auditor), its bytes differ from the run's, or the toolchain fingerprint differs from the one the pass
was submitted on, unless ``allow_toolchain_change`` (then every audit row records ``toolchain_changed``);
and a run whose outputs cannot be written as its ledger stands (a link where putnam keeps a folder, a row
the outputs cannot show): found only after the verification, that ended the audit with its results
stored but never printed, after minutes of compiling (red team round 15).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from putnam_solver.benchmark_view import known_defect
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.cache import gate_code_fingerprint
from putnam_solver.core.code_identity import plugin_code
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.util import InputError, sha256_hex
from putnam_solver.core.verify import GateResult, GateStatus, Track, Verdict, VerifyOptions, gate_ids
from putnam_solver.doctor import require_gates
from putnam_solver.errata import with_errata
from putnam_solver.run import audit_placement as placement
from putnam_solver.run.audit_settings import audit_benchmark, audit_options, claimed_differences, pin_line
from putnam_solver.run.campaign import CampaignError, RunLock, required_settings, settings_history
from putnam_solver.run.ledger import LEDGER_NAME, AttemptRow, AuditRow, Ledger, LedgerError
from putnam_solver.run.ledger_checks import check_attempts
from putnam_solver.run.ledger_seals import sample_trust, sealed_attempts
from putnam_solver.run.pass_at_k import audited_pass_at_k
from putnam_solver.run.report.evidence import attempt_dir, run_prover, write_audit_file
from putnam_solver.run.report.summary import write_outputs
from putnam_solver.run.report.tables import RECURSION_LIFTED, audit_summary
from putnam_solver.safe_write import UnsafePath, planted_link_refusal, write_under
from putnam_solver.selftest.record import last_record
from putnam_solver.selftest.runner import SELFTEST_FIX, surprise_summary, uncovered
from putnam_solver.terminal import one_line, shown_path
from putnam_solver.verifier.candidates import disputed_note
from putnam_solver.verifier.dispatch import LOCAL, Verifier, elsewhere

Notice = Callable[[str], None]


@dataclass(frozen=True)
class AuditRequest:
    """What ``putnam audit`` was asked to do."""

    run_dir: Path
    jobs: int = 1
    allow_toolchain_change: bool = False
    """Audit on a toolchain other than the run's (recorded in every audit row)."""
    benchmark: str | Path | None = None
    """The benchmark to judge against, a PATH or a registered NAME (default: the auditor's copy of the
    registered benchmark the run names); its bytes must be the ones the run claims."""
    benchmark_sha256: str | None = None
    """A pin the auditor holds for an unregistered benchmark file (else it is audited as unpinned)."""
    options: VerifyOptions = field(default_factory=VerifyOptions)
    """The auditor's gate options and tools (``--tool``, ``--allow-recursion``, ``--axle``, ``--kernels``,
    caps); the audit runs them at the full profile in the sandbox, whatever the run used."""
    verifier: Verifier = LOCAL
    """Where the passes are re-verified (``--ray``: on a cluster)."""


@dataclass(frozen=True)
class AuditItem:
    """One stored pass and its newest audit (the one just made, or the earlier one that made it skip)."""

    attempt: AttemptRow
    audit: AuditRow | None
    defect: str = ""
    """What the benchmark's errata say is wrong with the statement (``""``: nothing known): a confirmed
    pass of a statement known defective is shown and counted apart from solved."""

    @property
    def status(self) -> str:
        """The newest audit's status (``accepted``, ``rejected``, ``error``), or ``not audited``."""
        return self.audit.status if self.audit is not None else "not audited"

    @property
    def counted(self) -> bool:
        """The pass counts as audited: backed at submission, and its newest audit accepted these bytes."""
        audit = self.audit
        return self.attempt.verified_pass and audit is not None and audit.confirms(self.attempt)

    def line(self) -> str:
        """One line of the audit table: problem, campaign, submission, audit, and why not when not."""
        submitted = "verified" if self.attempt.verified_pass else "UNBACKED"
        shown = audit_summary(self.audit) if self.audit is not None else "not audited"
        notes = []
        if self.audit is not None and self.audit.toolchain_changed:
            notes.append("on a changed toolchain")
        if not self.attempt.verified_pass:
            notes.append("the stored verdict does not back the stored candidate bytes")
        first = _first_problem(self.audit.verdict) if self.audit is not None else None
        if first:
            notes.append(first)
        if self.defect:
            what = "solved, counted apart" if self.counted else "not counted"
            notes.append(f"{what} (statement known defective: {self.defect})")
        tail = f"  ({'; '.join(notes)})" if notes else ""
        return f"{shown:16} {self.attempt.problem}  campaign {self.attempt.campaign}, {submitted}{tail}"


@dataclass(frozen=True)
class AuditOutcome:
    """How an audit ended: 0 every pass audited and accepted; 1 a pass failed its audit (or its stored
    verdict does not back it); 2 an audit could not decide (a gate could not run)."""

    exit_code: int
    message: str
    items: tuple[AuditItem, ...]
    toolchain: str
    audited_now: int = 0
    differences: tuple[str, ...] = ()
    """Where the run's claimed settings differ from the audit's (``claimed_differences``)."""
    pass_at_k: tuple[str, ...] = ()
    """pass@1..K from the confirmed passes, as lines to print (none for a run of one sample per problem)."""


def audit_run(request: AuditRequest, notice: Notice = lambda _: None, on_item: Notice | None = None) -> AuditOutcome:
    """Audit every stored pass of ``request.run_dir``; ``on_item`` hears one progress line per pass done.

    Raises InputError (exit code 2) when the audit is refused: no run there, the run directory in use, a
    ledger that is not a ledger, no benchmark or another one, the toolchain changed without
    ``allow_toolchain_change``, or the full profile cannot run here.
    """
    run_dir = request.run_dir
    if not (run_dir / LEDGER_NAME).is_file():
        raise InputError(f"{run_dir}: no run here (no {LEDGER_NAME}); give the directory `putnam solve` wrote")
    try:
        with RunLock(run_dir):
            ledger = Ledger.open(run_dir / LEDGER_NAME, holding_run_lock=True)
            try:
                return _Audit(request, ledger, notice, on_item).run()
            finally:
                ledger.close()
    except (CampaignError, LedgerError) as exc:
        raise InputError(str(exc)) from exc
    except UnsafePath as exc:  # a link planted in the run directory
        raise InputError(planted_link_refusal(exc)) from exc


def run_toolchains(ledger: Ledger) -> Callable[[AttemptRow], str | None]:
    """The toolchain fingerprint each attempt was verified on: the one recorded by the run's start or
    resume that preceded it (None for runs whose putnam did not record it). Times are whole seconds, and
    the same for every row written while the clock was behind the ledger (``ledger_clock``): a record of
    the attempt's own second may have come before or after it, so where such records name another
    toolchain than the one before them, the attempt's reads as either, which no audit's own toolchain is
    (red team 18: an attempt verified before a resume was read as verified on the resume's toolchain)."""
    history = settings_history(ledger)

    def toolchain(attempt: AttemptRow) -> str | None:
        at = attempt.recorded_at
        before = [s for t, s in history if t < at][-1:] or [s for _, s in history[:1]]
        possible = before + [s for t, s in history if t == at and s not in before]
        named = list(dict.fromkeys(s.toolchain for s in possible))
        if len(named) > 1:
            return " or ".join(str(n) for n in named)
        return named[0] if named else None

    return toolchain


class _Audit:
    """One audit holding the run directory's lock."""

    def __init__(self, request: AuditRequest, ledger: Ledger, notice: Notice, on_item: Notice | None) -> None:
        self.request = request
        self.ledger = ledger
        self.notice = notice
        self.on_item = on_item
        settings = required_settings(ledger, "audit")
        check_attempts(ledger, settings)
        self.config = settings.config
        self.prover = run_prover(settings)
        self.suffix = self.prover.suffix  # from the prover registry, never from the ledger
        self.track: Track = self.config.track
        self.benchmark: Benchmark = audit_benchmark(
            settings, request.benchmark, request.benchmark_sha256, self.prover.name, request.run_dir
        )
        self.options: VerifyOptions = audit_options(request.options, self.benchmark)
        self.differences = tuple(claimed_differences(self.config, self.options))
        self.challenges: dict[str, str] = {}
        self.sealed = sealed_attempts(ledger)
        self.trust = sample_trust(ledger, self.config.samples)

    def run(self) -> AuditOutcome:
        benchmark = self.benchmark
        passes = [a for a in self.ledger.attempts() if a.status == "passed"]
        self.notice(pin_line(benchmark))
        for difference in self.differences:
            self.notice(f"note: {difference}")
        current = self.prover.toolchain_fingerprint(self.options)
        recorded = run_toolchains(self.ledger)
        changed = {a.id: recorded(a) != current for a in passes}
        self._check_toolchain(passes, recorded, current)
        if passes:
            require_gates(self.prover.name, self.options)
            self._check_selftest()
        history = len(self.ledger.audits())
        self.challenges = {p.id: p.challenge_sha256 for p in self.ledger.problems().values()}
        items: dict[int, AuditItem] = {}
        for attempt in passes:
            self._check_evidence(attempt)
        write_outputs(self.request.run_dir, self.ledger)  # fails now, not after the verification (module doc)
        if passes:
            earlier = f" ({history} earlier audits in the ledger are history, not counted)" if history else ""
            self.notice(f"auditing {len(passes)} passes afresh, {self.request.jobs} at a time{earlier}")
        progress = _Progress(len(passes), self.on_item)

        def one(attempt: AttemptRow) -> AuditItem:
            verdict, where = self._verify(attempt, benchmark)
            row = self.ledger.record_audit(
                attempt.id,
                self._audit_json(attempt, verdict, recorded(attempt), current, changed[attempt.id], where),
                current,
                benchmark.sha256,
                changed[attempt.id],
            )
            write_audit_file(self.request.run_dir, attempt, row)
            return AuditItem(attempt, row, defect=known_defect(benchmark, attempt.problem))

        workers = max(1, min(self.request.jobs, len(passes) or 1))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="putnam-audit") as pool:
            for item in pool.map(one, passes):
                items[item.attempt.id] = item
                progress(item)
        write_outputs(self.request.run_dir, self.ledger, {i: item.audit for i, item in items.items() if item.audit})
        ordered = tuple(items[a.id] for a in passes)
        outcome = _outcome(ordered, current, len(passes), self.differences, pin_line(benchmark))
        if passes and self.options.recursion_allowed:  # a confirmation made with a rule lifted says so
            outcome = dataclasses.replace(outcome, message=f"{outcome.message}; audited with {RECURSION_LIFTED}")
        return dataclasses.replace(outcome, pass_at_k=tuple(self._pass_at_k(ordered)))

    def _pass_at_k(self, items: Sequence[AuditItem]) -> list[str]:
        """pass@k from the passes this audit confirmed, with the auditor's benchmark's splits and errata."""
        problems = [self.benchmark.problems[p] for p in self.ledger.problems() if p in self.benchmark.problems]
        splits = {p.id: p.split for p in problems}
        defects = [p.id for p in problems if known_defect(self.benchmark, p.id)]
        confirmed = [i.attempt.id for i in items if i.counted]
        attempts = self.ledger.attempts()
        return audited_pass_at_k(self.config.samples, attempts, confirmed, splits, defects, self.trust)

    def _check_toolchain(
        self, passes: Sequence[AttemptRow], recorded: Callable[[AttemptRow], str | None], current: str
    ) -> None:
        found = {recorded(a) or "not recorded (a putnam older than the audit)" for a in passes} - {current}
        differing = sorted(shown_path(f) for f in found)  # the ledger's text, shown on lines of audit's own
        if not differing:
            return
        if self.request.allow_toolchain_change:
            self.notice(
                f"warning: auditing on another toolchain than the run's (recorded in every audit): run: "
                f"{'; '.join(differing)}; here: {current}"
            )
            return
        raise InputError(
            f"{self.request.run_dir}: the toolchain differs from the one the run's passes were verified on "
            f"(run: {' | '.join(differing)}; here: {current}). Audit with the run's tools (--tool NAME=PATH), or "
            "pass --allow-toolchain-change to audit on this one (recorded in every audit)"
        )

    def _check_selftest(self) -> None:
        """Refuse a toolchain whose last selftest found gates misjudging canaries: its rejections would mark
        sound passes as failing their audit (and ``export`` would leave them out), its acceptances confirm
        what a broken gate let through. Without a record, say so (``solve`` runs one; an audit does not)."""
        record = last_record(self.prover.name, self.options)
        if record is None:
            self.notice(
                f"note: no selftest of {self.prover.name} on this toolchain; `putnam selftest --prover "
                f"{self.prover.name}` puts known-good and known-bad canaries through the gates that audit"
            )
        elif not record.passed:
            raise InputError(
                f"the last {self.prover.name} selftest on this toolchain found gates that misjudge canaries "
                f"({surprise_summary(record)}), so no audit on it is a confirmation or a refusal; {SELFTEST_FIX}"
            )
        elif missing := uncovered(record, self.prover.name, self.options):
            self.notice(f"note: the last selftest on this toolchain did not judge {'; '.join(missing)}")

    def _check_evidence(self, attempt: AttemptRow) -> None:
        """Say so when the evidence folder's candidate is not the ledger's (edited after the run?), and
        write the ledger's there: the audit checks the ledger's bytes, and the ``audit.json`` it leaves
        beside the candidate must not stand next to other bytes, taken for the ones it confirmed."""
        relative = attempt_dir(attempt) / f"candidate{self.suffix}"
        path = self.request.run_dir / relative
        if attempt.candidate is None or not path.exists():
            return
        try:
            found = read_regular_file(path, max(self.options.max_candidate_bytes, len(attempt.candidate) * 4) + 1)
        except UnsafeFile as exc:
            self.notice(f"warning: {exc}")
            return
        if found != attempt.candidate.encode("utf-8"):
            self.notice(
                f"warning: {path} differs from the candidate the ledger holds for {attempt.problem} (campaign "
                f"{attempt.campaign}); the ledger's bytes are audited and written there"
            )
            write_under(self.request.run_dir, relative, attempt.candidate.encode("utf-8"))

    def _verify(self, attempt: AttemptRow, benchmark: Benchmark) -> tuple[Verdict, str]:
        """The full profile afresh on the stored bytes, against the challenge derived here and now, and where
        it ran (``audit_placement``)."""
        problem = benchmark.problems.get(attempt.problem)
        why = _unverifiable(attempt, problem is not None)
        if why or problem is None or attempt.candidate is None:
            return self._refused(attempt, benchmark, why), placement.NOT_RUN
        data, label = attempt.candidate.encode("utf-8"), str(attempt_dir(attempt) / f"candidate{self.suffix}")
        verifier, produced_on, where = placement.choose(self.request.verifier, attempt, attempt.id in self.sealed)

        def run(on: Verifier, avoid: list[str]) -> Verdict:
            with elsewhere(avoid):  # under --ray: another node than the one that produced the pass
                made = on.verify(self.prover, benchmark, problem, data, self.track, self.options, label)
            made.benchmark = with_errata(made.benchmark, benchmark, problem)  # stored as every verdict shows it
            return made

        try:
            verdict = run(verifier, [produced_on] if produced_on else [])
            if produced_on and verdict.ran_on.get("node_id") == produced_on:  # no other node could take it
                verdict, where = run(LOCAL, []), placement.ON_HEAD_SOLE_NODE
        except InputError as exc:  # an empty candidate: refused like any input that is not a proof
            verdict = self._refused(attempt, benchmark, str(exc))
        return verdict, where

    def _refused(self, attempt: AttemptRow, benchmark: Benchmark, why: str) -> Verdict:
        return Verdict(
            problem=attempt.problem,
            prover=self.prover.name,
            track=self.track,
            profile=self.options.profile,
            gates=[GateResult("G1", "provenance", GateStatus.FAILED, why)],
            expected_gates=gate_ids(self.options),
            candidate_sha256=sha256_hex((attempt.candidate or "").encode("utf-8", "surrogatepass")),
            statement_sha256="",
            challenge_sha256="",
            benchmark_sha256=benchmark.sha256,
            benchmark_pinned=benchmark.pinned,
        )

    def _audit_json(
        self,
        attempt: AttemptRow,
        verdict: Verdict,
        run_toolchain: str | None,
        current: str,
        changed: bool,
        where: str,
    ) -> dict[str, Any]:
        """The verdict as stored, with what the audit compared: the run's toolchain and challenge."""
        return {
            **verdict.to_json(),
            "audit": {
                "run_toolchain": run_toolchain,
                "toolchain": current,
                "toolchain_changed": changed,
                "gate_code": gate_code_fingerprint(),
                # evidence of what judged; no count reads it (every audit re-verifies with the code installed now)
                **({"prover_code": code} if (code := plugin_code(self.prover)) else {}),
                "challenge_matches_run": self.challenges.get(attempt.problem) == verdict.challenge_sha256,
                "benchmark": {"path": str(self.benchmark.path), "pin": self.benchmark.pin_name},
                "defect": known_defect(self.benchmark, attempt.problem),
                "run_claims_differ": list(self.differences),
                "placement": where,
                "submitted": {
                    "status": attempt.verdict_status,
                    "candidate_sha256": attempt.candidate_sha256,
                    "verified_pass": attempt.verified_pass,
                },
            },
        }


class _Progress:
    """Counts the passes done and hands each one's table line to the caller."""

    def __init__(self, total: int, sink: Notice | None) -> None:
        self.total, self.done, self.sink = total, 0, sink

    def __call__(self, item: AuditItem) -> None:
        self.done += 1
        if self.sink is not None:
            self.sink(f"[{self.done}/{self.total}] {item.line()}")


def _outcome(
    items: Sequence[AuditItem], toolchain: str, audited_now: int, differences: tuple[str, ...], benchmark: str
) -> AuditOutcome:
    if not items:
        return AuditOutcome(0, "the run has no stored pass; nothing to audit", (), toolchain, 0, differences)
    counts = {s: sum(i.status == s for i in items) for s in ("accepted", "rejected", "error")}
    unbacked = [i for i in items if not i.attempt.verified_pass]
    failed = [i for i in items if not i.counted]
    apart = sorted({i.attempt.problem for i in items if i.counted and i.defect})
    on_defects = f" ({len(apart)} on statements known defective, counted apart: {', '.join(apart)})" if apart else ""
    summary = (
        f"audited {len(items)} passes: {counts['accepted']} accepted{on_defects}"
        f"{disputed_note(i.status for i in items)}, {counts['rejected']} rejected, "
        f"{counts['error']} could not be decided ({audited_now} re-verified now; {benchmark})"
    )
    if differences:
        summary += f"; the run's claims differ from this audit's settings: {'; '.join(differences)}"
    if unbacked:
        summary += f"; {len(unbacked)} marked passed without a stored verdict for their bytes (never counted)"
    if failed:
        summary += f"; not confirmed: {', '.join(sorted({i.attempt.problem for i in failed}))}"
    code = 2 if counts["error"] else (1 if failed else 0)
    return AuditOutcome(code, summary, tuple(items), toolchain, audited_now, differences)


def _unverifiable(attempt: AttemptRow, known: bool) -> str:
    """Why the stored pass cannot be put through the gates at all (``""``: it can)."""
    if not known:
        return f"the run's benchmark has no problem {attempt.problem}"
    if attempt.candidate is None:
        return "the ledger holds no candidate for this pass"
    try:
        attempt.candidate.encode("utf-8")
    except UnicodeEncodeError:
        return "the stored candidate is not valid Unicode text"
    return ""


def _first_problem(verdict: Mapping[str, Any]) -> str:
    gate = next((g for g in verdict.get("gates", []) if g.get("status") != "passed"), None)
    # on the pass's one line of the audit: a detail's later lines (a node's name, a compiler's message) stay on it
    return f"{gate['id']} {gate['name']} {gate['status']}: {one_line(str(gate['detail']))[:300]}" if gate else ""
