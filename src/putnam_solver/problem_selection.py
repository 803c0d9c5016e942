"""Which problems of a loaded benchmark a command means: the ids it names (all of the split if none), at
most so many, or the problem a candidate's file name stands for.

This lives outside the trusted package because no gate reads it: a verdict is made for one problem
already chosen, against its pinned record (``core.benchmark``); choosing it is the caller's business.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from putnam_solver.core.benchmark import Benchmark, BenchmarkError, Problem

PUTNAM_MODULE = re.compile(r"Putnam(\d{4})([AB])([1-6])")


def select_problems(benchmark: Benchmark, ids: Sequence[str] = (), max_problems: int | None = None) -> list[Problem]:
    """Problems sorted by id: the named ones (all of the split if none are named), at most ``max_problems``."""
    unknown = [i for i in ids if i not in benchmark.problems]
    if unknown:
        raise BenchmarkError(
            "; ".join(f"{benchmark.path}: no problem {i!r}{did_you_mean(benchmark, i)}" for i in unknown)
        )
    elsewhere = [i for i in ids if not benchmark.in_split(benchmark.problems[i])]
    if elsewhere:
        raise BenchmarkError(
            "; ".join(f"{i} is in the {benchmark.problems[i].split} split, not {benchmark.split}" for i in elsewhere)
        )
    problems = benchmark.problems
    chosen = sorted(set(ids)) if ids else sorted(i for i, p in problems.items() if benchmark.in_split(p))
    if max_problems is not None:
        if max_problems < 0:
            raise BenchmarkError(f"--max-problems must be at least 0, got {max_problems}")
        chosen = chosen[:max_problems]
    return [problems[i] for i in chosen]


def problem_for_stem(benchmark: Benchmark, stem: str) -> Problem | None:
    """The problem a candidate file stem names: the problem id itself or its module name (in the split)."""
    found = benchmark.problems.get(stem)
    if found is None:
        found = benchmark.problems.get(problem_id_from_module(stem) or "", None) or next(
            (p for p in benchmark.problems.values() if p.module == stem), None
        )
    return found if found is not None and benchmark.in_split(found) else None


def did_you_mean(benchmark: Benchmark, problem_id: str) -> str:
    """``; did you mean X, Y?`` naming up to three ids close to an unknown one, else nothing."""
    close = difflib.get_close_matches(problem_id, list(benchmark.problems), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(close)}?" if close else ""


def problem_id_from_module(module: str) -> str | None:
    """``Putnam1962A2`` -> ``putnam_1962_a2``; None for names that are not PutnamBench modules."""
    match = PUTNAM_MODULE.fullmatch(module)
    if match is None:
        return None
    year, part, number = match.groups()
    return f"putnam_{year}_{part.lower()}{number}"
