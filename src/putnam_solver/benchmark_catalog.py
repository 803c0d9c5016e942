"""What a benchmark's record says beyond what a gate reads: where its files live and come from, its splits,
each prover's default file, and how each file is described (records, hole, tracks).

The records are the trusted package's (``core.benchmarks``: pins, statement formats, toolchains); finding,
fetching, choosing and describing a benchmark reads the rest of the same files here, since none of it
decides a verdict: a file found here is still held against its pin when it is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from putnam_solver.core.benchmarks import BenchmarkFile, get_spec, record_text

WITH_ANSWER = "with-answer"
NO_ANSWER = "no-answer"


@dataclass(frozen=True)
class Listing:
    """How a record describes one of its files: whether it is its prover's default, how many records it
    holds, what its proof hole is."""

    default: bool
    records: int
    hole: str


@dataclass(frozen=True)
class Catalog:
    """A benchmark's record as finding, fetching and describing it need it."""

    description: str
    directory: str
    splits: tuple[str, ...]
    upstream: tuple[Mapping[str, str], ...]
    fetch: str | None
    listings: Mapping[str, Listing]
    """By file name."""

    def listing(self, file: BenchmarkFile) -> Listing:
        return self.listings[file.file]


@cache
def catalog(name: str) -> Catalog:
    """The catalog of the registered benchmark ``name`` (RegistryError for another, or a malformed record)."""
    data, where = get_spec(name).record, f"the record of {name}"
    listings = {}
    for i, raw in enumerate(data.get("files", [])):
        at = f"{where} file {i + 1}"
        listings[record_text(raw, "file", at)] = Listing(
            bool(raw.get("default", False)), int(raw.get("records", 0)), record_text(raw, "hole", at)
        )
    return Catalog(
        description=str(data.get("description", "")),
        directory=record_text(data, "directory", where),
        splits=tuple(str(s) for s in data.get("splits", [])),
        upstream=tuple({str(k): str(v) for k, v in u.items()} for u in data.get("upstream", [])),
        fetch=data.get("fetch") or None,
        listings=listings,
    )


def tracks(file: BenchmarkFile | None) -> tuple[str, ...]:
    """``with-answer`` always; ``no-answer`` only where statements have answer holes (both for a file no
    record describes)."""
    return (WITH_ANSWER, NO_ANSWER) if file is None or file.format.answers else (WITH_ANSWER,)
