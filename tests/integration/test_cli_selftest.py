"""`putnam selftest` on the real parts here: real coqc/coqchk, the toy Lean, the real axiom-axle client against
a loopback AXLE (tests/fakes/axle_server.py); and `solve` refusing a toolchain whose gates misjudge a canary
before it calls any model.

The toy Lean runs with an ``Init`` that has what a release's gives ``decide`` (``toy_lean_deciding``, conftest.py):
the no-answer canaries' yes/no decision and answer check need it, as they need it on a user's toolchain;
without it the selftest fails (``test_lean_selftest_fails_closed_where_the_no_answer_checks_cannot_run``)."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.provers.lean.toolchain import ToolchainPaths
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.exit_codes import ExitCode
from putnam_solver.selftest import runner as selftest
from tests.fakes.axle_server import AxleServer, Reply, serve_axle, verified
from tests.fakes.openai_server import FakeOpenAI, serve
from tests.processes import solve_args
from tests.toylean.build import BENCHMARK as LEAN_SAMPLES
from tests.toylean.build import ToyLean

runner = CliRunner()


def _answer_rows(stdout: str, suite: str) -> dict[str, list[str]]:
    """The no-answer checks' table of ``suite``: each canary's row, split in columns of two spaces or more."""
    lines = stdout.splitlines()
    start = lines.index(f"No-answer checks [{suite}]") + 2
    rows = itertools.takewhile(bool, lines[start:])
    return {row.split()[0]: re.split(r"\s{2,}", row)[1:] for row in rows}


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "no-toolchain"))
    monkeypatch.delenv("PUTNAM_LEAN", raising=False)


def _rows(stdout: str) -> dict[str, list[str]]:
    """The table's rows, by gate id (the first block of each gate id wins), cells split on spaces."""
    rows: dict[str, list[str]] = {}
    for line in stdout.splitlines():
        if line[:1] == "G" and line[1:2].isdigit():
            rows.setdefault(line.split()[0], line.split())
    return rows


def _block_rows(stdout: str, suite: str) -> dict[str, list[str]]:
    """The gates' rows of the block of ``suite`` only."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith(f"[{suite}]"))
    return _rows("\n".join(itertools.takewhile(bool, lines[start:])))


ROCQ_ANSWERS = {
    "bound_right": ["confirmed", "accepted"],
    "bound_wrong": ["differs", "disputed"],
    "yes_no_right": ["confirmed", "accepted"],
    "yes_no_wrong": ["differs", "disputed"],
    "yes_no_restated": ["-", "rejected"],
}
LEAN_ANSWERS = {
    "bool_right": ["confirmed", "accepted"],
    "bool_wrong": ["differs", "disputed"],
    "yes_no_right": ["confirmed", "accepted"],
    "yes_no_restated": ["-", "rejected"],
}
"""Each no-answer canary's row: what its answer check found and its verdict."""


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")
def test_rocq_selftest_judges_every_canary_right_and_doctor_reports_it() -> None:
    result = runner.invoke(app, ["selftest", "--prover", "rocq"])
    assert result.exit_code == 0, result.stdout
    rows = _rows(result.stdout)
    header = next(line.split() for line in result.stdout.splitlines() if line.strip().startswith("good"))
    assert header == ["good", "admitted", "edited", "axiom", "unguarded", "answered", "copied"]
    assert rows["G2"][2:] == ["passed", "(passed)", "failed", "(failed)", "(failed)", "passed", "(passed)"]
    assert rows["G3"][2:] == ["passed", "failed", "(passed)", "failed", "failed", "passed", "(passed)"]
    assert rows["G4"][2:] == ["passed", "(passed)", "(passed)", "(passed)", "(passed)", "passed", "failed"]
    assert rows["G5"][-7:] == ["passed", "failed", "failed", "failed", "(failed)", "passed", "(passed)"]
    assert rows["G6"][-7:] == ["passed", "failed", "(passed)", "failed", "failed", "passed", "(passed)"]
    # the no-answer checks on the user's coqc: the wrong answers proved different, their verdicts disputed
    answers = _block_rows(result.stdout, "rocq-answers")
    assert answers["G4"][2:] == ["passed", "passed", "passed", "passed", "failed"]  # a restated yes/no answer
    assert _answer_rows(result.stdout, "rocq-answers") == ROCQ_ANSWERS
    assert "selftest of rocq passed" in result.stdout and "WRONG" not in result.stdout

    record = selftest.last_record("rocq", VerifyOptions())
    assert record is not None and record.passed and record.known_good_passed("G6") is True
    doctor = runner.invoke(app, ["doctor", "--prover", "rocq"])
    assert "rocq: ok   last selftest: passed at" in doctor.stdout


def test_lean_selftest_with_the_toy_lean_shows_what_cannot_run(
    toy_lean: ToyLean, toy_lean_deciding: ToyLean, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEAN_PATH", str(toy_lean_deciding.init_dir))
    result = runner.invoke(app, ["selftest", "--prover", "lean", "--tool", f"lean={toy_lean.lean}"])
    assert result.exit_code == 0, result.stdout
    rows = _rows(result.stdout)
    # forged_success only `#print`s its forged lines: a read-only command G3 lets stand (G2 refuses its statement)
    assert rows["G3"][2:] == ["passed", "failed", "(passed)", "failed", "(passed)", "(failed)", "failed"]
    # the kernel check skipped while compiling: lean and its axiom report pass it, comparator's replay would not
    assert rows["G4"][2:] == ["passed", "failed", "(passed)", "(passed)", "(passed)", "failed", "(passed)"]
    assert rows["G5"][2:] == ["passed", "failed", "(passed)", "failed", "(passed)", "(error)", "(passed)"]
    assert rows["G6"][2:] == ["n/a"] * 7
    answers = _block_rows(result.stdout, "lean-answers")
    assert answers["G4"][2:] == ["passed", "passed", "passed", "failed"]  # the yes/no decision, both ways
    assert _answer_rows(result.stdout, "lean-answers") == LEAN_ANSWERS  # disputed over the gates that run here
    assert "[lean-mathlib]: cannot run here: a `lean` was given" in result.stdout
    assert "G6 cannot run here: comparator toolchain" in result.stdout
    assert "selftest of lean passed" in result.stdout


def test_lean_selftest_fails_closed_where_the_no_answer_checks_cannot_run(
    toy_lean: ToyLean, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library without ``decide`` (the bare toy ``Init``): no answer can be decided or compared, so the
    no-answer track would accept a wrong answer; the selftest says so and fails, naming each check."""
    monkeypatch.setenv("LEAN_PATH", str(toy_lean.init_dir))
    result = runner.invoke(app, ["selftest", "--prover", "lean", "--tool", f"lean={toy_lean.lean}"])
    assert result.exit_code == 2, result.stdout
    assert _answer_rows(result.stdout, "lean-answers") == {
        "bool_right": ["WRONG unknown (must be confirmed)", "WRONG rejected (must be accepted)"],
        "bool_wrong": ["WRONG unknown (must be differs)", "WRONG rejected (must be disputed)"],
        "yes_no_right": ["WRONG unknown (must be confirmed)", "WRONG rejected (must be accepted)"],
        "yes_no_restated": ["-", "rejected"],
    }
    assert _block_rows(result.stdout, "lean-core")["G4"][2] == "passed"  # the gates' own canaries still pass
    assert (
        "SURPRISE: the answer check of `canary_bool_solution` found unknown on the canary lean-answers/bool_wrong"
        in result.stdout
    )
    assert f"FIX: {selftest.SELFTEST_FIX}" in result.stdout
    record = selftest.last_record("lean", VerifyOptions(tools={"lean": toy_lean.lean}))
    assert record is not None and not record.passed


def _accept_all_comparator(root: Path, comparator: str = 'echo "Your solution is okay!"') -> None:
    """A complete-looking comparator toolchain whose comparator (by default) prints its success line and
    exits 0."""
    paths = ToolchainPaths(root)
    scripts = {
        paths.comparator: comparator,
        # `lake build M` leaves M's .olean (G6 builds the challenge first); `lake env CMD...` runs CMD
        paths.toolchain_bin / "lake": 'if [ "$1" = build ]; then mkdir -p .lake/build/lib/lean && '
        ': > ".lake/build/lib/lean/$2.olean"; exit 0; fi\nshift; exec "$@"',
        paths.toolchain_bin / "lean": "exit 99",
        paths.lean4export: "exit 99",
        paths.landrun: "exit 99",
    }
    for path, body in scripts.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    (paths.project / ".lake" / "packages").mkdir(parents=True)
    for name in ("lakefile.toml", "lean-toolchain", "lake-manifest.json"):
        (paths.project / name).write_text("\n")


def test_solve_refuses_a_toolchain_whose_gate_accepts_a_known_bad_canary_before_any_model_call(
    toy_lean: ToyLean,
    toy_lean_deciding: ToyLean,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    pytest.importorskip("inspect_ai")
    # Where comparator's unprivileged user (a root harness drops to it) can enter, unlike pytest's tmp_path.
    shared = Path(tempfile.mkdtemp(prefix="putnam-broken-toolchain-"))
    shared.chmod(0o755)
    request.addfinalizer(lambda: shutil.rmtree(shared, ignore_errors=True))
    root = shared / "toolchain"
    _accept_all_comparator(root)
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(root))
    monkeypatch.setenv("LEAN_PATH", str(toy_lean_deciding.init_dir))
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    fake = FakeOpenAI([])
    with serve(fake) as url:
        args = solve_args(LEAN_SAMPLES, tmp_path / "run", "toy_and_comm", url=url, prover="lean")
        result = runner.invoke(app, [*args, "--tool", f"lean={toy_lean.lean}"])
    assert result.exit_code == ExitCode.USAGE, result.stdout + result.stderr  # refused before the run
    assert "G6 kernel accepted the known-bad canary lean-core/sorry" in result.stderr
    assert fake.requests == 0 and not (tmp_path / "run").exists()
    record = selftest.last_record("lean", VerifyOptions(tools={"lean": toy_lean.lean}))
    assert record is not None and not record.passed and record.known_good_passed("G4") is True


# ---------------------------------------------------------------------------------------------- AXLE (G7)

CORE = selftest.load_suite("lean-core")
ANSWERS = selftest.load_suite("lean-answers")
CORE_TEXTS = {s.candidate(c).decode("utf-8"): f"{s.name}/{c.name}" for s in (CORE, ANSWERS) for c in s.canaries}
"""Each canary's text of the sets that run without Mathlib, which the client sends as ``content``, to its name."""
GOOD_TEXTS = [s.candidate(c) for s in (CORE, ANSWERS) for c in s.canaries if c.known_good]


def _sound_axle(body: dict[str, Any]) -> Reply:
    """An AXLE that judges right: it accepts the known-good canaries' texts only."""
    if body["content"].encode("utf-8") in GOOD_TEXTS:
        return verified(True)
    return verified(False, ("Declaration 'canary_and_comm' is incomplete",), ("canary_and_comm",))


def _accept_all_axle(body: dict[str, Any]) -> Reply:
    """A broken AXLE: every proof is `okay`."""
    return verified(True)


def _axle(judge: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[AxleServer]:
    pytest.importorskip("axle", reason="axiom-axle is not installed")
    with serve_axle(AxleServer(judge)) as server:
        monkeypatch.setenv("AXLE_API_URL", server.url)
        monkeypatch.setenv("AXLE_API_KEY", "test-key")
        yield server


@pytest.fixture
def sound_axle(monkeypatch: pytest.MonkeyPatch) -> Iterator[AxleServer]:
    yield from _axle(_sound_axle, monkeypatch)


@pytest.fixture
def accept_all_axle(monkeypatch: pytest.MonkeyPatch) -> Iterator[AxleServer]:
    yield from _axle(_accept_all_axle, monkeypatch)


def _sent_canaries(server: AxleServer) -> list[str]:
    """The canaries the AXLE was asked about (by name), checking each request follows the client contract
    (besides the preflight's one listing of AXLE's environments)."""
    asked = [r for r in server.requests if r["path"] != "/v1/environments"]
    for request in asked:
        assert request["path"] == "/api/v1/verify_proof"
        assert request["headers"]["Authorization"] == "Bearer test-key"
        assert request["body"]["mathlib_options"] is True
        assert request["body"]["environment"] == "lean-4.27.0"
    return sorted(CORE_TEXTS.get(r["body"]["content"], "not a canary") for r in asked)


def test_lean_selftest_with_axle_puts_every_canary_through_g7(
    toy_lean: ToyLean, toy_lean_deciding: ToyLean, sound_axle: AxleServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEAN_PATH", str(toy_lean_deciding.init_dir))
    result = runner.invoke(app, ["selftest", "--prover", "lean", "--axle", "--tool", f"lean={toy_lean.lean}"])
    assert result.exit_code == 0, result.stdout
    header = next(line.split() for line in result.stdout.splitlines() if line.strip().startswith("good"))
    assert header == ["good", "sorry", "edited", "opaque_axiom", "forged_success", "kernel_rejected", "replay_rejected"]
    rows = _rows(result.stdout)
    # G7 must refuse `sorry`, `edited` and `forged_success` on its own; the other two are shown, not judged.
    assert rows["G7"] == ["G7", "axle", "passed", "failed", "failed", "(failed)", "failed", "(failed)", "(failed)"]
    assert rows["G4"][2:] == ["passed", "failed", "(passed)", "(passed)", "(passed)", "failed", "(passed)"]
    assert "G7 cannot run here" not in result.stdout
    assert "selftest of lean passed" in result.stdout
    assert _sent_canaries(sound_axle) == sorted(CORE_TEXTS.values())

    record = selftest.last_record("lean", VerifyOptions(tools={"lean": toy_lean.lean}, axle=True))
    assert record is not None and record.passed and record.known_good_passed("G7") is True
    # kept apart from no-AXLE runs
    assert selftest.last_record("lean", VerifyOptions(tools={"lean": toy_lean.lean})) is None


def test_lean_selftest_fails_on_an_axle_that_accepts_every_proof(
    toy_lean: ToyLean, toy_lean_deciding: ToyLean, accept_all_axle: AxleServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEAN_PATH", str(toy_lean_deciding.init_dir))
    result = runner.invoke(app, ["selftest", "--prover", "lean", "--axle", "--tool", f"lean={toy_lean.lean}"])
    assert result.exit_code == 2, result.stdout
    rows = _rows(result.stdout)
    assert rows["G7"][2:] == [
        "passed", "WRONG", "passed", "WRONG", "passed", "(passed)", "WRONG", "passed", "(passed)", "(passed)"
    ]  # fmt: skip
    surprises = sorted(line for line in result.stdout.splitlines() if line.startswith("SURPRISE: "))
    assert surprises == [
        f"SURPRISE: G7 axle accepted the known-bad canary lean-core/{name} ({what})"
        for name, what in sorted(
            (c.name, c.what) for c in CORE.canaries if c.name in ("sorry", "edited", "forged_success")
        )
    ]
    assert "selftest of lean FAILED (3 surprises)" in result.stdout
    assert _sent_canaries(accept_all_axle) == sorted(CORE_TEXTS.values())


def test_solve_with_axle_refuses_an_axle_that_accepts_a_known_bad_canary_before_any_model_call(
    toy_lean: ToyLean,
    toy_lean_deciding: ToyLean,
    accept_all_axle: AxleServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    pytest.importorskip("inspect_ai")
    # `solve` needs the full profile: a comparator toolchain whose comparator judges right (it accepts the
    # known-good canaries' texts only, rejecting the rest after "Building Solution" as the real one does),
    # so that the AXLE is the only gate to blame. Kept where comparator's unprivileged user can read it.
    shared = Path(tempfile.mkdtemp(prefix="putnam-axle-toolchain-"))
    shared.chmod(0o755)
    request.addfinalizer(lambda: shutil.rmtree(shared, ignore_errors=True))
    goods = [shared / f"good{i}.lean" for i in range(len(GOOD_TEXTS))]
    for good, text in zip(goods, GOOD_TEXTS, strict=True):
        good.write_bytes(text)
        good.chmod(0o644)
    _accept_all_comparator(
        shared / "toolchain",
        'echo "Building Challenge"; echo "Building Solution"\n'
        f"for good in {' '.join(map(str, goods))}; do\n"
        '  if cmp -s Solution.lean "$good"; then echo "Your solution is okay!"; exit 0; fi\n'
        "done\n"
        # comparator's own message for a statement mismatch (Comparator/Compare.lean:85)
        "echo \"uncaught exception: Challenge and solution theorem statement do not match: 'x'\" >&2; exit 1",
    )
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(shared / "toolchain"))
    monkeypatch.setenv("LEAN_PATH", str(toy_lean_deciding.init_dir))
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    fake = FakeOpenAI([])
    with serve(fake) as url:
        args = solve_args(LEAN_SAMPLES, tmp_path / "run", "toy_and_comm", url=url, prover="lean")
        result = runner.invoke(app, [*args, "--tool", f"lean={toy_lean.lean}", "--axle"])
    assert result.exit_code == ExitCode.USAGE, result.stdout + result.stderr  # refused before the run
    assert "G7 axle accepted the known-bad canary lean-core/sorry" in result.stderr
    blamed = result.stderr.split("misjudge canaries", 1)[1]
    assert "G7 axle accepted" in blamed and not any(f"G{n} " in blamed for n in range(1, 7))  # only the AXLE
    assert fake.requests == 0 and not (tmp_path / "run").exists()
    assert _sent_canaries(accept_all_axle) == sorted(CORE_TEXTS.values())  # no candidate of a model
    record = selftest.last_record("lean", VerifyOptions(tools={"lean": toy_lean.lean}, axle=True))
    assert record is not None and not record.passed and record.known_good_passed("G7") is True
    assert {c.gate for c in record.surprises} == {"G7"} and record.known_good_passed("G6") is True


# ---------------------------------------------------------------------------------------------- bootstrap

needs_coq = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")


@needs_coq
def test_rocq_bootstrap_ends_by_running_the_selftest_with_its_exit_code() -> None:
    result = runner.invoke(app, ["bootstrap", "--prover", "rocq"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "coq: already installed" in result.stderr  # Coq is installed here: the apt step skips itself
    assert re.search(r"library index (ready: \d+ declarations|skipped: .*retrieval)", result.stderr)
    out = result.stdout
    assert out.index("bootstrap of rocq finished") < out.index("Rocq canaries") < out.index("selftest of rocq passed")
    assert _rows(out)["G6"][-7:] == ["passed", "failed", "(passed)", "failed", "failed", "passed", "(passed)"]
    record = selftest.last_record("rocq", VerifyOptions())
    assert record is not None and record.passed


def _accept_all_coqc(directory: Path) -> Path:
    """A `coqc` that answers queries (``--version``, ``-where``) as the real one does and "compiles" any
    ``.v`` file into a junk ``.vo`` (where ``-o`` says, else beside it) with exit 0: a toolchain that
    accepts everything."""
    real = shutil.which("coqc")
    directory.mkdir(parents=True, exist_ok=True)
    coqc = directory / "coqc"
    coqc.write_text(
        "#!/bin/sh\n"
        'compiles=""; out=""; prev=""\n'
        'for a in "$@"; do\n'
        '  [ "$prev" = "-o" ] && out="$a"\n'
        '  case "$a" in *.v) compiles="$a";; esac; prev="$a"\n'
        "done\n"
        f'[ -z "$compiles" ] && exec {real} "$@"\n'
        'echo not-a-vo > "${out:-${compiles%.v}.vo}"; exit 0\n'
    )
    coqc.chmod(0o755)
    return directory


@needs_coq
def test_rocq_bootstrap_exits_2_naming_the_surprise_of_a_coqc_that_accepts_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = _accept_all_coqc(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    result = runner.invoke(app, ["bootstrap", "--prover", "rocq"])
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "coq: already installed" in result.stderr  # the fake answers --version and -where as coqc does
    out = result.stdout
    assert out.index("bootstrap of rocq finished") < out.index("Rocq canaries") < out.index("SURPRISE: ")
    g4 = _rows(out)["G4"][2:]
    assert g4[:5] == ["passed", "(passed)", "(passed)", "(passed)", "(passed)"]  # coqc took all
    assert g4[5:] == ["WRONG", "error", "WRONG", "error"]  # the no-answer checks find no output of theirs
    assert "SURPRISE: G5 statement and assumptions refused the known-good canary rocq/good" in out
    assert "SURPRISE: G6 kernel check refused the known-good canary rocq/good" in out
    assert "selftest of rocq FAILED" in out and f"{fake / 'coqc'}:" in out  # the coqc on PATH is the one run
    record = selftest.last_record("rocq", VerifyOptions())
    assert record is not None and not record.passed
