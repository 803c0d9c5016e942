"""Shared paths and small builders for the test suite."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import sqlite3
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import FrameType, MappingProxyType
from typing import Any
from unittest import mock

import pytest

from putnam_solver.benchmark_files import PACKAGED_DATA
from putnam_solver.core import gate_worker
from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.provers.rocq import answers as rocq_answers
from putnam_solver.core.provers.rocq.build import Built
from putnam_solver.core.sandbox import sandbox_status
from putnam_solver.core.verify import (
    GateStatus,
    Profile,
    ScratchDir,
    Submission,
    Track,
    Verdict,
    VerifyOptions,
    run_gates,
)

REPO = Path(__file__).resolve().parents[1]


def putnambench_dir() -> Path:
    """Where the suite finds the pinned PutnamBench JSONL files: ``PUTNAM_BENCHMARK`` (their directory,
    one of the files, whose directory then holds the other, or a data root holding ``putnambench/``),
    else the copies packaged with putnam, so that a fresh clone needs nothing beside it. The one place
    the suite decides this."""
    value = os.environ.get("PUTNAM_BENCHMARK")
    if not value:
        return PACKAGED_DATA / "putnambench"
    path = Path(value).expanduser().resolve()
    if path.is_dir() and (path / "putnambench").is_dir():
        return path / "putnambench"
    return path.parent if path.is_file() else path


PUTNAMBENCH = putnambench_dir()
DATA_ROOT = PUTNAMBENCH.parent
"""The data root: one folder per benchmark (``putnambench/``, ``minif2f/``, ``proofnet/``)."""
LEAN_BENCH = PUTNAMBENCH / "putnam_bench_lean4.jsonl"
COQ_BENCH = PUTNAMBENCH / "putnam_bench_coq.jsonl"
ROCQ_SAMPLES = REPO / "samples" / "rocq" / "benchmark.jsonl"
MINIF2F_LEAN = DATA_ROOT / "minif2f" / "minif2f_lean4.jsonl"
PROOFNET_LEAN = DATA_ROOT / "proofnet" / "proofnet_lean4.jsonl"
MINIF2F_ROCQ = DATA_ROOT / "minif2f" / "minif2f_rocq_adapted.jsonl"


def published_key(entry: Mapping[str, Any], sources: Mapping[str, Any]) -> str:
    """A published corpus entry's name: ``source:member``, and ``#problem`` after it for a file that proves
    many problems (an ``aggregate`` source: one entry per pinned theorem it states)."""
    own = f"{entry['source']}:{entry['member']}"
    return f"{own}#{entry['problem_id']}" if sources[entry["source"]].get("aggregate") else own


@functools.cache
def pinned(path: Path) -> Benchmark:
    """The pinned benchmark file at ``path``, loaded once per test process (every registered benchmark's
    files ship with putnam, so nothing is skipped for want of them)."""
    return load_benchmark(path)


SANDBOX_AVAILABLE, SANDBOX_WHY = sandbox_status()
needs_sandbox = pytest.mark.skipif(not SANDBOX_AVAILABLE, reason=f"bubblewrap unavailable: {SANDBOX_WHY}")
"""For tests that run bubblewrap (probed once per test process)."""


def one_record_benchmark(directory: Path, problem_id: str, statement: str) -> Benchmark:
    """A benchmark file holding one record (``problem_id``, ``statement``), written under ``directory``."""
    path = directory / "bench.jsonl"
    path.write_text(json.dumps({"problem_id": problem_id, "formal_statement": statement}) + "\n")
    return load_benchmark(path)


def submission(
    prover: str,
    bench: Benchmark,
    problem: str | Problem,
    candidate: str | bytes,
    track: Track = Track.WITH_ANSWER,
    scratch: Path | None = None,
    options: VerifyOptions | None = None,
    challenge: str | None = None,
) -> Submission:
    """One gate's input as the pipeline builds it: the candidate, the harness's ``challenge`` (by default
    the prover's challenge for this track), a scratch directory (``scratch``, created, or a private
    temporary one). ``problem`` is an id of ``bench`` or a record of the test's own."""
    record = bench.problems[problem] if isinstance(problem, str) else problem
    text = candidate.decode("utf-8") if isinstance(candidate, bytes) else candidate
    if scratch is not None:
        scratch.mkdir(parents=True, exist_ok=True)
    return Submission(
        problem=record,
        benchmark=bench,
        track=track,
        candidate_bytes=text.encode("utf-8") if isinstance(candidate, str) else candidate,
        candidate=text,
        challenge=get_prover(prover).challenge(record, track) if challenge is None else challenge,
        scratch_dir=ScratchDir(existing=scratch) if scratch is not None else ScratchDir(),
        options=options or VerifyOptions(),
    )


needs_coq = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None,
    reason="coqc/coqchk not installed (putnam bootstrap --prover rocq)",
)
"""For tests that run the real coqc and coqchk."""


def copied_coq_tools(directory: Path) -> dict[str, Path]:
    """Copies of the installed ``coqc`` and ``coqchk`` in ``directory``: the same Coq at other paths, as a
    user's ``--tool`` names it (another toolchain fingerprint)."""
    tools = {}
    directory.mkdir(parents=True, exist_ok=True)
    for name in ("coqc", "coqchk"):
        found = shutil.which(name)
        assert found is not None
        tools[name] = directory / name
        shutil.copy2(found, tools[name])
    return tools


rocq_submission = functools.partial(submission, "rocq")
lean_submission = functools.partial(submission, "lean")


def interpreted_steps(action: Callable[[], object]) -> int:
    """How many Python lines and calls ``action`` runs, the text gates included (they run in this process
    while it is counted): a measure of work that no load on the machine changes, where a time would. Work
    inside one C call (a regex, a slice) counts once, so this sees the Python loops a super-linear reading
    shows up in."""
    steps = 0

    def count(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal steps
        steps += 1
        return count

    before = sys.gettrace()
    sys.settrace(count)
    try:
        with text_gates_in_process():
            action()
    finally:
        sys.settrace(before)
    return steps


def text_gates_in_process() -> contextlib.AbstractContextManager[object]:
    """The text gates run in this process, without their time bound (which a loaded machine can reach
    whatever the work is): for a test that measures their work instead."""
    return mock.patch.object(gate_worker, "call", lambda function, args, seconds: function(*args))


def assert_linear_work(run: Callable[[int], object], size: int) -> None:
    """``run(n)`` reads a hostile value of ``n`` units: the work from ``size`` to ``2 * size`` units is at
    most twice that from none to ``size`` (it is equal when the reading is linear, three times when it
    is quadratic)."""
    interpreted_steps(functools.partial(run, 0))  # what runs once per process (imports, caches) is not counted
    none, once, twice = (interpreted_steps(functools.partial(run, n)) for n in (0, size, 2 * size))
    counts = f"{none} / {once} / {twice} steps for 0 / {size} / {2 * size} units"
    assert none < once < twice, counts  # the input was read here (a count that never grows measures nothing)
    assert twice - once <= 2 * (once - none), counts


LEAN_PROVER = LeanProver()


def lean_with_helper(bench: Benchmark, problem_id: str, helper: str, proof: str) -> str:
    """The with-answer challenge of ``problem_id`` with ``helper`` inserted before its theorem and the
    theorem's ``by sorry`` replaced by ``proof``."""
    text = LEAN_PROVER.challenge(bench.problems[problem_id], Track.WITH_ANSWER)
    at = text.index(f"theorem {problem_id}")
    return (text[:at] + helper + text[at:]).replace("by sorry", proof)


LEAN_TEXT = VerifyOptions(profile=Profile.TEXT)
PROOF = "by\n  simp [foo] <;> linarith"


def lean_filled(
    bench: Benchmark,
    problem_id: str,
    track: Track = Track.WITH_ANSWER,
    proof: str = PROOF,
    before: str = "",
    after: str = "",
    value: str = "fun _ => 0",
) -> str:
    """The challenge with its holes filled, ``before`` inserted right before the theorem's docstring."""
    text = LEAN_PROVER.challenge(bench.problems[problem_id], track)
    parsed = parse_statement(text)
    edits = [(parsed.theorem.tokens[parsed.proof_assign].end, len(text), f" {proof}\n{after}")]
    edits.append((parsed.theorem.tokens[0].offset, parsed.theorem.tokens[0].offset, before))
    if track is Track.NO_ANSWER:
        edits += [(s.value.offset, s.value.end, value) for s in parsed.solutions]
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def lean_edit_failures(
    bench: Benchmark, problem_id: str, edit: Mapping[str, str], track: Track = Track.WITH_ANSWER
) -> dict[str, str]:
    """The text gates' failures on the challenge of ``problem_id`` filled with ``edit`` (``lean_filled``'s
    keywords ``proof``, ``before``, ``after``, ``value``), the gates run in this process (so that coverage
    sees the branches a test reaches: a gate worker is killed, not ended, and records nothing)."""
    text = lean_filled(
        bench,
        problem_id,
        track,
        proof=edit.get("proof", PROOF),
        before=edit.get("before", ""),
        after=edit.get("after", ""),
        value=edit.get("value", "fun _ => 0"),
    )
    with text_gates_in_process():
        return failures(lean_text_verdict(bench, problem_id, text, track))


def lean_text_verdict(bench: Benchmark, problem_id: str, candidate: str, track: Track = Track.WITH_ANSWER) -> Verdict:
    problem = bench.problems[problem_id]
    return run_gates(LEAN_PROVER, bench, problem, candidate.encode("utf-8"), track, LEAN_TEXT)


def lean_verdict(
    bench: Benchmark, problem_id: str, candidate: str, profile: Profile, track: Track = Track.WITH_ANSWER
) -> Verdict:
    """The Lean gates of ``profile`` on ``candidate``, every gate run (``keep_going``)."""
    options = VerifyOptions(profile, keep_going=True)
    return run_gates(LEAN_PROVER, bench, bench.problems[problem_id], candidate.encode("utf-8"), track, options)


def rocq_full_verdict(bench: Benchmark, problem_id: str, candidate: str, track: Track = Track.WITH_ANSWER) -> Verdict:
    """The full Rocq profile on ``candidate``, every gate run (``keep_going``) so a test sees each one's status."""
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[problem_id], candidate.encode(), track, options)


def sampled(cases: dict[str, Any], in_ci: set[str]) -> list[Any]:
    """``cases`` as pytest parameters (ids from the keys): those named in ``in_ci`` run by default, the rest
    only under ``-m slow``, so a compile-heavy table costs the default run one case per class."""
    assert in_ci <= cases.keys(), in_ci - cases.keys()
    marks = {k: () if k in in_ci else (pytest.mark.slow,) for k in cases}
    return [pytest.param(*(v if isinstance(v, tuple) else (v,)), id=k, marks=marks[k]) for k, v in cases.items()]


def thinned(cases: Mapping[str, Any] | Sequence[Any], every: int = 3) -> list[Any]:
    """``cases`` (a table by id, or a list) as pytest parameters: every ``every``-th, from the first, in the
    default run and the rest only under ``-m slow``. For the compile-heavy tables written before ``sampled``
    (each case a coqc run or more): CI runs a fixed third of them, ``-m slow`` all."""
    items = list(cases.items()) if isinstance(cases, Mapping) else [(None, case) for case in cases]
    return [
        pytest.param(
            *(value if isinstance(value, tuple) else (value,)),
            id=key,
            marks=() if index % every == 0 else (pytest.mark.slow,),
        )
        for index, (key, value) in enumerate(items)
    ]


NO_CASES: Mapping[str, tuple[str, ...]] = MappingProxyType({})


def refusal_table_test(
    refusal: Callable[..., str],
    *,
    honest: Mapping[str, tuple[str, ...]] = NO_CASES,
    attacks: Mapping[str, tuple[str, ...]] = NO_CASES,
) -> Callable[[Benchmark, tuple[str, ...], bool], None]:
    """One test over tables of cases by id, each case the arguments after the benchmark of ``refusal``
    (which returns a gate's refusal, empty for a pass): every ``honest`` case passes, every one of
    ``attacks`` is refused. The red-team and false-rejection files differ in their tables and in how they
    run a case, never in this test, so each names the one this returns."""
    cases = [pytest.param(case, True, id=key) for key, case in honest.items()]
    cases += [pytest.param(case, False, id=key) for key, case in attacks.items()]

    @pytest.mark.parametrize(("case", "passes"), cases)
    def test(bench: Benchmark, case: tuple[str, ...], passes: bool) -> None:
        refused = refusal(bench, *case)
        assert (refused == "") is passes, refused or "passed"

    return test


def failures(verdict: Verdict) -> dict[str, str]:
    return {g.id: g.detail for g in verdict.gates if g.status is not GateStatus.PASSED}


def sql(run_dir: Path, statement: str, *args: Any) -> list[tuple[Any, ...]]:
    """One statement on a run's ledger with plain sqlite3 (foreign keys off, as the sqlite3 shell has them)."""
    db = sqlite3.connect(run_dir / "ledger.sqlite")
    try:
        rows = db.execute(statement, args).fetchall()
        db.commit()
        return rows
    finally:
        db.close()


def add_subattempt(run_dir: Path, lemma: str, status: str) -> None:
    """A sub-attempt row (a lemma of the run's one attempt) written into a run's ledger by hand, as an
    edited ledger would hold it."""
    (parent,) = sql(run_dir, "SELECT campaign, problem FROM attempts")
    columns = "campaign, problem, parent, lemma, status, turns, input_tokens, output_tokens, cost_dollars, "
    columns += "statement, statement_sha256, recorded_at"
    values = (parent[0], parent[1], "k", lemma, status, 1, 1, 1, 0.0, "Lemma zz : True.", "0" * 64)
    sql(
        run_dir,
        f"INSERT INTO subattempts ({columns}) VALUES (?,?,?,?,?,?,?,?,?,?,?,'2026-01-01T00:00:00+00:00')",
        *values,
    )


def replace_candidate(run_dir: Path, problem: str, text: str) -> tuple[int, str]:
    """Replace a stored Rocq pass's candidate with every stored hash made to agree (a run directory handed
    over); returns its attempt id and the new candidate's SHA-256."""
    sha = hashlib.sha256(text.encode()).hexdigest()
    [(attempt,)] = sql(run_dir, "SELECT id FROM attempts WHERE problem=? AND status='passed'", problem)
    sql(run_dir, "UPDATE attempts SET candidate=?, candidate_sha256=? WHERE id=?", text, sha, attempt)
    [(stored,)] = sql(run_dir, "SELECT json FROM verdicts WHERE attempt_id=?", attempt)
    verdict = json.loads(stored)
    verdict["candidate_sha256"] = sha
    sql(run_dir, "UPDATE verdicts SET json=?, candidate_sha256=? WHERE attempt_id=?", json.dumps(verdict), sha, attempt)
    (run_dir / "attempts" / "campaign-1" / problem / "candidate.v").write_text(text)
    return int(attempt), sha


def spied_answer_builds(monkeypatch: pytest.MonkeyPatch) -> dict[str, Built]:
    """Every file the Rocq answer check builds, by module name (``Answer_ne_reals``...), as the check ran it."""
    built: dict[str, Built] = {}
    real_build = rocq_answers.build

    def spy(*args: Any, **kwargs: Any) -> Built:
        result = real_build(*args, **kwargs)
        built[result.module] = result
        return result

    monkeypatch.setattr(rocq_answers, "build", spy)
    return built
