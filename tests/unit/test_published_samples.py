"""The quick start's published proofs (samples/published) are corpus entries the gates must accept."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.helpers import REPO

CORPUS = REPO / "tests" / "fixtures" / "conformance"
PUBLISHED = REPO / "samples" / "published"
PROFILE = {"putnambench-rocq": "full/with-answer", "putnambench-lean": "text/with-answer"}
SAMPLES = sorted(p for folder in PROFILE for p in (PUBLISHED / folder).iterdir())


def test_the_quick_start_has_proofs_of_both_provers() -> None:
    assert [p.suffix for p in SAMPLES].count(".v") == 4 and [p.suffix for p in SAMPLES].count(".lean") == 8


@pytest.mark.parametrize("sample", SAMPLES, ids=[f"{p.parent.name}/{p.name}" for p in SAMPLES])
def test_each_sample_is_a_corpus_proof_of_its_problem_expected_accepted(sample: Path) -> None:
    entries = {e["file"]: e for e in json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))["entries"]}
    assert not sample.is_symlink(), "a copy: `putnam verify` follows no link"
    digest = hashlib.sha256(sample.read_bytes()).hexdigest()
    [entry] = [e for e in entries.values() if e["sha256"] == digest and e["problem_id"] == sample.stem]
    assert entry["problem_id"] == sample.stem
    assert entry["expected"][PROFILE[sample.parent.name]]["verdict"] == "accepted"
