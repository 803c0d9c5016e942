"""The gate-by-gate outcome of every published proof of the conformance corpora, to hold verdicts still.

A restructuring of the gates must not change a single verdict. For every entry of both corpora
(``tests/fixtures/conformance``: PutnamBench, Lean on both tracks, Rocq; ``.../published``: miniF2F,
ProofNet), on the text profile (G1-G3, which every prover runs everywhere, in seconds for the whole
corpus), this records the verdict's status, whether it needs the full profile, and each gate's id and
status: not the details, whose wording may improve without any verdict changing. The Lean entries also
keep G1-G3 as the full profile runs them (``KEY/full``): some additions are left to G6 there, under the
full profile's own rules (red team 23 refused every one above a no-answer value, 12 sound published
proofs among them, where only the text profile was held). The Rocq entries' full-profile verdicts are
held by ``test_conformance.py`` against the manifest.

``tests/fixtures/verdict_snapshot.json`` holds the outcomes of the revision that recorded it;
``test_verdict_snapshot.py`` compares (a fixed sample of every kind of outcome, ``sample``, and every case
in a test marked slow, which the default run leaves out and naming the file runs), and
``bench/verdict_identity.py`` compares two revisions. A change meant to change verdicts records the file
again (``python -m tests.verdict_snapshot --write``) and says why in its commit.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import zipfile
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import published_key

REPO = Path(__file__).resolve().parents[1]
CONFORMANCE = REPO / "tests" / "fixtures" / "conformance"
PUBLISHED = CONFORMANCE / "published"
SNAPSHOT = REPO / "tests" / "fixtures" / "verdict_snapshot.json"
PUTNAMBENCH_FILES = {"lean": "lean4", "rocq": "coq"}


def data_root() -> Path:
    """The pinned benchmark data to judge against: ``VERDICT_SNAPSHOT_DATA`` when the comparison of two
    revisions names it (so an older revision reads the same bytes, whatever its own test helpers were),
    else where the suite finds it (``tests.helpers``)."""
    given = os.environ.get("VERDICT_SNAPSHOT_DATA")
    if given:
        return Path(given)
    from tests.helpers import DATA_ROOT

    return DATA_ROOT


def signature(verdict: Verdict) -> dict[str, Any]:
    """What the snapshot keeps of a verdict."""
    return {
        "status": verdict.status,
        "needs_full_profile": verdict.needs_full_profile,
        "gates": [f"{g.id} {g.status.value}" for g in verdict.gates],
    }


def _cases() -> Iterator[tuple[str, str, Benchmark, str, bytes, Track]]:
    """(key, prover, benchmark, problem id, candidate bytes, track) for every corpus entry and track."""
    root, loaded = data_root(), {}

    def bench(path: Path) -> Benchmark:
        if path not in loaded:
            loaded[path] = load_benchmark(path)
        return loaded[path]

    corpus = json.loads((CONFORMANCE / "MANIFEST.json").read_text(encoding="utf-8"))
    files = {prover: root / "putnambench" / f"putnam_bench_{name}.jsonl" for prover, name in PUTNAMBENCH_FILES.items()}
    for entry in corpus["entries"]:
        tracks = (Track.WITH_ANSWER, Track.NO_ANSWER) if entry["prover"] == "lean" else (Track.WITH_ANSWER,)
        data = (CONFORMANCE / entry["file"]).read_bytes()
        for track in tracks:
            key = f"{entry['file']}@{track.value}"
            yield key, entry["prover"], bench(files[entry["prover"]]), entry["problem_id"], data, track
    published = json.loads((PUBLISHED / "MANIFEST.json").read_text(encoding="utf-8"))
    with contextlib.ExitStack() as stack:
        archives: dict[str, zipfile.ZipFile] = {}  # each opened once: reading its directory is most of the time
        for entry in published["entries"]:
            source = published["sources"][entry["source"]]
            if "archive" in source:
                if source["archive"] not in archives:
                    archives[source["archive"]] = stack.enter_context(zipfile.ZipFile(PUBLISHED / source["archive"]))
                data = archives[source["archive"]].read(entry["member"])
            else:
                data = (PUBLISHED / source["directory"] / entry["member"]).read_bytes()
            path = root / published["benchmarks"][source["benchmark"]]["file"]
            key = f"{published_key(entry, published['sources'])}@{Track.WITH_ANSWER.value}"
            yield key, entry["prover"], bench(path), entry["problem_id"], data, Track.WITH_ANSWER


TEXT_GATES = ("G1", "G2", "G3")


def outcomes(only: Collection[str] | None = None) -> dict[str, dict[str, Any]]:
    """Every case's signature on the text profile, by key, and the Lean cases' text gates on
    the full profile (every gate run; those after G3 cannot run here and are left out); ``only``: the
    keys of the cases to judge (None: all)."""
    text, full = VerifyOptions(profile=Profile.TEXT), VerifyOptions(profile=Profile.FULL, keep_going=True)
    found = {}
    for key, prover, bench, problem, data, track in _cases():
        if only is not None and key not in only:
            continue
        verdict = run_gates(get_prover(prover), bench, bench.problems[problem], data, track, text, candidate_label=key)
        found[key] = signature(verdict)
        if prover == "lean":
            verdict = run_gates(get_prover(prover), bench, bench.problems[problem], data, track, full)
            found[f"{key}/full"] = {"gates": [g for g in signature(verdict)["gates"] if g.split()[0] in TEXT_GATES]}
    return found


FULL = "/full"
"""The suffix of a Lean case's key that holds its text gates on the full profile."""


def sample(recorded: dict[str, dict[str, Any]]) -> set[str]:
    """A fixed sample of the recorded cases: the first key, in sorted order, of each corpus (the published
    proofs by source), track and recorded outcome (status, whether it needs the full profile, each gate's
    status on both profiles), so that every kind of verdict the snapshot holds is judged again."""
    first: dict[tuple[Any, ...], str] = {}
    for key in sorted(k for k in recorded if not k.endswith(FULL)):
        name, track = key.rsplit("@", 1)
        corpus = name.split(":")[0] if ":" in name else name.split("/")[0]
        outcome = json.dumps([recorded[key], recorded.get(key + FULL)], sort_keys=True)
        first.setdefault((corpus, track, outcome), key)
    return set(first.values())


def differences(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> list[str]:
    """One line per case whose outcome differs (or that only one side has)."""
    lines = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            lines.append(f"{key}: {before.get(key)} -> {after.get(key)}")
    return lines


def main(argv: list[str]) -> int:
    """``--write``: record the snapshot; otherwise print the outcomes as JSON on stdout."""
    found = outcomes()
    text = json.dumps(found, indent=1, sort_keys=True) + "\n"
    if argv == ["--write"]:
        SNAPSHOT.write_text(text, encoding="utf-8")
        print(f"{len(found)} outcomes written to {SNAPSHOT.relative_to(REPO)}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
