"""The options only Rocq's gates read."""

from __future__ import annotations

from dataclasses import dataclass

from putnam_solver.core.submission import ProverOptions, decides


@dataclass(frozen=True)
class RocqOptions(ProverOptions):
    """Rocq's gate options (``VerifyOptions.of(RocqOptions)``)."""

    allow_recursion: bool = decides(False)
    """Lift the rule that refuses candidate-defined recursion on a Coq with known guard checker bugs
    (through which such recursion can prove False); recorded in every verdict."""

    @property
    def recursion_allowed(self) -> bool:
        return self.allow_recursion
