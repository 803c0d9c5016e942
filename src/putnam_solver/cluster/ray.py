"""Gate work as Ray tasks: ``RayVerifier``, a ``verifier.dispatch.Verifier`` backed by a Ray cluster.

What crosses the wire is only the pinned inputs: the prover's name, the benchmark file's name, SHA-256
and pin, the problem id, the candidate's bytes, the track and the gate options. The node loads the
benchmark from its own data (refusing a file whose SHA-256 is not the pin) and runs the gates with its
own installed toolchain and sandbox, exactly as ``putnam verify`` does there. The head trusts nothing
the node says except its G4-G6 and answer check, and takes even those only when

- the node's toolchain fingerprint is the head's (a node with another one is refused: its verdicts are
  never used and no further task is sent to it), and
- the verdict passes the head's own checks (``cluster.request``): every input hash in it is the hash of
  what was sent, and the head's own G1-G3 on the sent bytes agree with the node's (a node that disagrees
  is refused like one with another toolchain).

``dispatch.elsewhere`` steers a block's tasks away from named nodes (``putnam audit --ray`` re-runs
each pass on another node than the one that produced it, when the cluster has one); the verdict's ``ran_on``
says which were avoided (``avoided_nodes``) or could not be (``not_avoided``: no other node could take the
task). A verdict's ``node_id`` is the node the head sent the task to: a node answering as another is refused.

Each task declares its CPUs and memory, and is pinned to an admitted node, where Ray runs it only when
those resources are free, so a node never runs more builds than it can hold. A task whose worker or
node dies is sent again (to the least loaded admitted node still alive), at most ``max_retries`` times;
then the verdict is an ``error`` that names the lost attempts, never a pass or a rejection.

A proof state (the agent's ``goals``) comes from an admitted node too, but it is text for the agent to
read, never a verdict: it decides nothing and is passed on as the node gave it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver.benchmark_files import find_benchmark_file
from putnam_solver.cluster.request import NodeDisagrees, NodeResult, PinnedTask, Request
from putnam_solver.cluster.settings import RAY_EXTRA, RaySettings
from putnam_solver.core.benchmark import Benchmark, BenchmarkError, Problem, load_benchmark
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Track, Verdict, VerifyOptions, run_gates
from putnam_solver.kits.interactive import ProofState
from putnam_solver.kits.sessions import CheckOutcome, SessionPool, check_file, proof_state
from putnam_solver.verifier.dispatch import AVOIDED_NODES, LOCAL, Verifier

NODE_REFRESH_SECONDS = 1.0
"""How often the head asks the cluster which nodes are alive (at once after a lost task): new nodes are
probed and get tasks within this time."""


LOST_NODE_PAUSE_SECONDS = 30.0
"""How long a node that lost a task is passed over (Ray notices a dead node after some seconds)."""


class RayUnavailable(InputError):
    """Ray is not installed or the cluster cannot be reached: exit code 2, with what to do."""


def _node_identity() -> tuple[str, str]:
    import ray

    return ray.get_runtime_context().get_node_id(), socket.gethostname()


def probe_node(prover: str, options: VerifyOptions) -> NodeResult:
    """Runs on a node: its identity and toolchain fingerprint for ``prover`` with these options."""
    node_id, host = _node_identity()
    return NodeResult(node_id, host, get_prover(prover).toolchain_fingerprint(options))


def run_on_node(task: PinnedTask) -> NodeResult:
    """Runs on a node: refuse on another toolchain or a benchmark that is not the pin, else run the gates."""
    node_id, host = _node_identity()
    prover = get_prover(task.prover)
    toolchain = prover.toolchain_fingerprint(task.options)
    result = functools.partial(NodeResult, node_id, host, toolchain)
    if toolchain != task.expected_toolchain:
        return result(refused=f"toolchain differs from the head's: {toolchain}")
    try:
        pin = (task.benchmark_path, task.benchmark_name, task.benchmark_sha256, task.benchmark_pin)
        benchmark = _pinned_benchmark(*pin)
    except BenchmarkError as exc:
        return result(refused=f"no copy of the pinned benchmark on this node: {exc}")
    problem = benchmark.problems.get(task.problem)
    if problem is None:
        return result(refused=f"the pinned benchmark has no problem {task.problem}")
    try:
        if task.kind == "goals":
            return result(outcome=_goals_on_node(prover, benchmark, problem, task))
        if task.kind == "check":
            text = task.candidate.decode("utf-8")
            return result(
                outcome=check_file(prover, benchmark, problem, text, task.track, task.options, None, task.label, False)
            )
        return result(
            outcome=run_gates(prover, benchmark, problem, task.candidate, task.track, task.options, task.label)
        )
    except InputError as exc:
        return result(input_error=str(exc))


def _goals_on_node(prover: Prover, benchmark: Benchmark, problem: Problem, task: PinnedTask) -> ProofState | str:
    """The proof state from a session started for this task and stopped after it."""
    pool = SessionPool(max_sessions=1, reuse=False)
    try:
        text = task.candidate.decode("utf-8")
        return proof_state(prover, benchmark, problem, text, task.line, task.track, task.options, pool)
    finally:
        pool.close()


@functools.lru_cache(maxsize=8)
def _pinned_benchmark(head_path: str, name: str, sha256: str, pin: str | None) -> Benchmark:
    """The node's own copy of the benchmark whose SHA-256 is ``sha256``: at the head's path if this node
    has the file there, else the copy of ``name`` this node's lookup finds (its ``PUTNAM_BENCHMARK``, its
    data directory, the copy packaged with putnam), held against ``sha256`` like any other."""
    where = Path(head_path)
    path = where if where.is_file() else find_benchmark_file(name)
    return dataclasses.replace(load_benchmark(path, sha256), pin_name=pin)


@dataclass
class _Node:
    node_id: str
    hostname: str
    capacity: float
    toolchain: str = ""
    admitted: bool = False
    in_flight: int = 0
    lost_until: float = 0.0
    """Until when (``time.monotonic``) it gets no task while another node can take it: it lost one."""


class RayVerifier:
    """A ``Verifier`` whose gate work runs as Ray tasks on the cluster at ``settings.address``.

    Thread-safe: each call blocks its thread on its own task. ``refused`` names the nodes turned away
    for another toolchain; ``close`` disconnects (and stops a ``local`` cluster).
    """

    name = "ray"

    def __init__(self, settings: RaySettings, notice: Callable[[str], None] = lambda _: None) -> None:
        ray = import_ray()
        self.settings = settings
        self._notice = notice
        self._lock = threading.Lock()
        self._nodes: dict[str, _Node] = {}
        self._expected: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}
        self._admitted_for: set[tuple[str, str]] = set()
        self.refused: dict[str, str] = {}
        self._refreshed = -NODE_REFRESH_SECONDS
        self._owns_connection = not ray.is_initialized()
        """Whether ``close`` disconnects: not when this process was connected before (by its caller)."""
        try:
            if self._owns_connection:
                address = None if settings.address == "local" else settings.address
                ray.init(address=address, log_to_driver=False, logging_level="ERROR", configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RayUnavailable(
                f"--ray {settings.address}: cannot connect to a Ray cluster ({exc}). Start one with "
                "`ray start --head` (and `ray start --address HEAD:6379` on each other node), or pass "
                "--ray local for a one-machine cluster"
            ) from exc
        self._probe = ray.remote(probe_node)
        self._run = ray.remote(run_on_node)

    def slots(self) -> int:
        """Tasks the cluster holds at once: its CPUs over the CPUs each task reserves."""
        ray = import_ray()

        cpus = float(ray.cluster_resources().get("CPU", 0))
        return max(1, int(cpus // self.settings.num_cpus) if self.settings.num_cpus else int(cpus))

    def close(self) -> None:
        """Disconnect from the cluster (stopping a ``local`` one), if this verifier connected."""
        if self._owns_connection:
            import_ray().shutdown()

    # ------------------------------------------------------------------------------------------ Verifier

    def verify(
        self,
        prover: Prover,
        benchmark: Benchmark,
        problem: Problem,
        candidate_bytes: bytes,
        track: Track,
        options: VerifyOptions,
        label: str = "<candidate>",
    ) -> Verdict:
        request = Request("verify", prover, benchmark, problem, candidate_bytes, track, options, label)
        return request.verdict_of(self._dispatch(request))

    def check(
        self,
        prover: Prover,
        benchmark: Benchmark,
        problem: Problem,
        candidate: str,
        track: Track,
        options: VerifyOptions,
        pool: SessionPool | None,
        label: str = "<candidate>",
        warm: bool = True,
    ) -> CheckOutcome:
        """The check runs cold on a node (warm sessions are this machine's); ``pool`` and ``warm`` are
        therefore not used."""
        data = candidate.encode("utf-8")
        request = Request("check", prover, benchmark, problem, data, track, options, label)
        outcome = self._dispatch(request)
        return outcome if isinstance(outcome, CheckOutcome) else CheckOutcome(request.verdict_of(outcome))

    def goals(
        self,
        prover: Prover,
        benchmark: Benchmark,
        problem: Problem,
        candidate: str,
        line: int,
        track: Track,
        options: VerifyOptions,
        pool: SessionPool,
    ) -> ProofState | str:
        """The proof state from a session a node starts for this call (``pool`` is this machine's)."""
        data = candidate.encode("utf-8")
        request = Request("goals", prover, benchmark, problem, data, track, options, "<candidate>", line)
        outcome = self._dispatch(request)
        if isinstance(outcome, (ProofState, str)):
            return outcome
        # the cluster could not answer: the dispatch error verdict says why
        return f"no proof state: {request.verdict_of(outcome).gates[0].detail}"

    def prepare(
        self, prover: Prover, benchmark: Benchmark, problem: Problem, track: Track, options: VerifyOptions
    ) -> dict[str, str | None]:
        """Nothing: each node keeps its own cache and any node may take a problem's verifications, so a
        build made ahead on one node would spare the others nothing; each node builds on its first."""
        return {}

    # ------------------------------------------------------------------------------------------ dispatch

    def _dispatch(self, request: Request) -> Verdict | CheckOutcome | ProofState | str:
        prover, options = request.prover, request.options
        expected = self._expected_toolchain(prover, options)
        task = request.pinned(expected)
        lost: list[dict[str, str]] = []
        while len(lost) <= self.settings.max_retries:
            node = self._pick(prover.name, options, expected)
            if node is None:
                lost.append({"node": "-", "error": "no node of the cluster is alive with the head's toolchain"})
                break
            try:
                result = self._run_pinned(node, task)
            except Exception as exc:  # the worker or node died, or Ray lost the task: send it again
                lost.append({"node": node.node_id, "hostname": node.hostname, "error": _ray_error(exc)})
                self._lost_task_on(node)
                continue
            if result.node_id != node.node_id:  # a verdict names the node the head sent it to, never another
                result = dataclasses.replace(
                    result, refused=f"it answered as node {str(result.node_id)[:40]!r}", input_error=None
                )
            if result.input_error is not None:  # the head's own InputError, raised, or the node's lie
                lied = request.input_error_checked(result)
                self._refuse(node, lied.why)
                return lied.verdict
            if result.refused is not None or result.toolchain != expected:
                self._refuse(node, result.refused or f"toolchain differs from the head's: {result.toolchain}")
                lost.append({"node": node.node_id, "hostname": node.hostname, "error": f"refused: {result.refused}"})
                continue
            checked = request.checked(result, lost)
            if isinstance(checked, NodeDisagrees):
                self._refuse(node, checked.why)
                return checked.verdict
            if (avoided := AVOIDED_NODES.get()) and isinstance(checked, (Verdict, CheckOutcome)):
                ran_on = request.verdict_of(checked).ran_on  # says only what was done: avoided, or could not be
                ran_on["avoided_nodes" if node.node_id not in avoided else "not_avoided"] = sorted(avoided)
            return checked
        why = f"the cluster could not verify it ({len(lost)} attempts lost; last: {lost[-1]['error']})"
        return request.undecided(why, {"lost_attempts": lost})

    def _run_pinned(self, node: _Node, task: PinnedTask) -> NodeResult:
        ray = import_ray()
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        try:
            ref = self._run.options(
                num_cpus=self.settings.num_cpus,
                memory=self.settings.memory_mb * 1024 * 1024,
                max_retries=0,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node.node_id, soft=False),
            ).remote(task)
            result: NodeResult = ray.get(ref)
            return result
        finally:
            with self._lock:
                node.in_flight -= 1

    # ------------------------------------------------------------------------------------------- nodes

    def _expected_toolchain(self, prover: Prover, options: VerifyOptions) -> str:
        key = (prover.name, tuple(sorted((k, str(v)) for k, v in options.tools.items())))
        with self._lock:
            if key not in self._expected:
                self._expected[key] = prover.toolchain_fingerprint(options)
            return self._expected[key]

    def _pick(self, prover: str, options: VerifyOptions, expected: str) -> _Node | None:
        """The admitted alive node with the most room, probing nodes not yet seen for this toolchain, and
        not one of ``AVOIDED_NODES`` while another can take the task (``dispatch.elsewhere``; the verdict's
        ``ran_on`` says whether they were avoided); its ``in_flight`` counts the task from now on
        (``_run_pinned`` uncounts it)."""
        self._admit(prover, options, expected)
        with self._lock:
            ready = [n for n in self._nodes.values() if n.admitted and (n.node_id, expected) in self._admitted_for]
            now = time.monotonic()
            trusted = [n for n in ready if n.lost_until <= now] or ready
            avoided = AVOIDED_NODES.get()
            trusted = [n for n in trusted if n.node_id not in avoided] or trusted
            chosen = min(trusted, key=lambda n: n.in_flight / n.capacity, default=None)
            if chosen is not None:
                chosen.in_flight += 1  # counted at once, so that concurrent picks spread over the nodes
            return chosen

    def _admit(self, prover: str, options: VerifyOptions, expected: str) -> None:
        """Probe each alive node not yet probed for ``expected``: same fingerprint, admitted; else refused."""
        ray = import_ray()
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        with self._lock:
            if time.monotonic() - self._refreshed > NODE_REFRESH_SECONDS:
                self._refresh_nodes()
            todo = [n for n in self._nodes.values() if (n.node_id, expected) not in self._admitted_for]
            todo = [n for n in todo if n.node_id not in self.refused]
            if not todo:
                return
            refs = {
                n.node_id: self._probe.options(
                    num_cpus=0,
                    max_retries=0,
                    scheduling_strategy=NodeAffinitySchedulingStrategy(n.node_id, soft=False),
                ).remote(prover, options)
                for n in todo
            }
            for node in todo:
                try:
                    found: NodeResult = ray.get(refs[node.node_id], timeout=120)
                except Exception as exc:  # a node that cannot answer a probe gets no task
                    self._notice(f"ray: node {node.hostname} ({node.node_id[:12]}) did not answer: {_ray_error(exc)}")
                    continue
                node.toolchain = found.toolchain
                if found.toolchain == expected:
                    node.admitted = True
                    self._admitted_for.add((node.node_id, expected))
                else:
                    self._refuse_locked(node, f"toolchain differs from the head's: {found.toolchain}")

    def _refresh_nodes(self) -> None:
        ray = import_ray()

        self._refreshed = time.monotonic()
        alive = {n["NodeID"]: n for n in ray.nodes() if n.get("Alive")}
        for node_id in list(self._nodes):
            if node_id not in alive:
                del self._nodes[node_id]
        for node_id, info in alive.items():
            cpus = float(info.get("Resources", {}).get("CPU", 0))
            capacity = cpus / self.settings.num_cpus if self.settings.num_cpus else cpus
            if node_id not in self._nodes and capacity >= 1:
                self._nodes[node_id] = _Node(node_id, str(info.get("NodeManagerHostname", "?")), capacity)

    def _lost_task_on(self, node: _Node) -> None:
        """After a lost task: ask again which nodes are alive, and send nothing more to this node for a
        while (the cluster may not have noticed yet that it died) unless no other node is left."""
        with self._lock:
            node.lost_until = time.monotonic() + LOST_NODE_PAUSE_SECONDS
            self._refresh_nodes()

    def _refuse(self, node: _Node, why: str) -> None:
        with self._lock:
            self._refuse_locked(node, why)

    def _refuse_locked(self, node: _Node, why: str) -> None:
        node.admitted = False
        if node.node_id not in self.refused:
            self.refused[node.node_id] = why
            self._notice(f"ray: node {node.hostname} ({node.node_id[:12]}) refused: {why}")

    def nodes(self) -> list[dict[str, Any]]:
        """The nodes seen so far: id, host, capacity in tasks, fingerprint, admitted or not."""
        with self._lock:
            return [dataclasses.asdict(n) for n in self._nodes.values()]


def _ray_error(exc: BaseException) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {first[:300]}"


def import_ray() -> Any:
    """The ``ray`` module, or a clear error naming the extra that installs it."""
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailable(
            f"--ray needs Ray, which is not installed: pip install '{RAY_EXTRA}' (on every node of the cluster)"
        ) from exc
    return ray


@contextlib.contextmanager
def open_verifier(settings: RaySettings | None, notice: Callable[[str], None] = lambda _: None) -> Iterator[Verifier]:
    """The verifier a command runs its gates with: ``LOCAL`` without ``settings``, else a ``RayVerifier``
    connected for the duration of the block and disconnected after it."""
    if settings is None:
        yield LOCAL
        return
    verifier = RayVerifier(settings, notice)
    try:
        yield verifier
    finally:
        verifier.close()
