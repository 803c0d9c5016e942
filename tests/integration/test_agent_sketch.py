"""The informal-first stage end to end: the scripted model server (a loopback OpenAI-compatible server),
the real agent layer and campaign, real coqc for every gate, on a Rocq sample with an informal statement.

The worker reads the problem in words, writes an informal proof and a skeleton with two lemmas left as
holes, and calls ``sketch``: both holes are proved in sub-attempts started by that one call, each judged
on the fast profile; the sketch is kept in the ledger and shown to the next campaign, whose final file
is judged on the full profile. ``--without sketch`` turns all of it off.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")

from inspect_ai.model import ChatMessage, ModelOutput

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import AgentParts, Budgets
from putnam_solver.run.campaign import RunSettings, Selection, SolveOutcome, solve
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from putnam_solver.run.report import write_report
from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.fakes.scripted_agent import NEEDS_ROCQ, call, config, run, say, scripted, served_config
from tests.helpers import REPO

pytestmark = NEEDS_ROCQ

SAMPLES = REPO / "samples" / "rocq" / "benchmark.jsonl"
PROBLEM = "sample_min_quadratic"
HEADER = "Require Import Reals Psatz.\nOpen Scope R_scope.\n\nDefinition sample_min_quadratic_solution : R := -1.\n"
LEMMAS = (
    "Lemma lower_bound : forall x : R, x ^ 2 + 2 * x >= -1.\n",
    "Lemma attained : exists x : R, x ^ 2 + 2 * x = -1.\n",
)
HOLE = "Proof.\nAdmitted.\n"
DOC = "(** Completing the square. *)\n"
ADMIT = "(* at x = -1 *)\nProof. admit. Admitted.\n"
"""The skeleton's second hole, laid out otherwise than its statement file's ``HOLE``: pasted all the same."""
PROOFS = {
    "lower_bound": "Proof.\n  intros x. assert (0 <= (x + 1) ^ 2) by apply pow2_ge_0. nra.\nQed.\n",
    "attained": "Proof.\n  exists (-1). ring.\nQed.\n",
}
THEOREM = (
    "Theorem sample_min_quadratic\n"
    "    : (forall x : R, x ^ 2 + 2 * x >= sample_min_quadratic_solution) /\\\n"
    "      (exists x : R, x ^ 2 + 2 * x = sample_min_quadratic_solution).\n"
    "Proof.\n  unfold sample_min_quadratic_solution. split; [exact lower_bound | exact attained].\nQed.\n"
)
SKELETON = HEADER + DOC + LEMMAS[0] + HOLE + LEMMAS[1] + ADMIT + THEOREM
FINAL = HEADER + DOC + LEMMAS[0] + PROOFS["lower_bound"] + LEMMAS[1] + PROOFS["attained"] + THEOREM
INFORMAL = "x^2 + 2x + 1 = (x + 1)^2 >= 0, so x^2 + 2x >= -1, with equality at x = -1."
IN_WORDS = "Find the minimum value of $x^2 + 2x$ over the real numbers."

RETRIEVAL = ("library_search", "find_declarations")
"""The retrieval part's tools, offered beside the sketch stage's (``test_agent_workflow`` covers them)."""


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")


@dataclass
class LemmaReplies:
    """A sub-attempt (its task names the lemma) submits its lemma file with the proof in the hole, but
    only once the other hole's sub-attempt has asked too: the two run at once or the barrier breaks. The
    main attempt's requests follow the script."""

    together: threading.Barrier = field(default_factory=lambda: threading.Barrier(2, timeout=60))
    apart: bool = False

    def __call__(self, request: dict[str, Any]) -> Step | None:
        task = str(request["messages"][1]["content"])
        found = re.match(r"Lemma `(\w+)` of problem", task)
        if found is None:
            return None
        try:
            self.together.wait()
        except threading.BrokenBarrierError:
            self.apart = True
        return lemma_file_reply(task, found.group(1))


def lemma_file_reply(task: str, name: str) -> Step:
    statement = task.split("```\n", 1)[1].split("\n```", 1)[0] + "\n"
    proof = statement.replace(HOLE, PROOFS[name])
    return tool_call_reply("submit", {"proof": proof}, f"call_{name}")


def solve_samples(fake: FakeOpenAI, run_dir: Path, campaigns: int) -> SolveOutcome:
    with serve(fake) as url:
        cfg = served_config(url, Budgets(max_turns=2, lemma_turns=1), jobs=2)
        settings = RunSettings(run_dir, cfg, Selection(SAMPLES, problems=(PROBLEM,)), campaigns, RunLimits())
        return solve(settings, None)


def sent(fake: FakeOpenAI, index: int) -> str:
    return json.dumps(fake.received[index]["messages"])


def test_a_sketch_s_holes_are_proved_at_once_and_the_sketch_reaches_the_next_campaign(tmp_path: Path) -> None:
    sketch = tool_call_reply("sketch", {"informal_proof": INFORMAL, "skeleton": SKELETON}, "call_sketch")
    fake = FakeOpenAI(
        [
            {**sketch, "content": "The sketch stage first."},  # campaign 1: sketch; two sub-attempts start
            tool_call_reply("submit", {"proof": SKELETON}, "call_2"),  # campaign 1: holes left, rejected
            tool_call_reply("submit", {"proof": FINAL}, "call_3"),  # campaign 2: accepted
        ],
        route=(replies := LemmaReplies()),
    )
    outcome = solve_samples(fake, tmp_path, campaigns=2)
    assert outcome.exit_code == ExitCode.SUCCESS and outcome.passed == 1, outcome.message
    assert not replies.apart, "the two sub-attempts of the sketch call were in flight at the same time"
    assert fake.requests == 5, "three main turns and one turn for each of the two holes"
    first = sent(fake, 0)
    assert IN_WORDS in first and "The problem in words" in first, "the informal statement as text"
    offered = [t["function"]["name"] for t in fake.received[0]["tools"]]
    assert [name for name in offered if name not in RETRIEVAL] == [
        "check",
        "goals",
        "search",
        "sketch",
        "prove_lemma",
        "submit",
    ]
    answer = next(sent(fake, i) for i in range(fake.requests) if "SKETCH kept" in sent(fake, i))
    assert "2 holes went to sub-attempts in parallel, 2 proved." in answer
    assert "PROVED lower_bound" in answer and "PROVED attained" in answer and "nra" in answer
    assert "ALL HOLES PROVED" in answer and json.dumps(FINAL).strip('"') in answer, "pasted together, it passes"
    campaign_two = sent(fake, fake.requests - 1)
    assert "Campaign 1 sketched this problem" in campaign_two
    assert INFORMAL in campaign_two and "Lemma attained : exists x" in campaign_two, "the plan and skeleton"

    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    try:
        attempts = ledger.attempts()
        subs = ledger.subattempts()
        sketches = ledger.sketches()
        parent = ledger.attempt_notes()[attempts[0].id]["key"]
    finally:
        ledger.close()
    assert [(a.campaign, a.status) for a in attempts] == [(1, "rejected"), (2, "passed")]
    assert sorted((s.lemma, s.status, s.parent) for s in subs) == [
        ("attained", "passed", parent),
        ("lower_bound", "passed", parent),
    ], "both holes of the one sketch call, each under the attempt that sketched"
    for sub in subs:
        assert sub.verdict is not None and sub.verdict["profile"] == "fast"
        assert [g["id"] for g in sub.verdict["gates"]] == ["G1", "G2", "G3", "G4"], "no kernel replay per lemma"
    final = attempts[1].verdict
    assert final is not None and final["profile"] == "full" and {"G5", "G6"} <= {g["id"] for g in final["gates"]}
    [kept] = sketches
    assert (kept.campaign, kept.problem, kept.informal_proof, kept.skeleton) == (1, PROBLEM, INFORMAL, SKELETON)
    assert (kept.attempt_key, kept.holes, kept.proved) == (parent, 2, 2)
    assert kept.assembled_sha256 == attempts[1].candidate_sha256, "campaign 2 passed with the file pasted together"
    evidence = (tmp_path / "attempts" / "campaign-1" / PROBLEM / "sketch.md").read_text()
    assert INFORMAL in evidence and SKELETON in evidence and "2 of 2 holes proved" in evidence
    summary = (tmp_path / "SUMMARY.md").read_text()
    assert f"| {PROBLEM} | 1 | 2 of 2 | yes |" in summary.split("## Sketches", 1)[1]
    report = write_report(tmp_path).read_text()
    assert '<td data-holes="2" data-proved="2">2 of 2</td><td>yes</td>' in report.split('id="sketches-table"')[1]


def test_without_sketch_there_is_no_informal_statement_and_no_sketch_tool(tmp_path: Path) -> None:
    tools_seen: list[list[str]] = []
    tasks: list[str] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        tools_seen.append([getattr(t, "name", "") for t in tools])
        tasks.append(input[1].text)
        return [say("thinking"), call("submit", FINAL)][min(len(tasks) - 1, 1)]

    for parts, sketching in ((AgentParts(), True), (AgentParts.without(["sketch"]), False)):
        tools_seen.clear(), tasks.clear()
        cfg = config(scripted(script), parts=parts, budgets=Budgets(max_turns=2))
        bench = load_benchmark(SAMPLES)
        result = run(tmp_path / str(sketching), cfg, [PROBLEM], benchmark=bench)[PROBLEM]
        assert result.status == "passed"
        assert ("sketch" in tools_seen[0]) is sketching and "prove_lemma" in tools_seen[0]
        assert (IN_WORDS in tasks[0]) is sketching
