"""Red team 36 of what surrounds the gates: Rocq's ``full`` profile with real coqc/coqchk in the real
sandbox, text gates assumed bypassed (``keep_going``), and the verdict cache's rule that an exhausted
resource is never a decided verdict.

**Found and fixed:** coqc's wall-clock limits written in the candidate (the tactic ``timeout n``, the
command ``Timeout n``) were an ``error`` only when their expiry reached coqc's output uncaught. The tactic
fails like any tactic, so ``first [ timeout 2 t | ... ]`` or ``try (timeout 2 t; ...)`` catch its expiry
and the compile then fails with another message (``No applicable tactic``, ``Attempt to save an
incomplete proof``); ``Fail Timeout 2 ...`` catches the command's. G1-G3 passed, G4 ``failed``: a
rejection, stored in the verdict cache (whose key has no clock), decided by the host's speed. A failure of
a candidate whose text names such a limit is now an ``error`` (``build.names_wall_clock_limit``); a proof
that catches an expired limit and still proves the theorem is accepted, one without a limit still refused.

**Tried and held (pinned below):** a candidate that writes or reads outside its work dir at compile time
(``Redirect`` to a host folder, ``Extraction`` to an absolute path, ``Cd`` into one, ``Load`` of a host
file) finds no host path there and leaves nothing on the host; a memory bomb, an OCaml ``Fatal error: out
of memory`` abort, a wall-clock run-out and a ``.vo`` plus ``.glob`` over the disk cap (``ENOSPC``, and
``SIGXFSZ`` for one file) are each an ``error``, never cached.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from putnam_solver.core.cache import reusable
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.build import names_wall_clock_limit
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, run_gates
from putnam_solver.verifier.options import GateFlags
from tests.helpers import needs_coq, needs_sandbox, one_record_benchmark, sampled

STATEMENT = "Theorem foo : 1 + 1 = 2.\nProof.\nAdmitted.\n"
SPIN = "(do 1000000000 idtac)"
"""A tactic that runs far longer than the two seconds it is given."""


def _verdict(tmp_path: Path, candidate: str, **options: object) -> Verdict:
    bench = one_record_benchmark(tmp_path, "p1", STATEMENT)
    given = dataclasses.replace(GateFlags(profile=Profile.FULL, keep_going=True).options(), **options)
    return run_gates(get_prover("rocq"), bench, bench.problems["p1"], candidate.encode(), Track.WITH_ANSWER, given)


def _gate(verdict: Verdict, gate: str) -> tuple[GateStatus, str]:
    found = next(g for g in verdict.gates if g.id == gate)
    return found.status, found.detail


def _proof(body: str) -> str:
    return f"Theorem foo : 1 + 1 = 2.\nProof.\n{body}\nQed.\n"


CAUGHT_EXPIRIES = {
    "first": _proof(f'first [ timeout 2 {SPIN}; reflexivity | fail "fallback" ].'),
    "try": _proof(f"try (timeout 2 {SPIN}; reflexivity)."),
    "fail_command": _proof(f"Fail Timeout 2 {SPIN}."),
    "orelse": _proof(f"(timeout 2 {SPIN}; reflexivity) || exact I."),
}


@needs_coq
@needs_sandbox
@pytest.mark.parametrize("candidate", sampled(CAUGHT_EXPIRIES, {"first"}))
def test_a_failure_after_a_caught_time_limit_is_an_error_never_cached(tmp_path: Path, candidate: str) -> None:
    verdict = _verdict(tmp_path, candidate)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.ERROR, detail
    assert "wall-clock time limit" in detail
    assert verdict.status == "error" and not reusable(verdict)


HONEST = {
    "limit_caught_then_proved": (_proof(f"try (timeout 2 {SPIN}).\nreflexivity."), GateStatus.PASSED),
    "refused_without_a_limit": (_proof('first [ exact I | fail "fallback" ].'), GateStatus.FAILED),
}


@needs_coq
@needs_sandbox
@pytest.mark.parametrize(("candidate", "expected"), sampled(HONEST, {"limit_caught_then_proved"}))
def test_the_twins_keep_their_verdicts(tmp_path: Path, candidate: str, expected: GateStatus) -> None:
    verdict = _verdict(tmp_path, candidate)
    status, detail = _gate(verdict, "G4")
    assert status is expected, detail
    assert verdict.status == ("accepted" if expected is GateStatus.PASSED else "rejected")


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("first [timeout 5 lia | nia].", True),
        ("Timeout 3 Qed.", True),
        ("Set Default Timeout 3.", True),
        ("Control.timeout 3 t.", True),
        ("(* timeout 5 *) exact timeout_lemma.", False),
        ('idtac "timeout".', False),
        ("(* unterminated", True),
    ],
)
def test_wall_clock_limits_are_found_by_token(source: str, names: bool) -> None:
    assert names_wall_clock_limit(source) is names


OUTSIDE = {
    "redirect": 'Redirect "{host}/redirected" Print nat.\n',
    "extraction": 'Require Extraction.\nExtraction "{host}/extracted.ml" nat.\n',
    "cd": 'Cd "{host}".\nRedirect "in_cd" Print nat.\n',
    "load": 'Load "{host}/planted.v".\n',
}


@needs_coq
@needs_sandbox
@pytest.mark.parametrize("header", sampled(OUTSIDE, {"redirect"}))
def test_compile_time_file_commands_never_reach_the_host(tmp_path: Path, header: str) -> None:
    host = tmp_path / "host"
    host.mkdir()
    (host / "planted.v").write_text("Theorem foo : 1 + 1 = 2. Proof. reflexivity. Qed.\n")
    verdict = _verdict(tmp_path, header.format(host=host) + _proof("reflexivity."))
    assert _gate(verdict, "G4")[0] is GateStatus.FAILED  # the host folder is not in the sandbox
    assert sorted(p.name for p in host.iterdir()) == ["planted.v"]
    assert verdict.status == "rejected"


MANY_NUMERALS = "".join(f"Definition d{j} : list nat := {' :: '.join('7' * 100)} :: nil.\n" for j in range(200))
"""Numerals each of which coqc's ``.glob`` records: a ``.glob`` over one MiB beside a small ``.vo``."""
CAPS = {
    "memory": (_proof("let x := eval vm_compute in (Nat.pow 2 26) in reflexivity."), {"memory_mb": 600}),
    "memory_abort": (_proof("let x := eval lazy in (Nat.pow 2 26) in reflexivity."), {"memory_mb": 600}),
    "glob_over_disk": (MANY_NUMERALS + _proof("reflexivity."), {"disk_mb": 1}),
}


@needs_coq
@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize(("candidate", "caps"), sampled(CAPS, set()))
def test_an_exhausted_cap_is_an_error_never_cached(tmp_path: Path, candidate: str, caps: dict[str, int]) -> None:
    verdict = _verdict(tmp_path, candidate, **caps)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.ERROR, detail
    assert not reusable(verdict)
