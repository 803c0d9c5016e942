"""What reading a library's state costs, this tree against another revision, side by side in one run.

Usage: python bench/library_state.py [--against REVISION] [--repeat N] [--rounds R]

Every verification reads its toolchain's fingerprint twice (``verifier.one_toolchain``), and with it the
state of the library the prover loads: Rocq's ``library_state`` of the installed Coq library and its
plugins, Lean's ``library_digest`` of the library directories. This times one reading of each, the first
(the listing is made) and the next ones (what a verification pays in a long-running process), in child
processes of this tree's ``src`` and of REVISION's (``git archive``), alternated ``--rounds`` times so that
a loaded machine slows both alike. Lean runs on a made-up library shaped like Mathlib's build directory
(``--modules`` modules in directories of 10), since no Mathlib can be installed here. Prints the medians
and the ratios (REVISION / this tree): above 1 means this tree is cheaper.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from pathlib import Path
from putnam_solver.core.provers.lean.identity import library_digest
from putnam_solver.core.provers.rocq.toolchain import library_state

coq, lean, repeat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])

def timed(read):
    start = time.perf_counter(); read(); first = time.perf_counter() - start
    again = []
    for _ in range(repeat):
        start = time.perf_counter(); read(); again.append(time.perf_counter() - start)
    return {"first": first * 1e3, "again": sorted(again)[len(again) // 2] * 1e3}

print(json.dumps({
    "rocq": timed(lambda: library_state(coq)),
    "lean": timed(lambda: library_digest([lean], lean / "lake-manifest.json")),
}))
"""


def coq_library() -> Path:
    coqc = shutil.which("coqc")
    if coqc is None:
        sys.exit("coqc is not installed: the Rocq reading needs the installed Coq library")
    return Path(subprocess.run([coqc, "-where"], capture_output=True, text=True, check=True).stdout.strip())


def made_up_lean_library(into: Path, modules: int) -> Path:
    """A build directory of ``modules`` compiled modules (``.olean``, ``.ilean``, ``.trace`` each), ten a
    directory, as Lake lays out Mathlib's."""
    root = into / "lib"
    for n in range(modules):
        directory = root / "Lib" / f"D{n // 100}" / f"E{n // 10}"
        directory.mkdir(parents=True, exist_ok=True)
        for suffix in (".olean", ".ilean", ".trace"):
            (directory / f"M{n}{suffix}").write_bytes(b"x" * (n % 97))
    (root / "Lib.olean").write_bytes(b"root")
    (root / "lake-manifest.json").write_text("{}")
    return root


def source_of(revision: str, into: Path) -> Path:
    archive = subprocess.run(["git", "archive", revision, "src"], cwd=REPO, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def reading(src: Path, coq: Path, lean: Path, repeat: int) -> dict[str, dict[str, float]]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(coq), str(lean), str(repeat)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
    )
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", default="main", help="the revision to compare with (default: main)")
    parser.add_argument("--repeat", type=int, default=20, help="readings after the first, per child")
    parser.add_argument("--rounds", type=int, default=5, help="children per side, alternated")
    parser.add_argument("--modules", type=int, default=8000, help="modules of the made-up Lean library")
    args = parser.parse_args()
    coq = coq_library()
    with tempfile.TemporaryDirectory(prefix="putnam-bench-library-") as scratch:
        lean = made_up_lean_library(Path(scratch), args.modules)
        sides = {"this tree": REPO / "src", args.against: source_of(args.against, Path(scratch) / "against")}
        runs: dict[str, list[dict[str, dict[str, float]]]] = {side: [] for side in sides}
        for _ in range(args.rounds):
            for side, src in sides.items():
                runs[side].append(reading(src, coq, lean, args.repeat))
    print(f"median ms per reading over {args.rounds} children x {args.repeat} readings (first: the listing made)")
    print(f"{'':24}{'this tree':>12}{args.against:>12}{'ratio':>9}")
    for prover in ("rocq", "lean"):
        for which in ("first", "again"):
            mine, theirs = (statistics.median(r[prover][which] for r in runs[side]) for side in sides)
            print(f"{prover + ' ' + which:24}{mine:12.2f}{theirs:12.2f}{theirs / mine:9.2f}")
    print("lean 'again' on the other side may be cheap because it never looks below the top directory (red team 21)")


if __name__ == "__main__":
    main()
