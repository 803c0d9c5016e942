"""``putnam dataset fetch``: build a registered benchmark's JSONL files from its upstream repositories.

Each upstream the benchmark's record names (``upstream``: an id, a repository, a commit) is cloned without
a work tree, every file is read byte for byte from git blobs at the pinned commit, and the benchmark's
builder writes its JSONL files exactly as its ``SOURCE.md`` describes. Every built file must match its
pin before anything is written; then each is moved into place atomically and compared with the copy
packaged with putnam (the same pin, so the same bytes: a difference means a damaged installation). A
source that yields other bytes (tampered, or another revision) is refused and nothing is written.

This is operator code outside the trusted core: it runs ``git``, which may use the network (only for the
sources the user names, the records' upstreams by default). What it writes is checked by the core's pins
like any other file.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver.benchmark_catalog import catalog
from putnam_solver.benchmark_files import PACKAGED_DATA
from putnam_solver.core.benchmark import BenchmarkError
from putnam_solver.core.benchmarks import BenchmarkSpec, get_spec
from putnam_solver.core.util import json_error
from putnam_solver.offline import DATASET_OFFLINE, with_offline_hint
from putnam_solver.safe_write import write_atomic

Progress = Callable[[str], None]


@dataclass(frozen=True)
class FetchedFile:
    """A file written by ``fetch_benchmark``: it matches its pin; ``packaged`` says whether the copy that
    ships with putnam has the same bytes (None: this installation has no packaged copy)."""

    path: Path
    records: int
    sha256: str
    packaged: bool | None = None

    def describe(self) -> str:
        same = {True: " and the packaged copy", False: ", NOT the packaged copy (reinstall putnam)", None: ""}
        return f"{self.path}  {self.records} records  sha256 {self.sha256}  (matches the pin{same[self.packaged]})"


class GitTree:
    """The files of one commit of a cloned repository, read from git blobs (no work tree is needed, so
    a repository whose other files are missing or huge can still be read)."""

    def __init__(self, repo: Path, commit: str) -> None:
        self.repo = repo
        self.commit = commit
        self._cache: dict[str, bytes] = {}
        listing = _git(["ls-tree", "-r", "--full-tree", commit], cwd=repo)
        self.blobs: dict[str, str] = {}
        for line in listing.splitlines():
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                self.blobs[path] = parts[2]

    def files(self, directory: str, suffix: str) -> list[str]:
        """Paths directly inside ``directory`` ending in ``suffix``, sorted."""
        prefix = directory.rstrip("/") + "/"
        return sorted(
            p for p in self.blobs if p.startswith(prefix) and "/" not in p[len(prefix) :] and p.endswith(suffix)
        )

    def read(self, path: str) -> bytes:
        blob = self.blobs.get(path)
        if blob is None:
            raise BenchmarkError(f"{self.repo} at {self.commit[:12]}: no file {path}")
        if blob not in self._cache:
            self.prefetch([path])
        return self._cache[blob]

    def prefetch(self, paths: Iterable[str]) -> None:
        """Read the blobs of ``paths`` in one ``git cat-file --batch`` run (one process, not one per file)."""
        wanted = sorted({self.blobs[p] for p in paths if p in self.blobs} - set(self._cache))
        if not wanted:
            return
        done = subprocess.run(
            ["git", "cat-file", "--batch"], cwd=self.repo, input="\n".join(wanted).encode() + b"\n",
            capture_output=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise BenchmarkError(f"{self.repo}: cannot read its files ({done.stderr.decode(errors='replace').strip()})")
        out, at = done.stdout, 0
        for blob in wanted:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            if len(header) != 3 or header[0].decode() != blob:
                raise BenchmarkError(f"{self.repo}: blob {blob} is missing ({out[at:end].decode(errors='replace')})")
            size = int(header[2])
            self._cache[blob] = out[end + 1 : end + 1 + size]
            at = end + 1 + size + 1


def git_blob_sha1(blob: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(blob) + blob).hexdigest()


def _git(args: list[str], cwd: Path | None = None, hint: str = "") -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=1800)
    except FileNotFoundError as exc:
        raise BenchmarkError("git is not installed; install git to fetch a benchmark") from exc
    if done.returncode != 0:
        output = done.stderr.strip() or done.stdout.strip()
        failed = f"git {args[0]} failed: {output}{f' ({hint})' if hint else ''}"
        raise BenchmarkError(with_offline_hint(failed, DATASET_OFFLINE))
    return done.stdout


def _checkout(source: str, revision: str, target: Path, say: Progress) -> GitTree:
    say(f"cloning {source} (revision {revision})")
    _git(["clone", "--quiet", "--no-checkout", source, str(target)])
    commit = _git(
        ["rev-parse", "--verify", f"{revision}^{{commit}}"], cwd=target, hint=f"is revision {revision} in {source}?"
    )
    return GitTree(target, commit.strip())


def _line(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


def _text(tree: GitTree, path: str) -> tuple[str, bytes]:
    blob = tree.read(path)
    try:
        return blob.decode("utf-8"), blob
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"{path}: not UTF-8 (byte {exc.start})") from exc


def _json(where: str, text: str, line: int | None = None) -> Any:
    """``text`` parsed, or an error naming ``where`` (and the line, for JSON Lines)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BenchmarkError(f"{json_error(where, exc, line)} (upstream data that is not valid JSON)") from exc


def _record(problem_id: str, text: str, blob: bytes, path: str, informal: Mapping[str, Any]) -> dict[str, Any]:
    """The eight keys every benchmark file shares, in PutnamBench's order."""
    return {
        "problem_id": problem_id,
        "formal_statement": text,
        "informal_statement": informal.get("informal_statement"),
        "informal_solution": informal.get("informal_solution"),
        "tags": informal.get("tags"),
        "source_path": path,
        "git_blob_sha1": git_blob_sha1(blob),
        "formal_statement_sha256": hashlib.sha256(blob).hexdigest(),
    }


# ---------------------------------------------------------------------------------------------------------
# Builders: upstream trees -> file name -> bytes (as each benchmark's SOURCE.md describes)

PUTNAM_ID = re.compile(r"putnam_\d{4}_[ab][1-6]")
PUTNAMBENCH_LAYOUT = {
    "putnam_bench_lean4.jsonl": ("lean4/src", ".lean"),
    "putnam_bench_coq.jsonl": ("coq/src", ".v"),
    "putnam_bench_isabelle.jsonl": ("isabelle", ".thy"),
}


def build_putnambench(trees: Mapping[str, GitTree]) -> dict[str, bytes]:
    tree = trees["putnambench"]
    entries = _json("informal/putnam.json", _text(tree, "informal/putnam.json")[0])
    informal = {e["problem_name"]: e for e in entries if isinstance(e, dict) and "problem_name" in e}
    built = {}
    for name, (directory, suffix) in PUTNAMBENCH_LAYOUT.items():
        paths = [p for p in tree.files(directory, suffix) if PUTNAM_ID.fullmatch(Path(p).stem)]
        tree.prefetch(paths)
        if not paths:
            raise BenchmarkError(f"{directory}: no statement files; is this a PutnamBench checkout?")
        lines = []
        for path in paths:
            text, blob = _text(tree, path)
            lines.append(_line(_record(Path(path).stem, text, blob, path, informal.get(Path(path).stem, {}))))
        built[name] = "".join(lines).encode("utf-8")
    return built


MINIF2F_SPLITS = {"valid": ("MiniF2F/Valid", "valid"), "test": ("MiniF2F/Test", "test")}
"""Split -> (Lean directory, Rocq directory); the informal files are under ``informal/<split>``."""
ADMITTED_HOLE = "Proof.\n"
STDLIB_PREFIX = re.compile(r"^From Stdlib Require ", re.MULTILINE)


def _minif2f_informal(tree: GitTree) -> dict[str, tuple[str, dict[str, Any]]]:
    """Problem name (lower case) -> (split, informal JSON) from ``informal/{valid,test}/*.json``."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    tree.prefetch(p for split in MINIF2F_SPLITS for p in tree.files(f"informal/{split}", ".json"))
    for split in MINIF2F_SPLITS:
        for path in tree.files(f"informal/{split}", ".json"):
            found[Path(path).stem.lower()] = (split, _json(path, _text(tree, path)[0]))
    return found


def _minif2f_records(
    tree: GitTree, informal: Mapping[str, tuple[str, dict[str, Any]]], rocq: bool
) -> list[tuple[dict[str, Any], str]]:
    """Records (with their split and informal proof) of one language, sorted by problem id."""
    records = []
    suffix = ".v" if rocq else ".lean"
    tree.prefetch(
        p for lean_dir, rocq_dir in MINIF2F_SPLITS.values() for p in tree.files(rocq_dir if rocq else lean_dir, suffix)
    )
    for split, (lean_dir, rocq_dir) in MINIF2F_SPLITS.items():
        for path in tree.files(rocq_dir if rocq else lean_dir, suffix):
            stem = Path(path).stem
            text, blob = _text(tree, path)
            declares = rf"^(Theorem|Lemma)\s+{re.escape(stem)}\b" if rocq else rf"^theorem\s+{re.escape(stem)}\b"
            if not re.search(declares, text, re.MULTILINE):
                raise BenchmarkError(f"{path}: does not declare the theorem {stem}")
            entry = informal.get(stem.lower())
            if entry is None or entry[0] != split:
                raise BenchmarkError(f"{path}: no informal statement of {stem} in informal/{split}")
            record = _record(stem, text, blob, path, {"informal_statement": entry[1].get("informal_statement")})
            record["split"] = split
            record["informal_proof"] = entry[1].get("informal_proof")
            records.append((record, text))
    return sorted(records, key=lambda pair: str(pair[0]["problem_id"]))


def adapt_rocq(text: str) -> tuple[str, list[str]]:
    """The documented mechanical adaptations of a miniF2F Rocq file for Coq 8.16 (SOURCE.md)."""
    applied = []
    if "Admitted." not in text and text.endswith(ADMITTED_HOLE):
        text += "Admitted.\n"
        applied.append("admitted")
    if STDLIB_PREFIX.search(text):
        text = STDLIB_PREFIX.sub("From Coq Require ", text)
        applied.append("stdlib-prefix")
    return text, applied


def build_minif2f(trees: Mapping[str, GitTree]) -> dict[str, bytes]:
    informal = _minif2f_informal(trees["informal"])
    lean = [r for r, _ in _minif2f_records(trees["lean"], informal, rocq=False)]
    rocq = _minif2f_records(trees["rocq"], informal, rocq=True)
    adapted = []
    for record, text in rocq:
        new_text, applied = adapt_rocq(text)
        blob = new_text.encode("utf-8")
        adapted.append(
            {
                **record,
                "formal_statement": new_text,
                "formal_statement_sha256": hashlib.sha256(blob).hexdigest(),
                "adaptations": applied,
                "upstream_formal_statement_sha256": record["formal_statement_sha256"],
            }
        )
    return {
        "minif2f_lean4.jsonl": _jsonl(lean),
        "minif2f_rocq.jsonl": _jsonl(r for r, _ in rocq),
        "minif2f_rocq_adapted.jsonl": _jsonl(adapted),
    }


PROOFNET_FILE = re.compile(r"proofnet-verified/proofnet-(\d+)\.lean")
PROOFNET_VALID_LAST = 183
"""ProofNet-Verified numbers its files with the valid problems first (1-183), the test problems after."""
PROOFNET_DROPPED = {168: "a duplicate `Rudin_exercise_4_8a` standing in for Rudin 4.8(b); proofnet-351 is kept"}


def _proofnet_original_id(name: str) -> str:
    """``Dummit_Foote_exercise_1_1_3`` -> ``Dummit-Foote|exercise_1_1_3`` (the original ProofNet ids)."""
    book, _, rest = name.partition("_exercise_")
    return f"{book.replace('_', '-')}|exercise_{rest}"


def build_proofnet(trees: Mapping[str, GitTree]) -> dict[str, bytes]:
    statements, split_tree = trees["statements"], trees["split"]
    entries = {}
    source = "data/proofnet-verified.jsonl"
    for number, line in enumerate(_text(statements, source)[0].splitlines(), start=1):
        if line.strip():
            entry = _json(source, line, number)
            entries[int(entry["index"])] = entry
    ids = {split: set(split_tree.read(f"benchmark/{split}_ids").decode("utf-8").split()) for split in ("valid", "test")}
    records = []
    statements.prefetch(statements.files("proofnet-verified", ".lean"))
    for path in statements.files("proofnet-verified", ".lean"):
        match = PROOFNET_FILE.fullmatch(path)
        if match is None or int(match[1]) in PROOFNET_DROPPED:
            continue
        number = int(match[1])
        entry = entries.get(number)
        if entry is None:
            raise BenchmarkError(f"{path}: no entry {number} in data/proofnet-verified.jsonl")
        text, blob = _text(statements, path)
        name = str(entry["name"])
        if len(re.findall(r"^theorem\s", text, re.MULTILINE)) != 1 or not re.search(
            rf"^theorem\s+{re.escape(name)}\b", text, re.MULTILINE
        ):
            raise BenchmarkError(f"{path}: does not declare exactly one theorem, {name}")
        if str(entry.get("informal_stmt", "")) not in text:
            raise BenchmarkError(f"{path}: its /-Informal Statement comment is not entry {number}'s")
        split = "valid" if number <= PROOFNET_VALID_LAST else "test"
        if _proofnet_original_id(name) not in ids[split]:
            raise BenchmarkError(f"{path}: {name} is not in ProofNet's {split} ids")
        record = _record(name, text, blob, path, {"informal_statement": entry.get("informal_stmt")})
        record["split"] = split
        record["informal_proof"] = entry.get("informal_proof")
        records.append(record)
    return {"proofnet_lean4.jsonl": _jsonl(sorted(records, key=lambda r: str(r["problem_id"])))}


def _jsonl(records: Iterable[Mapping[str, Any]]) -> bytes:
    return "".join(_line(r) for r in records).encode("utf-8")


BUILDERS: dict[str, Callable[[Mapping[str, GitTree]], dict[str, bytes]]] = {
    "putnambench": build_putnambench,
    "minif2f": build_minif2f,
    "proofnet": build_proofnet,
}


# ---------------------------------------------------------------------------------------------------------
# putnam dataset fetch


def source_choices(spec: BenchmarkSpec, given: Iterable[str], flag: str) -> dict[str, str]:
    """``--source [ID=]VALUE`` (or ``--revision``) values by upstream id; a bare value needs a benchmark
    with one upstream."""
    ids = [u["id"] for u in catalog(spec.name).upstream]
    chosen: dict[str, str] = {}
    for value in given:
        key, sep, rest = value.partition("=")
        if sep and key in ids:
            chosen[key] = rest
        elif len(ids) == 1 and not (sep and re.fullmatch(r"[a-z]+", key)):
            chosen[ids[0]] = value
        else:
            raise BenchmarkError(
                f"{flag} {value!r}: {spec.title} has several upstreams; write ID=VALUE with ID one of {', '.join(ids)}"
            )
    return chosen


def fetch_benchmark(
    name: str,
    destination: Path,
    sources: Mapping[str, str] | None = None,
    revisions: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> list[FetchedFile]:
    """Build benchmark ``name`` from its upstreams (``sources``/``revisions`` override them by id) into
    ``destination``; every file must match its pin or nothing is written."""
    say = progress or (lambda _msg: None)
    spec, listed = get_spec(name), catalog(name)
    if listed.fetch is None or listed.fetch not in BUILDERS:
        raise BenchmarkError(f"{spec.title} has no builder; place its files under {listed.directory}/ yourself")
    sources, revisions = dict(sources or {}), dict(revisions or {})
    with tempfile.TemporaryDirectory(prefix="putnam-fetch-") as tmp:
        trees = {
            u["id"]: _checkout(
                sources.get(u["id"], u["repository"]), revisions.get(u["id"], u["commit"]), Path(tmp) / u["id"], say
            )
            for u in listed.upstream
        }
        say(f"building {', '.join(f.file for f in spec.files)}")
        built = BUILDERS[listed.fetch](trees)
        for file in spec.files:
            data = built.get(file.file)
            if data is None:
                raise BenchmarkError(f"the {spec.name} builder made no {file.file}; nothing was written")
            actual = hashlib.sha256(data).hexdigest()
            if actual != file.sha256:
                used = ", ".join(f"{i} {t.commit[:12]}" for i, t in trees.items())
                raise BenchmarkError(
                    f"built {file.file} hashes to {actual}, the pin is {file.sha256} (sources at {used}). "
                    f"The sources differ from {spec.title} at the pinned commits; nothing was written."
                )
        destination.mkdir(parents=True, exist_ok=True)
        results = []
        for file in spec.files:
            target = destination / file.file
            write_atomic(target, built[file.file])
            packaged = PACKAGED_DATA / listed.directory / file.file
            same = packaged.read_bytes() == built[file.file] if packaged.is_file() else None
            results.append(FetchedFile(target, built[file.file].count(b"\n"), file.sha256, same))
        return results
