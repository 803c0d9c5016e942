"""Published miniF2F Lean proofs (DeepSeek-Prover-V2, Kimina-Prover, Seed-Prover) through the text profile.

The corpus is ``tests/fixtures/conformance/published``: the archives as their authors published them, with
provenance and the verdict each proof must get in ``MANIFEST.json`` (its ``description`` says how the
expected verdicts were derived from the text, independently of the gates). ``accepted``: the text profile
accepts it; ``deferred``: refused on text only for additions left to G6, each named in the reason;
``rejected``: refused. The summary test prints, per source, how many were accepted, deferred (by rule)
and refused (by rule).
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections import Counter
from functools import cache
from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import DATA_ROOT, REPO

CORPUS = REPO / "tests" / "fixtures" / "conformance" / "published"
MINIF2F = DATA_ROOT / "minif2f" / "minif2f_lean4.jsonl"
ELABORATION = "through elaboration"
"""What every G2 reason of an addition left to G6 says (``_preservation._needs_g6``)."""

needs_minif2f = pytest.mark.skipif(not MINIF2F.is_file(), reason="pinned miniF2F Lean data not found")


@cache
def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
    return data


@cache
def benchmark() -> Benchmark:
    return load_benchmark(MINIF2F)


def member(entry: dict[str, Any]) -> bytes:
    archive = manifest()["sources"][entry["source"]]["archive"]
    with zipfile.ZipFile(CORPUS / archive) as z:
        return z.read(entry["member"])


def verify(entry: dict[str, Any]) -> Verdict:
    bench = benchmark()
    return run_gates(
        get_prover("lean"),
        bench,
        bench.problems[entry["problem_id"]],
        member(entry),
        Track.WITH_ANSWER,
        VerifyOptions(profile=Profile.TEXT),
        candidate_label=f"{entry['source']}:{entry['member']}",
    )


def outcome(verdict: Verdict) -> tuple[str, list[str]]:
    """``accepted``, ``deferred`` (every refusal is an addition left to G6) or ``rejected``, with the
    reasons of each failed gate."""
    reasons = [line for g in verdict.gates if not g.passed for line in g.detail.splitlines() if line.strip()]
    if verdict.status == "accepted":
        return "accepted", []
    if reasons and all(ELABORATION in r for r in reasons):
        return "deferred", reasons
    return "rejected", reasons


@cache
def outcomes() -> dict[str, tuple[str, list[str]]]:
    return {f"{e['source']}:{e['member']}": outcome(verify(e)) for e in manifest()["entries"]}


def test_archives_are_the_published_bytes() -> None:
    for name, source in manifest()["sources"].items():
        data = (CORPUS / source["archive"]).read_bytes()
        assert len(data) == source["bytes"], name
        assert hashlib.sha256(data).hexdigest() == source["sha256"], name
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == source["git_blob_sha1"], name
        assert source["repository"] and source["commit"] and source["path"] and source["license"], name


def test_every_entry_is_a_member_with_its_hash() -> None:
    for entry in manifest()["entries"]:
        assert hashlib.sha256(member(entry)).hexdigest() == entry["sha256"], entry["member"]
        assert set(entry["rules"]) <= set(manifest()["rules"]), entry["member"]
        assert bool(entry["rules"]) == (entry["expected"] != "accepted"), entry["member"]


@needs_minif2f
def test_each_published_proof_gets_its_expected_verdict() -> None:
    wrong = []
    for entry in manifest()["entries"]:
        key = f"{entry['source']}:{entry['member']}"
        got, reasons = outcomes()[key]
        if got != entry["expected"]:
            wrong.append(f"{key}: expected {entry['expected']} {entry['rules']}, got {got}: {reasons[:2]}")
    assert not wrong, "\n".join(wrong)


@needs_minif2f
def test_no_expected_rejection_is_accepted_and_exact_statements_pass() -> None:
    """The done criterion of issue 29: no changed statement, ``sorry``, ``native_decide`` or axiom is
    accepted, and at least 95 % of the proofs of exactly the pinned statement are accepted or deferred."""
    exact = [e for e in manifest()["entries"] if "statement-changed" not in e["rules"] and e["expected"] != "rejected"]
    refused = [e for e in manifest()["entries"] if e["expected"] == "rejected"]
    key = lambda e: f"{e['source']}:{e['member']}"  # noqa: E731
    assert not [key(e) for e in refused if outcomes()[key(e)][0] == "accepted"]
    passing = sum(outcomes()[key(e)][0] in ("accepted", "deferred") for e in exact)
    assert exact and passing >= 0.95 * len(exact), (passing, len(exact))


@needs_minif2f
def test_summary_per_source(capsys: pytest.CaptureFixture[str]) -> None:
    """Prints per source: accepted, deferred to G6 (by rule), refused (by rule). Run with ``-s`` to see it."""
    rows: dict[str, Counter[str]] = {}
    for entry in manifest()["entries"]:
        got, reasons = outcomes()[f"{entry['source']}:{entry['member']}"]
        counter = rows.setdefault(entry["source"], Counter())
        counter[got] += 1
        for reason in dict.fromkeys(_rule(r) for r in reasons):
            counter[f"{got}: {reason}"] += 1
    with capsys.disabled():
        for source, counter in sorted(rows.items()):
            print(f"\n{source}: " + ", ".join(f"{k} {counter[k]}" for k in ("accepted", "deferred", "rejected")))
            for name, count in sorted(counter.items()):
                if ":" in name:
                    print(f"    {count:4d}  {name}")
    assert sum(sum(c[k] for k in ("accepted", "deferred", "rejected")) for c in rows.values()) == len(
        manifest()["entries"]
    )


def _rule(reason: str) -> str:
    """A refusal's rule without its line and construct: ``line 5: set_option X: rule`` -> ``rule`` (cut)."""
    rule = reason.split(": ", 2)[-1]
    return rule.split(":")[0][:90]
