"""The verdict cache's key holds every verification option that can change a verdict (issue 22, item 7).

AXLE's ``okay: false`` on its server-side time limit (``timeout_seconds``) is a decided rejection, so two
runs that differ only in that limit must never share a cache entry; a cap whose exhaustion is only ever
an ``error`` (never cached) may.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from putnam_solver.core.cache import KEYED_OPTIONS, UNKEYED_OPTIONS, options_key
from putnam_solver.core.verify import Profile, VerifyOptions


def test_every_option_is_either_keyed_or_said_not_to_change_a_verdict() -> None:
    names = {f.name for f in dataclasses.fields(VerifyOptions)}
    assert not KEYED_OPTIONS & UNKEYED_OPTIONS.keys(), "an option in both lists"
    assert names - KEYED_OPTIONS - UNKEYED_OPTIONS.keys() == set(), "decide whether it can change a verdict"
    assert KEYED_OPTIONS | UNKEYED_OPTIONS.keys() <= names, "a listed option that VerifyOptions no longer has"


@pytest.mark.parametrize(
    "change",
    [
        {"timeout_seconds": 900.0},  # AXLE's server-side time limit among others
        {"axle": False},
        {"profile": Profile.FAST},
        {"acceptance": Profile.FULL},
        {"kernels": ("lean", "nanoda")},
        {"tools": {"coqc": Path("/opt/coq/bin/coqc")}},
        {"allow_recursion": True},
        {"keep_going": True},
        {"toolchain": "v4.24.0"},
    ],
    ids=lambda change: next(iter(change)),
)
def test_an_option_that_can_change_a_verdict_changes_the_key(change: dict[str, object]) -> None:
    base = VerifyOptions(axle=True, timeout_seconds=60.0)
    assert options_key(dataclasses.replace(base, **change)) != options_key(base)  # type: ignore[arg-type]


@pytest.mark.parametrize("change", [{"memory_mb": 1024}, {"disk_mb": 64}, {"text_gate_seconds": 1.0}], ids=str)
def test_a_cap_whose_exhaustion_is_only_an_error_shares_the_entry(change: dict[str, object]) -> None:
    base = VerifyOptions()
    assert options_key(dataclasses.replace(base, **change)) == options_key(base)  # type: ignore[arg-type]
