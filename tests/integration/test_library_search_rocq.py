"""Rocq's own library search for the agent, in a real warm coqtop: ``Search``, ``SearchPattern`` and
``SearchRewrite`` find the standard library's lemmas by type, with the statement's scopes; a query that
tries to run other vernacular never reaches coqtop; a query coqtop cannot parse is its error, as text."""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions
from putnam_solver.kits.sessions import SessionPool, library_search
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import one_record_benchmark

pytestmark = NEEDS_ROCQ

STATEMENT = (
    "Require Import Arith Reals.\nOpen Scope R_scope.\nDefinition twice (x : R) := x + x.\n"
    "Theorem t : forall n m : nat, n + m = m + n.\nProof.\nAdmitted.\n"
)
OPTIONS = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FULL, timeout_seconds=120)
ROCQ = get_prover("rocq")


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), "t", STATEMENT)


def search(bench: Benchmark, pool: SessionPool, command: str, query: str) -> str:
    return library_search(ROCQ, bench.problems["t"], Track.WITH_ANSWER, OPTIONS, pool, command, query)


def test_a_commutativity_goal_finds_nat_add_comm(bench: Benchmark, pool: SessionPool) -> None:
    found = search(bench, pool, "SearchPattern", "(_ + _ = _ + _)%nat")
    assert "Nat.add_comm: forall n m : nat, (n + m)%nat = (m + n)%nat" in found, "printed in R_scope, as opened"
    assert "Rplus_comm" not in found, "the pattern is read in nat_scope, as written"
    assert "Rplus_comm: forall r1 r2 : R, r1 + r2 = r2 + r1" in search(bench, pool, "SearchPattern", "(_ + _ = _ + _)")


def test_search_and_search_rewrite_by_type(bench: Benchmark, pool: SessionPool) -> None:
    assert "Nat.mul_add_distr_l" in search(bench, pool, "SearchRewrite", "(_ * (_ + _))%nat")
    assert "Nat.add_comm" in search(bench, pool, "Search", 'Nat.add "comm"')
    assert search(bench, pool, "Search", "twice") == "no results", "known (no lemma uses it yet), not an error"


def test_results_are_bounded(bench: Benchmark, pool: SessionPool) -> None:
    found = search(bench, pool, "Search", "(_ + _)%R")
    assert found.count("\n") < 100 and found.endswith("more results; narrow the query")


def test_injected_vernacular_never_runs(bench: Benchmark, pool: SessionPool) -> None:
    for query in ['x. Redirect "pwned" Print All', "x (* *) . Print All", "Nat.add_comm.\nPrint All"]:
        assert search(bench, pool, "Search", query).startswith("refused: ")
    assert search(bench, pool, "Redirect", '"pwned" Search x').startswith("refused: unknown search command")
    assert "Nat.add_comm" in search(bench, pool, "Search", 'Nat.add "comm"'), "the session still answers"


def test_a_query_coqtop_cannot_parse_is_its_error(bench: Benchmark, pool: SessionPool) -> None:
    assert search(bench, pool, "Search", "(_ +").startswith("Error: Syntax error")
    assert search(bench, pool, "Search", "no_such_constant_anywhere").startswith("Error: ")
    assert "Nat.add_comm" in search(bench, pool, "SearchPattern", "(_ + _ = _ + _)%nat"), "and the next one works"
