"""What the pipeline and the text gates' worker share: a verification's settings (``VerifyOptions``), what
a gate is given (``Submission``) and what a gate is (``Gate``, run by :func:`run_gate`).

They live apart from ``verify`` so that ``text_gates``, which ``verify`` calls, can use them without
importing ``verify`` back: the imports of the trusted package go one way
(``verify`` -> ``text_gates`` -> ``submission`` -> ``verdict``).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import traceback
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, replace
from pathlib import Path
from typing import Any, Final, TypeVar

from putnam_solver.core.artifacts import Artifact, Artifacts
from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.sandbox import SandboxLimits
from putnam_solver.core.verdict import (
    DEFAULT_MAX_CANDIDATE_BYTES,
    DEFAULT_TEXT_GATE_SECONDS,
    GateResult,
    GateStatus,
    Profile,
    Track,
)

VERDICT_INPUT: Final = "verdict_input"
"""The metadata key by which each ``VerifyOptions`` field declares whether it can change a verdict."""


def decides(default: Any = MISSING, *, factory: Any = MISSING) -> Any:
    """A field that can change a verdict: it is part of the verdict cache's key."""
    return field(default=default, default_factory=factory, metadata={VERDICT_INPUT: True})


def bounds(default: Any, *, why: str) -> Any:
    """A field that cannot change a decided verdict (a resource bound whose exhaustion is an error, never
    cached): left out of the cache key, with the reason."""
    return field(default=default, metadata={VERDICT_INPUT: False, "why": why})


@dataclass(frozen=True)
class ProverOptions:
    """The options of one prover's gates (``RocqOptions``, ``LeanOptions``), in a type of the prover's own,
    kept in ``VerifyOptions.prover_options``. Each field declares ``decides`` or ``bounds`` like the shared
    options', and the verdict cache's key takes the ``decides`` ones in the same way."""

    @property
    def recursion_allowed(self) -> bool:
        """Whether these options lift a rule against candidate-defined recursion: every verdict records it."""
        return False


P = TypeVar("P", bound=ProverOptions)


@dataclass(frozen=True)
class VerifyOptions:
    """Settings every gate may read. Defaults are the safe ones.

    Each field declares with ``decides`` or ``bounds`` whether it can change a verdict; the verdict
    cache's key is derived from that (``cache.options_key``), and a unit test refuses a field that
    declares neither, so a new option never shares cache entries by omission.

    ``disk_mb`` is the sandbox's disk cap for every tool run (``SandboxLimits.disk_mb``: each of the
    writable workdir, the private ``/tmp`` and any one file written, so each kept ``.vo``/``.olean``).
    """

    profile: Profile = decides(Profile.FULL)
    acceptance: Profile | None = decides(None)
    """The profile the candidate will finally be judged by, when this run is a rehearsal of it (the
    agent's ``check`` runs ``fast`` before ``submit`` runs ``full``): the text gates apply its rules, so
    a check never refuses what the acceptance would accept. None: this run is the acceptance."""
    axle: bool = decides(False)
    timeout_seconds: float = decides(600.0)
    """Also AXLE's server-side time limit, whose expiry AXLE reports as a decided ``okay: false``."""
    memory_mb: int = bounds(16384, why="an exhausted memory cap is an error, never cached")
    disk_mb: int = bounds(SandboxLimits.disk_mb, why="an output over the disk cap is an error, never cached")
    unsafe_no_sandbox: bool = decides(False)
    tools: Mapping[str, Path] = decides(factory=dict)
    """Executables the user chose, by tool name (``--tool lean=PATH``); each prover declares its tools
    (``Prover.tools``) and finds the others itself."""
    keep_going: bool = decides(False)
    """Every gate judges even after one refused: the gates listed in a rejection differ."""
    max_candidate_bytes: int = decides(DEFAULT_MAX_CANDIDATE_BYTES)
    text_gate_seconds: float = bounds(
        DEFAULT_TEXT_GATE_SECONDS, why="a text gate past its bound is an error, never cached"
    )
    toolchain: str | None = decides(None)
    """The toolchain release to judge with where several are installed side by side (Lean: a pinned
    Lean/Mathlib release such as ``v4.24.0``); None: the prover's default. Callers set it to the release the
    benchmark states unless the user chose another (``--toolchain``)."""
    kept_builds: bool = bounds(True, why="a kept build is keyed by all it is made from: a new one is the same")
    """Use the builds of pinned statements kept in the cache directory (``core.pinned_store``). False for a
    verification said to be afresh (``putnam audit``, ``verify --no-cache``): only those this process built
    itself, so that nothing an earlier process left in the cache directory takes part in its verdicts."""
    selftest_run: bool = decides(False)
    """Set by ``putnam selftest`` for its own runs: gates judge afresh instead of deferring to the last
    selftest record (which would otherwise decide the new one)."""
    prover_options: tuple[ProverOptions, ...] = decides(())
    """Options only one prover's gates read, each in that prover's own type (at most one of each type):
    a gate asks for its own with :meth:`of`, and gets the defaults when none was given."""

    def __post_init__(self) -> None:
        kinds = [type(o) for o in self.prover_options]
        if len(set(kinds)) != len(kinds):
            raise ValueError(f"prover options given twice: {sorted(k.__name__ for k in kinds)}")

    def of(self, kind: type[P]) -> P:
        """This verification's options of type ``kind`` (a prover's own), or its defaults."""
        return next((o for o in self.prover_options if isinstance(o, kind)), None) or kind()

    @property
    def recursion_allowed(self) -> bool:
        """Whether a prover's options lift its rule against candidate-defined recursion (``Verdict``)."""
        return any(o.recursion_allowed for o in self.prover_options)

    def with_options(self, *given: ProverOptions) -> VerifyOptions:
        """These options with ``given`` in place of any prover options of the same types."""
        kinds = {type(o) for o in given}
        kept = tuple(o for o in self.prover_options if type(o) not in kinds)
        return replace(self, prover_options=(*kept, *given))


@dataclass(frozen=True)
class Submission:
    """Everything a gate is given: the pinned record, the candidate's bytes, the harness's challenge.

    ``scratch`` is a private directory made for this verification only (on first use, so that text
    gates cost no file system work); gates that compile put their fresh copies and artifacts under it,
    and the pipeline deletes it afterwards.
    """

    problem: Problem
    benchmark: Benchmark
    track: Track
    candidate_bytes: bytes
    candidate: str
    challenge: str
    scratch_dir: ScratchDir
    options: VerifyOptions
    prior: tuple[GateResult, ...] = ()
    artifacts: Artifacts = field(default_factory=Artifacts)
    """What the gates of this verification make for each other (``artifacts``), shared by every gate."""

    @property
    def scratch(self) -> Path:
        return self.scratch_dir.path()

    @property
    def rules_profile(self) -> Profile:
        """The profile whose rules the text gates apply: the acceptance's, or this run's own."""
        return self.options.acceptance or self.options.profile


class ScratchDir:
    """A temporary directory created on first use and removed by ``cleanup`` (an ``existing`` directory,
    given by a caller that manages it, is used as is and left in place)."""

    def __init__(self, prefix: str = "putnam-", existing: Path | None = None) -> None:
        self._prefix = prefix
        self._path: Path | None = existing
        self._owned = existing is None
        self._lock = threading.Lock()

    def path(self) -> Path:
        with self._lock:
            if self._path is None:
                self._path = Path(tempfile.mkdtemp(prefix=self._prefix))
            return self._path

    def cleanup(self) -> None:
        if self._path is not None and self._owned:
            shutil.rmtree(self._path, ignore_errors=True)


GateCheck = Callable[[Submission], GateResult]
GateReadiness = Callable[[VerifyOptions], tuple[bool, str]]


def text_gate_ready(options: VerifyOptions) -> tuple[bool, str]:
    """A gate that only reads text needs nothing installed."""
    return True, "pure Python, always available"


@dataclass(frozen=True)
class Gate:
    """A named check. ``id`` places it in the profiles (G1..G7); ``ready`` says whether it can run here
    (its tools found, the sandbox usable) and if not, what to do, for ``putnam doctor``; ``needs`` are the
    artifacts its check asks for, which the pipeline starts early (``artifacts``)."""

    id: str
    name: str
    check: GateCheck
    ready: GateReadiness = text_gate_ready
    needs: tuple[Artifact[Any], ...] = ()


def run_gate(gate: Gate, sub: Submission) -> GateResult:
    """One gate on one submission; a gate that crashes or answers for another gate is an ``error``."""
    try:
        result = gate.check(sub)
    except Exception as exc:  # a crashing gate is an error, never a pass
        return GateResult(
            gate.id,
            gate.name,
            GateStatus.ERROR,
            f"gate crashed: {type(exc).__name__}: {exc}",
            {"traceback": traceback.format_exc(limit=8)},
        )
    if result.id != gate.id:
        return GateResult(gate.id, gate.name, GateStatus.ERROR, f"gate returned a result for {result.id}")
    return result
