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

``build TARGET`` leaves ``.lake/build/lib/lean/TARGET.olean``, unless ``TARGET.lean`` holds a marker
line ``-- fake-lake: <what>``: ``oom`` (Lean's allocator fails: "INTERNAL PANIC: out of memory" on
stderr, the build fails), ``fail`` (an elaboration error, the build fails), ``echo <text>`` (the module
prints ``<text>`` on a line of its own, as a multi-line message Lake replays does, and builds).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
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


def build(workspace: Path, target: str) -> int:
    source = workspace / f"{target}.lean"
    found = re.search(r"^-- fake-lake: (\w+) ?(.*)$", source.read_text(), re.M) if source.is_file() else None
    what, text = (found.group(1), found.group(2)) if found else ("", "")
    if what == "oom":
        print("INTERNAL PANIC: out of memory", file=sys.stderr)
        print(f"error: build failed: {target}", flush=True)
        return 1
    if what == "fail":
        print(f"error: ./{target}.lean:1:0: unknown identifier 'x'\nerror: build failed", flush=True)
        return 1
    if what == "echo":
        print(f"info: ./{target}.lean:1:0: hello\n{text}", flush=True)
    olean = workspace / ".lake" / "build" / "lib" / "lean" / f"{target}.olean"
    olean.parent.mkdir(parents=True, exist_ok=True)
    olean.write_text("fake olean\n")
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
