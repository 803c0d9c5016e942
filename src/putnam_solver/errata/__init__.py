"""Benchmark errata: what is known to be wrong with a statement, and caveats about a benchmark as a whole.

Each registered benchmark may have a file here (``<name>.json``: its ``entries``, each a problem, the
defect, the source of the claim, and its ``notes``), shown wherever a result appears: beside a verdict
(``shown_benchmark``), in ``putnam list``, in a run's settings and its reports, where a solve of a
statement whose erratum makes it defective is counted apart. No gate reads them, so they live outside
the trusted package: an erratum changes how a verdict is counted, never what it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.benchmarks import RegistryError, record_text
from putnam_solver.core.verify import Verdict, VerifyOptions, verdict_benchmark

if TYPE_CHECKING:
    from putnam_solver.core.provers import Prover

ERRATA_DIR = Path(__file__).parent

DEFECTIVE_KINDS = frozenset({"false", "vacuous", "misformalized"})
"""Erratum kinds that make a proof of the statement say nothing about the problem: a problem solved on
such a statement is counted apart. Other kinds (``ambiguous``, ``note``) are shown, not counted apart."""
ERRATUM_KINDS = DEFECTIVE_KINDS | {"ambiguous", "note"}


@dataclass(frozen=True)
class Erratum:
    """A known defect of one statement: what is wrong, who says so, and what was checked here."""

    problem: str
    provers: tuple[str, ...]
    kind: str
    defect: str
    source: str
    checked_here: str | None = None

    @property
    def defective(self) -> bool:
        """Whether a proof of the statement is no evidence about the problem (counted apart)."""
        return self.kind in DEFECTIVE_KINDS

    def short(self) -> str:
        return f"{self.kind}: {self.defect}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "problem": self.problem,
            "provers": list(self.provers),
            "kind": self.kind,
            "defective": self.defective,
            "defect": self.defect,
            "source": self.source,
        }
        if self.checked_here:
            data["checked_here"] = self.checked_here
        return data


@dataclass(frozen=True)
class Note:
    """A caveat about a benchmark as a whole (of the statements of ``provers``, or all of them)."""

    text: str
    provers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Errata:
    """A benchmark's errata file: its entries and its notes (both empty for a benchmark without one)."""

    entries: tuple[Erratum, ...] = ()
    notes: tuple[Note, ...] = ()

    def of(self, problem: str, prover: str) -> tuple[Erratum, ...]:
        return tuple(e for e in self.entries if e.problem == problem and prover in e.provers)


@cache
def errata(benchmark: str) -> Errata:
    """The errata of the registered benchmark ``benchmark`` (RegistryError when its file is malformed)."""
    path = ERRATA_DIR / f"{benchmark}.json"
    if not path.is_file():
        return Errata()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RegistryError(f"{path}: cannot read the errata of {benchmark}: {exc}") from exc
    entries = []
    for i, raw in enumerate(data.get("entries", [])):
        where = f"{path} entry {i + 1}"
        kind = record_text(raw, "kind", where)
        if kind not in ERRATUM_KINDS:
            raise RegistryError(f"{where}: kind {kind!r} is not one of {', '.join(sorted(ERRATUM_KINDS))}")
        entries.append(
            Erratum(
                problem=record_text(raw, "problem", where),
                provers=tuple(str(p) for p in raw.get("provers", [])),
                kind=kind,
                defect=record_text(raw, "defect", where),
                source=record_text(raw, "source", where),
                checked_here=raw.get("checked_here") or None,
            )
        )
    notes = tuple(
        Note(str(n["text"]), tuple(str(p) for p in n.get("provers", []))) if isinstance(n, dict) else Note(str(n))
        for n in data.get("notes", [])
    )
    return Errata(tuple(entries), notes)


def problem_errata(benchmark: Benchmark, problem_id: str) -> tuple[Erratum, ...]:
    """What is known to be wrong with this problem's statement in this benchmark file's language (none for
    a file no record describes)."""
    file = benchmark.file
    return errata(file.benchmark).of(problem_id, file.prover) if file is not None else ()


def with_errata(record: dict[str, Any], benchmark: Benchmark, problem: Problem) -> dict[str, Any]:
    """A verdict's record of its benchmark (``Benchmark.verdict_record``) with this problem's errata."""
    return {**record, "errata": [e.to_json() for e in problem_errata(benchmark, problem.id)]}


def shown_benchmark(prover: Prover, benchmark: Benchmark, problem: Problem, options: VerifyOptions) -> dict[str, Any]:
    """What a verdict shows of its benchmark: ``verify.verdict_benchmark`` and the statement's errata, as
    the record says them now (refreshed whenever a verdict is shown, stored or reused)."""
    return with_errata(verdict_benchmark(prover, benchmark, problem, options), benchmark, problem)


def defects(verdict: Verdict) -> list[dict[str, Any]]:
    """The errata a verdict carries (``shown_benchmark``) that make a proof of its statement no evidence
    about the problem."""
    return [e for e in verdict.benchmark.get("errata", []) if e.get("defective")]
