"""Lemma holes and lemma statement files, as ``check`` and ``prove_lemma`` take them from a model's file
(text only: no tool runs), and the options of the react worker's parts."""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Problem
from putnam_solver.core.provers import get_prover
from putnam_solver.core.util import InputError, sha256_hex
from putnam_solver.core.verify import Track
from putnam_solver.kits import get_kit
from putnam_solver.kits.interactive import LemmaError
from putnam_solver.run.agent.types import AgentParts, Budgets
from putnam_solver.run.stored_settings import config_from_json

ROCQ, ROCQ_KIT = get_prover("rocq"), get_kit("rocq")
LEAN, LEAN_KIT = get_prover("lean"), get_kit("lean")

COQ_CHALLENGE = (
    "Require Import Reals.\nOpen Scope R.\n"
    "Definition putnam_x_solution : R := 2.\n"
    "Theorem putnam_x : putnam_x_solution = 2.\nProof.\nAdmitted.\n"
)
COQ_DRAFT = (
    "Require Import Reals.\nOpen Scope R.\n"
    "Definition putnam_x_solution : R := 2.\n"
    "Lemma two_pos : 0 < 2.\nProof.\n  admit.\nAdmitted.\n"
    "Lemma done : 1 = 1.\nProof.\n  reflexivity.\nQed.\n"
    "Theorem putnam_x : putnam_x_solution = 2.\nProof.\n  reflexivity.\nQed.\n"
)
LEAN_CHALLENGE = (
    "import Mathlib\n\nopen Real\n\n/-- The statement. -/\ntheorem putnam_y (x : ℝ) (h : 0 < x) : 0 < x ^ 2 :=\nsorry\n"
)
LEAN_DRAFT = (
    "import Mathlib\n\nopen Real\n\n"
    "@[simp] lemma sq_pos' (x : ℝ) (h : 0 < x) : 0 < x * x := by\n  sorry\n\n"
    "theorem fine : 1 = 1 := rfl\n\n"
    "/-- The statement. -/\ntheorem putnam_y (x : ℝ) (h : 0 < x) : 0 < x ^ 2 :=\n  by simpa [sq] using sq_pos' x h\n"
)


def problem(statement: str, ident: str = "lemma") -> Problem:
    return Problem(ident, statement, sha256_hex(statement.encode()), None, None, None, ())


def test_rocq_holes_and_the_lemma_file() -> None:
    interactive = ROCQ_KIT.interactive()
    assert interactive is not None
    assert [(h.name, h.line) for h in interactive.holes(COQ_CHALLENGE, COQ_DRAFT)] == [("two_pos", 4)]
    statement = interactive.lemma_statement(COQ_CHALLENGE, COQ_DRAFT, "two_pos", Track.WITH_ANSWER)
    assert statement == (
        "Require Import Reals.\nOpen Scope R.\nDefinition putnam_x_solution : R := 2.\n"
        "Lemma two_pos : 0 < 2.\nProof.\nAdmitted.\n"
    )
    assert ROCQ.challenge(problem(statement), Track.WITH_ANSWER) == statement, "a benchmark-shaped statement"
    no_answer = ROCQ.challenge(problem(COQ_CHALLENGE, "putnam_x"), Track.NO_ANSWER)
    assert "putnam_x_solution : R := _." in no_answer
    hidden = interactive.lemma_statement(no_answer, COQ_DRAFT, "two_pos", Track.NO_ANSWER)
    assert "putnam_x_solution" not in hidden, "the no-answer hole stays out of a lemma file"
    proved = statement.replace("Proof.\nAdmitted.", "Proof.\n  lra.\nQed.")
    assert interactive.lemma_text(statement, proved) == "Lemma two_pos : 0 < 2.\nProof.\n  lra.\nQed.\n"


def test_rocq_lemmas_that_cannot_be_taken_alone() -> None:
    interactive = ROCQ_KIT.interactive()
    assert interactive is not None
    with pytest.raises(LemmaError, match="the theorem itself"):
        interactive.lemma_statement(COQ_CHALLENGE, COQ_DRAFT, "putnam_x", Track.WITH_ANSWER)
    with pytest.raises(LemmaError, match="no lemma named missing"):
        interactive.lemma_statement(COQ_CHALLENGE, COQ_DRAFT, "missing", Track.WITH_ANSWER)


def test_lean_holes_and_the_lemma_file() -> None:
    interactive = LEAN_KIT.interactive()
    assert interactive is not None
    assert [(h.name, h.line) for h in interactive.holes(LEAN_CHALLENGE, LEAN_DRAFT)] == [("sq_pos'", 5)]
    statement = interactive.lemma_statement(LEAN_CHALLENGE, LEAN_DRAFT, "sq_pos'", Track.WITH_ANSWER)
    assert statement == "import Mathlib\n\nopen Real\n\ntheorem sq_pos' (x : ℝ) (h : 0 < x) : 0 < x * x :=\nsorry\n"
    assert LEAN.challenge(problem(statement), Track.WITH_ANSWER) == statement, "a benchmark-shaped statement"
    proved = statement.replace(":=\nsorry", ":= by positivity")
    assert (
        interactive.lemma_text(statement, proved)
        == "theorem sq_pos' (x : ℝ) (h : 0 < x) : 0 < x * x := by positivity\n"
    )
    with pytest.raises(LemmaError, match="the theorem itself"):
        interactive.lemma_statement(LEAN_CHALLENGE, LEAN_DRAFT, "putnam_y", Track.WITH_ANSWER)


def test_parts_are_turned_off_by_name() -> None:
    assert AgentParts.without(["warm", "plan"]) == AgentParts(warm=False, goals=True, lemmas=True, plan=False)
    assert AgentParts.without(["retrieval"]).off() == ["retrieval"]
    assert AgentParts.without(["goals"]).off() == ["goals"]
    parts = "warm, goals, lemmas, plan, sketch, compact, retrieval"
    with pytest.raises(InputError, match=f"--without lemma: choose among {parts}"):
        AgentParts.without(["lemma"])


def test_a_run_recorded_before_the_parts_existed_resumes_with_their_defaults() -> None:
    old = {"config": {"prover": "rocq", "track": "with-answer", "model": "openai/gpt-5.5", "reviewer_model": None,
                      "reasoning_effort": None, "agent": "react", "sandbox": "local", "jobs": 1,
                      "fallback_jobs": 1, "budgets": {"max_turns": 5}}}  # fmt: skip
    filled = config_from_json(old["config"])
    on = AgentParts(warm=True, goals=True, lemmas=True, plan=True, sketch=True, compact=True, retrieval=True)
    assert filled.parts == on
    assert filled.budgets == Budgets(max_turns=5, lemma_turns=Budgets().lemma_turns)
    assert filled.budgets.history_tokens == Budgets().history_tokens
    parts_before_retrieval = {"warm": False, "goals": True, "lemmas": True, "plan": True}
    filled = config_from_json({**old["config"], "parts": parts_before_retrieval})
    assert filled.parts == AgentParts(warm=False), "parts added later are on"
