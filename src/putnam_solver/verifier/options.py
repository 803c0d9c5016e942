"""Gate flags, and the one function that turns them into verification options.

Every way of starting a verification (``putnam verify``, ``audit``, ``selftest``, ``doctor``, ``serve``,
``mcp`` and a run's stored config) states its gate settings as :class:`GateFlags`, in the flags' own
terms, and calls :meth:`GateFlags.options`: so each flag means one thing everywhere, and the options only
one prover's gates read go into that prover's own options type here, and only here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from putnam_solver.core.provers import get_prover, prover_names
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, VerifyOptions

_SHARED, _ROCQ, _LEAN = VerifyOptions(), RocqOptions(), LeanOptions()
"""The defaults the options types declare, so that a flag left out means what the option does by default."""


@dataclass(frozen=True)
class GateFlags:
    """The gate settings of a command, a request or a stored run, by what each flag says (``--timeout``,
    ``--allow-recursion``, ``--kernels``...). A field left out takes the default of the option it sets."""

    profile: Profile = _SHARED.profile
    acceptance: Profile | None = None
    axle: bool = False
    timeout_seconds: float = _SHARED.timeout_seconds
    memory_mb: int = _SHARED.memory_mb
    unsafe_no_sandbox: bool = False
    tools: Mapping[str, Path] = field(default_factory=dict)
    keep_going: bool = False
    max_candidate_bytes: int = _SHARED.max_candidate_bytes
    toolchain: str | None = None
    selftest_run: bool = False
    kept_builds: bool = _SHARED.kept_builds
    allow_recursion: bool = _ROCQ.allow_recursion
    statement_by_elaboration: bool = _LEAN.statement_by_elaboration
    kernels: tuple[str, ...] = _LEAN.kernels
    unsafe_comparator: bool = _LEAN.unsafe_comparator
    comparator_timeout_seconds: float = _LEAN.comparator_timeout_seconds
    comparator_memory_mb: int | None = _LEAN.comparator_memory_mb

    def options(self) -> VerifyOptions:
        """The verification options these flags stand for."""
        return VerifyOptions(
            profile=self.profile,
            acceptance=self.acceptance,
            axle=self.axle,
            timeout_seconds=self.timeout_seconds,
            memory_mb=self.memory_mb,
            unsafe_no_sandbox=self.unsafe_no_sandbox,
            tools=dict(self.tools),
            keep_going=self.keep_going,
            max_candidate_bytes=self.max_candidate_bytes,
            toolchain=self.toolchain,
            selftest_run=self.selftest_run,
            kept_builds=self.kept_builds,
            prover_options=(
                RocqOptions(allow_recursion=self.allow_recursion),
                LeanOptions(
                    statement_by_elaboration=self.statement_by_elaboration,
                    kernels=self.kernels,
                    unsafe_comparator=self.unsafe_comparator,
                    comparator_timeout_seconds=self.comparator_timeout_seconds,
                    comparator_memory_mb=self.comparator_memory_mb,
                ),
            ),
        )


def tool_locations(given: Sequence[str]) -> dict[str, Path]:
    """``--tool NAME=PATH`` values as a mapping for ``VerifyOptions.tools``; a malformed value or a name
    no registered prover runs is the user's input error, naming the choices."""
    known = {spec.name: spec for name in prover_names() for spec in get_prover(name).tools}
    chosen: dict[str, Path] = {}
    for value in given:
        name, sep, path = value.partition("=")
        if not sep or not path:
            raise InputError(f"--tool {value!r}: write NAME=PATH, e.g. --tool coqc=/opt/coq/bin/coqc")
        if name not in known:
            raise InputError(f"--tool {value!r}: no prover runs a tool {name!r}; choose one of: {', '.join(known)}")
        chosen[name] = Path(path).expanduser().resolve()
    return chosen
