"""A campaign's verdicts count only on the toolchain its selftest judged, as it is when each verdict is made.

``putnam solve`` refuses to spend on a toolchain whose gates misjudge a canary (``require_selftest``), but it
checked the toolchain once, before the first model call, and a run lasts hours: a Coq or Lean upgraded,
rebuilt or replaced in place after that check (an unattended upgrade, a reinstalled package) judged every
later submission, and its acceptances were counted as verified passes, though no canary had ever gone
through its gates (red team round 6). So an acceptance made in a campaign counts only when the toolchain, as
it is right after the verdict, is the one the run started on (its fingerprint, recorded when the run started
or resumed, after the selftest), or has a passing selftest record of its own (``putnam selftest`` run since);
otherwise the verdict is an ``error`` that says so, and ``putnam solve --resume`` (which runs the selftest of
the new toolchain first) judges the problem again. A rejection stands as it is: it is never counted.
"""

from __future__ import annotations

import dataclasses

from putnam_solver.core.gatekit import ToolWatch
from putnam_solver.core.provers import Prover
from putnam_solver.core.verify import GateResult, GateStatus, Verdict, VerifyOptions
from putnam_solver.selftest.record import last_record

TOOLCHAIN_GATE = "G4"


def on_selftested_toolchain(
    prover: Prover, options: VerifyOptions, started_on: str, verdict: Verdict, watch: ToolWatch
) -> Verdict:
    """``verdict``, or when it is an acceptance made on another toolchain than ``started_on`` that has no passing
    selftest record, or while a tool file was written or replaced (``watch``, a ``gatekit.watched_tool_files``
    block open around the gates: call this inside it), the same verdict made an ``error`` by a gate result
    that says why. A tool replaced and put back within one submission (A, B, A) left the fingerprint A's,
    and B's acceptance counted (trust paths red team 20); a record of A does not speak for B."""
    if not verdict.accepted:
        return verdict
    now = prover.toolchain_fingerprint(options)
    rewritten = watch.rewritten()
    if now == started_on and not rewritten:
        return verdict
    record = last_record(prover.name, options)
    if record is not None and record.passed and not rewritten:
        return verdict
    what = f"{', '.join(rewritten)} written or replaced while this candidate was judged" if rewritten else ""
    why = (
        f"the {prover.name} toolchain changed during the run (started on: {started_on}; now: {now}"
        f"{'; ' + what if what else ''}) and no selftest passed on what judged it, so no verdict of it counts; "
        "`putnam solve --resume RUN_DIR` runs its selftest and judges the problem again"
    )
    gate = GateResult(TOOLCHAIN_GATE, "compile", GateStatus.ERROR, why, {"toolchain": now, "started_on": started_on})
    return dataclasses.replace(verdict, gates=[*verdict.gates, gate])
