"""Fixtures of the adversarial tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.run import agent, solving
from tests.fakes.swapped_coqc import selftested_copy


@pytest.fixture
def coqc(tmp_path: Path, solve_env: None) -> Path:
    """A copy of the installed ``coqc`` the gates run (``--tool coqc=...``), with a passed selftest record, in a
    private cache (``swapped_coqc``)."""
    return selftested_copy(tmp_path / "tools")


SLOW_CHECKS = ("require_gates", "require_selftest")
"""The slow checks of ``solving.build_request`` (the model check is ``agent.check_models``)."""


@pytest.fixture
def no_slow_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The slow checks of a resume replaced by ones that record that they ran (and stop it there)."""
    ran: list[str] = []

    def ran_check(name: str) -> object:
        def check(*args: object, **kwargs: object) -> None:
            ran.append(name)
            raise InputError(f"{name} ran")

        return check

    for name in SLOW_CHECKS:
        monkeypatch.setattr(solving, name, ran_check(name))
    monkeypatch.setattr(agent, "check_models", ran_check("check_models"))
    return ran
