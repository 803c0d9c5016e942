"""The gate kit's artifacts (core/artifacts.py): each made once per verification, failures handed on."""

from __future__ import annotations

import threading
import time

import pytest

from putnam_solver.core.artifacts import Artifact, Artifacts


def test_an_artifact_is_made_once_however_many_gates_ask_for_it() -> None:
    calls: list[str] = []

    def make(sub: object) -> str:
        calls.append("made")
        time.sleep(0.05)
        return f"vo of {sub}"

    artifact = Artifact("candidate", make)
    made = Artifacts()
    made.start(artifact, "sub")
    answers = []
    askers = [threading.Thread(target=lambda: answers.append(made.get(artifact, "sub"))) for _ in range(4)]
    for t in askers:
        t.start()
    for t in askers:
        t.join()
    made.close()
    assert answers == ["vo of sub"] * 4
    assert calls == ["made"]


def test_a_producer_may_wait_for_another_artifact_and_independent_ones_overlap() -> None:
    started = threading.Barrier(2, timeout=5)  # both compiles must be under way at once to pass it

    def compile_run(name: str) -> Artifact[str]:
        def make(sub: object) -> str:
            started.wait()
            return name

        return Artifact(name, make)

    candidate, reference = compile_run("candidate"), compile_run("reference")
    made = Artifacts()
    trusted = Artifact("trusted", lambda sub: f"{made.get(candidate, sub)}+{made.get(reference, sub)}")
    for artifact in (trusted, candidate, reference):
        made.start(artifact, None)
    assert made.get(trusted, None) == "candidate+reference"
    made.close()


def test_a_failure_is_raised_in_every_gate_that_asks() -> None:
    def broken(sub: object) -> str:
        raise FileNotFoundError("coqc not found")

    artifact = Artifact("candidate", broken)
    made = Artifacts()
    for _ in range(2):
        with pytest.raises(FileNotFoundError, match="coqc not found"):
            made.get(artifact, None)
    made.close()


def test_close_waits_for_started_producers_and_nothing_starts_after_it() -> None:
    finished = threading.Event()

    def slow(sub: object) -> str:
        time.sleep(0.1)
        finished.set()
        return "done"

    made = Artifacts()
    made.start(Artifact("slow", slow), None)
    made.close()
    assert finished.is_set()
    with pytest.raises(RuntimeError, match="after the verification"):
        made.get(Artifact("late", slow), None)


def test_a_stopping_process_waits_for_no_producer_and_starts_none() -> None:
    """Ctrl-C or SystemExit mid-verification: ``abandon`` lets the pipeline go at once (the producer's
    sandboxed run dies with the process), and nothing more is started."""
    release = threading.Event()
    artifacts = Artifacts()
    artifacts.start(Artifact("slow", lambda sub: release.wait(60)), None)
    artifacts.abandon()
    began = time.monotonic()
    artifacts.close()
    assert time.monotonic() - began < 5, "close did not wait for the abandoned producer"
    with pytest.raises(RuntimeError, match="after the verification"):
        artifacts.get(Artifact("late", lambda sub: 1), None)
    release.set()
