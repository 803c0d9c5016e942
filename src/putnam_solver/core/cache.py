"""Verdict cache: a decided verdict is reused for the same inputs instead of recompiling.

The key covers everything a verdict depends on: candidate bytes, challenge bytes, statement and benchmark
hashes, prover, track, every verification option that can change a verdict (``options_key``), the
toolchain fingerprint and this package's gates (their source and the data they read), and the code of
any gate registered from outside it (``code_identity.plugin_code``: a plug-in prover's, G7's check).
Only decided verdicts (accepted or rejected) are stored; an ``error`` or ``unavailable`` outcome (an
exhausted cap among them) is always re-run, and so is an acceptance whose answer check a cap, a tactic's
time limit or a crash left undecided (``reusable``). The cache lives in the user's cache directory, which
the agent's sandbox cannot reach, so a model cannot plant an accepted verdict there.

A cache directory can still be shared, or prepared by someone else (``PUTNAM_CACHE_DIR``), so an entry is
used only when it is bound to what is asked and is this user's own:

- the verdict it holds is for exactly the inputs of the request: the same problem, prover, track,
  profile, expected gates, the hashes of the candidate, statement, challenge and benchmark, whether the
  benchmark is pinned, and the recursion and sandbox options (an entry copied or linked under another
  key, an accepted verdict of the good proof placed at the key of a bad one, is a miss);
- it is a regular file (no link followed) owned by this user and writable by no one else, so that what
  another account wrote in a shared directory is never taken for a verdict of ours.
- it was made here, unless the caller verifies on a cluster itself: a node is believed for its compile
  and kernel gates only by a run that chose it (``--ray``), so its verdict never answers a plain
  ``putnam verify`` or a ``putnam serve`` without ``--ray``; and only through the same code that took
  the node's word (the head's checks and merge, ``cluster.request``: the entry records its identity),
  so that an acceptance an older merge took from a node never answers a newer merge that refuses it.

Anything else is a miss: the candidate is verified again and the entry replaced.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import platformdirs

from putnam_solver.core.answer_check import settled
from putnam_solver.core.code_identity import code_fingerprint
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file, write_below
from putnam_solver.core.submission import VERDICT_INPUT, ProverOptions
from putnam_solver.core.untrusted import stored_flag
from putnam_solver.core.util import path_variable
from putnam_solver.core.verdict import LEFT_TO_SEMANTIC_CHECK
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, Verdict, VerifyOptions

CACHE_DIR_VARIABLE = "PUTNAM_CACHE_DIR"


def default_cache_dir() -> Path:
    override = path_variable(CACHE_DIR_VARIABLE)
    if override is not None:
        return override
    return Path(platformdirs.user_cache_dir("putnambench-solver")) / "verdicts"


@cache
def gate_code_fingerprint() -> str:
    """SHA-256 over every file of this package, so that a changed gate never reuses an old verdict (gates
    registered from outside it: ``code_identity.plugin_code``)."""
    return code_fingerprint(Path(__file__).parent)


def verdict_inputs(options_type: type[VerifyOptions | ProverOptions] = VerifyOptions) -> tuple[str, ...]:
    """The fields of the options type that declare they can change a verdict (``verify.decides``)."""
    return tuple(f.name for f in dataclasses.fields(options_type) if f.metadata.get(VERDICT_INPUT) is True)


def options_key(options: VerifyOptions) -> str:
    """The verification options of a verdict's cache key: every field that declares it can change a
    verdict, as canonical JSON (a prover's options by the same rule, see :func:`_plain`)."""
    return json.dumps(_plain(options), sort_keys=True)


def prover_options_key(options: VerifyOptions) -> str:
    """The provers' own options of ``options`` that can change a verdict and differ from their defaults,
    as canonical JSON (``{}`` when every prover runs on its defaults)."""
    return json.dumps(_plain(options.prover_options), sort_keys=True)


def _plain(value: object) -> object:
    """An option value as JSON data (enums by value, paths as text, mappings by sorted key; options by
    their ``decides`` fields, a prover's options by type name, those equal to their defaults left out,
    since a gate reads the defaults when none are given)."""
    if isinstance(value, VerifyOptions | ProverOptions):
        return {name: _plain(getattr(value, name)) for name in verdict_inputs(type(value))}
    if isinstance(value, tuple) and all(isinstance(v, ProverOptions) for v in value):
        keyed = {f"{type(v).__module__}.{type(v).__qualname__}": (_plain(v), _plain(type(v)())) for v in value}
        return {kind: given for kind, (given, default) in keyed.items() if given != default}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def cache_key(parts: dict[str, str]) -> str:
    """A stable key from named parts (order-independent, unambiguous)."""
    canonical = json.dumps({**parts, "gate_code": gate_code_fingerprint()}, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


class VerdictCache:
    """Decided verdicts stored as one JSON file per key, each written atomically."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_cache_dir()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str, request: Verdict, nodes: str = "") -> Verdict | None:
        """The stored verdict under ``key`` if it is one for the inputs ``request`` names (a verdict made
        from the same inputs, e.g. ``verify.unusable_verdict``: only its identity is compared) and the
        entry is this user's own; else None (module docstring). A verdict another machine made (a
        cluster node's: ``ran_on``) answers only a caller that verifies on such nodes itself, through the
        code that took the node's word for it (``nodes``: that code's identity, as ``put`` recorded it); a
        verification made here (``nodes`` empty) trusts no node, so it judges again.

        The identity is the entry's, not part of the key: a verdict made here answers every caller, and
        replaces a node's verdict of the same inputs (red team 4)."""
        try:
            data = json.loads(read_regular_file(self._path(key), MAX_ENTRY_BYTES, own=True))
            verdict = verdict_from_json(data)
        except (OSError, UnsafeFile, ValueError, KeyError, TypeError):
            return None  # a missing, damaged (a flag not true or false) or foreign entry just means a fresh run
        if data.get("key") != key or not reusable(verdict):
            return None
        if verdict.ran_on and (not nodes or data.get(MERGED_BY) != nodes):
            return None
        if verdict_identity(verdict) != verdict_identity(request):
            return None
        verdict.cached = True
        return verdict

    def put(self, key: str, verdict: Verdict, nodes: str = "") -> None:
        """Store a decided ``verdict``; one a node made, with ``nodes``, the identity of the code that took
        the node's word for it (``get``)."""
        if not reusable(verdict):
            return
        payload = {**verdict.to_json(), "key": key, "expected_gates": list(verdict.expected_gates)}
        if verdict.ran_on:
            payload[MERGED_BY] = nodes
        entry = self._path(key).relative_to(self.directory)
        with contextlib.suppress(UnsafeFile, OSError):  # a planted link, a full disk: this verdict is only not kept
            write_below(self.directory, entry, json.dumps(payload, sort_keys=True).encode("utf-8"), ENTRY_MODE)


MERGED_BY = "merged_by"
"""The field of an entry holding a node's verdict that names the code that took the node's word (``get``)."""
MAX_ENTRY_BYTES = 64 << 20
"""The largest verdict entry read back (a verdict with every gate's capped detail is far smaller)."""
ENTRY_MODE = 0o644
"""Entries are written writable by their owner alone, whatever the umask (others' are never read)."""


def reusable(verdict: Verdict) -> bool:
    """A verdict decided by its inputs alone: a rejection, or an acceptance whose every answer check is
    settled (``answer_check.settled``). An ``unknown`` answer check that a tactic's time limit, the memory
    cap (not part of the key) or a crash left undecided is not: reused, it would stand where a run with
    more room proves the answer different, a ``disputed`` verdict counted as solved."""
    if verdict.status == "rejected":
        return True
    return verdict.status == "accepted" and all(
        settled(answer.get("check")) if isinstance(answer, dict) else False for answer in verdict.answers.values()
    )


def verdict_identity(verdict: Verdict) -> tuple[object, ...]:
    """What binds a verdict to the inputs it judged: a cached verdict is reused only for a request of the
    same identity (every part of the cache key that a verdict records, and what the pin and options say)."""
    return (
        verdict.problem,
        verdict.prover,
        verdict.track,
        verdict.profile,
        tuple(verdict.expected_gates),
        verdict.candidate_sha256,
        verdict.statement_sha256,
        verdict.challenge_sha256,
        verdict.benchmark_sha256,
        verdict.benchmark_pinned,
        verdict.allow_recursion,
        verdict.unsafe_no_sandbox,
    )


def verdict_from_json(data: dict[str, Any]) -> Verdict:
    """Rebuild a Verdict written by ``Verdict.to_json`` (plus ``expected_gates``)."""
    return Verdict(
        problem=data["problem"],
        prover=data["prover"],
        track=Track(data["track"]),
        profile=Profile(data["profile"]),
        gates=[
            GateResult(
                _a(str, g["id"]),
                _a(str, g["name"]),
                GateStatus(g["status"]),
                _a(str, g["detail"]),
                _evidence(g.get("evidence", {})),
            )
            for g in data["gates"]
        ],
        expected_gates=tuple(data["expected_gates"]),
        candidate_sha256=data["candidate_sha256"],
        statement_sha256=data["statement_sha256"],
        challenge_sha256=data["challenge_sha256"],
        benchmark_sha256=data["benchmark_sha256"],
        benchmark_pinned=stored_flag(data["benchmark_pinned"], stored_as_json=True),
        candidate_path=data.get("candidate_path"),
        answers=_a(dict, data.get("answers", {})),
        unsafe_no_sandbox=stored_flag(data.get("unsafe_no_sandbox", False), stored_as_json=True),
        allow_recursion=stored_flag(data.get("allow_recursion", False), stored_as_json=True),
        benchmark=dict(data.get("benchmark") or {}),
        ran_on=dict(data.get("ran_on", {})),
    )


def _evidence(value: Any) -> dict[str, Any]:
    """A gate's stored evidence, whose flag that a refusal is left to the semantic check (which decides what
    a rejection tells the agent to do) is read strictly (``stored_flag``), else a miss."""
    evidence: dict[str, Any] = _a(dict, value)
    if LEFT_TO_SEMANTIC_CHECK in evidence:
        stored_flag(evidence[LEFT_TO_SEMANTIC_CHECK], stored_as_json=True)
    return evidence


def _a(kind: type, value: Any) -> Any:
    """``value`` if it is a ``kind``, else TypeError: an entry of other types is damaged, a miss (``get``)."""
    if not isinstance(value, kind):
        raise TypeError(f"a {kind.__name__} expected in a verdict entry")
    return value
