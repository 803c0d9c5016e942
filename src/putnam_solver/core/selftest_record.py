"""Where a selftest's record is stored, and the one fact a gate reads back from it.

``putnam selftest`` (``putnam_solver.selftest``) puts canaries through every gate and records, per
prover, toolchain fingerprint and gate code, how each gate judged each canary (``selftest.record`` writes
and reads the whole record). The trusted gates read one fact back: whether a gate passed its known-good
canaries on this toolchain (G6 reports ``unavailable`` rather than ``failed`` when comparator did not), so
that a broken toolchain is never read as a rejection. The file's place and its key are therefore defined
here, and the writer uses them; what its cells mean is the writer's (``selftest.record.Cell``), but for the
one judgement read here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import platformdirs

from putnam_solver.core.cache import gate_code_fingerprint, prover_options_key
from putnam_solver.core.code_identity import plugin_code
from putnam_solver.core.provers import get_prover
from putnam_solver.core.registry import external_identity
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.util import InputError, path_variable
from putnam_solver.core.verify import GateStatus, VerifyOptions

RECORD_VERSION = 1


CANNOT_RUN = "cannot-run"
"""The judgement of a cell whose gate could not run here: no evidence about the gate either way."""
JUDGEMENTS = frozenset({"right", "unjudged", CANNOT_RUN, "wrong"})
"""Every judgement a stored cell may hold (``selftest.record.Cell``); another marks a damaged record."""


def records_dir() -> Path:
    """``$PUTNAM_CACHE_DIR/selftest``, else the per-user cache directory: where no agent can write."""
    base = path_variable("PUTNAM_CACHE_DIR") or Path(platformdirs.user_cache_dir("putnambench-solver"))
    return base / "selftest"


def record_key(prover_name: str, fingerprint: str, options: VerifyOptions) -> str:
    """What a record speaks for: the prover, toolchain fingerprint, gate code (a plug-in prover's own too), AXLE
    choice (and which AXLE, by its service and its code)
    and provers' gate options (a change in any reruns it): canaries put through Lean's kernel alone say nothing of
    ``--kernels lean,nanoda``, nor the reverse. The record holds it (``KEY``) and is read only under it."""
    axle = external_identity("axle") if options.axle else False  # canaries another AXLE judged say nothing of this one
    code = _prover_code(prover_name)
    parts = [prover_name, fingerprint, gate_code_fingerprint(), axle, prover_options_key(options)]
    key = json.dumps([*parts, code] if code else parts)
    return hashlib.sha256(key.encode()).hexdigest()


def _prover_code(prover_name: str) -> str:
    """The code of a prover registered outside the trusted package (``""`` inside it). A prover no entry point
    registers (one built in the process, as the tests' scripted prover) has no code to name: its records
    are keyed apart from every registered prover's."""
    try:
        prover = get_prover(prover_name)
    except InputError:
        return "unregistered"
    return plugin_code(prover)


KEY = "key"
"""The field of a stored record that holds its ``record_key``."""


def record_path(prover_name: str, fingerprint: str, options: VerifyOptions) -> Path:
    """One file per ``record_key``."""
    return records_dir() / f"{prover_name}-{record_key(prover_name, fingerprint, options)[:32]}.json"


def stored_record(prover_name: str, options: VerifyOptions) -> dict[str, Any] | None:
    """The stored record of the last selftest of this prover on the toolchain ``options`` select, as
    JSON (None if none, damaged, of another version, not this user's own file, or made for another key)."""
    fingerprint = get_prover(prover_name).toolchain_fingerprint(options)
    return _record_at(prover_name, fingerprint, options)


def _record_at(prover_name: str, fingerprint: str, options: VerifyOptions) -> dict[str, Any] | None:
    """The record at ``record_path`` when it is this user's own and made for exactly this ``record_key``:
    a record of this user's for another toolchain, gate code or options, renamed or copied into this file
    (by whoever can write the directory: a shared ``PUTNAM_CACHE_DIR``), is none, as a verdict cache entry
    under another key is a miss, so a failed selftest never stands in for a passed one elsewhere."""
    try:  # only this user's own record (``safe_files``): what another account left there is none
        data = json.loads(read_regular_file(record_path(prover_name, fingerprint, options), 64 << 20, own=True))
    except (OSError, UnsafeFile, ValueError):
        return None
    if not isinstance(data, dict) or type(data.get("version")) is not int or data["version"] != RECORD_VERSION:
        return None  # an int exactly: JSON's `true` equals 1 in Python
    return data if data.get(KEY) == record_key(prover_name, fingerprint, options) else None


def known_good_passed(cells: Iterable[Mapping[str, Any]], gate: str) -> bool | None:
    """Whether ``gate`` passed every known-good canary it ran on, among a record's stored ``cells``
    (None: it ran on none). A cell of unknown judgement is a damaged record (ValueError).

    A gate whose known-good canary did not pass cannot tell a rejection from a broken toolchain, so
    callers (G6 for comparator) report ``unavailable`` instead of ``failed`` then.
    """
    goods = [c for c in cells if c["gate"] == gate and c["expected"] == "pass" and _judgement(c) != CANNOT_RUN]
    if not goods:
        return None
    return all(c["status"] == GateStatus.PASSED.value for c in goods)


def _judgement(cell: Mapping[str, Any]) -> str:
    judgement = cell["judgement"]
    if not isinstance(judgement, str) or judgement not in JUDGEMENTS:
        raise ValueError(f"a selftest cell of unknown judgement {judgement!r}")
    return judgement


def known_good_state(
    prover_name: str, fingerprint: str, options: VerifyOptions, gates: Iterable[str]
) -> dict[str, bool | None]:
    """``known_good_passed`` of each of ``gates`` in the record of this prover, toolchain fingerprint and
    options (``record_path``). A gate's verdict can depend on it (G6: comparator's exit 1 is ``failed`` only while its
    known-good canary has not been seen refused), so the verdict cache keys on it: a rejection stored
    before a selftest found the toolchain broken is not reused after."""
    data = _record_at(prover_name, fingerprint, options)
    try:
        return {gate: None if data is None else known_good_passed(data["cells"], gate) for gate in gates}
    except (KeyError, TypeError, ValueError):
        return dict.fromkeys(gates)


def last_known_good(prover_name: str, options: VerifyOptions, gate: str) -> bool | None:
    """``known_good_passed`` in the last selftest of this prover on this toolchain (None without one, or
    when the record is damaged)."""
    data = stored_record(prover_name, options)
    try:
        return None if data is None else known_good_passed(data["cells"], gate)
    except (KeyError, TypeError, ValueError):
        return None
