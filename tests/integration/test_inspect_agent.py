"""The Inspect task runs `putnam solve`'s agent: lemma sub-attempts judged on the fast profile and bounded by
``-T lemma_turns``, the sketch stage and the reviewer (none by default, advising with ``-T reviewer=advise``,
vetoing with ``-T reviewer=veto``), through `inspect eval`'s own CLI (tests/integration/inspect_cli.py), the loopback
model server and real coqc/coqchk.

The reviewer is the worker's model (no ``--model-role reviewer``), so the scripted server answers both;
its requests are the ones without tools.
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

import pytest

from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.fakes.scripted_agent import DRAFT, FINAL, FIXTURE, GOOD, HOLE, L2, L2_PROOF, NEEDS_ROCQ
from tests.integration.inspect_cli import inspect_eval, run_inspect

if TYPE_CHECKING:
    from pathlib import Path

    from inspect_ai.log import EvalLog

pytest.importorskip("inspect_ai")
pytestmark = NEEDS_ROCQ

VETO = "VETO: the proof leans on reflexivity alone"


@pytest.fixture(autouse=True)
def _env(solve_env: None) -> None:
    """The loopback model's key and a private cache holding a passed Rocq selftest (``solve_env``)."""


def tools_offered(request: dict[str, Any]) -> set[str]:
    return {tool["function"]["name"] for tool in request.get("tools") or []}


def sent(fake: FakeOpenAI, index: int) -> str:
    return json.dumps(fake.received[index]["messages"])


def scores_of(log: EvalLog, scorer: str) -> list[Any]:
    return [sample.scores[scorer] for sample in log.samples or [] if sample.scores]


def metrics(log: EvalLog) -> dict[tuple[str, str | None], dict[str, float]]:
    assert log.results is not None
    return {(s.name, s.reducer): {k: m.value for k, m in s.metrics.items()} for s in log.results.scores}


def test_a_lemma_sub_attempt_is_judged_on_the_fast_profile_and_the_theorem_on_the_full(tmp_path: Path) -> None:
    fake = FakeOpenAI(
        [
            tool_call_reply("check", {"proof": DRAFT}, "call_1"),  # the worker: a draft with two holes
            tool_call_reply("prove_lemma", {"name": "l2"}, "call_2"),  # the worker
            tool_call_reply("submit", {"proof": f"{L2}\n{L2_PROOF}"}, "call_3"),  # the sub-attempt
            tool_call_reply("submit", {"proof": FINAL}, "call_4"),  # the worker, l1 proved by itself
        ]
    )
    with serve(fake) as url:
        args = ["problems=two_plus_two", "max_turns=4", "reviewer=off"]
        log = inspect_eval(tmp_path, url, f"benchmark={FIXTURE}", *args)
    assert fake.requests == 4, "three calls of the worker, one of its sub-attempt, no reviewer"
    assert {"check", "goals", "sketch", "prove_lemma", "submit"} <= tools_offered(fake.received[0])
    assert "prove_lemma" not in tools_offered(fake.received[2]), "a sub-attempt proves its lemma only"
    assert "Lemma `l2` of problem `two_plus_two`" in sent(fake, 2) and "Theorem two_plus_two" not in sent(fake, 2)
    assert "PROVED l2 (accepted by the fast gates on its own file)" in sent(fake, 3)
    (score,) = scores_of(log, "putnam_gates")
    assert score.value == "C" and score.answer == "accepted"
    assert score.metadata["profile"] == "full"
    assert score.metadata["subattempts"] == [{"lemma": "l2", "status": "passed", "profile": "fast", "turns": 1}]


@pytest.mark.parametrize(("lemma_turns", "status", "profile"), [(1, "no_submission", None), (2, "passed", "fast")])
def test_lemma_turns_bound_a_prove_lemma_sub_attempt(
    tmp_path: Path, lemma_turns: int, status: str, profile: str | None
) -> None:
    """The same model under ``-T lemma_turns=1`` and ``=2``: its sub-attempt on ``l2`` checks the lemma with
    its hole, then submits a proof; one turn ends the sub-attempt before the submission, two let it prove
    the lemma. The worker then submits the whole proof either way."""
    worker = [
        tool_call_reply("check", {"proof": DRAFT}, "call_1"),
        tool_call_reply("prove_lemma", {"name": "l2"}, "call_2"),
        tool_call_reply("submit", {"proof": FINAL}, "call_5"),
    ]
    lemma = [
        tool_call_reply("check", {"proof": f"{L2}\n{HOLE}"}, "call_3"),
        tool_call_reply("submit", {"proof": f"{L2}\n{L2_PROOF}"}, "call_4"),
    ]

    def route(request: dict[str, Any]) -> Step:
        return (worker if "prove_lemma" in tools_offered(request) else lemma).pop(0)

    fake = FakeOpenAI([], route=route)
    with serve(fake) as url:
        args = ["problems=two_plus_two", "max_turns=4", f"lemma_turns={lemma_turns}"]
        log = inspect_eval(tmp_path, url, f"benchmark={FIXTURE}", *args)
    asked = [request for request in fake.received if "prove_lemma" not in tools_offered(request)]
    assert len(asked) == lemma_turns and fake.requests == 3 + lemma_turns and not worker
    assert f"You have at most {lemma_turns} turns" in json.dumps(asked[0]["messages"])
    told = sent(fake, fake.requests - 1)  # the worker's last call: the sub-attempt's answer
    assert ("NOT PROVED: l2, after 1 turns: it submitted nothing" in told) == (lemma_turns == 1)
    assert ("PROVED l2 (accepted by the fast gates" in told) == (lemma_turns == 2)
    (score,) = scores_of(log, "putnam_gates")
    assert score.value == "C", "the worker proved l2 itself in its final file"
    kept = {"lemma": "l2", "status": status, "profile": profile, "turns": lemma_turns}
    assert score.metadata["subattempts"] == [kept]


@pytest.mark.parametrize(
    ("given", "named"), [("lemma_turns=0", "-T lemma_turns=0"), ("lemma_token_limit=-5", "-T lemma_token_limit=-5")]
)
def test_a_lemma_budget_that_is_not_positive_is_refused_before_any_model_call(
    tmp_path: Path, given: str, named: str
) -> None:
    fake = FakeOpenAI([tool_call_reply("submit", {"proof": GOOD}, "call_1")])
    with serve(fake) as url:
        done = run_inspect(tmp_path, url, f"benchmark={FIXTURE}", "problems=one_plus_one", given)
    assert done.returncode != 0
    assert f"{named}: give a positive whole number" in done.stdout + done.stderr
    assert fake.requests == 0


def test_an_advising_reviewer_s_veto_is_recorded_and_the_proof_counts(tmp_path: Path) -> None:
    """``-T reviewer=advise``: the reviewer vetoes, the gates decide."""
    fake = FakeOpenAI([tool_call_reply("submit", {"proof": GOOD}, "call_1"), {"role": "assistant", "content": VETO}])
    with serve(fake) as url:
        args = ["problems=one_plus_one", "max_turns=2", "reviewer=advise"]
        log = inspect_eval(tmp_path, url, f"benchmark={FIXTURE}", *args)
    assert fake.requests == 2, "the worker stopped at ACCEPTED, after one review"
    assert not tools_offered(fake.received[1]) and "CANDIDATE" in sent(fake, 1), "the second call is the review"
    (score,) = scores_of(log, "putnam_gates")
    assert score.value == "C" and score.answer == "accepted"
    assert score.metadata["reviewer"] == {
        "mode": "advise",
        "opinion": "veto",
        "feedback": "the proof leans on reflexivity alone",
        "counted": False,
    }
    assert set(metrics(log)) == {("putnam_gates", None)}, "no veto figure where the reviewer only advises"
    assert metrics(log)[("putnam_gates", None)]["accuracy"] == 1.0


def test_a_vetoing_reviewer_un_counts_a_proof_and_the_veto_metric_shows_it(tmp_path: Path) -> None:
    """Two epochs submit the same sound proof; the reviewer approves one and vetoes the other (whichever
    asks first gets APPROVE)."""
    opinions, lock = ["APPROVE", VETO], threading.Lock()

    def route(request: dict[str, Any]) -> Step:
        if tools_offered(request):
            return tool_call_reply("submit", {"proof": GOOD}, "call_1")
        with lock:
            return {"role": "assistant", "content": opinions.pop(0)}

    fake = FakeOpenAI([], route=route)
    args = ["problems=one_plus_one", "max_turns=1", "samples=2", "reviewer=veto", "without=sketch"]
    with serve(fake) as url:
        log = inspect_eval(tmp_path, url, f"benchmark={FIXTURE}", *args)
    assert fake.requests == 4 and not opinions, "each epoch: one submission, one review"
    worker = tools_offered(next(r for r in fake.received if tools_offered(r)))
    assert "prove_lemma" in worker and "sketch" not in worker, "-T without=sketch turns the stage off, not lemmas"
    gates = sorted(scores_of(log, "putnam_gates"), key=lambda s: str(s.answer))
    assert [(s.answer, s.value) for s in gates] == [("accepted", "C"), ("vetoed", "I")]
    assert gates[0].metadata["reviewer"]["opinion"] == "approve" and not gates[0].metadata["reviewer"]["counted"]
    assert gates[1].metadata["reviewer"]["counted"] and "reflexivity alone" in str(gates[1].explanation)
    assert gates[1].metadata["verdict"] == "accepted", "the gates accepted what the reviewer vetoed"
    vetoes = sorted(str(s.answer) for s in scores_of(log, "putnam_reviewer_veto"))
    assert vetoes == ["not vetoed", "vetoed"]
    figures = metrics(log)
    assert figures[("putnam_gates", "mean")]["accuracy"] == 0.5
    assert figures[("putnam_gates", "pass_at_2")]["accuracy"] == 1.0
    assert figures[("putnam_reviewer_veto", "mean")] == {"accepted_but_vetoed": 0.5}
