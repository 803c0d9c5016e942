"""A benchmark as runs, reports and ``putnam doctor`` describe it: its record as data and its toolchain in
words.

This lives outside the trusted package because no gate reads it: what a verdict records of its benchmark
is ``core.benchmark.Benchmark.verdict_record``; this is what a run's settings and the outputs show beside
(with the benchmark's errata, ``putnam_solver.errata``).
"""

from __future__ import annotations

from typing import Any

from putnam_solver.benchmark_catalog import catalog, tracks
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.benchmarks import BenchmarkFile, BenchmarkSpec, Toolchain
from putnam_solver.errata import errata, problem_errata


def describe_toolchain(toolchain: Toolchain) -> str:
    """``lean v4.27.0, Mathlib v4.27.0`` or ``rocq 8.16.1, <libraries>``: what a file was written for."""
    extra = toolchain.details.get("lean") or toolchain.details.get("libraries") or ""
    mathlib = toolchain.details.get("mathlib")
    parts = [f"{toolchain.prover} {toolchain.version}"]
    if mathlib:
        parts.append(f"Mathlib {mathlib}")
    elif extra:
        parts.append(extra)
    return ", ".join(parts)


def file_json(file: BenchmarkFile) -> dict[str, Any]:
    """One registered file of a benchmark as data."""
    listed = catalog(file.benchmark).listing(file)
    return {
        "file": file.file,
        "prover": file.prover,
        "variant": file.variant,
        "default": listed.default,
        "language": file.language,
        "sha256": file.sha256,
        "records": listed.records,
        "commit": file.commit,
        "hole": listed.hole,
        "answers": file.answers,
        "open_proof": file.open_proof,
        "adaptations": dict(file.adaptations),
        "lean_options": dict(file.lean_options),
        "tracks": list(tracks(file)),
        "toolchain": file.toolchain.to_json(),
    }


def spec_json(spec: BenchmarkSpec, prover: str | None = None) -> dict[str, Any]:
    """The record as data (files, errata and notes of ``prover`` only, if given), for ledgers and reports."""
    known, listed = errata(spec.name), catalog(spec.name)
    entries = known.entries if prover is None else tuple(e for e in known.entries if prover in e.provers)
    return {
        "name": spec.name,
        "title": spec.title,
        "description": listed.description,
        "splits": list(listed.splits),
        "upstream": [dict(u) for u in listed.upstream],
        "files": [file_json(f) for f in spec.files if prover is None or f.prover == prover],
        "errata": [e.to_json() for e in entries],
        "notes": [n.text for n in known.notes if prover is None or not n.provers or prover in n.provers],
    }


def benchmark_label(benchmark: Benchmark) -> str:
    """How outputs name a benchmark: ``minif2f:test (miniF2F Rocq (Coq) (adapted) @ b60affa)`` or its path."""
    file, split = benchmark.file, f":{benchmark.split}" if benchmark.split else ""
    if file is None:
        return f"{benchmark.path}{split}"
    variant = f"@{file.variant}" if file.several_variants else ""
    return f"{file.benchmark}{variant}{split} ({benchmark.pin_name})"


def benchmark_record(benchmark: Benchmark) -> dict[str, Any]:
    """The benchmark as a run records it (its record and errata for this file's prover)."""
    data: dict[str, Any] = {
        "path": str(benchmark.path),
        "sha256": benchmark.sha256,
        "pin": benchmark.pin_name,
        "split": benchmark.split,
        "label": benchmark_label(benchmark),
    }
    if benchmark.file is not None and (spec := benchmark.spec) is not None:
        data |= {"name": spec.name, "variant": benchmark.file.variant, "file": file_json(benchmark.file)}
        data["record"] = spec_json(spec, benchmark.file.prover)
    return data


def known_defect(benchmark: Benchmark, problem_id: str) -> str:
    """The errata that make a proof of this statement no evidence (``kind: defect; ...``), or ``""``:
    a solve of such a statement is shown as ``solved (statement known defective: ...)``, counted apart."""
    return "; ".join(e.short() for e in problem_errata(benchmark, problem_id) if e.defective)
