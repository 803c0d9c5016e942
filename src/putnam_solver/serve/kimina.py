"""Kimina Lean Server's request and response shape, as a second endpoint of ``putnam serve``.

RL code written against Kimina Lean Server posts ``{"codes": [{"custom_id", "proof"}], "timeout",
"disable_cache"}`` to ``/verify`` and reads ``{"results": [{"custom_id", "error", "response"}]}``. The
same body posted to ``POST /kimina/verify`` is judged by our gates instead of a bare REPL: each code's
``custom_id`` names its problem (``putnam_1962_a2``, or ``putnam_1962_a2:<anything>`` for several
samples of one problem), its ``proof`` is the whole candidate file. ``response`` is the compact verdict
(status, the gate that did not pass, its first lines); ``error`` is set when a code could not be judged
at all (an unknown problem, an empty file). Fields Kimina clients send that have no meaning here
(``infotree_type``) are accepted and ignored; ``profile``, ``track`` and ``prover`` may be added.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from putnam_solver.core.verify import Profile, Track
from putnam_solver.serve.service import Item

KIMINA_PATH = "/kimina/verify"
SAMPLE_SEPARATOR = ":"


class KiminaCode(BaseModel):
    model_config = ConfigDict(extra="allow")
    custom_id: str = Field(max_length=300, description="The problem id, optionally followed by `:` and a tag.")
    proof: str = Field(description="The whole proof file.")

    def item(self, request: KiminaRequest) -> Item:
        problem = self.custom_id.split(SAMPLE_SEPARATOR, 1)[0]
        return Item(self.proof, problem, None, request.prover, request.profile, request.track, request.timeout)


class KiminaRequest(BaseModel):
    model_config = ConfigDict(extra="allow")
    codes: list[KiminaCode] = Field(min_length=1)
    timeout: float | None = Field(None, gt=0, description="Seconds per code, at most the server's own cap.")
    disable_cache: bool = Field(False, description="Judge again even when the verdict cache holds these inputs.")
    profile: Profile = Field(Profile.FULL, description="Not in Kimina's API: text, fast or full.")
    track: Track | None = Field(
        None, description="Not in Kimina's API: with-answer or no-answer; default: the server's track (--track)."
    )
    prover: str | None = Field(None, description="Not in Kimina's API: lean (default where served) or rocq.")


def result(custom_id: str, response: dict[str, Any] | None, error: str | None) -> dict[str, Any]:
    """One entry of Kimina's ``results``: ``response`` the compact verdict (``views.shown``)."""
    return {"custom_id": custom_id, "error": error, "response": response}
