"""A stand-in for a toolchain's own `lake` (not elan's shim): ``lake [-d DIR] env CMD ARGS...`` and
``lake build TARGET``, as the Lake of Lean 4.27 does them.

Both load the workspace first, and loading materializes every package of ``lake-manifest.json``
(leanprover/lean4 src/lake/Lake/Load/Materialize.lean, ``PackageEntry.materialize``): for a git package
whose directory exists, Lake asks ``git rev-parse --verify HEAD`` in it (src/lake/Lake/Util/Git.lean,
``getHeadRevision?`` / ``resolveRevision?``; a failing git counts as "no revision"); when that is not the
manifest's ``rev`` it updates the repository (``updateGitRepo``: ``git remote get-url origin``, and when
that fails too, "URL has changed; deleting '<dir>' and cloning again"), which fails on a tree it cannot
write, so the command ends with exit 1. At the revision it runs ``git diff --exit-code`` (``hasDiff``)
and only warns. This fake runs the same git commands, so git's own refusals (a repository owned by
another user: "detected dubious ownership") reach it as they reach Lake.

``env`` then starts CMD as a child process with the workspace's environment and exits with the child's
exit code, or 128+N when the child died by signal N (leanprover/lean4 src/runtime/process.cpp,
``lean_io_process_child_wait``: "use bash's convention"). The environment puts the workspace's library
directories before the caller's ``LEAN_PATH`` (src/lake/Lake/Config/Workspace.lean,
``augmentedLeanPath``: ``self.leanPath ++ self.lakeEnv.leanPath``), and sets ``LAKE`` and
``LEAN_SYSROOT``. Without a lakefile it fails, as Lake does, with exit 1.

``build TARGET`` decides as Lake does whether the module is up to date (leanprover/lean4
src/lake/Lake/Build/Module.lean at 01142e66, ``Module.recBuildLean``): its input trace mixes Lean's own
trace (``addLeanTrace``), the source's text (``recFetchInput``: ``Hash.ofText``, line endings
normalized), each ``leanOptions`` entry as ``-D<name>=<value>`` (``traceOptions``) and the imports'
traces; no path is part of it, so a build moved to another project directory stays up to date. When
``.lake/build/lib/lean/TARGET.trace`` holds that hash (``depHash``) and the module's artifacts exist,
Lake elaborates nothing and replays the log stored in the trace (src/lake/Lake/Build/Trace.lean,
``SavedTrace.replayIfUpToDate`` and ``checkHashUpToDate``: equal hash, then ``checkExists``); a trace
that is missing, unreadable or of another hash means a new build (the newest Lake builds again even
when only the trace is missing: ``.outOfDate`` outside ``--old`` mode). A build writes the ``.olean``,
the ``.ilean``, their ``.hash`` files (Module.lean ``cacheOutputHashes``) and the trace with the build's
log (Common.lean ``writeTraceFile``: ``depHash`` and ``log``).

Unless ``TARGET.lean`` holds a marker line ``-- fake-lake: <what>``: ``oom`` (Lean's allocator fails:
"INTERNAL PANIC: out of memory" on stderr, the build fails), ``fail`` (an elaboration error, the build
fails), ``echo <text>`` (the module prints ``<text>`` on a line of its own, as a multi-line message Lake
replays does, and builds). Every ``build`` appends ``{"target", "cwd", "action"}`` (``elaborated``,
``replayed`` or ``failed``) to ``lake-runs.jsonl`` beside this file, so tests count what Lean elaborated.
"""

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tomllib
from pathlib import Path


def library_dirs(workspace: Path) -> list[str]:
    packages = workspace / ".lake" / "packages"
    roots = [workspace, *(sorted(packages.iterdir()) if packages.is_dir() else [])]
    return [str(root / ".lake" / "build" / "lib" / "lean") for root in roots]


def git(args: list[str], repo: Path) -> str | None:
    """``captureGit?``: git's stdout when it exits 0, else None (its stderr goes to ours)."""
    done = subprocess.run(["git", *args], cwd=repo, stdout=subprocess.PIPE, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def materialize(workspace: Path) -> str | None:
    """``PackageEntry.materialize`` for each git package of the manifest; an error message, or None."""
    manifest = workspace / "lake-manifest.json"
    if not manifest.is_file():
        return None
    data = json.loads(manifest.read_text())
    packages_dir = workspace / data.get("packagesDir", ".lake/packages")
    for entry in data.get("packages", []):
        if entry.get("type") != "git":
            continue
        repo = packages_dir / entry["name"]
        if not repo.is_dir():
            return f"{entry['name']}: cloning {entry['url']}: no network here"
        if git(["rev-parse", "--verify", "HEAD"], repo) == entry["rev"]:
            if git(["diff", "--exit-code"], repo) is None:
                print(f"warning: {entry['name']}: repository '{repo}' has local changes", file=sys.stderr)
            continue
        if git(["remote", "get-url", "origin"], repo) is None:
            print(f"info: {entry['name']}: URL has changed; deleting '{repo}' and cloning again", file=sys.stderr)
            try:
                shutil.rmtree(repo)
            except OSError as exc:
                return f"{entry['name']}: could not delete '{repo}': {exc}"
            return f"{entry['name']}: cloning {entry['url']}: no network here"
        return f"{entry['name']}: checking out revision '{entry['rev']}': not fetched here"
    return None


def env(workspace: Path, command: list[str]) -> int:
    caller = [p for p in os.environ.get("LEAN_PATH", "").split(":") if p]
    variables = {
        **os.environ,
        "LEAN_PATH": ":".join([*library_dirs(workspace), *caller]),
        "LAKE": str(Path(sys.argv[0]).resolve()),
        "LEAN_SYSROOT": str(Path(sys.argv[0]).resolve().parent.parent),
    }
    child = subprocess.run(command, env=variables, check=False)
    return 128 + -child.returncode if child.returncode < 0 else child.returncode


def input_hash(workspace: Path, source: Path) -> str:
    """The module's input trace (see the module docstring): Lean, the text, the options, the imports."""
    lean = Path(sys.argv[0]).resolve().with_name("lean")
    text = source.read_text().replace("\r\n", "\n") if source.is_file() else ""
    config = workspace / "lakefile.toml"
    options = tomllib.loads(config.read_text()).get("leanOptions", {}) if config.is_file() else {}
    imports = sorted(re.findall(r"^import (\S+)", text, re.M))
    parts = [lean.read_bytes().hex() if lean.is_file() else "", text, sorted(options.items()), imports]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def logged(target: str, action: str) -> None:
    """Record a build; a user who cannot write beside the fake (G6 as ``nobody``) records nothing."""
    try:
        with open(Path(sys.argv[0]).resolve().with_name("lake-runs.jsonl"), "a") as handle:
            handle.write(json.dumps({"target": target, "cwd": os.getcwd(), "action": action}) + "\n")
    except OSError:
        pass


def up_to_date(library: Path, target: str, depHash: str) -> list[str] | None:
    """The stored log when the trace holds ``depHash`` and every artifact exists, else None."""
    try:
        data = json.loads((library / f"{target}.trace").read_text())
    except (OSError, ValueError):
        return None
    artifacts = [library / f"{target}{ext}" for ext in (".olean", ".ilean")]
    if not isinstance(data, dict) or data.get("depHash") != depHash or not all(a.is_file() for a in artifacts):
        return None
    return [str(line) for line in data.get("log", [])]


def build(workspace: Path, target: str) -> int:
    source = workspace / f"{target}.lean"
    library = workspace / ".lake" / "build" / "lib" / "lean"
    depHash = input_hash(workspace, source)
    replay = up_to_date(library, target, depHash)
    if replay is not None:
        logged(target, "replayed")
        print("\n".join(replay), flush=True)
        return 0
    found = re.search(r"^-- fake-lake: (\w+) ?(.*)$", source.read_text(), re.M) if source.is_file() else None
    what, text = (found.group(1), found.group(2)) if found else ("", "")
    if what in ("oom", "fail"):
        logged(target, "failed")
    if what == "oom":
        print("INTERNAL PANIC: out of memory", file=sys.stderr)
        print(f"error: build failed: {target}", flush=True)
        return 1
    if what == "fail":
        print(f"error: ./{target}.lean:1:0: unknown identifier 'x'\nerror: build failed", flush=True)
        return 1
    log = [f"info: ./{target}.lean:1:0: hello\n{text}"] if what == "echo" else []
    print("\n".join(log), flush=True)
    library.mkdir(parents=True, exist_ok=True)
    for ext in (".olean", ".ilean"):
        artifact = library / f"{target}{ext}"
        artifact.write_text(f"fake {ext[1:]} of {depHash}\n")
        (library / f"{target}{ext}.hash").write_text(hashlib.sha256(artifact.read_bytes()).hexdigest()[:16])
    (library / f"{target}.trace").write_text(json.dumps({"depHash": depHash, "log": log}))
    logged(target, "elaborated")
    return 0


def main(argv: list[str]) -> int:
    args = argv[1:]
    workspace = Path.cwd()
    if args[:1] == ["-d"]:
        workspace, args = Path(args[1]), args[2:]
    workspace = workspace.resolve()
    if args[:1] not in (["env"], ["build"]):
        print(f"fake lake: unsupported command {args}", file=sys.stderr)
        return 2
    if not any((workspace / name).is_file() for name in ("lakefile.toml", "lakefile.lean")):
        print(f"error: no configuration file with a supported extension in {workspace}", file=sys.stderr)
        return 1
    failure = materialize(workspace)
    if failure is not None:
        print(f"error: {failure}", file=sys.stderr)
        return 1
    return env(workspace, args[1:]) if args[0] == "env" else build(workspace, args[1])


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(main(sys.argv))
