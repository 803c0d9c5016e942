"""Red team 19 (Lean): a mutation sweep of the published proofs the text profile accepts.

Hand-written attacks (red teams 1-18) cover examples; unseen attacks come as new spellings at new places.
``tests/lean_mutations.py`` generates them: every attack class of DESIGN §7 that G1-G3 must stop (holes,
axioms and ``opaque``, native code, kernel options, meta code and syntax extensions, ``open``/``variable``/
``autoImplicit``, imports and ``prelude``, instances and attributes, ``#exit``, the theorem renamed or its
statement edited), each in several spellings, put at every insertion point the file's own structure gives
(after the header, before the theorem, between helpers, after a comment, at the end, inside the proof after
a tactic line, in a ``have``, a ``match`` arm, a ``calc`` step, a bullet, after an inline ``by``, and in
helper templates with ``where``, ``let rec``, ``decreasing_by`` and ``termination_by``), and valid
mutations (comments, docstrings, blank lines, harmless helpers, ``open ... in`` a helper, heartbeat and
linter options, ``#check``) at the same places, which must still be accepted.

The default run checks a fixed sample (each operator on three corpus files spread over the corpus, every
site and spelling: about 2,900 mutants, some 30 seconds of one core); the full cross product, about 102,000
mutants of the 105 files, is marked slow: ``pytest -m slow tests/adversarial/test_lean_redteam19_mutations.py``
(about an hour on one core, from 20 seconds to two minutes a file).

Found: the sweep's ``apply?`` passed the text profile. It admits its goal (``sorry``) only when it finds no
whole proof, and published proofs use it, so it stays to G4/G5; but its class, tactics that admit a goal,
holds ``plausible`` (``slim_check`` before), which admits every goal it finds no counterexample to and never
proves one: accepted by the text profile before, now a proof hole for G3. Not attacks,
so not generated: ``exact Classical.ofNonempty`` (needs an instance that proves the goal), an import of a
``Mathlib.*`` module (every one is in ``import Mathlib``'s closure; one that does not exist fails to
compile), scope-local commands inside a namespace closed before the theorem. Refused by policy though
harmless, so not generated as valid: a helper after the theorem, a helper in a new namespace (the name may
exist in the library: left to G6). The no-answer findings are in ``test_lean_redteam19_answers``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.helpers import failures, lean_filled, lean_text_verdict, text_gates_in_process
from tests.lean_mutation_spellings import ATTACKS, TEMPLATES
from tests.lean_mutations import Mutant, accepted_files, mutants, sample, sites

OPERATORS = [*ATTACKS, "statement", "valid"]


def _wrong(bench: Benchmark, batch: list[Mutant]) -> list[str]:
    """Each mutant whose verdict is wrong: an attack accepted, or a valid mutation refused. The text gates
    run in this process, without their wall-clock bound: on a loaded machine a valid mutant's gates could
    pass it and end in an ``error``, a refusal that depended on the load, not on the text (flaky)."""
    wrong = []
    with text_gates_in_process():
        for m in batch:
            verdict = lean_text_verdict(bench, m.problem_id, m.text)
            if (verdict.status == "accepted") == m.attack:
                reasons = "; ".join(f"{g}: {d[:200]}" for g, d in failures(verdict).items())
                wrong.append(f"{m.key} -> {verdict.status} {reasons}")
    return wrong


@pytest.fixture(scope="module")
def fixed_sample() -> list[Mutant]:
    return sample(3)


@pytest.mark.parametrize("operator", OPERATORS)
def test_no_sampled_attack_is_accepted_and_no_valid_mutation_refused(
    lean_putnambench: Benchmark, fixed_sample: list[Mutant], operator: str
) -> None:
    batch = [m for m in fixed_sample if m.operator == operator]
    assert batch
    assert _wrong(lean_putnambench, batch) == []


def test_the_sample_reaches_every_kind_of_site(fixed_sample: list[Mutant]) -> None:
    """The generator finds its places in the files: top-level, inside the proof (a tactic line, a ``have``,
    an arm, a ``calc``, a bullet, an inline ``by``) and every helper template; an operator whose spellings
    stopped reaching the proof would make the sweep vacuous there."""
    reached = Counter(m.site for m in fixed_sample)
    for site in ("before_theorem", "after_docstring", "after_header", "end_of_file", "theorem_prefix"):
        assert reached[site] > 0, site
    for site in ("tactic_main", "tactic_have", "tactic_bullet", "inline_by"):
        assert reached[site] > 0, site
    for template in TEMPLATES:
        assert reached[f"template_{template}"] > 0, template
    assert sum(m.attack for m in fixed_sample) > 2000
    assert sum(not m.attack for m in fixed_sample) > 200


def test_nearly_every_corpus_file_has_sites_inside_its_proof_and_statement_edits() -> None:
    entries = accepted_files()
    assert len(entries) == 105
    assert sum(bool(sites(e["file"], e["problem_id"]).tactic) for e in entries) >= 100
    for entry in entries:
        edits = [m for m in mutants(entry) if m.operator == "statement"]
        assert sum(m.site.startswith("numeral") or m.site.startswith("rename") for m in edits) >= 4, entry["file"]


@pytest.mark.slow
@pytest.mark.parametrize("entry", accepted_files(), ids=lambda e: e["file"].removeprefix("lean/"))
def test_no_mutant_of_a_published_proof_is_misjudged(lean_putnambench: Benchmark, entry: dict[str, str]) -> None:
    assert _wrong(lean_putnambench, list(mutants(entry))) == []


ADMITTING = {
    "plausible (admits the goal when no counterexample is found)": "by\n  plausible",
    "plausible with a configuration": "by\n  plausible (config := { numInst := 1 })",
    "plausible behind first": "by\n  first | plausible | skip",
    "plausible in a nested by": "by\n  exact (by plausible : True).elim",
    "slim_check, plausible's former name": "by\n  slim_check",
}


@pytest.mark.parametrize("case", sorted(ADMITTING))
def test_a_tactic_that_never_proves_its_goal_is_a_proof_hole(lean_putnambench: Benchmark, case: str) -> None:
    """Accepted by the text profile before red team 19 (G4/G5 saw the `sorry` it leaves)."""
    candidate = lean_filled(lean_putnambench, "putnam_1962_a1", proof=ADMITTING[case])
    failed = failures(lean_text_verdict(lean_putnambench, "putnam_1962_a1", candidate))
    assert "proof hole" in failed.get("G3", ""), failed


@pytest.mark.parametrize("proof", ["by\n  exact?", "by\n  apply?", "by\n  simp?", "by\n  rw? ", "by\n  aesop?"])
def test_a_search_that_may_find_a_proof_passes_the_text_gates(lean_putnambench: Benchmark, proof: str) -> None:
    """``exact?`` fails when it finds nothing; ``apply?`` closes the goal with what it finds, and admits it
    (a ``sorry`` warning and axiom, refused by G4 and G5) only when it finds no whole proof: published
    proofs use it (seed-prover's MiniF2F ``imo_1990_p3``), so the text gates cannot refuse it."""
    candidate = lean_filled(lean_putnambench, "putnam_1962_a1", proof=proof)
    assert failures(lean_text_verdict(lean_putnambench, "putnam_1962_a1", candidate)) == {}
