"""The published Lean proofs of the conformance corpus on the text profile, both tracks, before that
corpus is merged: read from the corpus worktree when it is present (skipped otherwise). Once the corpus is
merged, ``tests/integration/test_conformance.py`` runs the same cases and this file can go.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from putnam_solver.benchmark import load_benchmark
from putnam_solver.provers import get_prover
from putnam_solver.verify import Profile, Track, VerifyOptions, run_gates
from tests.helpers import LEAN_BENCH

CORPUS = Path("/work/wt-corpus/tests/fixtures/conformance")
# Expected verdicts the Lean text gates do not reach yet, with why (issue 10 sections named).
NOT_YET = {
    "lean/putnam-fix-jsonl__putnam_1968_a6.lean@with-answer": "manifest: helpers in namespace `Multiset` (§3)",
    "lean/putnam-fix-jsonl__putnam_2024_a3.lean@with-answer": "an `inductive ... deriving` helper (§3)",
    "lean/putnam-fix-zzy__putnam_2004_b5.lean@no-answer": "answer names a candidate constant (§4, rocq10)",
    "lean/putnam-fix-zzy__putnam_2015_b6.lean@no-answer": "answer names a candidate constant (§4, rocq10)",
}


@pytest.mark.skipif(not (CORPUS / "MANIFEST.json").is_file() or not LEAN_BENCH.is_file(), reason="no corpus")
def test_lean_corpus_gets_its_expected_verdicts_on_both_tracks() -> None:
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
    bench, prover, options = load_benchmark(LEAN_BENCH), get_prover("lean"), VerifyOptions(profile=Profile.TEXT)
    wrong, accepted = [], Counter[tuple[str, str]]()
    for entry in (e for e in manifest["entries"] if e["prover"] == "lean"):
        data = (CORPUS / entry["file"]).read_bytes()
        for track in Track:
            verdict = run_gates(prover, bench, bench.problems[entry["problem_id"]], data, track, options)
            accepted[(entry["format"], track.value)] += verdict.accepted
            key = f"{entry['file']}@{track.value}"
            if verdict.status != entry["expected"][f"text/{track.value}"]["verdict"] and key not in NOT_YET:
                wrong.append(key)
    assert wrong == []
    assert accepted[("with-answer", "with-answer")] >= 71 and accepted[("official", "with-answer")] >= 26
