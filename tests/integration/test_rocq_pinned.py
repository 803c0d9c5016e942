"""The reference compile kept per statement and toolchain (rocq/products.py), with real coqc and coqchk.

A second candidate of the same problem reuses the reference's ``.vo`` from the cache directory instead of
compiling it again, with the same verdict; an entry whose bytes were changed is never used (it is built
again and replaced); what is derived from a candidate is never kept. A problem can be prepared before
any candidate exists (``verifier.prepare.prepare_problem``, what ``putnam solve`` does while the model works), and
verifications of one problem running at the same time build its reference once between them.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq import build as rocq_build
from putnam_solver.core.provers.rocq.products import PINNED_DIR
from putnam_solver.core.sandbox import SandboxResult
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.verifier.prepare import prepare_problem
from tests.helpers import ROCQ_SAMPLES

BENCHMARK = ROCQ_SAMPLES
SAMPLES = ROCQ_SAMPLES.parent
PROBLEM = "sample_even_square"
pytestmark = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None,
    reason="coqc/coqchk not installed (putnam bootstrap --prover rocq)",
)


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The file each sandboxed run of the gates compiled or checked (the runs themselves are real)."""
    seen: list[str] = []
    real = rocq_build.run_sandboxed

    def recording(argv: list[str], **kwargs: Any) -> SandboxResult:
        seen.append(argv[-1])
        return real(argv, **kwargs)

    monkeypatch.setattr(rocq_build, "run_sandboxed", recording)
    yield seen


def verify(bench: Benchmark, candidate: str) -> Verdict:
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    return run_gates(RocqProver(), bench, bench.problems[PROBLEM], candidate.encode(), Track.WITH_ANSWER, options)


CHANGED_STATEMENT = """Require Import Arith.

Theorem sample_even_square
    (n : nat)
    : Nat.even (n * n) = Nat.even (n * n).
Proof.
  reflexivity.
Qed.
"""
"""The sample's theorem with its statement changed (and proved): G5's trusted file must refuse it."""


def proof() -> str:
    return (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text(encoding="utf-8")


def outcome(verdict: Verdict) -> list[tuple[str, str, str]]:
    return [(g.id, g.status.value, g.detail) for g in verdict.gates]


def entries(cache: Path) -> list[Path]:
    return sorted((cache / PINNED_DIR).rglob("*.vo"))


def test_a_second_candidate_reuses_the_reference_with_the_same_verdict(
    bench: Benchmark, cache: Path, compiled: list[str]
) -> None:
    cold = verify(bench, proof())
    assert cold.status == "accepted"
    assert "Reference.v" in compiled
    assert [p.name.split("-", 1)[1] for p in entries(cache)] == ["Reference.vo"]
    compiled.clear()
    warm = verify(bench, proof() + "\n(* another candidate *)\n")
    assert warm.status == "accepted"
    assert "Reference.v" not in compiled
    assert {"Candidate.v", "Trusted.v"} <= set(compiled)
    assert [g.id for g in warm.gates] == [g.id for g in cold.gates]


def test_a_rejection_is_the_same_with_a_cached_reference(bench: Benchmark, cache: Path, compiled: list[str]) -> None:
    changed = CHANGED_STATEMENT
    cold = verify(bench, changed)
    assert cold.status == "rejected"
    assert [g.status.value for g in cold.gates if g.id == "G5"] == ["failed"]  # the trusted file refused it
    assert "Reference.v" in compiled
    compiled.clear()
    again = verify(bench, changed)
    assert "Reference.v" not in compiled
    assert outcome(again) == outcome(cold)


def test_a_damaged_entry_is_built_again_and_never_used(bench: Benchmark, cache: Path, compiled: list[str]) -> None:
    assert verify(bench, proof()).status == "accepted"
    (entry,) = entries(cache)
    good = entry.read_bytes()
    damaged = bytearray(good)
    damaged[-10] ^= 0xFF
    entry.write_bytes(bytes(damaged))
    compiled.clear()
    assert verify(bench, proof()).status == "accepted"
    assert "Reference.v" in compiled
    assert entry.read_bytes() == good
    entry.write_bytes(good[: len(good) // 2])  # cut short: the same
    compiled.clear()
    assert verify(bench, proof()).status == "accepted"
    assert "Reference.v" in compiled


def test_nothing_a_candidate_made_is_kept(bench: Benchmark, cache: Path) -> None:
    verify(bench, proof())
    kept = [p.name for p in (cache / PINNED_DIR).rglob("*") if p.is_file()]
    assert kept and all(name.endswith("-Reference.vo") for name in kept)


def prepare(bench: Benchmark, options: VerifyOptions | None = None) -> dict[str, str | None]:
    options = options or VerifyOptions(profile=Profile.FULL)
    return prepare_problem(RocqProver(), bench, bench.problems[PROBLEM], Track.WITH_ANSWER, options)


def test_a_prepared_problem_has_its_reference_before_any_candidate(
    bench: Benchmark, cache: Path, compiled: list[str]
) -> None:
    assert prepare(bench) == {"rocq.reference": None}
    assert compiled == ["Reference.v"], "the reference alone: no candidate, no trusted file"
    assert len(entries(cache)) == 1
    compiled.clear()
    assert verify(bench, proof()).status == "accepted"
    assert "Reference.v" not in compiled
    compiled.clear()
    assert prepare(bench) == {"rocq.reference": None}
    assert compiled == [], "prepared again: read from the cache"


def test_preparing_decides_nothing(bench: Benchmark, cache: Path, compiled: list[str], tmp_path: Path) -> None:
    assert prepare(bench, VerifyOptions(profile=Profile.FAST)) == {}, "the fast profile needs no reference"
    assert compiled == []
    missing = VerifyOptions(profile=Profile.FULL, tools={"coqc": tmp_path / "no-coqc"})
    (why,) = prepare(bench, missing).values()
    assert why is not None and "no-coqc" in why, "a missing tool is reported, not raised"
    assert entries(cache) == []
    rejected = verify(bench, CHANGED_STATEMENT)
    assert [g.status.value for g in rejected.gates if g.id == "G5"] == ["failed"]
    compiled.clear()
    assert prepare(bench) == {"rocq.reference": None}
    assert compiled == [], "the reference a rejection built is the one kept"


def test_verifications_of_one_problem_at_once_build_its_reference_once(
    bench: Benchmark, cache: Path, compiled: list[str]
) -> None:
    verdicts: list[Verdict] = []
    candidates = [proof() + f"\n(* candidate {n} *)\n" for n in range(2)]
    threads = [threading.Thread(target=lambda c=c: verdicts.append(verify(bench, c))) for c in candidates]
    preparing = threading.Thread(target=prepare, args=(bench,))
    for thread in (preparing, *threads):
        thread.start()
    for thread in (preparing, *threads):
        thread.join(timeout=300)
    assert [v.status for v in verdicts] == ["accepted", "accepted"]
    assert compiled.count("Reference.v") == 1
    assert compiled.count("Candidate.v") == 2
