"""A candidate that runs code inside a sandboxed compile is contained (issue 9, section 2).

Each test plays the attacker with real parts: real bubblewrap, real coqc (running shell commands through
the Elpi plugin, as a candidate did), a fake `lean`/`coqc` that leaves a link, a FIFO or
``/proc/self/pagemap`` where the harness expects its output. What must hold: the code runs as an
unprivileged uid with a minimal ``/etc``, cannot fill the host's disk, and nothing it leaves behind is
followed, opened as a special file or read past a cap; whatever it tries is never a pass.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.lean.compile import compile_gate as lean_compile_gate
from putnam_solver.core.provers.rocq.compile import compile_gate as rocq_compile_gate
from putnam_solver.core.sandbox import (
    COPY_FAILED,
    DEFAULT_PATH,
    SANDBOX_UID,
    SandboxLimits,
    SandboxResult,
    fresh_copy,
    run_sandboxed,
)
from putnam_solver.core.verify import GateStatus, Submission, VerifyOptions
from tests.helpers import COQ_BENCH, SANDBOX_WHY, lean_submission, needs_sandbox, rocq_submission
from tests.toylean.build import BENCHMARK as TOY_BENCHMARK

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the uid drop applies when the harness is root")
PY_PREFIXES = sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()})
SECRET = "TOP-SECRET-HOST-BYTES"
MIB = 1 << 20


def sh(script: str, workdir: Path, **kwargs: object) -> SandboxResult:
    return run_sandboxed(["/bin/sh", "-c", script], workdir=workdir, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return fresh_copy({"input.txt": b"hello\n"}, tmp_path)


def host_bytes(directory: Path) -> int:
    return sum(p.lstat().st_size for p in directory.rglob("*"))


# ------------------------------------------------------------------------------- identity and /etc


@needs_sandbox
@needs_root
def test_a_root_harness_runs_the_command_as_nobody_without_capabilities(ws: Path) -> None:
    result = sh("id -u; id -g; id -G; grep -E '^(CapEff|CapBnd|CapPrm|NoNewPrivs)' /proc/self/status", ws)
    assert result.ok, result.stderr
    lines = result.stdout.split("\n")
    assert lines[:3] == [str(SANDBOX_UID)] * 3  # uid, gid, and no supplementary group but its own
    assert "CapEff:\t0000000000000000" in lines and "CapBnd:\t0000000000000000" in lines
    assert "NoNewPrivs:\t1" in lines
    assert result.uid == SANDBOX_UID
    assert f"uid {SANDBOX_UID}" in SANDBOX_WHY


@needs_sandbox
@needs_root
def test_root_only_files_in_a_readonly_path_stay_unreadable(ws: Path, tmp_path: Path) -> None:
    toolchain = tmp_path / "toolchain"
    toolchain.mkdir()
    (toolchain / "public.txt").write_text("library\n")
    secret = toolchain / "secret.txt"
    secret.write_text(SECRET)
    secret.chmod(0o600)
    result = sh(f"cat {toolchain}/public.txt; cat {secret}", ws, readonly=[toolchain])
    assert result.stdout == "library\n"
    assert not result.ok and "Permission denied" in result.stderr and SECRET not in result.stdout


@needs_sandbox
def test_etc_holds_only_the_sandbox_accounts_and_the_loader_cache(ws: Path) -> None:
    result = sh("ls -A /etc; echo ---; cat /etc/passwd /etc/group; cat /etc/shadow /etc/hostname", ws)
    listing, accounts = result.stdout.split("---\n")
    assert listing.split() == ["group", "ld.so.cache", "passwd"]
    assert "No such file" in result.stderr and not result.ok
    names = {line.split(":")[0] for line in accounts.splitlines()}
    assert names == {"root", "sandbox"}  # nothing of the host's accounts
    assert f"sandbox:x:{result.uid}:" in accounts


# ---------------------------------------------------------------------------------- bounded disk


@needs_sandbox
@pytest.mark.parametrize("where", [".", "/tmp"])
def test_one_huge_file_is_cut_at_the_cap_and_never_reaches_the_host(ws: Path, where: str) -> None:
    result = sh(f"head -c {64 * MIB} /dev/zero > {where}/big", ws, limits=SandboxLimits(disk_mb=8))
    assert not result.ok and "File size limit exceeded" in result.stderr
    assert host_bytes(ws) < MIB and not (ws / "big").exists()


@needs_sandbox
@pytest.mark.parametrize("where", [".", "/tmp"])
def test_many_files_fill_only_the_capped_tmpfs(ws: Path, where: str) -> None:
    script = f"for i in 1 2 3 4 5 6; do head -c {2 * MIB} /dev/zero > {where}/f$i || exit 9; done"
    result = sh(script, ws, limits=SandboxLimits(disk_mb=8))
    assert result.exit_code == 9 and "No space left on device" in result.stderr
    assert host_bytes(ws) < MIB


@needs_sandbox
def test_an_output_holds_at_most_the_cap(ws: Path) -> None:
    result = sh(f"head -c {64 * MIB} /dev/zero > out.bin", ws, limits=SandboxLimits(disk_mb=4), outputs=["out.bin"])
    assert not result.ok
    assert (ws / "out.bin").stat().st_size <= 4 * MIB


@needs_sandbox
def test_an_output_that_cannot_be_kept_fails_the_run(ws: Path) -> None:
    result = sh("echo data > out.bin && chmod 000 out.bin", ws, outputs=["out.bin"])
    assert result.exit_code == COPY_FAILED and not result.ok
    assert "could not keep output out.bin" in result.stderr


@needs_sandbox
def test_the_harness_files_in_the_workdir_are_read_only(ws: Path) -> None:
    result = sh("echo overwritten > input.txt", ws)
    assert not result.ok and (ws / "input.txt").read_text() == "hello\n"


@needs_sandbox
def test_an_output_may_not_shadow_a_harness_file(ws: Path) -> None:
    with pytest.raises(ValueError, match=r"input\.txt"):
        sh("true", ws, outputs=["input.txt"])


def test_a_link_in_the_workdir_is_never_bound(tmp_path: Path) -> None:
    workdir = fresh_copy({"A.v": b""}, tmp_path)
    (workdir / "escape").symlink_to("/etc")
    with pytest.raises(ValueError, match="escape is a link"):
        sh("true", workdir)


# -------------------------------------------------------------- what a run leaves for the harness

SABOTAGE = {
    "link": "ln -s /etc/passwd {out}",
    "pagemap": "ln -s /proc/self/pagemap {out}",
    "fifo": "mkfifo {out}",
}


@needs_sandbox
@pytest.mark.parametrize("how", sorted(SABOTAGE))
def test_an_output_swapped_for_a_link_or_fifo_is_not_taken_back(ws: Path, how: str) -> None:
    result = sh(SABOTAGE[how].format(out="X.vo"), ws, outputs=["X.vo"], limits=SandboxLimits(timeout_seconds=30))
    assert result.ok, result.stderr  # not timed out: nothing waited on the FIFO
    assert not os.path.lexists(ws / "X.vo")
    assert host_bytes(ws) < MIB


def fake_tool(directory: Path, name: str, action: str) -> Path:
    """A `lean`/`coqc` stand-in (plain sh, so it runs inside the sandbox) whose compile runs ``action``
    with ``$out`` set to the output the harness expects; it answers the toolchain probes like `lean`."""
    directory.mkdir(parents=True, exist_ok=True)
    tool = directory / name
    tool.write_text(
        "#!/bin/sh\n"
        'case "$1" in --version) echo "Lean (version 4.35.0, fake)"; exit 0;; '
        f'--print-prefix) echo "{directory.parent}"; exit 0;; esac\n'
        'out=""; for a in "$@"; do case "$prev" in -o) out=$a;; esac; prev=$a; '
        'case "$a" in *.v) out="${a%.v}.vo";; esac; done\n'
        f"{action}\n"
    )
    tool.chmod(0o755)
    return tool


def host_secret(tmp_path: Path) -> Path:
    secret = tmp_path / "host-secret.txt"
    secret.write_text(SECRET)
    return secret


def host_actions(tmp_path: Path) -> dict[str, str]:
    return {
        "link": f'ln -s {host_secret(tmp_path)} "$out"',
        "pagemap": 'ln -s /proc/self/pagemap "$out"',
        "fifo": 'mkfifo "$out"',
    }


REFUSED = {"link": "symbolic link", "pagemap": "symbolic link", "fifo": "FIFO"}


def toy_submission(tmp_path: Path, unsafe: bool) -> Submission:
    """The toy statement itself as the candidate (what matters is what G4's `lean` leaves behind)."""
    bench = load_benchmark(TOY_BENCHMARK)
    statement = bench.problems["toy_and_comm"].formal_statement
    options = VerifyOptions(timeout_seconds=30, unsafe_no_sandbox=unsafe)
    return lean_submission(bench, "toy_and_comm", statement, scratch=tmp_path / "scratch", options=options)


@needs_sandbox
@pytest.mark.parametrize("how", sorted(REFUSED))
def test_lean_g4_never_reads_a_sabotaged_olean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """Sandboxed, the sabotage never reaches the host; without the sandbox, the harness refuses it."""
    lean = fake_tool(tmp_path / "toolchain" / "bin", "lean", host_actions(tmp_path)[how])
    monkeypatch.setenv("PUTNAM_LEAN", str(lean))
    monkeypatch.delenv("LEAN_PATH", raising=False)
    sandboxed = lean_compile_gate(toy_submission(tmp_path / "boxed", unsafe=False))
    assert sandboxed.status is GateStatus.ERROR and "wrote no .olean" in sandboxed.detail
    bare = lean_compile_gate(toy_submission(tmp_path / "bare", unsafe=True))
    assert bare.status is GateStatus.ERROR, bare.detail
    assert "refused the compiled module" in bare.detail and REFUSED[how] in bare.detail  # not a timeout
    assert SECRET not in repr(bare)


@pytest.mark.parametrize("how", sorted(REFUSED))
def test_rocq_g4_never_reads_a_sabotaged_vo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """A fake `coqc` first on PATH (run without the sandbox, which could not see it) leaves its `.vo`
    as a link or FIFO in the host workdir: the gate is an error that names it, and reads nothing."""
    fakes = tmp_path / "fake" / "bin"
    fake_tool(fakes, "coqc", host_actions(tmp_path)[how])
    monkeypatch.setattr("putnam_solver.core.sandbox.run.DEFAULT_PATH", f"{fakes}:{DEFAULT_PATH}")
    monkeypatch.setenv("PATH", f"{fakes}:{os.environ['PATH']}")
    bench = load_benchmark(COQ_BENCH)
    problem_id = next(iter(bench.problems))
    options = VerifyOptions(timeout_seconds=30, unsafe_no_sandbox=True)
    result = rocq_compile_gate(rocq_submission(bench, problem_id, "Theorem t : True.", options=options))
    assert result.status is GateStatus.ERROR, result.detail
    assert "refused a file a sandboxed run left behind" in result.detail and REFUSED[how] in result.detail
    assert SECRET not in repr(result)  # and not a timeout: the detail names the refused file


# ---------------------------------------------------------------- real code run by a real compile

ELPI_CANDIDATE = """From elpi Require Import elpi.
Elpi Command pwn.
Elpi Accumulate lp:{{
  main _ :- system "id -u; cat /etc/shadow; ls -A /etc; head -c 67108864 /dev/zero > big" R, coq.say "rc" R.
}}.
Elpi Typecheck.
Elpi pwn.
Theorem t : True. Proof. exact I. Qed.
"""


@needs_sandbox
def test_shell_commands_run_by_an_elpi_candidate_are_contained(tmp_path: Path) -> None:
    """The attack of issue 9: Elpi's `system` in a candidate runs shell commands during G4."""
    if not (Path("/usr/bin/coqc").exists() and list(Path("/usr/lib").glob("**/user-contrib/elpi/elpi.vo"))):
        pytest.skip("coqc with the Elpi plugin is not installed")
    bench = load_benchmark(COQ_BENCH)
    options = VerifyOptions(timeout_seconds=120, disk_mb=16)
    sub = rocq_submission(bench, next(iter(bench.problems)), ELPI_CANDIDATE, scratch=tmp_path / "s", options=options)
    result = rocq_compile_gate(sub)
    # the shell's writes fill the work dir: a cap (``gatekit.NO_SPACE``), never a pass or a cached rejection
    assert result.status is GateStatus.ERROR, result.detail
    messages = " ".join(result.evidence.get("messages", [])) + result.detail
    assert any(sign in messages for sign in ("ran out of disk space", "File size limit", "signal")), messages
    if os.geteuid() == 0:
        assert "root:" not in messages  # /etc/shadow is not there to read
    assert host_bytes(tmp_path) < 8 * MIB
