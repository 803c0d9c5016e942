"""Value red team 41 (Lean, no-answer): ``PartENat.find`` is ``Nat.find`` under another name.

Mathlib/Data/Nat/PartENat.lean (``section Find``): ``def find : PartENat := ⟨∃ n, P n, Nat.find⟩``, so
``(PartENat.find P).get h`` is the least ``n`` with ``P n``, a search of the question's own property
with only a witness left to prove (as ``Nat.find``, refused since the first value rules). The text
profile accepted three of the four spellings below (the full name, under ``open PartENat``, through
``Part.get``; a leading ``.find`` was refused already as a suffix of ``Nat.find``); it now joins the choice
operators (``_choice_aliases``) and all four are refused. The honest twin (the stated answer) passes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam37_classical import LEAST, P, g2
from tests.helpers import putnambench_dir

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"
PROPERTY = P.replace("k", "n")

SEARCHES: dict[str, tuple[str, str]] = {
    "full name": ("", f"((PartENat.find (fun n : ℕ => {PROPERTY})).get (by sorry) : ℤ)"),
    "under open": ("open PartENat\n\n", f"((find (fun n : ℕ => {PROPERTY})).get (by sorry) : ℤ)"),
    "leading dot": ("", f"((((.find (fun n : ℕ => {PROPERTY}) : PartENat)).get (by sorry) : ℕ) : ℤ)"),
    "Part.get": ("", f"((Part.get (PartENat.find fun n : ℕ => {PROPERTY}) (by sorry) : ℕ) : ℤ)"),
}


@pytest.mark.parametrize(("before", "value"), SEARCHES.values(), ids=SEARCHES.keys())
def test_each_search_through_partenat_find_is_refused(bench: Benchmark, before: str, value: str) -> None:
    said = g2(bench, LEAST, before, value)
    assert "find" in said and "choice operator" in said


def test_the_stated_answer_passes(bench: Benchmark) -> None:
    assert g2(bench, LEAST, "", "3987") == ""
