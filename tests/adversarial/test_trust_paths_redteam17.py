"""Red team round 17 of the trust paths: stores keyed by a name or a path where what they hold depends on
code, canaries or tool bytes. Every attack runs for real: new processes over real caches, a copy of this
release (its cluster code edited as a release would), the toy plug-in prover of ``tests/fixtures/toyplugin``
upgraded in place, its kit's canary set changed, a tool file rewritten.

Holes, and what closes each:

- A cluster verdict in the verdict cache. What a ``--ray`` caller finds cached from a node is what the
  head's checks and merge (``cluster/request.py``: the re-run text gates, ``NODE_OWNED``, the lifted
  rules) made of the node's report, so it depends on that code; a verdict made here never passed through
  it. No key took it: after the upgrade from a merge that took a node's text gates as sent to one that
  re-runs them, the forged acceptance of a ``sorry`` proof the old merge kept still answered, ``accepted``
  from the cache. Now a node's verdict is stored with the identity of the code that took the node's word
  (``dispatch.node_code``: the ``cluster`` package's bytes) and answers only a caller verifying through
  that code (``VerdictCache.get``/``put``, ``nodes``). The identity is the entry's, not the key's: a
  verdict made here still answers every caller and still replaces a node's of the same inputs (round 4),
  and survives a change of the cluster code. ``serve --ray`` passes its backend's identity as ``verify
  --ray`` does.
- A plug-in prover's kept builds (``core.pinned_store``) were keyed by the folder and key the plug-in
  named, plus the trusted package's code: an upgraded plug-in (or another naming the same folder) read
  builds of other code. The toy now keeps the claim its G2 holds a candidate to; an older release whose
  reference kept only the claim's keyword made the new release pass a candidate proving another claim.
  Now ``entry_path`` takes the ``producer`` (the function that builds the entry) and its code's identity
  (``code_identity.plugin_code``; nothing for code inside ``core``, whose kept builds keep their keys).
- A selftest record was keyed by prover, toolchain, gate code and options; ``uncovered`` held it against
  the canaries' names only, and the canaries ship with the kits, outside every code a key takes: a kit
  release whose ``sorry`` canary took a spelling the gates miss (same name, other bytes) left the old
  passing record vouching for ``solve`` and ``serve``. Now the record names each canary set it judged by
  its files' SHA-256 (``SelftestRecord.suites``) and a set shipped other than judged is uncovered, so the
  selftest runs again (a record made before this round names none: it runs again once).
- A tool's hash (``gatekit.file_sha256``, in every toolchain fingerprint) was remembered in a process by
  path, size and modification time: a ``coqc`` rewritten in place with its old size and ``mtime`` kept the
  old binary's identity in a long-running ``serve`` or campaign. Now device, inode and change time (which
  cannot be set back) are part of what is remembered; the hash itself is unchanged.
- Rocq's G2 resolves partial ``Require`` names against the installed modules, a set remembered by the
  library's path: a module installed into the library while ``serve`` ran was not in it, so G2 resolved
  a name the new module made ambiguous, under a key (the toolchain fingerprint's ``library_state``) that
  already named the new library. Now the set is remembered by that same library state.

Measured (this file, against the code before the fixes, the toy's kept build called without ``producer``):
5 of 5 attacks through (the older merge's forged acceptance answered from the cache, the old plug-in
release's reference passed a changed claim, the old selftest record vouched for changed canaries, the
rewritten tool kept its old hash, G2's module set missed the new module), and the 2 checks of the new
seams (a node's entry named by the code that took it; ``serve --ray`` naming its backend) failed for want
of them; after, 7 of 7 refused or holding. Honest twins, passing before and after (6): an honest cluster
verdict answers its next ``--ray`` run and a local verdict outlives a cluster upgrade; the same plug-in
builds its reference once and reuses it; the same canaries are not run again; an unchanged tool keeps its
hash; an unchanged library keeps its modules; the candidate caches.

What held, and why:

- ``core.candidate_cache``: an in-memory ``lru_cache`` of each lexing function, keyed by the function
  object (its code) and its arguments (the candidate's text), emptied after each gate worker reply;
  nothing outlives the process.
- ``putnam audit``: every pass is re-verified with no verdict cache and no kept build of an earlier
  process (``kept_builds`` off); stored audit rows are history, never counted.
- Bundles verify through ``verify_candidates``, so they take the cluster identity with ``--ray``.
- The built-in provers' kept builds (Rocq's reference ``.vo``, Lean's challenge build): made by code in
  ``core``, whose fingerprint their key takes, and keyed by the toolchain's bytes.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import putnam_solver
from putnam_solver.cluster.ray import RayVerifier
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.candidate_cache import candidate_cache, forget
from putnam_solver.core.gatekit import file_sha256
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq import libraries
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.serve import ServeConfig, load_keys
from putnam_solver.serve.service import VerifyService
from putnam_solver.serve.verifier import PoolVerifier
from putnam_solver.verifier import dispatch
from tests.helpers import ROCQ_SAMPLES

PLUGIN = Path(__file__).resolve().parents[1] / "fixtures" / "toyplugin"
PACKAGE = Path(putnam_solver.__file__).resolve().parent
CLAIM = "claim: 1 + 1 = 2\n"
GOOD = CLAIM + "proof: arithmetic by oracle\n"
CHANGED = "claim: 2 = 2\nproof: arithmetic by oracle\n"
"""A candidate that proves another claim than the statement's: the toy's G2 refuses it."""
SORRY = CLAIM + "proof: sorry\n"
"""A candidate the toy's G3 refuses."""


def _env(site: Path, cache: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
        "PUTNAM_CACHE_DIR": str(cache),
    }


@pytest.fixture
def toy_case(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A copy of the toy prover distribution (installed by being on the path), its benchmark, a cache."""
    site = tmp_path / "site"
    shutil.copytree(PLUGIN, site, ignore=shutil.ignore_patterns("__pycache__"))
    benchmark = tmp_path / "toy.jsonl"
    benchmark.write_text(json.dumps({"problem_id": "toy_one", "formal_statement": CLAIM + "proof: sorry\n"}) + "\n")
    return site, benchmark, tmp_path / "cache"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new))


# ------------------------------------------------------------------------------------------------------
# A cluster verdict: the head's merge of a node's verdict (``cluster/request.py``)

NODE_SCRIPT = r"""
import json, sys
from pathlib import Path
from putnam_solver.cluster.ray import RayVerifier, _Node
from putnam_solver.cluster.request import NodeResult
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq import libraries
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from putnam_solver.verifier.dispatch import LOCAL

benchmark_path, node_says, where, data = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].encode()
bench = load_benchmark(Path(benchmark_path))
problem = bench.problems["toy_one"]
toy = get_prover("toy")
options = VerifyOptions(profile=Profile.TEXT)
node = _Node("node-a", "host-a", 1.0, admitted=True)

def run_pinned(_node, task):
    # the node runs the gates on what it was sent; a forging one says the good proof's verdict of any bytes
    sent = task.candidate if node_says == "honest" else b"claim: 1 + 1 = 2\nproof: arithmetic by oracle\n"
    verdict = run_gates(toy, bench, problem, sent, task.track, task.options, task.label)
    verdict.candidate_sha256 = sha256_hex(task.candidate)
    return NodeResult(node.node_id, node.hostname, task.expected_toolchain, outcome=verdict)

cluster = RayVerifier.__new__(RayVerifier)  # the real verifier and merge; the node's transport stands in for Ray
cluster.__dict__.update(settings=RaySettings(), _expected={}, refused={}, _notice=lambda _: None)
import threading
cluster._lock = threading.Lock()
cluster._pick = lambda *_: node
cluster._run_pinned = run_pinned
verifier = cluster if where == "cluster" else LOCAL
candidate = Candidate(Path("toy_one.toy"), problem, data)
cache = VerdictCache()
(verdict,) = verify_candidates([candidate], toy, bench, Track.WITH_ANSWER, options, cache=cache, verifier=verifier)
print(json.dumps({"status": verdict.status, "cached": verdict.cached, "node": verdict.ran_on.get("node_id")}))
"""


@pytest.fixture
def cluster_case(toy_case: tuple[Path, Path, Path]) -> tuple[Path, Path, Path]:
    """The toy case with a copy of this putnam release beside the toy (its cluster code edited below)."""
    site, benchmark, cache = toy_case
    shutil.copytree(PACKAGE, site / "putnam_solver", ignore=shutil.ignore_patterns("__pycache__"))
    return site, benchmark, cache


def _on_cluster(case: tuple[Path, Path, Path], node_says: str, candidate: str, where: str = "cluster") -> dict:
    site, benchmark, cache = case
    argv = [sys.executable, "-c", NODE_SCRIPT, str(benchmark), node_says, where, candidate]
    done = subprocess.run(argv, capture_output=True, text=True, env=_env(site, cache), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(json.loads(done.stdout.splitlines()[-1]))


OLD_MERGE = (
    '        sent = self.undecided("", {}).to_json()\n',
    "        verdict.ran_on = {**ran_on}\n        return outcome  # an older merge: the node's text gates as sent\n",
)
"""A release of the head's merge that took a node's text gates as the node reported them."""


def test_a_cluster_verdict_of_an_older_merge_does_not_answer_a_newer_one(cluster_case: tuple[Path, Path, Path]) -> None:
    """A verdict a node made is what the head's merge (``cluster/request.py``) made of the node's report: a
    head whose merge took the node's text gates kept a forged acceptance of a ``sorry`` proof; after the
    upgrade to a merge that re-runs them, that acceptance still answered ``--ray`` callers from the cache."""
    request = cluster_case[0] / "putnam_solver" / "cluster" / "request.py"
    _edit(request, *OLD_MERGE)
    assert _on_cluster(cluster_case, "forged", SORRY)["status"] == "accepted", "the older merge took the forgery"
    _edit(request, OLD_MERGE[1], OLD_MERGE[0])  # the upgrade
    again = _on_cluster(cluster_case, "forged", SORRY)
    assert again == {"status": "rejected", "cached": False, "node": "node-a"}, again


def test_an_honest_cluster_verdict_answers_again_and_a_local_one_outlives_a_cluster_upgrade(
    cluster_case: tuple[Path, Path, Path],
) -> None:
    """The same merge reuses its verdict; a verdict made here never went through the merge, so a change of
    the cluster code leaves it standing."""
    first = _on_cluster(cluster_case, "honest", GOOD)
    assert first == {"status": "accepted", "cached": False, "node": "node-a"}, first
    assert _on_cluster(cluster_case, "honest", GOOD)["cached"] is True
    assert _on_cluster(cluster_case, "honest", GOOD, "local") == {"status": "accepted", "cached": False, "node": None}
    _edit(cluster_case[0] / "putnam_solver" / "cluster" / "request.py", *OLD_MERGE)
    assert _on_cluster(cluster_case, "honest", GOOD, "local")["cached"] is True


# ------------------------------------------------------------------------------------------------------
# A plug-in prover's kept builds (``core.pinned_store``)


def _verify(case: tuple[Path, Path, Path], text: str) -> tuple[int, str]:
    """``putnam verify --prover toy`` of ``text`` in a new process, as a user runs it."""
    site, benchmark, cache = case
    candidate = benchmark.parent / "cands" / "toy_one.toy"
    candidate.parent.mkdir(exist_ok=True)
    candidate.write_text(text)
    argv = [sys.executable, "-c", "from putnam_solver.cli import main; main()", "verify", "--prover", "toy"]
    argv += ["--gates", "text", "--benchmark", str(benchmark), str(candidate)]
    done = subprocess.run(argv, capture_output=True, text=True, env=_env(site, cache), timeout=120)
    return done.returncode, done.stdout + done.stderr


OLD_CLAIM = (
    'return statement.split("\\n")[0] + "\\n"',
    'return statement.split(":")[0] + ":"',
)
"""The toy's older release, whose reference kept only the claim's keyword."""


def _kept(case: tuple[Path, Path, Path]) -> int:
    return sum(1 for p in (case[2] / "toy-claims").rglob("*") if p.is_file())


def test_a_kept_build_of_a_plugin_s_old_release_is_not_read_by_its_new_one(toy_case: tuple[Path, Path, Path]) -> None:
    """The kept reference of a plug-in prover was keyed by what the plug-in named (its folder and the
    statement's hash) and the trusted package's code: after the upgrade of a plug-in whose older release
    kept too loose a reference (the claim's keyword alone), the new release's G2 read it and passed a
    candidate proving another claim."""
    gate = toy_case[0] / "toy_prover" / "__init__.py"
    _edit(gate, *OLD_CLAIM)
    code, out = _verify(toy_case, GOOD)
    assert code == 0 and "accepted" in out and _kept(toy_case) == 1, out
    _edit(gate, OLD_CLAIM[1], OLD_CLAIM[0])  # the plug-in's next release
    code, out = _verify(toy_case, CHANGED)
    assert code == 1 and "REJECTED" in out and "claim changed" in out, out
    assert _kept(toy_case) == 2, "the new release kept its own reference"


def test_the_same_plugin_reuses_its_kept_build(toy_case: tuple[Path, Path, Path]) -> None:
    for _ in range(2):
        code, out = _verify(toy_case, GOOD)
        assert code == 0 and "accepted" in out, out
    code, out = _verify(toy_case, CHANGED)
    assert code == 1 and "claim changed" in out, out
    assert _kept(toy_case) == 1, "one reference, built once and read by every later verification"


# ------------------------------------------------------------------------------------------------------
# A selftest record: which canaries it judged

SELFTEST_SCRIPT = r"""
import json
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.selftest.runner import require_selftest

try:  # what `putnam solve` asks before its first model call
    record = require_selftest("toy", VerifyOptions())
    print(json.dumps({"passed": record.passed, "finished_at": record.finished_at}))
except InputError as exc:
    print(json.dumps({"refused": str(exc)}))
"""
SUITE = {
    "prover": "toy",
    "title": "Toy canaries",
    "needs": "",
    "canaries": [
        {"name": "good", "file": "good.toy", "problem": "toy_one", "what": "a proof", "refuse": []},
        {"name": "sorry", "file": "sorry.toy", "problem": "toy_one", "what": "a `sorry` proof", "refuse": ["G3"]},
    ],
}


@pytest.fixture
def canary_case(toy_case: tuple[Path, Path, Path]) -> tuple[Path, Path, Path]:
    """The toy with a canary set shipped beside its package (as the built-in kits ship theirs beside the
    trusted one): the kit's release names it."""
    site, benchmark, cache = toy_case
    suite = site / "toy_canaries" / "toy"
    suite.mkdir(parents=True)
    (suite / "suite.json").write_text(json.dumps(SUITE))
    shutil.copyfile(benchmark, suite / "benchmark.jsonl")
    (suite / "good.toy").write_text(GOOD)
    (suite / "sorry.toy").write_text(SORRY)
    shipped = '(Path(__file__).resolve().parents[1] / "toy_canaries" / "toy",)'
    _edit(site / "toy_prover" / "kit.py", "selftest_suites: tuple[Path, ...] = ()", f"selftest_suites = {shipped}")
    return site, benchmark, cache


def _required_selftest(case: tuple[Path, Path, Path]) -> dict:
    site, _, cache = case
    argv = [sys.executable, "-c", SELFTEST_SCRIPT]
    done = subprocess.run(argv, capture_output=True, text=True, env=_env(site, cache), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(json.loads(done.stdout.splitlines()[-1]))


def test_a_selftest_of_older_canaries_does_not_vouch_for_a_changed_canary_set(
    canary_case: tuple[Path, Path, Path],
) -> None:
    """A record was keyed by the prover, toolchain and gate code, and ``uncovered`` held it against the canary
    names only: after a kit release whose ``sorry`` canary takes a spelling the toy's G3 misses (a canary
    of the same name, other bytes, outside every code the key takes), the old passing record still let
    ``solve`` and ``serve`` judge with gates that misjudge it."""
    assert _required_selftest(canary_case)["passed"] is True
    (canary_case[0] / "toy_canaries" / "toy" / "sorry.toy").write_text(CLAIM + "proof: Sorry\n")
    again = _required_selftest(canary_case)
    assert "misjudge canaries" in again.get("refused", ""), again


def test_a_selftest_of_the_same_canaries_is_not_run_again(canary_case: tuple[Path, Path, Path]) -> None:
    first = _required_selftest(canary_case)
    assert first["passed"] is True and _required_selftest(canary_case) == first


# ------------------------------------------------------------------------------------------------------
# A tool's hash, remembered in a long-running process


def _rewrite_in_place(tool: Path, data: bytes) -> None:
    """New bytes in the same file, its size and modification time as before (``cp --preserve``)."""
    info = tool.stat()
    time.sleep(0.05)  # past the file system's clock tick: the change time moves
    with tool.open("r+b") as handle:
        handle.write(data)
    os.utime(tool, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = tool.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (info.st_size, info.st_mtime_ns, info.st_ino)


def test_a_tool_rewritten_with_its_old_size_and_time_is_hashed_again(tmp_path: Path) -> None:
    """A tool's hash (in every toolchain fingerprint: verdict keys, kept builds, selftest records, a node's
    admission) was remembered by path, size and modification time: in ``serve`` or a campaign, a ``coqc``
    replaced in place by one of the same size, its time set back, kept the old binary's identity."""
    tool = tmp_path / "coqc"
    tool.write_bytes(b"old release\n")
    assert file_sha256(tool) == sha256_hex(b"old release\n")
    _rewrite_in_place(tool, b"new release\n")
    assert file_sha256(tool) == sha256_hex(b"new release\n")


def test_an_unchanged_tool_keeps_its_hash(tmp_path: Path) -> None:
    tool = tmp_path / "coqc"
    tool.write_bytes(b"a release\n")
    assert file_sha256(tool) == file_sha256(tool) == sha256_hex(b"a release\n")


def _coq_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Coq library tree (real files) that ``coqc -where`` names."""
    library = tmp_path / "coq"
    (library / "theories" / "ZArith").mkdir(parents=True)
    (library / "theories" / "ZArith" / "Zpow_facts.vo").write_bytes(b"vo")
    monkeypatch.setattr(libraries, "coq_library", lambda coqc: library)
    return library


def test_a_module_installed_into_the_coq_library_is_seen_by_g2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rocq's G2 resolves a partial ``Require`` name against the installed modules and refuses an ambiguous
    one. The set was remembered by the library's path: a module installed into the library while ``serve``
    ran (``Coq.Extra.ZArith.Zpow_facts``, which coqc also finds by the suffix ``ZArith.Zpow_facts``) was
    not in it, so G2 still resolved the now ambiguous name, while the toolchain fingerprint, and so the
    verdict's key, already named the new library."""
    library = _coq_library(tmp_path, monkeypatch)
    coqc: Any = object()
    assert libraries.installed_modules(coqc) == {"Coq.ZArith.Zpow_facts"}
    package = library / "theories" / "Extra" / "ZArith"
    package.mkdir(parents=True)
    (package / "Zpow_facts.vo").write_bytes(b"vo")
    assert libraries.installed_modules(coqc) == {"Coq.ZArith.Zpow_facts", "Coq.Extra.ZArith.Zpow_facts"}


def test_an_unchanged_coq_library_keeps_its_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _coq_library(tmp_path, monkeypatch)
    coqc: Any = object()
    assert libraries.installed_modules(coqc) == libraries.installed_modules(coqc) == {"Coq.ZArith.Zpow_facts"}


# ------------------------------------------------------------------------------------------------------
# Which verdict keys take the cluster's code, and which stores hold without it


def _rejection() -> Verdict:
    """A decided verdict (the text gates' refusal of an ``Admitted`` proof), to store."""
    bench = load_benchmark(ROCQ_SAMPLES)
    problem = bench.problems["sample_even_square"]
    admitted = (ROCQ_SAMPLES.parent / "proofs" / "sample_even_square.v").read_bytes().replace(b"Qed.", b"Admitted.")
    options = VerifyOptions(profile=Profile.TEXT)
    verdict = run_gates(get_prover("rocq"), bench, problem, admitted, Track.WITH_ANSWER, options)
    assert verdict.status == "rejected", verdict.to_json()
    return verdict


def test_a_node_s_verdict_answers_only_through_the_code_that_took_it(tmp_path: Path) -> None:
    """The entry of a node's verdict names the code that took the node's word (``VerdictCache.put``), and
    ``get`` holds it against the caller's; a verdict made here answers every caller and replaces a
    node's (red team 4), so the identity is the entry's, not the key's."""
    cache, made_here = VerdictCache(tmp_path), _rejection()
    on_node = dataclasses.replace(made_here, ran_on={"backend": "ray", "node_id": "node-a"})
    cache.put("k", on_node, "cluster A")
    assert cache.get("k", made_here, "cluster A") is not None
    assert cache.get("k", made_here, "cluster B") is None and cache.get("k", made_here) is None
    cache.put("k", made_here)
    assert all(cache.get("k", made_here, nodes) is not None for nodes in ("", "cluster A", "cluster B"))


def test_putnam_serve_on_a_cluster_names_the_cluster_s_code_as_verify_does(tmp_path: Path) -> None:
    """``serve --ray`` reads and writes a node's verdict under the code of its backend, as ``verify --ray``
    (``dispatch.node_code``): the ``cluster`` package's bytes; ``serve`` without it trusts no node."""
    cluster = RayVerifier.__new__(RayVerifier)
    (tmp_path / "keys").write_text("ops k-0123456789abcdef0123456789\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    config = ServeConfig(keys=load_keys(tmp_path / "keys"), benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)})
    nodes = {}
    for where, backend in (("local", dispatch.LOCAL), ("cluster", cluster)):
        pool = PoolVerifier(1, backend)
        nodes[where] = VerifyService(config, pool).nodes
        pool.close()
    assert nodes == {"local": "", "cluster": dispatch.node_code(cluster)}
    assert dispatch.node_code(cluster).startswith("putnam_solver.cluster.ray: "), "the cluster package's bytes"


def test_the_candidate_caches_live_in_one_process_keyed_by_their_function() -> None:
    """Held: ``core.candidate_cache`` keeps a verification's tokens in memory, an ``lru_cache`` of each
    lexing function (the code is the function object itself, the key its arguments: the candidate's text),
    emptied after each reply of the gate worker; nothing of it outlives the process or reaches a disk."""
    seen: list[str] = []

    @candidate_cache
    def lex(text: str) -> int:
        seen.append(text)
        return len(text)

    assert (lex("a"), lex("a"), lex("bb")) == (1, 1, 2) and seen == ["a", "bb"]
    forget()
    assert lex("a") == 1 and seen == ["a", "bb", "a"]
