"""The verdict cache's key holds every verification option that can change a verdict (issue 22, item 7).

AXLE's ``okay: false`` on its server-side time limit (``timeout_seconds``) is a decided rejection, so two
runs that differ only in that limit must never share a cache entry; a cap whose exhaustion is only ever
an ``error`` (never cached) may.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from putnam_solver.core.cache import options_key, verdict_inputs
from putnam_solver.core.provers import get_prover, prover_names
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.submission import VERDICT_INPUT, ProverOptions, decides
from putnam_solver.core.verify import Profile, VerifyOptions


def undeclared(options_type: type) -> list[str]:
    """Fields that declare neither ``decides`` nor ``bounds``, and ``bounds`` fields without a reason."""
    return [
        f.name
        for f in dataclasses.fields(options_type)
        if f.metadata.get(VERDICT_INPUT) not in (True, False)
        or (f.metadata[VERDICT_INPUT] is False and not f.metadata.get("why"))
    ]


def test_every_option_declares_whether_it_can_change_a_verdict() -> None:
    assert undeclared(VerifyOptions) == []
    assert "timeout_seconds" in verdict_inputs() and "memory_mb" not in verdict_inputs()


def test_every_registered_prover_s_options_declare_it_too() -> None:
    """Each prover's own options type (``Prover.options_type``), the built-in ones and any plugin's."""
    for name in prover_names():
        kind = get_prover(name).options_type
        assert issubclass(kind, ProverOptions) and undeclared(kind) == [], name
    assert "kernels" in verdict_inputs(LeanOptions) and "comparator_timeout_seconds" not in verdict_inputs(LeanOptions)


def test_a_new_option_that_declares_nothing_fails_and_one_that_decides_is_keyed() -> None:
    """What a developer adding an option meets: a plain field fails the check above; ``decides`` puts it
    in the key without anyone editing the cache."""

    @dataclasses.dataclass(frozen=True)
    class Extended(VerifyOptions):
        forgot: bool = False

    assert undeclared(Extended) == ["forgot"]

    @dataclasses.dataclass(frozen=True)
    class Declared(VerifyOptions):
        new_rule: bool = decides(False)

    assert options_key(Declared()) != options_key(Declared(new_rule=True))


@pytest.mark.parametrize(
    "change",
    [
        {"timeout_seconds": 900.0},  # AXLE's server-side time limit among others
        {"axle": False},
        {"profile": Profile.FAST},
        {"acceptance": Profile.FULL},
        {"prover_options": (LeanOptions(kernels=("lean", "nanoda")),)},
        {"prover_options": (LeanOptions(statement_by_elaboration=True),)},
        {"tools": {"coqc": Path("/opt/coq/bin/coqc")}},
        {"prover_options": (RocqOptions(allow_recursion=True),)},
        {"keep_going": True},
        {"toolchain": "v4.24.0"},
    ],
    ids=lambda change: str(next(iter(change.values()))) if "prover_options" in change else next(iter(change)),
)
def test_an_option_that_can_change_a_verdict_changes_the_key(change: dict[str, object]) -> None:
    base = VerifyOptions(axle=True, timeout_seconds=60.0)
    assert options_key(dataclasses.replace(base, **change)) != options_key(base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "change",
    [
        {"memory_mb": 1024},
        {"disk_mb": 64},
        {"text_gate_seconds": 1.0},
        {"prover_options": (LeanOptions(comparator_timeout_seconds=60.0, comparator_memory_mb=4096),)},
        {"prover_options": (RocqOptions(), LeanOptions())},  # the defaults, given or not, are the same options
    ],
    ids=str,
)
def test_a_cap_whose_exhaustion_is_only_an_error_shares_the_entry(change: dict[str, object]) -> None:
    base = VerifyOptions()
    assert options_key(dataclasses.replace(base, **change)) == options_key(base)  # type: ignore[arg-type]


def test_prover_options_are_read_by_type_and_given_once() -> None:
    options = VerifyOptions(prover_options=(RocqOptions(allow_recursion=True),))
    assert options.of(RocqOptions).allow_recursion and options.recursion_allowed
    assert options.of(LeanOptions) == LeanOptions()  # none given: the defaults
    replaced = options.with_options(RocqOptions())
    assert replaced.of(RocqOptions) == RocqOptions() and not replaced.recursion_allowed
    order = [RocqOptions(True), LeanOptions(kernels=("lean", "nanoda"))]
    assert options_key(VerifyOptions(prover_options=tuple(order))) == options_key(
        VerifyOptions(prover_options=tuple(reversed(order)))
    )
    with pytest.raises(ValueError, match="given twice"):
        VerifyOptions(prover_options=(RocqOptions(), RocqOptions(allow_recursion=True)))
