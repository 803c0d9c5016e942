"""Published PutnamBench proofs through the gates that run here, against the verdicts they must get.

The corpus is ``tests/fixtures/conformance``: proofs collected from public repositories, byte for byte, with
provenance and the expected verdict of each in ``MANIFEST.json`` (its ``rules`` and ``sources`` say why).
Lean files go through the text profile on both tracks; Rocq files through the full profile (real coqc
and coqchk) on the with-answer track.

Today's gates still refuse many sound proofs (issue 10). Each such case is listed in
:data:`KNOWN_FALSE_REJECTIONS` with the rule that wrongly refuses it and runs as a strict xfail: when a
gate change makes the case pass, the test fails until its line is removed here. Only expected
acceptances may be listed (a test below enforces it): an expected rejection that today's gates accept
is a false acceptance and always fails.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import COQ_BENCH, LEAN_BENCH, REPO, sampled

CORPUS = REPO / "tests" / "fixtures" / "conformance"
MANIFEST = CORPUS / "MANIFEST.json"
PROFILES = {"lean": ("text/with-answer", "text/no-answer"), "rocq": ("full/with-answer",)}
BENCH_FILES = {"lean": LEAN_BENCH, "rocq": COQ_BENCH}
ROCQ_WORKERS = 2


# Sound proofs today's gates still refuse, each with the rule that wrongly refuses it (issue 10).
KNOWN_FALSE_REJECTIONS: dict[str, str] = {}
"""Case (``<file>@<track>``) -> the rule that wrongly refuses it today. Only expected acceptances."""


@dataclass(frozen=True)
class Case:
    """One corpus file on one gate profile and track."""

    entry: dict[str, Any]
    profile: Profile
    track: Track

    @property
    def key(self) -> str:
        return f"{self.entry['file']}@{self.track.value}"

    @property
    def expected(self) -> dict[str, Any]:
        return dict(self.entry["expected"][f"{self.profile.value}/{self.track.value}"])


@cache
def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return data


@cache
def benchmark(prover: str) -> Benchmark:
    return load_benchmark(BENCH_FILES[prover])


def cases(prover: str) -> Iterator[Case]:
    for entry in manifest()["entries"]:
        if entry["prover"] != prover:
            continue
        for name in PROFILES[prover]:
            profile, track = name.split("/")
            yield Case(entry, Profile(profile), Track(track))


def in_ci(prover: str) -> set[str]:
    """The cases the default run judges: the first, in the manifest's order, of each source, of each
    profile and track with each expected verdict, and of each rule an expected rejection names (the rest
    run under ``-m slow``)."""
    first: dict[tuple[str, ...], str] = {}
    for case in cases(prover):
        name, want = f"{case.profile.value}/{case.track.value}", case.expected
        for kind in [("source", case.entry["source"]), (name, want["verdict"]), *((name, r) for r in want["rules"])]:
            first.setdefault(kind, case.key)
    return set(first.values())


def params(prover: str) -> list[Any]:
    marked = []
    for param in sampled({case.key: case for case in cases(prover)}, in_ci(prover)):
        reason = KNOWN_FALSE_REJECTIONS.get(str(param.id))
        marks = [pytest.mark.xfail(strict=True, reason=f"false rejection today: {reason}")] if reason else []
        marked.append(pytest.param(*param.values, id=param.id, marks=[*param.marks, *marks]))
    return marked


def verify(case: Case) -> Verdict:
    entry = case.entry
    bench = benchmark(entry["prover"])
    return run_gates(
        get_prover(entry["prover"]),
        bench,
        bench.problems[entry["problem_id"]],
        (CORPUS / entry["file"]).read_bytes(),
        case.track,
        VerifyOptions(profile=case.profile),
        candidate_label=entry["file"],
    )


def check(case: Case, verdict: Verdict) -> None:
    """The verdict is the one the manifest expects: accepted, or rejected by a gate (not an error)."""
    want = case.expected["verdict"]
    problems = "\n".join(f"  {g.id} {g.status.value}: {g.detail[:500]}" for g in verdict.gates if not g.passed)
    assert verdict.status == want, (
        f"{case.key}: expected {want} ({case.expected['reason']}), got {verdict.status}\n{problems}"
    )


needs_lean_data = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason="PutnamBench Lean data not found")
needs_rocq = pytest.mark.skipif(
    not COQ_BENCH.is_file() or shutil.which("coqc") is None or shutil.which("coqchk") is None,
    reason="PutnamBench Coq data or coqc/coqchk not found",
)


@needs_lean_data
@pytest.mark.parametrize("case", params("lean"))
def test_lean_proof_gets_its_expected_verdict_on_the_text_profile(case: Case) -> None:
    check(case, verify(case))


@pytest.fixture(scope="module")
def rocq_verdicts(request: pytest.FixtureRequest) -> dict[str, Verdict]:
    """Every Rocq case this session runs verified once, ``ROCQ_WORKERS`` at a time (each runs coqc, a type
    check and coqchk)."""
    test = test_rocq_proof_gets_its_expected_verdict_on_the_full_profile.__name__
    run = {i.callspec.params["case"].key for i in request.session.items if getattr(i, "originalname", "") == test}
    todo = [c for c in cases("rocq") if c.key in run]
    with ThreadPoolExecutor(ROCQ_WORKERS) as pool:
        return dict(zip((c.key for c in todo), pool.map(verify, todo), strict=True))


@needs_rocq
@pytest.mark.parametrize("case", params("rocq"))
def test_rocq_proof_gets_its_expected_verdict_on_the_full_profile(
    case: Case, rocq_verdicts: dict[str, Verdict]
) -> None:
    check(case, rocq_verdicts[case.key])


# ---------------------------------------------------------------------------------------------------------
# The manifest itself


def test_manifest_hashes_and_sizes_match_the_files() -> None:
    for entry in manifest()["entries"]:
        data = (CORPUS / entry["file"]).read_bytes()
        assert len(data) == entry["bytes"], entry["file"]
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["file"]
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == entry["git_blob_sha1"], entry["file"]


def test_every_corpus_file_is_in_the_manifest_once() -> None:
    listed = [entry["file"] for entry in manifest()["entries"]]
    assert len(listed) == len(set(listed))
    on_disk = {str(p.relative_to(CORPUS)) for sub in ("lean", "rocq") for p in (CORPUS / sub).iterdir()}
    assert on_disk == set(listed)


def test_manifest_entries_are_complete() -> None:
    data = manifest()
    for entry in data["entries"]:
        prover, name = entry["prover"], entry["file"]
        suffix = {"lean": ".lean", "rocq": ".v"}[prover]
        assert name == f"{prover}/{entry['source']}__{entry['problem_id']}{suffix}"
        assert entry["source"] in data["sources"]
        assert data["sources"][entry["source"]]["repository"] == entry["repository"]
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), name
        assert entry["path"] and entry["format"] in ("official", "with-answer"), name
        assert set(entry["expected"]) == set(PROFILES[prover]), name
        for expected in entry["expected"].values():
            assert expected["verdict"] in ("accepted", "rejected"), name
            assert expected["reason"], name
            assert set(expected["rules"]) <= set(data["rules"]), name
            assert bool(expected["rules"]) == (expected["verdict"] == "rejected"), name


@pytest.mark.parametrize("prover", ["lean", "rocq"])
def test_every_problem_exists_in_the_pinned_benchmark(prover: str) -> None:
    path = BENCH_FILES[prover]
    if not path.is_file():
        pytest.skip(f"{path} not found")
    pinned = manifest()["benchmarks"][prover]
    assert path.name == pinned["file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == pinned["sha256"]
    ids = {entry["problem_id"] for entry in manifest()["entries"] if entry["prover"] == prover}
    assert ids <= set(benchmark(prover).problems), sorted(ids - set(benchmark(prover).problems))


def test_known_false_rejections_are_expected_acceptances_of_real_cases() -> None:
    """An xfail may only stand for a sound proof refused today, never for a proof that must be refused."""
    expected = {case.key: case.expected["verdict"] for prover in PROFILES for case in cases(prover)}
    assert set(KNOWN_FALSE_REJECTIONS) <= set(expected), sorted(set(KNOWN_FALSE_REJECTIONS) - set(expected))
    listed_rejections = [key for key in KNOWN_FALSE_REJECTIONS if expected[key] != "accepted"]
    assert not listed_rejections, listed_rejections


def test_the_corpus_is_big_enough_and_small_enough() -> None:
    entries = manifest()["entries"]
    lean = [e for e in entries if e["prover"] == "lean"]
    assert len(lean) >= 60
    assert {e["format"] for e in lean} == {"official", "with-answer"}
    assert sum(e["bytes"] for e in entries) < 3_000_000
