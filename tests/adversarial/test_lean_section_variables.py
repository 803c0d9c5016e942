"""Lean section variables and universes in published proofs (ProofNet-Verified's proofnet-53 and -131).

``variable``, ``include`` and ``omit ... in`` inside a ``section``/``namespace`` the candidate closes
before the theorem cannot reach it: Lean drops a block's variables at its ``end``. Such helpers are
accepted; a variable at top level, or in a block still open at the theorem (Lean would add it to the
theorem's statement), is refused. ``universe u`` can change the theorem only through elaboration (the
order of its universe parameters): refused on text with that reason, left to G6 where it runs.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._policy import POLICY
from putnam_solver.core.provers.lean._preservation import check_statement
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_PROVER, failures, lean_text_verdict, lean_with_helper

PROBLEM = "aimeII_2001_p3"
PROOF = "by\n  norm_num [h₀]"
CLOSED = {
    "section": "section\nvariable (zz_n : ℕ)\ntheorem zz_helper : zz_n = zz_n := rfl\nend\n\n",
    "named section": "section Zz\nvariable {zz_n : ℕ} [Fact (0 < zz_n)]\ninclude zz_n\n"
    "theorem zz_helper : True := trivial\nend Zz\n\n",
    "namespace with omit": "namespace AimeII2001P3\nvariable (zz_n : ℕ) [zz_h : Fact (0 < zz_n)]\n"
    "omit zz_h in\ntheorem zz_helper : zz_n = zz_n := rfl\nend AimeII2001P3\n\n",
}
OPEN = {
    "top level": ("variable (zz_bad : False)\n\n", "not a permitted addition"),
    "top-level omit": ("omit zz_bad in\n", "not a permitted addition"),
    "section open at the theorem": (
        "section\nvariable [zz_bad : Fact False]\n\n",
        "declares section variables, local attributes or local instances and is still open at the theorem; close it",
    ),
    "include in an open section": (
        "section\nvariable (zz_bad : False)\ninclude zz_bad\n\n",
        "declares section variables, local attributes or local instances and is still open at the theorem; close it",
    ),
}


def _with(bench: Benchmark, before: str, after: str = "") -> str:
    return lean_with_helper(bench, PROBLEM, before, PROOF) + after


@pytest.mark.parametrize("case", sorted(CLOSED))
def test_variables_of_a_block_closed_before_the_theorem_are_accepted(minif2f: Benchmark, case: str) -> None:
    verdict = lean_text_verdict(minif2f, PROBLEM, _with(minif2f, CLOSED[case]))
    assert verdict.status == "accepted", failures(verdict)


@pytest.mark.parametrize("case", sorted(OPEN))
def test_variables_that_reach_the_theorem_are_refused(minif2f: Benchmark, case: str) -> None:
    before, rule = OPEN[case]
    after = "\nend\n" if before.startswith("section") else ""
    verdict = lean_text_verdict(minif2f, PROBLEM, _with(minif2f, before, after))
    assert verdict.status == "rejected" and not verdict.needs_full_profile, failures(verdict)
    assert rule in failures(verdict)["G2"], failures(verdict)


def test_a_universe_declaration_is_left_to_g6(minif2f: Benchmark) -> None:
    candidate = _with(minif2f, "universe u v\n\n")
    verdict = lean_text_verdict(minif2f, PROBLEM, candidate)
    assert verdict.status == "rejected" and verdict.needs_full_profile, failures(verdict)
    assert "a `universe` declaration" in failures(verdict)["G2"]
    expected = parse_statement(LEAN_PROVER.challenge(minif2f.problems[PROBLEM], Track.WITH_ANSWER))
    assert check_statement(expected, candidate, Track.WITH_ANSWER, POLICY, semantic=True) == []
