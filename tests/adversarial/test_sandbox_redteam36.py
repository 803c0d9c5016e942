"""Red team 36 of what surrounds the gates: Rocq's ``full`` profile with real coqc/coqchk in the real
sandbox, text gates assumed bypassed (``keep_going``), and the verdict cache's rule that an exhausted
resource is never a decided verdict.

**Found and fixed:** coqc's wall-clock limits written in the candidate (the tactic ``timeout n``, the
command ``Timeout n``) were an ``error`` only when their expiry reached coqc's output uncaught. The tactic
fails like any tactic, so ``first [ timeout 2 t | ... ]`` or ``try (timeout 2 t; ...)`` catch its expiry
and the compile then fails with another message (``No applicable tactic``, ``Attempt to save an
incomplete proof``); ``Fail Timeout 2 ...`` catches the command's. G1-G3 passed, G4 ``failed``: a
rejection, stored in the verdict cache (whose key has no clock), decided by the host's speed. The same
class by memory: ``Fail`` also catches ``Out of memory`` (and ``Stack overflow``), so what follows it
depends on ``memory_mb``, which the key leaves out. A failure of a candidate whose text may catch an
exhausted limit before the failing sentence is now an ``error`` (``build.may_have_caught_exhaustion``); a
proof that catches an expired limit and still proves the theorem is accepted, one without such a construct
still refused, and so is ``Fail X.`` whose ``X`` succeeds (it ran its course).

**Tried and held (pinned below):** a candidate that writes or reads outside its work dir at compile time
(``Redirect`` to a host folder, ``Extraction`` to an absolute path, ``Cd`` into one, ``Load`` of a host
file) finds no host path there and leaves nothing on the host; a memory bomb, an OCaml ``Fatal error: out
of memory`` abort, a wall-clock run-out and a ``.vo`` over the disk cap, files together over it (``ENOSPC``, and
``SIGXFSZ`` for one file) are each an ``error``, never cached; a host process listening on an abstract
Unix socket (which no mount hides) is unreachable from the sandbox's network namespace.
"""

from __future__ import annotations

import dataclasses
import socket
import sys
import threading
import uuid
from pathlib import Path

import pytest

from putnam_solver.core.cache import reusable
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.build import CoqMessage, may_have_caught_exhaustion
from putnam_solver.core.sandbox import fresh_copy, run_sandboxed
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


NO_CAPS: dict[str, int] = {}
CAUGHT_LIMITS = {
    "first": (_proof(f'first [ timeout 2 {SPIN}; reflexivity | fail "fallback" ].'), NO_CAPS),
    "try": (_proof(f"try (timeout 2 {SPIN}; reflexivity)."), NO_CAPS),
    "fail_command": (_proof(f"Fail Timeout 2 {SPIN}."), NO_CAPS),
    "orelse": (_proof(f"(timeout 2 {SPIN}; reflexivity) || exact I."), NO_CAPS),
    "fail_out_of_memory": (
        _proof("Fail let x := eval vm_compute in (Nat.pow 2 26) in idtac.\nexact I."),
        {"memory_mb": 600},
    ),
}


@needs_coq
@needs_sandbox
@pytest.mark.parametrize(("candidate", "caps"), sampled(CAUGHT_LIMITS, {"first"}))
def test_a_failure_after_a_caught_limit_is_an_error_never_cached(
    tmp_path: Path, candidate: str, caps: dict[str, int]
) -> None:
    verdict = _verdict(tmp_path, candidate, **caps)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.ERROR, detail
    assert "may have caught a limit" in detail
    assert verdict.status == "error" and not reusable(verdict)


HONEST = {
    "limit_caught_then_proved": (_proof(f"try (timeout 2 {SPIN}).\nreflexivity."), GateStatus.PASSED),
    "refused_without_a_limit": (_proof('first [ exact I | fail "fallback" ].'), GateStatus.FAILED),
    "fail_then_proved": (_proof("Fail exact I.\nreflexivity."), GateStatus.PASSED),
    "fail_that_does_not_fail": (_proof("Fail reflexivity.\nreflexivity."), GateStatus.FAILED),
    "limit_after_the_failure": (_proof(f"exact I.\ntry (timeout 2 {SPIN})."), GateStatus.FAILED),
}


@needs_coq
@needs_sandbox
@pytest.mark.parametrize(("candidate", "expected"), sampled(HONEST, {"limit_caught_then_proved"}))
def test_the_twins_keep_their_verdicts(tmp_path: Path, candidate: str, expected: GateStatus) -> None:
    verdict = _verdict(tmp_path, candidate)
    status, detail = _gate(verdict, "G4")
    assert status is expected, detail
    assert verdict.status == ("accepted" if expected is GateStatus.PASSED else "rejected")


AT_LINE_3 = CoqMessage("Error", 3, 2, 10, "No applicable tactic.")
"""coqc's report of a failure in the third line's characters 2-10 (bytes)."""


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("Proof.\n(* x *)\n  timeout 5 lia || nia.", True),
        ("Timeout 3 Qed.\nProof.\n  exact I.", True),
        ("Set Default Timeout 3.\nProof.\n  exact I.", True),
        ("Proof.\nx.\n  Control.timeout 3 t.", True),
        ("Fail exact I.\nProof.\n  exact I.", True),
        ("Proof.\n(* timeout Fail *)\n  exact timeout_lemma.", False),
        ('Proof.\nidtac "timeout".\n  exact I.', False),
        ("Proof.\nx.\n  Fail exact I.", False),
        ("Proof.\nx.\n  exact I. timeout 5 lia.", False),
        ("Proof.\n(* unterminated\n  exact I.", True),
        ("Proof.\n  exact I.", True),
    ],
)
def test_caught_limits_are_found_by_token_and_place(source: str, caught: bool) -> None:
    """Each file's failing sentence is ``AT_LINE_3``; a file with no third line does not fit it."""
    assert may_have_caught_exhaustion(source, AT_LINE_3) is caught


def test_coqc_s_columns_are_bytes() -> None:
    """``Fail x.`` fails itself at byte 5 of its line, after two two-byte letters: character 3, where the
    ``Fail`` begins, so it caught nothing (read as characters, byte 5 would be after it)."""
    source = "x.\ny.\n\u00e9\u00e9 Fail x."
    assert not may_have_caught_exhaustion(source, CoqMessage("Error", 3, 5, 12, "The command has not failed!"))
    assert may_have_caught_exhaustion(source, CoqMessage("Error", 3, 6, 12, "forged: past the Fail"))


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


def _numerals(definitions: int) -> str:
    """Lists of numerals, about 1 kB of ``.vo`` per definition (measured; coqc runs with ``-noglob``, so
    no ``.glob`` is written): with a 1 MiB disk cap, 1,100 make the ``.vo`` over the cap (``SIGXFSZ``)."""
    return "".join(f"Definition d{j} : list nat := {' :: '.join('7' * 100)} :: nil.\n" for j in range(definitions))


SEARCHES = "".join(f'Redirect "search{j}" Search _.\n' for j in range(12))
"""Twelve files of about 110 kB each (``Search _`` over the prelude, measured): each under a 1 MiB cap,
together over the work dir's tmpfs (``No space left on device``)."""


CAPS = {
    "memory": (_proof("let x := eval vm_compute in (Nat.pow 2 26) in reflexivity."), {"memory_mb": 600}),
    "memory_abort": (_proof("let x := eval lazy in (Nat.pow 2 26) in reflexivity."), {"memory_mb": 600}),
    "vo_over_the_file_cap": (_numerals(1100) + _proof("reflexivity."), {"disk_mb": 1}),
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


@needs_coq
@needs_sandbox
@pytest.mark.slow
def test_files_that_fill_the_work_dir_are_an_error_of_g4_not_a_rejection(tmp_path: Path) -> None:
    """Found with coqc run with ``-noglob``: a write into the full tmpfs failed the sentence with
    ``System error: "No space left on device"``, which G4 read as coqc rejecting the candidate
    (``gatekit.NO_SPACE`` now makes it a cap). ``Redirect`` itself is refused by G3."""
    verdict = _verdict(tmp_path, SEARCHES + _proof("reflexivity."), disk_mb=1)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.ERROR and "ran out of disk space (cap 1 MB)" in detail, detail
    assert _gate(verdict, "G3")[0] is GateStatus.FAILED


@needs_sandbox
def test_an_abstract_unix_socket_of_the_host_is_unreachable(tmp_path: Path) -> None:
    """No mount hides an abstract socket; the sandbox's own network namespace does. The host's own client,
    connecting after the sandbox's attempt, is the one connection the server sees."""
    name = f"\0putnam-redteam36-{uuid.uuid4().hex}"
    accepted: list[socket.socket] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(name)
        server.listen(2)
        server.settimeout(30)
        waiter = threading.Thread(target=lambda: accepted.append(server.accept()[0]))
        waiter.start()
        code = (
            "import socket\ntry:\n"
            f" socket.socket(socket.AF_UNIX).connect({name!r}); print('CONNECTED')\n"
            "except OSError: print('refused')"
        )
        prefixes = sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()})
        result = run_sandboxed([sys.executable, "-I", "-c", code], workdir=fresh_copy({}, tmp_path), readonly=prefixes)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as host_client:
            host_client.connect(name)
            waiter.join()
        for connection in accepted:
            connection.close()
    assert result.ok, result.stderr
    assert result.stdout.strip() == "refused"
    assert len(accepted) == 1, "only the host's own client reached the server"
