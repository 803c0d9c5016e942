"""Each Lean tool run made once: G6's challenge side built by Lake once per problem and toolchain.

The fake toolchain's `lake` decides whether a module is up to date as Lake does (tests/fakes/fake_lake.py:
the input hash stored in Lake's ``.trace``) and records each build as ``elaborated`` or ``replayed``
beside itself, so these tests count what Lean elaborated. Before the challenge build was kept, every G6
run elaborated the harness's ``Challenge`` inside comparator; now the harness builds it once, keeps
Lake's products in the cache directory, and comparator's ``lake build Challenge`` replays them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.pinned_store import read_entry
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean.challenge_build import PINNED_DIR
from putnam_solver.core.provers.lean.comparator import comparator_gate
from putnam_solver.core.provers.lean.toolchain import ToolchainPaths
from putnam_solver.core.sandbox import landlock_status
from putnam_solver.core.verify import GateStatus, Profile, Submission, Track
from putnam_solver.verifier.options import GateFlags
from putnam_solver.verifier.prepare import prepare_problem
from tests.helpers import LEAN_BENCH, lean_submission
from tests.integration.test_lean_comparator import fake_toolchain

BENCHMARK = LEAN_BENCH
"""What the ``bench`` fixture (conftest.py) loads for this module."""

pytestmark = pytest.mark.skipif(not landlock_status()[0], reason=f"comparator needs Landlock: {landlock_status()[1]}")

PROBLEM, OTHER = "putnam_1962_a2", "putnam_1963_b1"


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return fake_toolchain(tmp_path / "toolchain")


def candidate(bench: Benchmark, scratch: Path, problem: str = PROBLEM, note: str = "") -> Submission:
    """A candidate the fake comparator accepts (its marker), distinct per ``note``."""
    statement = bench.problems[problem].formal_statement
    text = statement.replace(":= sorry", ":= by\n  -- fake-comparator: ok\n  sorry", 1) + f"\n-- {note}\n"
    options = GateFlags(unsafe_comparator=True).options()
    return lean_submission(bench, problem, text, scratch=scratch, options=options)


def builds(root: Path) -> list[tuple[str, str, str]]:
    """What the fake lake built so far: (target, action, where: ``harness`` or ``comparator``)."""
    log = ToolchainPaths(root).toolchain_bin / "lake-runs.jsonl"
    lines = log.read_text().splitlines() if log.is_file() else []
    runs = [json.loads(line) for line in lines]
    return [(r["target"], r["action"], "harness" if "challenge-build" in r["cwd"] else "comparator") for r in runs]


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in (cache / PINNED_DIR).rglob("*") if p.is_file())


def test_two_candidates_of_a_problem_elaborate_the_challenge_once(
    bench: Benchmark, root: Path, cache: Path, tmp_path: Path
) -> None:
    first = comparator_gate(candidate(bench, tmp_path / "one", note="first"), root)
    second = comparator_gate(candidate(bench, tmp_path / "two", note="second"), root)
    assert (first.status, second.status) == (GateStatus.PASSED, GateStatus.PASSED), (first.detail, second.detail)
    assert builds(root) == [
        ("Challenge", "elaborated", "harness"),  # once per problem and toolchain
        ("Challenge", "replayed", "comparator"),
        ("Solution", "elaborated", "comparator"),
        ("Challenge", "replayed", "comparator"),  # the second candidate: nothing of the challenge rebuilt
        ("Solution", "elaborated", "comparator"),
    ]
    assert (first.evidence["challenge_build"]["cached"], second.evidence["challenge_build"]["cached"]) == (False, True)
    assert first.evidence["challenge_build"]["files"] == second.evidence["challenge_build"]["files"]
    (entry,) = entries(cache)
    stored = read_entry(entry, 1 << 20)
    assert stored is not None and set(stored) >= {"lib/lean/Challenge.olean", "lib/lean/Challenge.trace"}
    assert not any("Solution" in name for name in stored)  # nothing of a candidate is kept


def test_a_rejection_is_the_same_with_a_cached_challenge(
    bench: Benchmark, root: Path, cache: Path, tmp_path: Path
) -> None:
    def rejected(scratch: Path) -> Submission:
        sub = candidate(bench, scratch)
        text = sub.candidate.replace("fake-comparator: ok", "fake-comparator: reject")
        return lean_submission(bench, PROBLEM, text, scratch=scratch, options=sub.options)

    cold = comparator_gate(rejected(tmp_path / "one"), root)
    warm = comparator_gate(rejected(tmp_path / "two"), root)
    assert (cold.status, warm.status) == (GateStatus.FAILED, GateStatus.FAILED)
    assert cold.detail == warm.detail and warm.evidence["challenge_build"]["cached"]


def test_another_statement_or_toolchain_never_reuses_a_build(
    bench: Benchmark, root: Path, cache: Path, tmp_path: Path
) -> None:
    assert comparator_gate(candidate(bench, tmp_path / "one"), root).passed
    other = comparator_gate(candidate(bench, tmp_path / "two", OTHER), root)
    assert other.passed and not other.evidence["challenge_build"]["cached"]
    lean = ToolchainPaths(root).toolchain_bin / "lean"
    lean.write_text(lean.read_text() + "# another build of the same release\n")
    rebuilt = comparator_gate(candidate(bench, tmp_path / "three"), root)
    assert rebuilt.passed and not rebuilt.evidence["challenge_build"]["cached"]
    assert [b for b in builds(root) if b[2] == "harness"] == [("Challenge", "elaborated", "harness")] * 3
    assert [b[1] for b in builds(root) if b[:1] == ("Challenge",) and b[2] == "comparator"] == ["replayed"] * 3
    assert len(entries(cache)) == 3


def test_a_damaged_entry_is_built_again_and_never_used(
    bench: Benchmark, root: Path, cache: Path, tmp_path: Path
) -> None:
    assert comparator_gate(candidate(bench, tmp_path / "one"), root).passed
    (entry,) = entries(cache)
    good = entry.read_bytes()
    damaged = bytearray(good)
    damaged[-5] ^= 0xFF
    entry.write_bytes(bytes(damaged))
    again = comparator_gate(candidate(bench, tmp_path / "two"), root)
    assert again.passed and not again.evidence["challenge_build"]["cached"]
    assert entry.read_bytes() == good
    assert [b for b in builds(root) if b[2] == "harness"] == [("Challenge", "elaborated", "harness")] * 2


def test_a_challenge_that_does_not_build_is_an_error_and_nothing_is_kept(
    bench: Benchmark, root: Path, cache: Path, tmp_path: Path
) -> None:
    lake = ToolchainPaths(root).toolchain_bin / "lake"
    working = lake.read_bytes()
    lake.write_text('#!/bin/sh\n[ "$1" = build ] && { echo "error: build failed" >&2; exit 1; }\nexit 0\n')
    broken = comparator_gate(candidate(bench, tmp_path / "one"), root)
    assert broken.status is GateStatus.ERROR and "challenge does not build" in broken.detail
    assert entries(cache) == []
    lake.write_bytes(working)
    assert comparator_gate(candidate(bench, tmp_path / "two"), root).passed


def test_what_a_candidate_build_writes_over_the_challenge_never_reaches_the_cache(
    bench: Benchmark, root: Path, cache: Path, tmp_path: Path
) -> None:
    """The candidate's build may write anywhere in its project's ``.lake`` (the challenge's products
    included); the kept build comes only from the harness's own candidate-free project."""
    sub = candidate(bench, tmp_path / "one")
    assert comparator_gate(sub, root).passed
    (entry,) = entries(cache)
    kept = entry.read_bytes()
    [seeded] = (sub.scratch / "comparator").glob("*/.lake/build/lib/lean/Challenge.olean")
    seeded.write_bytes(b"written by a candidate's build")
    assert comparator_gate(candidate(bench, tmp_path / "two"), root).passed
    assert entry.read_bytes() == kept


def test_a_prepared_problem_finds_its_challenge_built_before_any_candidate(
    bench: Benchmark, root: Path, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``putnam solve`` does as an attempt starts: the challenge is built by the harness with no
    candidate, and the first candidate's G6 replays it."""
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(root))
    options = GateFlags(unsafe_comparator=True).options()
    problem = bench.problems[PROBLEM]
    fast = prepare_problem(LeanProver(), bench, problem, Track.WITH_ANSWER, replace(options, profile=Profile.FAST))
    assert fast == {} and builds(root) == [], "the fast profile has no G6: nothing to prepare"
    assert prepare_problem(LeanProver(), bench, problem, Track.WITH_ANSWER, options) == {"lean.challenge": None}
    assert builds(root) == [("Challenge", "elaborated", "harness")]
    assert len(entries(cache)) == 1
    shown = LeanProver().challenge(problem, Track.WITH_ANSWER)  # the answer inline, as the model sees it
    inline = shown.rstrip().removesuffix("sorry") + "by\n  -- fake-comparator: ok\n  sorry\n"
    first = comparator_gate(lean_submission(bench, PROBLEM, inline, scratch=tmp_path / "one", options=options), root)
    assert first.status == GateStatus.PASSED, first.detail
    assert first.evidence["challenge_build"]["cached"] is True
    assert builds(root)[1:] == [("Challenge", "replayed", "comparator"), ("Solution", "elaborated", "comparator")]
    kept = comparator_gate(candidate(bench, tmp_path / "two", note="abbrev kept"), root)
    assert kept.status == GateStatus.PASSED, kept.detail
    assert kept.evidence["challenge_build"]["cached"] is False, "another answer form: its own challenge"
