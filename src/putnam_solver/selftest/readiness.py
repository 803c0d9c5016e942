"""Whether a long-running service may judge: the selftest passed on the toolchain as it is now, and it stayed
the same while each verdict was made.

``putnam serve`` and ``putnam mcp`` answer verdicts for days on whatever Coq or Lean is installed; ``putnam
solve`` refuses to spend on a toolchain whose gates misjudge a canary, and a service must refuse to judge on
one just as well. Both hold a :class:`Readiness`: before a verification :meth:`Readiness.admit` reads the
toolchain's fingerprint and answers :class:`NotReady` (the selftest is missing, running, failed or did not
cover a gate that can run now) instead of a fingerprint; after it :meth:`Readiness.settle` holds the verdict
to that fingerprint (``verifier.one_toolchain``: an acceptance made across a change is an ``error``) and,
on a change, has readiness judged again before the next verification.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from putnam_solver.core.gatekit import ToolWatch
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.verify import Profile, Verdict, VerifyOptions, gate_ids
from putnam_solver.selftest import runner as selftest_service
from putnam_solver.selftest.record import last_record
from putnam_solver.selftest.runner import gate_readiness
from putnam_solver.verifier.one_toolchain import on_one_toolchain

RUNNING = "the selftest is running"


class NotReady(Exception):
    """No verification may run now: ``reason`` says why and what to do (a service answers it, never a verdict)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Readiness:
    """Whether the gates of each served prover passed their selftest on its toolchain (judged per prover).

    Read from the selftest record ``putnam selftest`` keeps (per prover, toolchain fingerprint, gate
    code and gate options); where there is none, or it failed, the selftest runs once in the background when the
    service starts (``run_missing``). Until a passing record exists the service is not ready and verifies nothing.
    A service runs for days: once ready, it looks again every ``recheck_seconds`` whether a toolchain
    changed under it (an upgraded Coq or Lean has another fingerprint, whose record may not exist), and is
    not ready again until that toolchain has passed (the selftest runs again if ``run_missing``).
    """

    def __init__(
        self,
        options: Mapping[str, VerifyOptions],
        run_missing: bool,
        recheck_seconds: float = 60.0,
        logger: logging.Logger | None = None,
    ) -> None:
        self.provers = list(options)
        self.options = options
        self.run_missing = run_missing
        self.recheck_seconds = recheck_seconds
        self.logger = logger or logging.getLogger(__name__)
        self._running: dict[str, str] = {}
        self._lock = threading.Lock()
        self._finished = threading.Condition(self._lock)
        self._tried: set[tuple[str, str]] = set()
        self._ready_on: dict[str, str] = {}
        """Per prover found ready: the fingerprint of the toolchain its selftest passed on."""
        self._checked: dict[str, float] = {}

    def start(self) -> None:
        """Start the selftest of each prover without a passing record, if asked to (in one thread); once per
        toolchain fingerprint in this process (one that failed is not run again at every request)."""
        if not self.run_missing:
            return
        failing = {
            p: get_prover(p).toolchain_fingerprint(self.options[p]) for p in self.provers if not self._passed(p)[0]
        }
        with self._lock:  # a prover whose selftest runs already, or ran on this toolchain, is not started again
            todo = [
                p
                for p, fingerprint in failing.items()
                if p not in self._running and (p, fingerprint) not in self._tried
            ]
            self._running |= dict.fromkeys(todo, RUNNING)
            self._tried |= {(p, failing[p]) for p in todo}
        if not todo:
            return
        threading.Thread(target=self._run, args=(todo,), name="putnam-selftest", daemon=True).start()

    def _run(self, provers: list[str]) -> None:
        for prover in provers:
            self.logger.info("running the %s selftest: no passing record for this toolchain", prover)
            try:
                record = selftest_service.run_selftest(prover, self.options[prover])
            except Exception as exc:  # recorded as the reason the service is not ready, never raised
                with self._lock:
                    self._running[prover] = f"the selftest could not run: {type(exc).__name__}: {exc}"
                    self._finished.notify_all()
                self.logger.warning("%s: %s", prover, self._running[prover])
                continue
            self.logger.info("%s", selftest_service.summary_line(record))
            with self._lock:
                self._running.pop(prover, None)
                self._finished.notify_all()

    def _passed(self, prover: str) -> tuple[bool, str]:
        record = last_record(prover, self.options[prover])
        if record is None:
            return False, f"no selftest of {prover} on this toolchain; run `putnam selftest --prover {prover}`"
        if not record.passed:
            return False, f"the {prover} selftest failed: {selftest_service.surprise_summary(record)}"
        if missing := selftest_service.uncovered(record, prover, self.options[prover]):
            return False, f"the last {prover} selftest did not judge what can run now: {'; '.join(missing)}"
        return True, selftest_service.summary_line(record)

    def not_ready(self, prover: str | None = None) -> str | None:
        """Why ``prover`` (by default: some served prover) is not ready, or None; each prover is judged on its
        own toolchain and selftest, so that one failing never refuses another's verifications. Once ready no
        file is read per request, only every ``recheck_seconds`` its toolchain's fingerprint (see the class doc)."""
        waiting = [why for p in ([prover] if prover else self.provers) if (why := self._why(p)) is not None]
        return "; ".join(waiting) or None

    def none_ready(self) -> str | None:
        """Why no served prover is ready (each prover's reason), or None when one is: the request may name it."""
        waiting = [why for p in self.provers if (why := self.not_ready(p)) is not None]
        return "; ".join(waiting) if len(waiting) == len(self.provers) else None

    def _why(self, prover: str) -> str | None:
        if prover in self._ready_on and not self._toolchain_changed(prover):
            return None
        fingerprint = get_prover(prover).toolchain_fingerprint(self.options[prover])
        ok, why = self.state([prover])[prover]
        if not ok:
            self._ready_on.pop(prover, None)
            return f"{prover}: {why}"
        self._ready_on[prover], self._checked[prover] = fingerprint, time.monotonic()
        return None

    def confirm(self, prover: str, fingerprint: str) -> str | None:
        """Why ``prover`` on the toolchain with ``fingerprint`` (read for a verification) may not judge, or
        None: readiness is judged again at once when it is not the toolchain last found ready, so that a
        verification never waits out ``recheck_seconds`` on a toolchain no selftest passed (red team round 7)."""
        if self._ready_on.get(prover) == fingerprint:
            return None
        self.changed(prover)
        return self.not_ready(prover)

    def admit(self, prover: Prover, options: VerifyOptions, wait: bool = False) -> str:
        """The fingerprint of the toolchain a verification by ``prover`` with ``options`` is about to run on,
        or NotReady when no passing selftest vouches for it. With ``wait``, a missing selftest is started (if
        ``run_missing``) and waited for before the answer (a tool call answers once it can, where an HTTP
        client is told to retry). Blocks: call it from a worker thread."""
        fingerprint = prover.toolchain_fingerprint(options)
        why = self.confirm(prover.name, fingerprint)
        if why is not None and wait and self.run_missing:
            self.start()
            with self._lock:
                while self._running.get(prover.name) == RUNNING:
                    self._finished.wait()
            fingerprint = prover.toolchain_fingerprint(options)
            why = self.confirm(prover.name, fingerprint)
        if why is not None:
            raise NotReady(f"not ready: {why}")
        return fingerprint

    def settle(
        self, prover: Prover, options: VerifyOptions, before: str, verdict: Verdict, watch: ToolWatch
    ) -> tuple[Verdict, bool]:
        """``verdict`` held to the toolchain ``admit`` found (``on_one_toolchain``) and whether it may be
        stored; on a change, readiness is judged again before the next verification. Blocks, as ``admit``."""
        verdict, kept = on_one_toolchain(prover, options, before, verdict, watch)
        if not kept:
            self.changed(prover.name)
        return verdict, kept

    def changed(self, prover: str | None = None) -> None:
        """``prover``'s toolchain (by default: any) changed under a verification: its next readiness check reads
        its fingerprint again."""
        for name in [prover] if prover else self.provers:
            self._checked[name] = float("-inf")

    def _toolchain_changed(self, prover: str) -> bool:
        if time.monotonic() - self._checked.get(prover, float("-inf")) < self.recheck_seconds:
            return False
        self._checked[prover] = time.monotonic()
        if get_prover(prover).toolchain_fingerprint(self.options[prover]) == self._ready_on.get(prover):
            return False
        self.logger.warning(
            "the %s toolchain changed under the service: not ready until its selftest has passed", prover
        )
        self.start()
        return True

    def profiles(self, prover: str) -> dict[str, dict[str, Any]]:
        """Per profile: whether every gate it needs (G7 too when the service runs ``--axle``) can run here
        for ``prover``, and if not which gate cannot and why (``gate_readiness``, as ``putnam doctor``)."""
        options = self.options[prover]
        rows = {row.name.split()[0]: row for row in gate_readiness(get_prover(prover), options)}
        found: dict[str, dict[str, Any]] = {}
        for profile in Profile:
            missing = [rows[g] for g in gate_ids(dataclasses.replace(options, profile=profile)) if not rows[g].ok]
            why = "; ".join(f"{row.name}: {row.detail}" for row in missing)
            found[profile.value] = {"ready": not missing, **({"detail": why} if missing else {})}
        return found

    def state(self, provers: list[str] | None = None) -> dict[str, tuple[bool, str]]:
        """Per prover (by default: each served one): ready or not, and why."""
        with self._lock:
            running = dict(self._running)
        states = {}
        for prover in self.provers if provers is None else provers:
            if prover in running:
                states[prover] = (False, running[prover])
            else:
                states[prover] = self._passed(prover)
        return states
