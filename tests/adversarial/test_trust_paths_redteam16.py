"""Red team round 16 of the trust paths: what a verdict took from code and machines outside the trusted
package's own account of it.

A cluster node's verdict: the head re-ran G1-G3 and checked every input hash (``test_forged_node_verdict``),
but took every other field of the node's verdict as it came. A node that said ``allow_recursion: false``
under ``putnam audit --ray --allow-recursion`` had the audit stored as judged with every rule, so SUMMARY.md
and the report lost "confirmed only with --allow-recursion" beside the audited count (``tables.lifted_audits``
reads the stored flag); one saying ``unsafe_no_sandbox: false`` hid that its gates ran without the sandbox,
and the reverse flags marked a pass judged with every rule as judged with one lifted. Its ``benchmark``
record (the pin SUMMARY.md says an audit was made against, whether the toolchain matches the stated
release), ``cached`` and the candidate's label were the node's too. Now a node's verdict whose lifted
rules differ from what the head asked is an ``error`` (``SAME_AS_SENT``), and of a node's verdict the
head keeps only its gates past G3, its answer checks and where it ran; every other field is the head's
own (``cluster.request.NODE_OWNED``), a field added later included.

The verdict cache and the selftest records: their keys took the trusted package's code (``gate_code``) and
an external check's service (AXLE's URL), never the code of gates registered from outside the package: a
prover of another distribution, G7's check (``putnam_solver.axle``) and the AXLE client reading the
response. After an upgrade of a prover plug-in whose G3 now refuses a candidate (the toy prover of
``tests/fixtures/toyplugin``, run in a new process as a user runs ``putnam verify``), the old acceptance
still answered: ``ACCEPTED ... (cached verdict)``. Now each key takes the bytes of such a plug-in's package
(``core.code_identity.plugin_code``; nothing for code inside ``core``, whose keys are unchanged), and
``external_identity`` takes the check's code and the axiom-axle release beside its URL.

Measured (this file): before, 7 of 7 attacks accepted (4 node verdicts under other lifted rules taken, the
node's record, ``cached`` and label kept, the upgraded plug-in answered from the cache, a G7 of other code
sharing the registered one's identity); after, 7 of 7 refused. Honest twins, passing before and after (4
cases): honest node verdicts under the default rules, ``--allow-recursion`` and ``--unsafe-no-sandbox``
accepted with those flags, the unchanged plug-in answered from the cache on its second run; with them the
same check names the same identity, and a node's forged acceptance of an ``Admitted`` proof is still the
head's rejection. After: the built-in provers' code adds nothing to a key (their cache entries and selftest
records still hold).

What is left: the head's own merging of a node's verdict (``cluster/request.py``) is outside ``core``, so a
verdict a node made and the cache kept for ``--ray`` callers is not keyed by that code; kept builds of a
plug-in prover (``pinned_store``) are keyed by what the prover names, not its code.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.cluster.request import NodeDisagrees, NodeResult, Request
from putnam_solver.core import registry
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.code_identity import plugin_code
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_forged_node_verdict import GOOD, PROBLEM, honest
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import ROCQ_SAMPLES

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module; ``honest``, the real proof's verdict as an
honest node computes it (real coqc/coqchk), is ``test_forged_node_verdict``'s."""
__all__ = ["honest"]
PLUGIN = Path(__file__).resolve().parents[1] / "fixtures" / "toyplugin"
CLAIM = "claim: 1 + 1 = 2\n"

# ------------------------------------------------------------------------------------------------------
# A cluster node's verdict: facts the head decided itself


def _options(*, recursion: bool = False, no_sandbox: bool = False) -> VerifyOptions:
    options = VerifyOptions(unsafe_no_sandbox=no_sandbox)
    return options.with_options(RocqOptions(allow_recursion=True)) if recursion else options


def _request(bench: Benchmark, options: VerifyOptions) -> Request:
    rocq = get_prover("rocq")
    return Request("verify", rocq, bench, bench.problems[PROBLEM], GOOD, Track.WITH_ANSWER, options, "c.v")


def _node_says(verdict: Verdict, **fields: Any) -> NodeResult:
    return NodeResult("node-a", "host-a", "tc", outcome=dataclasses.replace(copy.deepcopy(verdict), **fields))


@NEEDS_ROCQ
@pytest.mark.parametrize(
    ("asked", "claimed"),
    [
        # `putnam audit --ray --allow-recursion`: a node saying the rule held hid "confirmed only with
        # --allow-recursion" beside the audited count (``tables.lifted_audits`` reads the stored flag)
        ({"recursion": True}, {"allow_recursion": False}),
        ({"no_sandbox": True}, {"unsafe_no_sandbox": False}),
        # the other way: a pass judged with every rule reported as judged with one lifted
        ({}, {"allow_recursion": True}),
        ({}, {"unsafe_no_sandbox": True}),
    ],
    ids=["recursion-lift-hidden", "no-sandbox-hidden", "recursion-lift-invented", "no-sandbox-invented"],
)
def test_a_node_verdict_under_other_lifted_rules_than_the_head_asked_is_an_error(
    bench: Benchmark, honest: Verdict, asked: dict[str, bool], claimed: dict[str, bool]
) -> None:
    options = _options(**asked)
    outcome = _request(bench, options).checked(_node_says(honest, **claimed), [])
    assert isinstance(outcome, Verdict) and outcome.status == "error", outcome
    assert "differ" in outcome.gates[0].detail and next(iter(claimed)) in outcome.gates[0].detail


@NEEDS_ROCQ
@pytest.mark.parametrize("asked", [{}, {"recursion": True}, {"no_sandbox": True}], ids=["default", "recursion", "sb"])
def test_an_honest_node_verdict_under_the_asked_rules_is_taken_with_them(
    bench: Benchmark, honest: Verdict, asked: dict[str, bool]
) -> None:
    options = _options(**asked)
    node = _node_says(honest, allow_recursion=options.recursion_allowed, unsafe_no_sandbox=options.unsafe_no_sandbox)
    outcome = _request(bench, options).checked(node, [])
    assert isinstance(outcome, Verdict) and outcome.status == "accepted", outcome
    assert (outcome.allow_recursion, outcome.unsafe_no_sandbox) == (
        options.recursion_allowed,
        options.unsafe_no_sandbox,
    )
    assert outcome.ran_on["node_id"] == "node-a" and not outcome.cached


@NEEDS_ROCQ
def test_what_a_verdict_records_beside_the_gates_is_the_head_s_not_the_node_s(
    bench: Benchmark, honest: Verdict
) -> None:
    """The benchmark record (pin, toolchain match: ``putnam audit --ray`` stores it, SUMMARY.md says "against
    <pin>" from it), ``cached`` and the candidate's label: a node ran only gates, it decided none of them."""
    forged_record = {"pin": "forged-pin", "toolchain": {"stated": "8.16", "used": "8.16", "matches": True}}
    node = _node_says(honest, benchmark=forged_record, cached=True, candidate_path="/elsewhere/x.v")
    outcome = _request(bench, VerifyOptions()).checked(node, [])
    assert isinstance(outcome, Verdict) and outcome.status == "accepted", outcome
    head = run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], GOOD, Track.WITH_ANSWER, VerifyOptions())
    assert outcome.benchmark == head.benchmark and outcome.benchmark.get("pin") != "forged-pin"
    assert outcome.cached is False and outcome.candidate_path == "c.v"


@NEEDS_ROCQ
def test_a_node_that_denies_nothing_else_is_still_refused_on_its_text_gates(bench: Benchmark, honest: Verdict) -> None:
    """The flags' check comes with the head's own G1-G3, not instead of them."""
    admitted = GOOD.replace(b"Qed.", b"Admitted.")
    rocq = get_prover("rocq")
    request = Request(
        "verify", rocq, bench, bench.problems[PROBLEM], admitted, Track.WITH_ANSWER, VerifyOptions(), "c.v"
    )
    outcome = request.checked(_node_says(honest, candidate_sha256=sha256_hex(admitted)), [])
    assert isinstance(outcome, NodeDisagrees) and outcome.verdict.status == "rejected"


# ------------------------------------------------------------------------------------------------------
# The verdict cache: gate code outside the trusted package


def _install_toy(tmp_path: Path) -> Path:
    """A copy of the toy prover distribution (``tests/fixtures/toyplugin``), installed by being on the path."""
    where = tmp_path / "site"
    shutil.copytree(PLUGIN, where)
    return where


def _verify_in_new_process(site: Path, cache: Path, benchmark: Path, candidate: Path) -> tuple[int, str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
        "PUTNAM_CACHE_DIR": str(cache),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    argv = [sys.executable, "-c", "from putnam_solver.cli import main; main()", "verify", "--prover", "toy"]
    done = subprocess.run(
        [*argv, "--gates", "text", "--benchmark", str(benchmark), str(candidate)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def toy_case(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    site = _install_toy(tmp_path)
    benchmark = tmp_path / "toy.jsonl"
    benchmark.write_text(json.dumps({"problem_id": "toy_one", "formal_statement": CLAIM + "proof: sorry\n"}) + "\n")
    candidate = tmp_path / "toy_one.toy"
    candidate.write_text(CLAIM + "proof: arithmetic by oracle\n")
    return site, tmp_path / "cache", benchmark, candidate


def test_a_verdict_of_a_prover_plugin_s_old_gates_does_not_answer_its_new_gates(
    toy_case: tuple[Path, Path, Path, Path],
) -> None:
    """A third-party prover's gates live outside the trusted package, so its code was in no cache key
    (``gate_code`` hashes ``core`` alone): after an upgrade of the plugin whose G3 now refuses the
    candidate, the old acceptance still answered, ``accepted (cached verdict)``."""
    site, cache, benchmark, candidate = toy_case
    code, out = _verify_in_new_process(site, cache, benchmark, candidate)
    assert code == 0 and "accepted" in out, out
    gate = site / "toy_prover" / "__init__.py"
    old = '"sorry" not in sub.candidate'
    new = '"sorry" not in sub.candidate and "oracle" not in sub.candidate'
    assert old in gate.read_text()
    gate.write_text(gate.read_text().replace(old, new))  # the plugin's next release: a stricter G3
    code, out = _verify_in_new_process(site, cache, benchmark, candidate)
    assert code == 1 and "REJECTED" in out and "from cache" not in out, out


def test_the_same_plugin_still_answers_from_the_cache(toy_case: tuple[Path, Path, Path, Path]) -> None:
    site, cache, benchmark, candidate = toy_case
    for expected_cached in (False, True):
        code, out = _verify_in_new_process(site, cache, benchmark, candidate)
        assert code == 0 and "accepted" in out and ("1 from cache" in out) is expected_cached, out


class _OtherAxle:
    """An ``axle`` external check of other code than the registered one, naming the same AXLE."""

    def __init__(self, url: str) -> None:
        self.url = url

    def identity(self) -> str:
        return self.url


def test_an_external_check_of_other_code_is_another_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """G7's code (``putnam_solver.axle``) lies outside the trusted package, and its identity was the URL
    alone: a G7 of other code (another putnam release's, a stand-in registered under ``axle``) shared the
    verdicts and selftest records of the registered one."""
    real = registry.load_plugin(registry.EXTERNAL_CHECKS_GROUP, "axle")
    url = real.identity()
    registered = registry.external_identity("axle")
    assert registered == registry.external_identity("axle"), "the same code names the same identity"
    monkeypatch.setattr(registry, "load_plugin", lambda group, name: _OtherAxle(url))
    assert registry.external_identity("axle") != registered
    assert url in registry.external_identity("axle"), "the service it names is still said"


def test_code_inside_the_trusted_package_keeps_its_keys_and_code_without_a_file_answers_no_other_process() -> None:
    """The built-in provers live in ``core``, whose fingerprint every key takes: no part of their own, so
    their verdicts and selftest records keep their keys. G7's check is named by its package's bytes; a
    check whose module no file holds (made at run time) only by this process."""
    assert plugin_code(get_prover("rocq")) == "" and plugin_code(get_prover("lean")) == ""
    axle = plugin_code(registry.load_plugin(registry.EXTERNAL_CHECKS_GROUP, "axle"))
    assert axle.startswith("putnam_solver.axle.gate: ") and len(axle.split(": ")[1]) == 64
    made = type("Check", (), {"__module__": "made_at_run_time"})()
    assert plugin_code(made) == f"made_at_run_time: no source file, this process only ({id(sys.modules)})"
