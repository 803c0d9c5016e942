"""The selftest's no-answer canaries: the two compiled checks that run after the gates, on this toolchain.

On the no-answer track two more checks decide what a verdict means: G4's yes/no rule (an answer of type
``Prop`` or ``Bool`` must be decided a truth value by the toolchain itself; a restated question is
refused) and the answer check (the candidate's answer against the official one: ``confirmed``,
``differs`` or ``unknown``; an acceptance whose answer ``differs`` is ``disputed``, never solved). Both
compile harness files against the candidate, with tactics and terms of the toolchain's own library, so a
toolchain that cannot run them (a library without ``decide``, a tactic renamed, a harness file that no
longer elaborates) would turn every wrong answer into ``unknown`` and every disputed verdict into an
accepted one without a word. The gates' table says nothing of that; these cells do.

A canary's ``suite.json`` entry names what each check must find (``"answers": {"<solution>":
"confirmed"}``, ``"verdict": "disputed"``), exactly. Anything else is a surprise, fail closed: ``unknown``
(a tactic that did not run, a sandbox that could not start), a missing check, another verdict. Only when
G4 itself cannot run here (``doctor`` says so, the gates' table shows ``n/a``) are they shown ``n/a``, not
judged: the answer check runs on G4's compiled module. The verdict is read over the gates that can run
here (``Verdict.status`` on those) and the canary judges (``unjudged``), so that a gate ``doctor`` already
reports as missing (comparator, say) does not hide whether ``disputed`` still follows from ``differs``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from putnam_solver.core.answer_check import AnswerStatus
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Verdict
from putnam_solver.selftest.record import Cell, CellResult

if TYPE_CHECKING:
    from putnam_solver.selftest.runner import Canary

ANSWER, VERDICT = "answer", "verdict"
"""The ``gate`` of a cell that records an answer check (its ``gate_name`` is the solution's name) or the
verdict; neither is a gate, so no gate reads them back (``known_good_passed``)."""
CHECKS = frozenset({ANSWER, VERDICT})
VERDICTS = frozenset({"accepted", "disputed", "rejected"})
STATUSES = frozenset(s.value for s in AnswerStatus)


def expected_checks(name: str, entry: Mapping[str, object]) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """A ``suite.json`` canary's ``answers`` and ``verdict``, checked (a shipped typo must not pass)."""
    answers = entry.get("answers", {})
    verdict = entry.get("verdict")
    if not isinstance(answers, dict) or any(s not in STATUSES for s in answers.values()):
        raise InputError(f"canary {name}: `answers` must map solutions to one of {sorted(STATUSES)}")
    if verdict is not None and verdict not in VERDICTS:
        raise InputError(f"canary {name}: `verdict` must be one of {sorted(VERDICTS)}")
    return tuple(sorted((str(k), str(v)) for k, v in answers.items())), verdict if verdict is None else str(verdict)


def over_ready_gates(verdict: Verdict, ready: Mapping[str, bool]) -> Verdict:
    """``verdict`` as it reads over the gates that can run here (the others are the table's ``n/a``)."""
    gates = [g for g in verdict.gates if ready.get(g.id, False)]
    expected = tuple(g for g in verdict.expected_gates if ready.get(g, False))
    return dataclasses.replace(verdict, gates=gates, expected_gates=expected)


def check_cells(suite: str, canary: Canary, verdict: Verdict, ready: Mapping[str, bool]) -> list[CellResult]:
    """One cell per answer check and one for the verdict the canary names (none when it names neither)."""
    can_run = ready.get("G4", False)
    cells = []
    for name, wanted in canary.answers:
        answer = verdict.answers.get(name)
        check = answer.get("check") if isinstance(answer, dict) else None
        if isinstance(check, dict):
            status, reason = str(check.get("status")), str(check.get("reason", ""))
        else:
            status, reason = "missing", f"no answer check of `{name}` was recorded"
        cells.append(_cell(suite, canary.name, ANSWER, name, wanted, status, can_run, reason))
    if canary.verdict is not None:
        here = over_ready_gates(verdict, {g: ok and g not in canary.unjudged for g, ok in ready.items()})
        problem = here.first_problem()
        why = here.dispute() or (f"{problem.id}: {problem.detail}" if problem is not None else "")
        cells.append(_cell(suite, canary.name, VERDICT, VERDICT, canary.verdict, here.status, can_run, why))
    return cells


def _cell(
    suite: str, canary: str, kind: str, name: str, wanted: str, found: str, can_run: bool, why: str
) -> CellResult:
    judgement = Cell.RIGHT if found == wanted else Cell.WRONG if can_run else Cell.CANNOT_RUN
    detail = why.splitlines()[0][:300] if why else ""
    return CellResult(suite, canary, kind, name, wanted, found, judgement, detail)


def surprise_text(cell: CellResult, what: str) -> str:
    """One surprise of these checks, naming the check, the canary, what it found and what it must find."""
    check = "the verdict" if cell.gate == VERDICT else f"the answer check of `{cell.gate_name}`"
    return (
        f"{check} found {cell.status} on the canary {cell.suite}/{cell.canary} ({what}), where it must find "
        f"{cell.expected}: {cell.detail}"
    )


def check_table(suite: str, cells: Sequence[CellResult], order: Sequence[str]) -> list[str]:
    """The no-answer checks of one suite, one row per canary that names any: the answer check of each of
    its solutions and the verdict, each as found (``WRONG found (must be expected)`` on a surprise)."""
    mine = [c for c in cells if c.suite == suite and c.gate in CHECKS]
    if not mine:
        return []
    rows = [(name, [c for c in mine if c.canary == name]) for name in order]
    rows = [(name, found) for name, found in rows if found]
    texts = {id(c): _text(c) for c in mine}
    answers = [", ".join(texts[id(c)] for c in found if c.gate == ANSWER) or "-" for _, found in rows]
    verdicts = [next((texts[id(c)] for c in found if c.gate == VERDICT), "-") for _, found in rows]
    first = max(len("canary"), *(len(name) for name, _ in rows)) + 2
    second = max(len("answer check"), *(len(a) for a in answers)) + 2
    lines = [f"No-answer checks [{suite}]", "canary".ljust(first) + "answer check".ljust(second) + "verdict"]
    for (name, _), answer, verdict in zip(rows, answers, verdicts, strict=True):
        lines.append((name.ljust(first) + answer.ljust(second) + verdict).rstrip())
    return [*lines, ""]


def _text(cell: CellResult) -> str:
    if cell.judgement is Cell.CANNOT_RUN:
        return "n/a"
    if cell.judgement is Cell.WRONG:
        return f"WRONG {cell.status} (must be {cell.expected})"
    return cell.status
