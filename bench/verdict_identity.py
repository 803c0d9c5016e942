"""Compare the verdicts of two revisions on both conformance corpora: the check that a restructuring
changed no verdict.

Usage: ``python bench/verdict_identity.py REVISION [OTHER]`` (OTHER: the working tree by default). Each
side's ``src`` (``git archive`` of a revision) judges every corpus entry on the text profile in a child
process running ``tests/verdict_snapshot.py`` of this checkout; the script prints each case whose verdict
or gate outcomes differ, the counts, and each side's time. Exit 1 when any differs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.verdict_snapshot import differences  # noqa: E402


def sources(revision: str | None, into: Path) -> Path:
    """The ``src`` directory of ``revision`` (extracted under ``into``), or this working tree's."""
    if revision is None:
        return REPO / "src"
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision, "src"], capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def outcomes(src: Path) -> tuple[dict[str, dict[str, object]], float]:
    """The snapshot's outcomes with ``src`` imported, and the seconds they took."""
    data = REPO / "src" / "putnam_solver" / "data"  # both sides judge against the same pinned bytes
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{REPO}", "VERDICT_SNAPSHOT_DATA": str(data)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "tests.verdict_snapshot"], cwd=REPO, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        last = "\n".join(done.stderr.strip().splitlines()[-3:])
        raise SystemExit(f"the sources in {src} cannot judge the corpus with this checkout's snapshot script:\n{last}")
    return json.loads(done.stdout), time.perf_counter() - start


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory() as work:
        sides = [(rev, outcomes(sources(rev, Path(work) / f"side{i}"))) for i, rev in enumerate([*argv, None][:2])]
    (before_rev, (before, before_s)), (after_rev, (after, after_s)) = sides
    changed = differences(before, after)
    for line in changed:
        print(line)
    print(f"{len(before)} cases at {before_rev} ({before_s:.1f} s), {len(after)} at {after_rev or 'the working tree'} "
          f"({after_s:.1f} s): {len(changed)} differ")  # fmt: skip
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
