"""Every record of every registered benchmark parses, and its challenge, filled, passes G1-G3 on every track.

For each registered file present in the shared data (PutnamBench Lean and Coq, miniF2F Lean and Rocq in
both variants, ProofNet): the file is the pinned one; every statement parses with its prover's parser; the
challenge of every track the benchmark has, its holes filled with something proof-like, is accepted by the
real text gates (G1 provenance, G2 preservation, G3 forbidden constructs); and the same challenge with its
hole left open is refused. A statement the harness cannot parse, or one whose own text the gates refuse,
would make its problem unsolvable for every model, so this is the first thing to hold for a new benchmark.
The default run judges a fixed sample of each file's records (``judged``); ``-m slow`` judges them all.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from putnam_solver.benchmark_catalog import catalog, tracks
from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.benchmarks import benchmark_names, get_spec
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.lean.syntax import parse_statement as lean_statement
from putnam_solver.core.provers.rocq.challenge import official_answer, statement_of
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.helpers import DATA_ROOT, lean_filled, sampled

FILES = [
    (spec.name, file.file)
    for spec in map(get_spec, benchmark_names())
    for file in spec.files
    if file.prover in ("lean", "rocq")
]
TEXT = VerifyOptions(profile=Profile.TEXT)
STRIDE = 20
"""The default run judges every ``STRIDE``-th problem of a file (by id) and the first of each split; every
problem is judged under ``-m slow`` (minutes: the gates run on each record, on every track)."""
JUDGED = sampled(
    {f"{n}-{f}-{part}": (n, f, part) for n, f in FILES for part in ("sample", "all")},
    {f"{n}-{f}-sample" for n, f in FILES},
)


def judged(bench: Benchmark, part: str) -> list[Problem]:
    """The problems of ``bench`` a test judges: all of them, or the fixed sample (``STRIDE``)."""
    problems = [bench.problems[k] for k in sorted(bench.problems)]
    if part == "all":
        return problems
    first_of_split = {p.split: p.id for p in reversed(problems)}
    return [p for i, p in enumerate(problems) if i % STRIDE == 0 or first_of_split.get(p.split) == p.id]


def _benchmark(name: str, file: str) -> Benchmark:
    path = DATA_ROOT / catalog(name).directory / file
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return load_benchmark(path)


def rocq_filled(problem: Problem, track: Track) -> str:
    """The Rocq challenge with its proof (after ``Proof.``) filled and ``Qed.`` ending it, and on the
    no-answer track the solution hole given the official answer."""
    challenge = get_prover("rocq").challenge(problem, track)
    statement = statement_of(problem)
    parsed = statement_of(dataclasses.replace(problem, formal_statement=challenge))
    proof = parsed.sentences[parsed.theorem + 1]
    end = parsed.sentences[parsed.proof_end].end
    filled = challenge[: proof.end] + "\n  intros; exact I.\nQed." + challenge[end:]
    answer = official_answer(statement)
    return filled.replace(":= _.", f":= {answer}.") if answer is not None and track is Track.NO_ANSWER else filled


@pytest.mark.parametrize(("name", "file", "part"), JUDGED)
def test_every_record_parses_and_its_filled_challenge_passes_the_text_gates(name: str, file: str, part: str) -> None:
    bench = _benchmark(name, file)
    registered = bench.file
    assert registered is not None and bench.pinned, "the shared file is the registered, pinned one"
    listed = catalog(name)
    assert len(bench.problems) == listed.listing(registered).records
    if listed.splits:
        assert set(Counter(p.split for p in bench.problems.values())) == set(listed.splits)
    prover = get_prover(registered.prover)
    refused = []
    for track in map(Track, tracks(registered)):
        for problem in judged(bench, part):
            if registered.prover == "lean":
                candidate = lean_filled(bench, problem.id, track)
            else:
                candidate = rocq_filled(problem, track)
            verdict = run_gates(prover, bench, problem, candidate.encode(), track, TEXT)
            if not verdict.accepted:
                refused.append((track.value, problem.id, [g.detail[:200] for g in verdict.gates if not g.passed]))
    assert refused == []


@pytest.mark.parametrize(("name", "file"), [f for f in FILES if f[0] != "putnambench"])
def test_theorems_are_named_after_their_problems_and_holes_are_written_as_the_record_says(name: str, file: str) -> None:
    """miniF2F and ProofNet name each theorem after its problem (the gates do not assume it, see
    test_lean_gates_use_the_parsed_theorem_name), and every Lean proof hole is `sorry` or `by sorry`."""
    bench = _benchmark(name, file)
    assert bench.file is not None
    for problem in bench.problems.values():
        if bench.file.prover == "lean":
            statement = lean_statement(problem.formal_statement)
            assert statement.theorem_name == problem.id
            assert [t.text for t in statement.proof] in (["sorry"], ["by", "sorry"]), problem.id
        else:
            parsed = statement_of(problem)
            assert parsed.theorem_name == problem.id
            assert parsed.open_proof == (not re.search(r"Admitted\.\s*\Z", problem.formal_statement))


@pytest.mark.parametrize(("name", "file", "part"), JUDGED)
def test_no_challenge_passes_the_text_gates_with_its_hole_left_open(name: str, file: str, part: str) -> None:
    bench = _benchmark(name, file)
    assert bench.file is not None
    prover = get_prover(bench.file.prover)
    accepted = [
        p.id
        for p in judged(bench, part)
        if run_gates(
            prover, bench, p, prover.challenge(p, Track.WITH_ANSWER).encode(), Track.WITH_ANSWER, TEXT
        ).accepted
    ]
    assert accepted == []
