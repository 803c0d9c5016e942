"""Round rfr36, false rejections: honest proofs in the styles published Rocq provers write, on pinned
PutnamBench and miniF2F-Rocq statements, measured with coqc/coqchk 8.16.1.

No new published, machine-checked Coq proof of a pinned statement was found (the sources looked at are in
``tests/fixtures/conformance/README.md``), so 58 candidates were written instead, each file in
``tests/fixtures/rocq_falserej36/`` built from the challenge (``<problem>__<style>.v``): ssreflect tactics,
``lia``/``nia``/``lra``/``nra``/``field``/``ring``, ``vm_compute``, helper lemmas (``Qed`` and ``Defined``),
``Section``/``Variable``/``Hypothesis``/``Context`` helpers, ``Program Definition`` with ``Next Obligation``,
``#[program]``, ``Proof with``, ``Set Nested Proofs Allowed``, hint databases, ``Tactic Notation``, ``Require``
orders and qualified paths, ``Local Open Scope`` in a proof, the classical, proof-irrelevance and
functional-extensionality axioms, strong induction, bullets, braces and goal selectors, strings and nested
comments holding ``Qed.``, ssreflect intro patterns, queries after the proof. All but ``RECURSION`` pass
``full``; a library loaded, or a scope opened, before the theorem is class 2 and refused on ``text`` with the
reason, by design.

One false rejection, fixed by class: ``Implicit Types`` before the theorem was refused on every profile ("not
a permitted addition") though the same command in a helper's proof was left to G5. It fills the compiled
file's ``reserve_table`` (``interp/reserve.ml``, read when an untyped binder is interned), which no file that
``Require``s or ``Import``s the candidate sees (measured), so it can change only the statement's own untyped
binders: class 2 before the theorem, harmless after it. Its twin, ``Implicit Types n : nat`` retyping
``forall n, 0 <= n`` under an ``INR`` coercion, stays refused by G5.

``Function`` (Recdef) stays refused by rule, also under ``--allow-recursion``: it always declares the graph
inductive ``R_f``, and a candidate may declare no inductive type (rocq#22378); the same helper as a
``Fixpoint`` passes there.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.verifier.options import GateFlags
from tests.helpers import COQ_BENCH, MINIF2F_ROCQ, REPO, failures, needs_coq, one_record_benchmark, pinned, sampled

CANDIDATES = REPO / "tests" / "fixtures" / "rocq_falserej36"
TEXT_VERDICTS = {
    "putnam_2001_a1__pose_proof_rewrite_in.v": "accepted",
    "putnam_1988_b1__znumtheory_helper_lemma_with_nia.v": "rejected",
    "putnam_2000_a2__local_open_scope_psatz_nia.v": "rejected",
    "putnam_1988_b2__answer_true_nra.v": "rejected",
    "mathd_numbertheory_342__ssreflect_by.v": "rejected",
    "mathd_numbertheory_66__vm_compute.v": "accepted",
    "mathd_numbertheory_175__z_now_compute.v": "accepted",
    "mathd_algebra_455__require_import_lia_in_proof.v": "rejected",
    "mathd_numbertheory_458__lia_mod.v": "rejected",
    "mathd_numbertheory_185__section_variable_helper.v": "rejected",
    "mathd_algebra_462__field.v": "accepted",
    "mathd_algebra_176__ring.v": "accepted",
    "algebra_sqineq_at2malt1__psatz_nra.v": "rejected",
    "mathd_algebra_10__rabs_right_lra.v": "rejected",
    "mathd_algebra_190__q_compute.v": "accepted",
    "amc12a_2002_p6__program_witness.v": "rejected",
    "amc12a_2002_p6__ssreflect_tactics.v": "rejected",
    "mathd_numbertheory_458__proof_with_set_warnings_qualified_require.v": "rejected",
    "putnam_2000_a2__global_hint_before_theorem.v": "rejected",
    "amc12a_2002_p6__program_definition_with_next_obligation.v": "rejected",
    "putnam_2001_a1__defined_helper_local_ltac_set_implicit_arguments.v": "rejected",
    "putnam_1992_a1__funext_z_peano_ind_helper_lemma.v": "rejected",
    "putnam_2001_a1__nested_proofs_lemma_inside_proof.v": "accepted",
    "putnam_2001_a1__default_goal_selector_and_selectors.v": "accepted",
    "putnam_2001_a1__create_hintdb_local_hint_auto_with.v": "accepted",
    "putnam_2001_a1__hint_extern_before_theorem.v": "accepted",
    "putnam_2001_a1__implicit_types_before_theorem.v": "rejected",
    "putnam_2001_a1__section_context.v": "accepted",
    "putnam_2001_a1__tactic_zoo.v": "accepted",
    "putnam_2001_a1__print_and_check_and_search_after.v": "accepted",
    "mathd_algebra_176__same_library_other_path.v": "rejected",
    "mathd_algebra_176__arguments_of_own_definition.v": "accepted",
    "mathd_algebra_176__lemma_after_theorem_qed_and_defined.v": "accepted",
    "mathd_algebra_176__open_scope_again_and_local_close.v": "rejected",
    "putnam_2001_a1__unset_printing_and_set_printing.v": "accepted",
    "putnam_2001_a1__ltac_with_match_goal_before_theorem.v": "accepted",
    "putnam_2001_a1__classical_nnpp.v": "rejected",
    "putnam_2001_a1__proof_irrelevance_and_dependent_destruction.v": "rejected",
    "mathd_numbertheory_458__strong_induction_wf_nat.v": "rejected",
    "mathd_algebra_176__set_printing_width_bullet_behavior_show_all.v": "accepted",
    "mathd_algebra_176__transparent_library_constant_in_proof.v": "accepted",
    "mathd_algebra_462__coquelicot_loaded_by_candidate.v": "rejected",
    "mathd_algebra_462__restart_in_proof.v": "accepted",
    "mathd_algebra_462__tactic_notation_before_theorem.v": "accepted",
    "mathd_algebra_462__hint_unfold_own_definition.v": "accepted",
    "mathd_algebra_462__goal_before_theorem.v": "accepted",
    "mathd_algebra_462__example_with_compute_after.v": "accepted",
    "amc12a_2002_p6__unicode_hypothesis_names.v": "accepted",
    "amc12a_2002_p6__strings_with_periods_and_nested_comments.v": "accepted",
    "amc12a_2002_p6__deep_bullets_and_braces_and_selectors.v": "accepted",
    "amc12a_2002_p6__ssreflect_intro_patterns.v": "rejected",
    "amc12a_2002_p6__program_attribute.v": "rejected",
    "amc12a_2002_p6__tactic_notation_at_level_with_tactic_arg.v": "accepted",
    "amc12a_2002_p6__definition_with_eval_compute.v": "accepted",
    "amc12a_2002_p6__let_inside_proof_and_remark_property.v": "accepted",
    "amc12a_2002_p6__hint_rewrite_global_before.v": "accepted",
}
"""Every candidate file and its verdict on ``text`` (``rejected``: class 2, left to G5); all are accepted on
``full``."""
IN_CI = {
    "putnam_2001_a1__tactic_zoo.v",
    "putnam_2001_a1__implicit_types_before_theorem.v",
}


def _verdict(name: str, profile: Profile, options: VerifyOptions | None = None) -> Verdict:
    problem = name.split("__")[0]
    bench = pinned(COQ_BENCH if problem.startswith("putnam_") else MINIF2F_ROCQ)
    text = (CANDIDATES / name).read_bytes()
    options = options or VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[problem], text, Track.WITH_ANSWER, options)


def test_every_candidate_file_is_listed() -> None:
    on_disk = {p.name for p in CANDIDATES.glob("*.v")}
    assert on_disk - {*RECURSION} == set(TEXT_VERDICTS)


@needs_coq
@pytest.mark.parametrize("name", sampled(dict(zip(TEXT_VERDICTS, TEXT_VERDICTS, strict=True)), IN_CI))
def test_published_styles_are_accepted_on_full(name: str) -> None:
    verdict = _verdict(name, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)
    text = _verdict(name, Profile.TEXT)
    assert text.status == TEXT_VERDICTS[name], failures(text)
    assert text.status == "accepted" or "G5's trusted type check" in failures(text)["G2"], failures(text)


RESERVED = (
    "Require Import Reals.\nOpen Scope R_scope.\nLocal Coercion INR : nat >-> R.\n"
    "Theorem zz_t : forall n, 0 <= n \\/ n < 0.\nProof. Admitted.\n"
)
"""A statement whose binder ``n`` is typed by inference (``R``): ``Implicit Types n : nat`` makes it
``forall n : nat, 0 <= INR n \\/ INR n < 0``, another (and easier) theorem, through the coercion."""
HONEST = "Proof.\n  intro n.\n  destruct (Rle_or_lt 0 n); [left | right]; assumption.\nQed.\n"
RETYPED = "Proof.\n  intro n.\n  left.\n  apply pos_INR.\nQed.\n"


def _reserved(before: str, proof: str, after: str = "") -> str:
    head, rest = RESERVED.split("Theorem", 1)
    return head + before + "Theorem" + rest.replace("Proof. Admitted.\n", proof) + after


def _reserved_verdict(candidate: str, profile: Profile) -> Verdict:
    bench = one_record_benchmark(Path(tempfile.mkdtemp()), "zz_t", RESERVED)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems["zz_t"], candidate.encode(), Track.WITH_ANSWER, options)


def test_implicit_types_before_the_theorem_is_left_to_the_statement_check() -> None:
    for types in ("R", "nat"):
        verdict = _reserved_verdict(_reserved(f"Implicit Types n : {types}.\n", HONEST), Profile.TEXT)
        assert "G5's trusted type check" in failures(verdict).get("G2", ""), failures(verdict)
    after = "Implicit Types m : nat.\nLemma zz_after m : 0 <= m.\nProof. apply pos_INR. Qed.\n"
    verdict = _reserved_verdict(_reserved("", HONEST, after), Profile.TEXT)
    assert verdict.status == "accepted", failures(verdict)


@needs_coq
def test_implicit_types_that_retype_the_statement_are_refused_and_the_same_type_passes() -> None:
    retyped = _reserved_verdict(_reserved("Implicit Types n : nat.\n", RETYPED), Profile.FULL)
    assert retyped.status == "rejected" and "does not prove the challenge statement" in failures(retyped)["G5"]
    honest = _reserved_verdict(_reserved("Implicit Types n : R.\n", HONEST), Profile.FULL)
    assert honest.status == "accepted", failures(honest)


RECURSION = {
    "mathd_numbertheory_466__function_measure_defined.v": "rejected",
    "mathd_numbertheory_466__fixpoint_helper.v": "accepted",
}
"""A helper by ``Function`` (with a measure, its termination proof ``Defined``) and the same by ``Fixpoint``,
under ``--allow-recursion``: the verdict on ``full``."""


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RECURSION))
def test_function_declares_an_inductive_and_stays_refused_under_allow_recursion(name: str) -> None:
    options = GateFlags(profile=Profile.FULL, allow_recursion=True, keep_going=True).options()
    verdict = _verdict(name, Profile.FULL, options)
    assert verdict.status == RECURSION[name], failures(verdict)
    if RECURSION[name] == "rejected":
        assert "R_zz_tri" in failures(verdict)["G5"], failures(verdict)
