"""Where a benchmark is: a name or a path, and which copy of a registered file a name finds.

A benchmark is named ``NAME[@VARIANT][:SPLIT]`` (``putnambench``, ``minif2f:test``,
``minif2f@published:valid``, ``proofnet:valid``) or given as the path of any JSONL file. A named benchmark's
file is the first found of: under ``PUTNAM_BENCHMARK`` when it names a directory (laid out as
``<dir>/<benchmark>/<file>``, or the files themselves directly in it), in the data directory that
``putnam dataset fetch`` fills, and the copy packaged with putnam (``putnam_solver/data``, every registered
file byte for byte as pinned, with its licences and provenance). The copy found is held against the pin
by ``core.benchmark.load_benchmark`` like any other: being packaged earns it no trust. That is why this lives
outside the trusted package: a registered file's pin is found by its name (``registered_file``), whichever
copy is read, so finding the file decides nothing. Nothing here touches the network.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from putnam_solver.benchmark_catalog import catalog, tracks
from putnam_solver.benchmark_view import benchmark_label
from putnam_solver.core.benchmark import IDENTIFIER, Benchmark, BenchmarkError, load_benchmark
from putnam_solver.core.benchmarks import (
    DEFAULT_BENCHMARK,
    BenchmarkFile,
    BenchmarkSpec,
    RegistryError,
    benchmark_names,
    get_spec,
    registered_file,
)

PACKAGED_DATA = Path(__file__).resolve().parent / "data"
"""The copies of every registered benchmark file that ship with putnam (package data), one folder per
benchmark as ``default_data_root`` is laid out: what a named benchmark falls back to, so that putnam works
offline after install."""

FROM_FLAG = "--benchmark"
BENCHMARK_ENV = "PUTNAM_BENCHMARK"
FROM_ENV = BENCHMARK_ENV
FROM_FETCHED = "fetched"
FROM_PACKAGED = "packaged"
ORIGINS = {
    FROM_FLAG: "given with --benchmark",
    FROM_ENV: f"from {BENCHMARK_ENV}",
    FROM_FETCHED: "the copy `putnam dataset fetch` built",
    FROM_PACKAGED: "the copy packaged with putnam",
}
"""Where a benchmark file was found, in the order named benchmarks are looked up, and how outputs say it."""


def default_data_root() -> Path:
    """The data directory ``putnam dataset fetch`` fills: one folder per benchmark."""
    return Path(platformdirs.user_data_dir("putnambench-solver"))


def default_data_dir(benchmark: str = DEFAULT_BENCHMARK) -> Path:
    """Where ``putnam dataset fetch`` writes a benchmark's files by default."""
    return default_data_root() / catalog(benchmark).directory


@dataclass(frozen=True)
class BenchmarkRequest:
    """``--benchmark`` as given: a registered name (with variant and split) or a path (with a split)."""

    name: str | None = None
    variant: str | None = None
    split: str | None = None
    path: Path | None = None

    def __str__(self) -> str:
        if self.path is not None:
            return str(self.path) + (f":{self.split}" if self.split else "")
        return f"{self.name}{f'@{self.variant}' if self.variant else ''}{f':{self.split}' if self.split else ''}"


_NAMED = re.compile(r"(?P<name>[a-z0-9][a-z0-9_-]*)(?:@(?P<variant>[A-Za-z0-9_-]+))?(?::(?P<split>[A-Za-z0-9_-]+))?")


def parse_request(value: str | Path | None) -> BenchmarkRequest:
    """``NAME[@VARIANT][:SPLIT]`` for a registered benchmark, else a path (``PATH:SPLIT`` when PATH exists)."""
    if value is None:
        return BenchmarkRequest()
    text = str(value)
    named = _NAMED.fullmatch(text)
    if named is not None and named["name"] in benchmark_names():
        return BenchmarkRequest(named["name"], named["variant"], named["split"])
    path, sep, split = text.rpartition(":")
    if sep and path and not Path(text).exists() and Path(path).exists() and IDENTIFIER.fullmatch(split):
        return BenchmarkRequest(path=Path(path), split=split)
    return BenchmarkRequest(path=Path(text))


@dataclass(frozen=True)
class Located:
    """Where a requested benchmark is, for one prover: its file, the split asked for and which copy it is
    (``origin``, a key of ``ORIGINS``). A named benchmark's file is found under its registered name, so
    loading it enforces its pin."""

    path: Path
    split: str | None = None
    origin: str = FROM_FLAG

    @property
    def copy(self) -> str:
        """Which copy this is, as outputs say it (``the copy packaged with putnam``)."""
        return ORIGINS[self.origin]


def locate_benchmark(value: str | Path | None, prover: str) -> Located:
    """The file ``--benchmark`` names for ``prover``; without one, ``PUTNAM_BENCHMARK`` when it is a file,
    else PutnamBench. A named benchmark is looked up as the module docstring says."""
    request = parse_request(value)
    if request.path is not None:
        if not request.path.is_file():
            raise BenchmarkError(
                f"{request.path}: no benchmark file here (from --benchmark). Name a registered benchmark "
                f"({', '.join(benchmark_names())}, e.g. minif2f:test) or give a JSONL file."
            )
        return Located(request.path, request.split)
    env = os.environ.get(BENCHMARK_ENV)
    if request.name is None and env and Path(env).is_file():
        return Located(Path(env), origin=FROM_ENV)
    try:
        spec = get_spec(request.name or DEFAULT_BENCHMARK)
        file = file_for(spec, prover, request.variant)
    except RegistryError as exc:
        raise BenchmarkError(str(exc)) from exc
    known = catalog(spec.name).splits
    if request.split is not None and request.split not in known:
        splits = f"its splits are {', '.join(known)}" if known else "it has no splits"
        raise BenchmarkError(f"{spec.title} has no split {request.split!r}; {splits}")
    return dataclasses.replace(find_registered(spec, file), split=request.split)


def find_registered(spec: BenchmarkSpec, file: BenchmarkFile) -> Located:
    """The first copy of a registered file in the lookup order (``PUTNAM_BENCHMARK``'s directory, the
    fetched data directory, the packaged copy). A ``PUTNAM_BENCHMARK`` that names nothing is an error,
    not a reason to look elsewhere: the user meant some file."""
    env, directory = os.environ.get(BENCHMARK_ENV), catalog(spec.name).directory
    if env and not Path(env).exists():
        raise BenchmarkError(
            f"{env}: no benchmark file here ({BENCHMARK_ENV} names neither a file nor a directory). Set it to a "
            f"directory holding {directory}/{file.file}, or unset it to use the fetched or packaged copy."
        )
    places: list[tuple[Path, str]] = []
    if env and Path(env).is_dir():
        places += [(Path(env) / directory / file.file, FROM_ENV), (Path(env) / file.file, FROM_ENV)]
    places += [
        (default_data_root() / directory / file.file, FROM_FETCHED),
        (PACKAGED_DATA / directory / file.file, FROM_PACKAGED),
    ]
    found = next((Located(path, origin=origin) for path, origin in places if path.is_file()), None)
    if found is None:
        looked = ", ".join(str(path) for path, _ in places)
        raise BenchmarkError(
            f"{spec.title} ({file.file}) is in none of its places (looked in {looked}); this installation "
            f"lacks its packaged copy. Run `putnam dataset fetch --benchmark {spec.name}` to build it, or set "
            f"{BENCHMARK_ENV} to a directory holding {directory}/{file.file}, or pass --benchmark PATH."
        )
    return found


def find_benchmark_file(file_name: str) -> Path:
    """Where this machine keeps the benchmark file of this name (a cluster node's own copy): a registered
    file where named benchmarks are looked up, any other in ``PUTNAM_BENCHMARK``'s directory."""
    file = registered_file(file_name)
    if file is not None:
        return find_registered(get_spec(file.benchmark), file).path
    env = os.environ.get(BENCHMARK_ENV)
    if env and (Path(env) / file_name).is_file():
        return Path(env) / file_name
    raise BenchmarkError(
        f"{file_name}: not a registered benchmark file, and not in the directory {BENCHMARK_ENV} names "
        f"({env or 'unset'}); give its path"
    )


def request_for_file(file_name: str) -> str | None:
    """``NAME@VARIANT`` of the registered file of this name (how a bundle or a run that recorded only a
    file name finds it here), None for a file no record describes."""
    file = registered_file(file_name)
    return f"{file.benchmark}@{file.variant}" if file is not None else None


def open_benchmark(value: str | Path | None, prover: str, expected_sha256: str | None = None) -> Benchmark:
    """Locate and load the benchmark ``--benchmark`` names for ``prover`` (see ``locate_benchmark``)."""
    located = locate_benchmark(value, prover)
    return load_benchmark(located.path, expected_sha256, located.split)


def require_track(benchmark: Benchmark, track: str) -> None:
    """Refuse a track the benchmark does not have (a benchmark without answer holes has one; a file no
    record describes has both)."""
    if track not in (has := tracks(benchmark.file)):
        raise BenchmarkError(
            f"{benchmark_label(benchmark)}: no {track} track; its statements have no answer holes, so its only "
            f"track is {', '.join(has)}"
        )


def spec_provers(spec: BenchmarkSpec) -> tuple[str, ...]:
    """The provers a benchmark has statements for, in its record's order."""
    return tuple(dict.fromkeys(f.prover for f in spec.files))


def file_for(spec: BenchmarkSpec, prover: str, variant: str | None = None) -> BenchmarkFile:
    """The file of ``prover`` (its default variant unless ``variant`` names another)."""
    mine = [f for f in spec.files if f.prover == prover]
    if not mine:
        raise RegistryError(
            f"{spec.title} has no {prover} statements; it has: {', '.join(spec_provers(spec))} "
            "(choose one with --prover)"
        )
    if variant is None:
        listed = catalog(spec.name)
        return next((f for f in mine if listed.listing(f).default), mine[0])
    chosen = next((f for f in mine if f.variant == variant), None)
    if chosen is None:
        raise RegistryError(
            f"{spec.title} has no {variant!r} variant of its {prover} statements; "
            f"choose one of: {', '.join(f.variant for f in mine)}"
        )
    return chosen
