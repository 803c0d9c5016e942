"""Red team 19 on the Rocq side: a mutation sweep of the published proofs through the real full profile.

Eighteen rounds of hand-written attacks cover examples; this one covers the classes. The generator
(``tests/rocq_mutations.py``) takes every published Rocq proof the full profile accepts (the conformance
corpus's PutnamBench files and the published miniF2F proof) and mutates each at points found from its
own sentences (after its imports, between helper lemmas, before the theorem, inside the proof after a
tactic, inside a ``Section`` or ``Module``, at the end of the file), with operators for every Rocq row
of DESIGN section 7, each in several spellings:

- proof holes: ``Admitted``, ``admit``, ``give_up``, ``Abort`` and the name declared again as an assumption;
- assumptions: ``Axiom(s)``, ``Parameter(s)``, ``Hypothes(i|e)s``, ``Conjecture``, ``Variable(s)``,
  ``Context`` (at top level, in a section used by the proof), ``Local``/``#[local]``/``Polymorphic``,
  ``Declare Instance``, ``Primitive``; through ``Module Type``, functors and ``Declare Module``;
- ``Program`` with ``Admit Obligations`` or an ``Obligation Tactic`` that admits;
- ``Unset Guard/Positivity/Universe Checking`` (plain, ``Local``, ``#[local]``, ``Global``, ``Export``) and
  ``#[bypass_check(...)]``, each with the term that needs it;
- Coq 8.16's guard-checker bug (rocq#20455) as a ``Fixpoint``, a ``fix`` tactic, a mutual ``Lemma ... with``;
- ``Declare ML Module``, Elpi programs declaring axioms, ``Ltac``/``Tactic Notation`` hiding ``admit``;
- ``Time``, ``Fail``, ``Succeed``, ``Timeout``, ``Redirect`` prefixes around forbidden commands;
- redefinitions before the theorem (``Notation``, ``Infix``, ``Coercion``, ``Canonical``, ``Instance``,
  ``Arguments``, ``Opaque``, ``Strategy``, ``Typeclasses``, a module redefining a word of the statement);
- libraries the toolchain does not pin, or whose axioms the allow-list leaves out;
- statement edits (hypothesis added or dropped, numeral, relation, type changed, renamed, look-alike name,
  inside a module, removed);
- the official answer edited or shadowed (with-answer track);

and valid changes that must still be accepted (comments, blank lines, a helper lemma, a closed section,
queries, ``Print Assumptions``, ``Set Warnings``, an allowed axiom used, ``Local Open Scope`` of a scope
the file already opens).

What a run asserts: every attack mutant is ``rejected`` and every valid one ``accepted``; and, with every
gate run (``keep_going``), that each attack the theorem's proof *uses* is also rejected by a gate that
reads what coqc and the kernel produced (G4 coqc, G5 the trusted file, G6 coqchk), not only by G3's
words (DESIGN section 2: the words are a first line). Declarations nothing uses (an unused ``Coercion``
or ``Reserved Notation``) leave nothing for a kernel to see: only the policy refuses those.

Found: no attack accepted, no valid change refused. Of the attacks, G2 stopped most, G3 most of the rest,
coqc and G5 the others; with every gate run, every used attack of the smallest proof also failed G4, G5 or
G6. The normal test runs a fixed sample (every attack mutant of the smallest proof, the first mutant of
each operator on every other proof, the valid changes of ``VALID_SAMPLE`` on the smallest) and the depth
check on one used attack per class. The whole cross product runs with ``-m slow``
(``pytest -m slow tests/adversarial/test_rocq_redteam19_mutations.py``). Measured once: 7262 mutants of
9 proofs by 15 operators (6969 attacks, 293 valid), about 20 minutes on two workers of a shared machine
(7239 of them in 1218 s); attacks first stopped by G2 5920, G3 873, G4 121, G5 55 (axioms of installed
libraries the allow-list leaves out, used by the proof); valid ones all accepted. The slow depth check
(every used attack of the smallest proof, every gate run) took 14 minutes on one worker for the 360 of an
earlier version of the operators.
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import COQ_BENCH, MINIF2F_ROCQ
from tests.rocq_mutation_operators import mutants
from tests.rocq_mutations import OPERATORS, Mutant, published, shape

needs_tools = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None or not MINIF2F_ROCQ.is_file(),
    reason="coqc/coqchk or the pinned miniF2F data not found",
)
WORKERS = 2
SMALLEST = "putnam_1962_a6"
"""The proof that compiles fastest (no MathComp): every one of its attack mutants is in the sample."""
TOOL_GATES = {"G4", "G5", "G6"}
VALID_SAMPLE = ("comment", "blank lines", "helper lemma", "Print Assumptions", "Check", "Local Open Scope")


@cache
def benchmark(path: Path) -> Benchmark:
    return load_benchmark(path)


def verify(m: Mutant, keep_going: bool = False) -> Verdict:
    bench = benchmark(m.proof.benchmark)
    options = VerifyOptions(profile=Profile.FULL, keep_going=keep_going)
    problem = bench.problems[m.proof.problem_id]
    return run_gates(get_prover("rocq"), bench, problem, m.text.encode("utf-8"), Track.WITH_ANSWER, options)


def wrong(items: list[Mutant]) -> list[str]:
    """Every mutant whose verdict is not the one it must get, with the gates that failed."""
    with ThreadPoolExecutor(WORKERS) as pool:
        verdicts = list(pool.map(verify, items))
    out = []
    for m, v in zip(items, verdicts, strict=True):
        if v.status != ("rejected" if m.attack else "accepted"):
            failed = "; ".join(f"{g.id} {g.status.value}: {g.detail[:200]}" for g in v.gates if not g.passed)
            out.append(f"{m.id}: {v.status} {failed}")
    return out


def sample() -> list[Mutant]:
    """Fixed: every attack on the smallest proof, the first mutant of each operator on every other proof
    (none valid, those compile MathComp), and the valid changes of ``VALID_SAMPLE`` on the smallest."""
    chosen: dict[str, Mutant] = {}
    for m in mutants():
        small = m.proof.label == SMALLEST
        if (
            m.attack and (small or not any(c.proof == m.proof and c.operator == m.operator for c in chosen.values()))
        ) or (not m.attack and small and m.spelling.startswith(VALID_SAMPLE) and "helpers" not in m.point):
            chosen.setdefault(m.id, m)
    return list(chosen.values())


def test_every_published_proof_gets_every_operator() -> None:
    """The generator finds each proof's structure and every operator mutates every proof."""
    proofs = published()
    assert {p.label for p in proofs} >= {SMALLEST, "numbertheory_4x3m7y3neq2003", "mathd_numbertheory_207"}
    assert len(proofs) == 10
    all_mutants = mutants()
    for p in proofs:
        s = shape(p)
        assert s.header_end <= s.theorem < s.statement_end <= s.proof_start < s.first_tactic_end <= s.proof_end[0]
        for name in OPERATORS:
            if name == "answer_edits" and "_solution" not in p.text:
                continue  # a statement without an answer
            assert any(m.proof == p and m.operator == name for m in all_mutants), (p.label, name)
    assert len({m.id for m in all_mutants}) == len(all_mutants)
    assert all(m.text != m.proof.text for m in all_mutants)


def test_the_sample_has_attacks_of_every_operator_and_valid_changes() -> None:
    chosen = sample()
    assert {m.operator for m in chosen if m.attack} == set(OPERATORS) - {"valid_changes"}
    assert sum(not m.attack for m in chosen) >= 10
    assert {m.proof.label for m in chosen} == {p.label for p in published()}


@needs_tools
def test_a_fixed_sample_of_mutants_gets_its_verdict_on_the_full_profile() -> None:
    """Attack mutants are rejected, valid ones accepted (real coqc and coqchk)."""
    assert not wrong(sample())


@pytest.mark.slow
@needs_tools
def test_every_mutant_of_every_published_proof_gets_its_verdict() -> None:
    """The whole sweep (see the module docstring for its size and measured time)."""
    assert not wrong(mutants())


USED_AT = ("before theorem", "inside the proof", "inside a section", "theorem", "helper")
"""Points where the theorem's proof uses what the mutant adds (or where the mutant edits the theorem)."""
DEPTH_SAMPLE = (
    "Admitted",
    "Axiom",
    "Declare Module",
    "Section Variable",
    "Admit Obligations",
    "Unset Guard Checking",
    "Fixpoint in proof mode",
    "Elpi add-axiom",
    "Time Axiom",
    "hypothesis False added",
    "float axiom used",
)


def used(m: Mutant) -> bool:
    """An attack the theorem's proof relies on: the kernel or coqc sees it, whatever its spelling.
    (``redefinitions`` only declare: a notation, coercion or option nothing uses leaves nothing to see.)"""
    return m.attack and m.operator != "redefinitions" and m.point in USED_AT


def stopped_by_text_alone(items: list[Mutant]) -> list[str]:
    """Mutants that no gate run by a tool (G4 coqc, G5 trusted file, G6 coqchk) rejects, every gate run."""

    def run(m: Mutant) -> Verdict:
        return verify(m, keep_going=True)

    with ThreadPoolExecutor(WORKERS) as pool:
        verdicts = list(pool.map(run, items))
    return [
        m.id for m, v in zip(items, verdicts, strict=True) if not {g.id for g in v.gates if not g.passed} & TOOL_GATES
    ]


def depth_sample() -> list[Mutant]:
    """One used attack per class on the smallest proof, first point found."""
    chosen: dict[str, Mutant] = {}
    for m in mutants():
        if m.proof.label == SMALLEST and used(m) and m.spelling in DEPTH_SAMPLE:
            chosen.setdefault(m.spelling, m)
    return list(chosen.values())


@needs_tools
def test_a_used_attack_is_rejected_by_the_tools_even_past_the_text_gates() -> None:
    """Soundness by meaning (DESIGN section 2): with every gate run, each used attack of the sample also
    fails a gate that reads what coqc and the kernel produced, not the text (G3's words are a first line)."""
    chosen = depth_sample()
    assert len(chosen) == len(DEPTH_SAMPLE)
    assert not stopped_by_text_alone(chosen)


@pytest.mark.slow
@needs_tools
def test_every_used_attack_on_the_smallest_proof_is_rejected_by_the_tools() -> None:
    """The same for every used attack mutant of the smallest proof (see the module docstring)."""
    assert not stopped_by_text_alone([m for m in mutants() if m.proof.label == SMALLEST and used(m)])


def test_sample_and_cross_product_use_the_pinned_benchmarks() -> None:
    assert {str(p.benchmark) for p in published()} == {str(COQ_BENCH), str(MINIF2F_ROCQ)}
