"""Red team of the paths around the gates: the verdict cache, the pipeline's fail-closed folding, run
directories and services. Each finding has its attack (refused) and a valid case (still accepted).
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from putnam_solver.cluster.request import NodeDisagrees, NodeResult, Request
from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.redact import PathRedactor
from putnam_solver.run.agent.reviewer import harness_facts
from putnam_solver.selftest.runner import Cell, CellResult, SelftestRecord, write_record
from putnam_solver.serve import views
from putnam_solver.serve.service import RequestError, record_problem
from putnam_solver.verifier.candidates import (
    Candidate,
    request_verdict,
    verdict_key,
    verdict_text,
    verdicts_json,
    verify_candidates,
)
from putnam_solver.verifier.options import GateFlags
from putnam_solver.withheld import model_view
from tests.adversarial.test_answer_disputed import RIGHT, WRONG, _last_digit
from tests.helpers import LEAN_BENCH, ROCQ_SAMPLES, needs_coq

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""

PROBLEM = "sample_last_digit"
ANSWER = f"{PROBLEM}_solution"


def _options() -> VerifyOptions:
    return GateFlags(profile=Profile.FULL, allow_recursion=True).options()


def _run(bench: Benchmark, candidate: str) -> Verdict:
    return run_gates(RocqProver(), bench, bench.problems[PROBLEM], candidate.encode(), Track.NO_ANSWER, _options())


def _cache_round_trip(tmp_path: Path, bench: Benchmark, candidate: str, verdict: Verdict) -> Verdict | None:
    """Store ``verdict`` as the cache would after judging ``candidate``, then ask for it as a later run would."""
    prover, options = RocqProver(), _options()
    entry = Candidate(tmp_path / f"{PROBLEM}.v", bench.problems[PROBLEM], candidate.encode())
    key = verdict_key(prover, bench, entry, Track.NO_ANSWER, options)
    cache = VerdictCache(tmp_path / "cache")
    cache.put(key, verdict)
    return cache.get(key, request_verdict(prover, bench, entry, Track.NO_ANSWER, options))


# -- finding 1: an acceptance whose answer check was cut short was cached, hiding a dispute ----------------


@needs_coq
def test_an_acceptance_whose_answer_check_ran_out_of_room_is_never_reused(tmp_path: Path, bench: Benchmark) -> None:
    # The real verdict of a wrong answer "proved" through the Coq 8.16 guard bug is `disputed`; the same
    # gates with an answer check cut by coqc's memory cap or its `Timeout` on a loaded host record
    # `unknown` with these words, and the verdict reads `accepted`. The memory cap is not in the cache
    # key, so that acceptance used to be served to every later run, which would have found the dispute.
    disputed = _run(bench, WRONG)
    assert disputed.status == "disputed"
    cut = copy.deepcopy(disputed)
    cut.answers[ANSWER]["check"] = {
        "status": "unknown",
        "reason": "neither equality nor its negation was proved by reflexivity, ring, lia, lra, nia, nra",
    }
    assert cut.status == "accepted"
    assert _cache_round_trip(tmp_path, bench, WRONG, cut) is None
    crashed = copy.deepcopy(disputed)
    crashed.answers[ANSWER]["check"] = {"status": "unknown", "reason": "the answer check crashed: MemoryError: "}
    assert _cache_round_trip(tmp_path, bench, WRONG, crashed) is None
    forged = copy.deepcopy(disputed)
    forged.answers[ANSWER]["check"] = {"status": "unknown", "reason": "the answer check crashed: not a closed form:"}
    assert _cache_round_trip(tmp_path, bench, WRONG, forged) is None


@pytest.mark.slow  # about 40 s: the check's tactics run to their time limit
@needs_coq
def test_an_answer_check_cut_by_its_tactic_time_limit_is_judged_again(tmp_path: Path, bench: Benchmark) -> None:
    # end to end: the candidate's answer is 7 (the official one is 6) in a form that the check's tactics
    # only compare within their time limit on a fast host; here they give up, so the acceptance stands,
    # but it must not be kept: the next run (a quieter host) decides it afresh
    slow = _last_digit("Z.of_nat (Nat.pow 2 18 - Nat.pow 2 18) + 7", "exfalso; exact zz_false.")
    path = tmp_path / f"{PROBLEM}.v"
    path.write_text(slow, encoding="utf-8")
    cache = VerdictCache(tmp_path / "cache")
    candidate = Candidate(path, bench.problems[PROBLEM], slow.encode())
    first = verify_candidates([candidate], RocqProver(), bench, Track.NO_ANSWER, _options(), cache=cache)[0]
    if first.answers[ANSWER]["check"]["status"] != "unknown":
        pytest.skip("this host decided the answer within the tactics' time limit")
    assert first.status == "accepted"
    assert not list((tmp_path / "cache").rglob("*.json")), "an undecided answer check was cached"


@needs_coq
def test_a_settled_acceptance_is_still_reused(tmp_path: Path, bench: Benchmark) -> None:
    accepted = _run(bench, RIGHT)
    assert accepted.status == "accepted" and accepted.answers[ANSWER]["check"]["status"] == "confirmed"
    reused = _cache_round_trip(tmp_path, bench, RIGHT, accepted)
    assert reused is not None and reused.cached and reused.status == "accepted"
    # an answer no tactic can compare (not a closed form) is decided by its text alone: kept too
    closed = copy.deepcopy(accepted)
    closed.answers[ANSWER]["check"] = {"status": "unknown", "reason": "not a closed form: uses `Rint` (an integral)"}
    reused = _cache_round_trip(tmp_path, bench, RIGHT, closed)
    assert reused is not None and reused.status == "accepted"


# -- finding 2: a cluster verdict lost its node's answer check, so a dispute came back `accepted` -----------


def _from_node(verdict: Verdict) -> NodeResult:
    return NodeResult("node-a", "host-a", "tc", outcome=verdict)


@needs_coq
def test_a_node_s_disputed_verdict_stays_disputed_at_the_head(bench: Benchmark) -> None:
    # an honest node judges the wrong answer "proved" through the guard bug: every gate passes and its
    # answer check proves the answer different. The head re-ran G1-G3 on the text profile, whose answer
    # record says "the answer check runs only with the full profile", and laid that over the node's check
    disputed = _run(bench, WRONG)
    assert disputed.status == "disputed"
    request = Request(
        "verify", RocqProver(), bench, bench.problems[PROBLEM], WRONG.encode(), Track.NO_ANSWER, _options(), "c.v"
    )
    outcome = request.checked(_from_node(copy.deepcopy(disputed)), [])
    assert isinstance(outcome, Verdict)
    assert outcome.answers[ANSWER]["check"]["status"] == "differs"
    assert outcome.status == "disputed" and not outcome.accepted
    assert outcome.answers[ANSWER]["official"] == "6" and outcome.answers[ANSWER]["candidate"] == "7"


@needs_coq
def test_a_node_verdict_without_an_answer_check_is_not_settled(tmp_path: Path, bench: Benchmark) -> None:
    accepted = _run(bench, RIGHT)
    request = Request(
        "verify", RocqProver(), bench, bench.problems[PROBLEM], RIGHT.encode(), Track.NO_ANSWER, _options(), "c.v"
    )
    honest = request.checked(_from_node(copy.deepcopy(accepted)), [])
    assert isinstance(honest, Verdict) and honest.status == "accepted"
    assert honest.answers[ANSWER]["check"]["status"] == "confirmed"
    silent = copy.deepcopy(accepted)
    silent.answers = {}
    outcome = request.checked(_from_node(silent), [])
    assert isinstance(outcome, Verdict) and outcome.answers[ANSWER]["check"]["status"] == "unknown"
    assert _cache_round_trip(tmp_path, bench, RIGHT, outcome) is None


# -- finding 3: the pinned statement's SHA-256 (which covers the official answer) reached models on no-answer --


def _guessed_statements(problem: Problem, shown: str) -> dict[str, str]:
    """The pinned statement as a model can rebuild it from what it is shown on no-answer: the official
    answer was one comment line under the solution's `abbrev`, and it is put back as each guess."""
    lines = shown.split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith("abbrev ") and line.endswith(":= sorry"))
    guesses = ["True", "False", *map(str, range(0, 50))]
    return {g: "\n".join([*lines[: at + 1], f"-- {g}", *lines[at + 1 :]]) for g in guesses}


def _no_answer_outputs(problem: str, track: Track) -> tuple[Problem, str, list[str]]:
    bench = load_benchmark(LEAN_BENCH)
    lean = get_prover("lean")
    pinned = bench.problems[problem]
    shown = lean.model_statement(pinned, track)
    candidate = shown.replace(":= sorry", ":= True", 1)
    options = VerifyOptions(profile=Profile.TEXT)
    verdict = run_gates(lean, bench, pinned, candidate.encode(), track, options)
    assert verdict.gates[0].id == "G1" and verdict.gates[0].passed
    as_json = verdict.to_json()
    outputs = [
        json.dumps(model_view(as_json)),  # putnam mcp's verify, the diagnostics carried to the next worker
        json.dumps(views.shown(as_json, PathRedactor({}), full=False)),  # putnam serve, compact
        json.dumps(views.shown(as_json, PathRedactor({}), full=True)),  # putnam serve, ?full=1
        json.dumps(verdicts_json([verdict], bench)),  # putnam verify --json (without --show-official)
        verdict_text(verdict),  # putnam verify
        harness_facts(verdict),  # the reviewer, a model
    ]
    return pinned, shown, outputs


def test_no_output_a_model_sees_on_no_answer_lets_it_hash_its_way_to_the_official_answer() -> None:
    # putnam_1963_b2 asks yes or no; its pinned record holds `-- True` under the solution. The statement's
    # SHA-256 (in every verdict, in G1's detail, and in the reviewer's facts) let a model with a shell try
    # each answer: a hundred official answers of PutnamBench Lean fall to guesses of True/False/-100..2100
    pinned, shown, outputs = _no_answer_outputs("putnam_1963_b2", Track.NO_ANSWER)
    guesses = _guessed_statements(pinned, shown)
    assert hashlib.sha256(guesses["True"].encode()).hexdigest() == pinned.statement_sha256, "the attack's premise"
    for output in outputs:
        for guess, text in guesses.items():
            digest = hashlib.sha256(text.encode()).hexdigest()
            assert digest[:8] not in output, f"the hash of the statement with answer {guess} is in {output[:300]}"


def test_with_answer_outputs_still_name_the_statement_s_hash() -> None:
    pinned, _, outputs = _no_answer_outputs("putnam_1963_b2", Track.WITH_ANSWER)
    shown = [output for n, output in enumerate(outputs) if n != 4]  # verify's text shows no hash
    assert all(pinned.statement_sha256[:12] in output for output in shown)


def test_a_record_under_a_served_id_is_no_oracle_for_the_official_answer_on_no_answer() -> None:
    bench = load_benchmark(LEAN_BENCH)
    pinned = bench.problems["putnam_1963_b2"]
    record = {"problem_id": pinned.id, "formal_statement": pinned.formal_statement}
    wrong = {**record, "formal_statement": pinned.formal_statement.replace("-- True", "-- False", 1)}
    for guess in (record, wrong):  # right or wrong, the same refusal: nothing to tell them apart
        with pytest.raises(RequestError) as refused:
            record_problem(bench, dict(guess), Track.NO_ANSWER)
        assert refused.value.status == 422 and "problem id" in refused.value.message
        assert pinned.statement_sha256[:8] not in refused.value.message
    assert record_problem(bench, dict(record), Track.WITH_ANSWER)[1] is pinned


# -- finding 4: a node's claim that a candidate is no candidate at all was raised at the head unchecked --------


def test_a_node_that_calls_a_sound_proof_unusable_is_refused_not_believed(bench: Benchmark) -> None:
    # `putnam audit --ray` records an InputError from the verifier as a refused pass (G1 failed): one
    # node saying "the candidate file is empty" of a sound proof turned it into an audited rejection
    request = Request(
        "verify", RocqProver(), bench, bench.problems[PROBLEM], RIGHT.encode(), Track.NO_ANSWER, _options(), "c.v"
    )
    lie = NodeResult(
        "node-a", "host-a", "tc", input_error="c.v: the candidate file is empty; write the whole proof file"
    )
    outcome = request.input_error_checked(lie)
    assert isinstance(outcome, NodeDisagrees) and "host-a" in outcome.why
    assert outcome.verdict.status == "error" and outcome.verdict.ran_on["node_id"] == "node-a"


@pytest.mark.parametrize("data", [b"", b"  \n", b"Theorem \xff"])
def test_a_node_that_agrees_a_file_is_no_candidate_gives_the_head_s_own_input_error(
    bench: Benchmark, data: bytes
) -> None:
    request = Request("verify", RocqProver(), bench, bench.problems[PROBLEM], data, Track.NO_ANSWER, _options(), "c.v")
    honest = NodeResult("node-a", "host-a", "tc", input_error="anything the node says")
    with pytest.raises(InputError) as raised:
        request.input_error_checked(honest)
    assert "c.v" in str(raised.value) and "anything the node says" not in str(raised.value)


# -- a rejection stored before a selftest found the toolchain broken ----------------------------------------


def test_the_cache_key_follows_what_the_last_selftest_says_of_known_good_canaries(
    tmp_path: Path, bench: Benchmark, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lean's G6 reads comparator's exit 1 as ``failed`` only while no selftest saw comparator refuse its
    known-good proof, then as ``unavailable``: a rejection cached before such a selftest must not be
    reused after it, so the key changes with the record (and a record of another gate's canaries too)."""
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    prover, options = RocqProver(), _options()
    entry = Candidate(tmp_path / f"{PROBLEM}.v", bench.problems[PROBLEM], b"Theorem x : True. Proof. exact I. Qed.")
    before = verdict_key(prover, bench, entry, Track.NO_ANSWER, options)
    assert verdict_key(prover, bench, entry, Track.NO_ANSWER, options) == before  # stable without a record
    fingerprint = prover.toolchain_fingerprint(options)
    for status, cell in (("failed", Cell.WRONG), ("passed", Cell.RIGHT)):
        good = CellResult("rocq", "good", "G6", "kernel check", "pass", status, cell, "")
        record = SelftestRecord("rocq", fingerprint, "code", False, 1.0, 2.0, [good], [], {})
        write_record(record, options)
        after = verdict_key(prover, bench, entry, Track.NO_ANSWER, options)
        assert after != before
        before = after
