"""Red team 18 on the Rocq side: wrong answers no tactic told apart, a merged sentence, padded copies.

1. **A wrong answer the answer check could not compare (no-answer, ``full``).** On the vacuous
   ``putnam_2013_b2`` (PutnamBench's erratum: every answer has a sound proof) only the answer check's
   ``differs`` keeps a wrong answer from being ``accepted``. It proved ``4 <> 3`` by ``lra``, but ``lra`` and
   ``nra`` know nothing of ``sqrt`` or ``PI``: the answers ``sqrt 10`` and ``PI`` were ``unknown`` and the
   verdict ``accepted``, every gate passed. Where the statement loads the standard library's reals, a third
   attempt now states the answers different with true facts about their atoms in hand (``3 < PI <= 4``, ``0
   <= sqrt x``, ``sqrt x * sqrt x = x``, bounds of ``exp``, ``sin``, ``cos``: ``answers.REAL_FACTS``), after
   reading ``INR 4`` as ``4`` and splitting ``Rabs``, ``Rmax``, ``Rmin`` into cases (``Rabs (-4)`` was
   ``unknown`` too); all are ``disputed``. An answer equal to the official one that no tactic confirms
   (``sqrt 9``) stays ``unknown`` and ``accepted``: a ``differs`` is a kernel-checked proof. Still
   ``unknown``: any wrong answer these facts do not separate (``exp 1`` for ``3``: the library bounds ``exp
   1 <= 3``, not ``<``; ``ln 5``), since no finite set of facts decides real numbers.
2. **A tactic notation keyword ending in ``.`` merged two sentences (``full``).** ``Tactic Notation "zz." :=
   idtac.`` (a symbol keyword: allowed where G5 runs) makes coqc read ``zz.`` followed by a blank as that
   keyword, so ``Hint Extern 0 => zz. : typeclass_instances.`` is one sentence to coqc, an instance hint
   (replayed by ``Require`` in the harness's files), and two to G2: a hint with no database (harmless) and
   a sentence ``: typeclass_instances.`` read as a tactic. The policy refuses hints in
   ``typeclass_instances`` as instances; this one was ``accepted`` on the full profile (no harness file was
   found to resolve instances after loading the candidate, so no verdict changed beyond the policy's). Such
   a keyword is now refused: every sentence end G2 sees is coqc's. (Round 17 left it open as only removing
   commands; it also cuts a command's tail off, to be judged apart.)
3. **A copy padded past the logic step (no-answer, G4).** The two strict xfails of
   ``test_rocq_restated.py``: ``putnam_1977_a2``'s condition beside a closed true fact (``(0 < 1 :> R) /\\
   copy``) or behind four ``True`` conjuncts before the one-point equation. A closed proposition of the
   answer (one that names none of its variables) is a constant; the check now also states the theorem
   with each such proposition replaced by ``True`` (``restated.CLOSED_FACTS``), and drops ``True`` conjuncts
   and premises before the one-point rewrites. An honest answer beside a closed fact still passes.

Tried and found to hold (not repeated here): a ``Tactic Notation`` or hint in ``typeclass_instances`` does
not reach ``lia``/``lra``/``ring`` in the answer check (measured: no instance resolution there); ``Set
Printing`` options are the candidate's file's alone; G2 reads ``zz.``-merged sentences as more commands
than coqc runs, never fewer, so no command hides behind the merge (only a tail, finding 2).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.answers import ATTEMPTS, DIFFERENT_REALS, check_source
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.verify import GateStatus, Profile
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.adversarial.test_rocq_redteam15 import before_theorem, text_violations
from tests.adversarial.test_rocq_restated import RESTATES, answered, g4
from tests.helpers import COQ_BENCH, needs_coq, pinned, thinned

WRONG = {"a square root": "sqrt 10", "pi": "PI", "an absolute value": "Rabs (-4)"}
"""Wrong answers to ``putnam_2013_b2`` (official ``3``) that ``lra``/``nra`` alone do not separate from it."""


@needs_coq
@pytest.mark.parametrize("answer", thinned(WRONG, every=2))
def test_a_wrong_transcendental_answer_to_the_vacuous_statement_is_disputed(answer: str) -> None:
    v = verdict(vacuous(answer))
    assert all(g.status is GateStatus.PASSED for g in v.gates), [(g.id, g.detail) for g in v.gates]
    assert v.status == "disputed" and check_status(v) == "differs", (v.status, v.answers)


@needs_coq
def test_an_equal_answer_no_tactic_confirms_stays_accepted() -> None:
    """``sqrt 9`` is ``3``: no fact can prove it different. The first attempt does not prove it equal; since
    round 52 the last one does (``answers.EQUAL_COMPUTED``: ``sqrt 9 < 3`` and ``3 < sqrt 9`` refuted with
    ``sqrt 9 * sqrt 9 = 9`` in hand), so the check is ``confirmed`` (before: ``unknown``)."""
    v = verdict(vacuous("sqrt 9"))
    assert v.status == "accepted" and check_status(v) == "confirmed", (v.status, v.answers)


def test_the_reals_attempt_loads_the_reals_and_names_every_fact_in_full() -> None:
    statement = statement_of(pinned(COQ_BENCH).problems["putnam_2013_b2"])
    source = check_source(statement, "ne_reals", DIFFERENT_REALS)
    assert "Require Coq.Reals.Reals." in source and "Coq.Reals.Rtrigo1.PI_4" in source
    assert "Require Coq.Reals.Reals." not in check_source(statement, "ne", ATTEMPTS[1][1])
    claims = [claim for claim, *_ in ATTEMPTS]
    assert claims == ["eq", "ne", "ne_reals", "ne_computed", "ne_at", "ne_member", "eq_computed"]


TACTIC_DOT = 'Tactic Notation "zz." := idtac.\n'
INSTANCE_HINT = "Hint Extern 0 => zz. : typeclass_instances."


@needs_coq
def test_coqc_reads_a_keyword_ending_in_a_period_and_the_next_sentence_as_one(tmp_path: Path) -> None:
    """The hint declares an instance for coqc: ``Print HintDb typeclass_instances`` lists the extern hint."""
    source = (
        f"{TACTIC_DOT}Lemma zz_l : True.\nProof.\n{INSTANCE_HINT}\nexact I.\nQed.\nPrint HintDb typeclass_instances.\n"
    )
    (tmp_path / "M.v").write_text(source)
    run = subprocess.run(["coqc", "M.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "(*external*) zz." in run.stdout, run.stdout[-2000:]


@needs_coq
def test_an_instance_hint_behind_a_keyword_ending_in_a_period_is_refused() -> None:
    """The exact candidate: the published proof of ``putnam_2013_b2`` (official answer) with the notation
    before it and the hint in its proof; it was ``accepted`` on the full profile."""
    candidate = vacuous("3", INSTANCE_HINT).replace(
        "Definition putnam_2013_b2_solution", TACTIC_DOT + "Definition putnam_2013_b2_solution"
    )
    v = verdict(candidate)
    failing = {g.id: g.detail for g in v.gates if g.status is not GateStatus.PASSED}
    assert v.status == "rejected" and set(failing) == {"G2"}, failing
    assert "ends in `.`" in failing["G2"]


VALID_NOTATIONS = {
    "a word keyword": 'Tactic Notation "zz_k" := idtac.',
    "a symbol keyword": 'Tactic Notation "zz_k" "->" := idtac.',
    "a period inside a keyword": 'Tactic Notation "zz.k" := idtac.',
}
"""Notations whose keywords never end a sentence: judged as before (the symbol ones where G5 runs)."""


@pytest.mark.parametrize("notation", VALID_NOTATIONS.values(), ids=VALID_NOTATIONS.keys())
def test_tactic_notations_whose_keywords_do_not_end_in_a_period_pass(notation: str) -> None:
    assert text_violations(before_theorem(notation)) == []


@pytest.mark.parametrize("keyword", ["zz.", "..", "zz..."])
def test_a_keyword_ending_in_a_period_is_refused_on_every_profile(keyword: str) -> None:
    for profile in (Profile.FAST, Profile.FULL):
        rules = text_violations(before_theorem(f'Tactic Notation "zz" "{keyword}" := idtac.'), profile)
        assert any("ends in `.`" in rule for rule in rules), rules


PADDED = {
    "a closed fact as a premise": (
        "fun a b c d => (0 < 1 :> R) -> (a + b + c = d /\\ 1 / a + 1/b + 1/c = 1/d)",
        "Proof. intros a b c d ha hb hc hd; unfold putnam_1977_a2_solution; split; "
        "[ intros H _; exact H | intros H; apply H; exact Num.Theory.ltr01 ]. Qed.",
    ),
    "closed equations before the one-point equation": (
        "fun a b c d => exists e : R, 0 = 0 :> R /\\ 1 = 1 :> R /\\ True /\\ 2 = 2 :> R /\\ e = d "
        "/\\ (a + b + c = e /\\ 1 / a + 1/b + 1/c = 1/e)",
        "Proof. intros a b c d ha hb hc hd; unfold putnam_1977_a2_solution; split; "
        "[ intros H; exists d; tauto | intros [e He]; decompose [and] He; subst; tauto ]. Qed.",
    ),
}
"""``putnam_1977_a2``'s condition behind a closed fact, and its one-point equation behind closed equations
(each a real proof, so the candidate compiles and only the restatement check refuses it)."""


@needs_coq
@pytest.mark.parametrize(("answer", "proof"), thinned(PADDED))
def test_a_copy_behind_closed_facts_is_refused_by_g4(answer: str, proof: str) -> None:
    result = g4("putnam_1977_a2", answered("putnam_1977_a2", answer, proof))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


@needs_coq
def test_an_honest_answer_beside_a_closed_fact_passes() -> None:
    """The official answer with a closed fact beside it: once the fact reads ``True`` it is still no copy."""
    honest = "fun a b c d => (0 < 1 :> R) /\\ ((c = -a /\\ d = b) \\/ (c = -b /\\ d = a))"
    result = g4("putnam_1977_a2", answered("putnam_1977_a2", honest))
    assert result.status is GateStatus.PASSED, result.detail
