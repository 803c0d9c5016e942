"""Red team round 8 of the trust paths: a verdict cache that cannot take a new entry.

The verdict cache is an optimisation: a verdict it cannot keep must still be given. Before this round,
``VerdictCache.put`` let an ``OSError`` through (it passed over only a planted link), so with the cache
directory on a full disk (measured on a 12 KiB tmpfs: two sound Rocq proofs judged by real coqc), ``putnam
verify`` ended in "error: No space left on device (the command stopped here; ...)", exit 2, after every
gate had run: both verdicts lost, and neither the cache directory nor the fix named; ``putnam serve``
answered such a request with a 500, and the agent's ``submit`` lost a pass. Kept builds were already
written so (``pinned_store``). Now a write that fails leaves the verdict unkept, and it is given.

And an entry that holds other types than a verdict's (its answers a list, a gate's evidence a number)
ended ``putnam verify`` in "AttributeError: 'list' object has no attribute 'items'" where the cache
promises that a damaged entry only means a fresh run: such an entry is now a miss.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from putnam_solver.core import cache as cache_module
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions
from putnam_solver.serve import PoolVerifier, Readiness, ServeConfig, create_app, load_keys
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from tests.helpers import REPO, ROCQ_SAMPLES

PROOFS = REPO / "samples" / "rocq" / "proofs"
NAMES = ("sample_even_square", "sample_consecutive_even")
KEY = "full-cache-key-0123456789abcdef"


def _failing(code: int) -> Any:
    def write_below(*_: object, **__: object) -> None:
        raise OSError(code, "the cache cannot take it")

    return write_below


def _verify(cache: VerdictCache) -> list[Any]:
    bench = load_benchmark(ROCQ_SAMPLES)
    candidates = [Candidate(PROOFS / f"{n}.v", bench.problems[n], (PROOFS / f"{n}.v").read_bytes()) for n in NAMES]
    return verify_candidates(
        candidates, get_prover("rocq"), bench, Track.WITH_ANSWER, VerifyOptions(Profile.TEXT), cache=cache
    )


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EIO])
def test_a_cache_that_cannot_be_written_loses_no_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    cache = VerdictCache(tmp_path / "cache")
    monkeypatch.setattr(cache_module, "write_below", _failing(code))
    verdicts = _verify(cache)
    assert [v.problem for v in verdicts] == list(NAMES)
    assert all(v.status == "accepted" and not v.cached for v in verdicts)
    assert not list((tmp_path / "cache").rglob("*.json")), "nothing was kept"


def test_a_cache_that_can_be_written_answers_the_next_run(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path / "cache")
    first, again = _verify(cache), _verify(cache)
    assert all(v.status == "accepted" and not v.cached for v in first)
    assert all(v.status == "accepted" and v.cached for v in again)


def test_serve_answers_a_verdict_its_cache_cannot_keep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)  # readiness has tests of its own
    monkeypatch.setattr(Readiness, "start", lambda self: None)
    monkeypatch.setattr(cache_module, "write_below", _failing(errno.ENOSPC))
    (tmp_path / "keys").write_text(f"full {KEY}\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    config = ServeConfig(
        keys=load_keys(tmp_path / "keys"),
        benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)},
        cache=VerdictCache(tmp_path / "cache"),
    )
    body = {"problem": NAMES[0], "candidate": (PROOFS / f"{NAMES[0]}.v").read_text(), "profile": "text"}
    with TestClient(create_app(config, PoolVerifier(1))) as client:
        answer = client.post("/verify", json=body, headers={"Authorization": f"Bearer {KEY}"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "accepted", answer.text


@pytest.mark.parametrize("damage", ["answers", "evidence", "detail"])
def test_an_entry_of_other_types_is_a_miss_and_judged_again(tmp_path: Path, damage: str) -> None:
    cache = VerdictCache(tmp_path / "cache")
    _verify(cache)
    for entry in (tmp_path / "cache").rglob("*.json"):
        data = json.loads(entry.read_text())
        if damage == "answers":
            data["answers"] = [1]
        else:
            data["gates"][0][damage] = 5
        entry.write_text(json.dumps(data))
        entry.chmod(0o644)
    assert all(v.status == "accepted" and not v.cached for v in _verify(cache))
