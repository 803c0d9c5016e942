"""A stand-in for leanprover/comparator that follows its Main.lean (pinned commit) step by step, with
the comparison and the kernel replaced by a marker the candidate carries.

Run as ``comparator config.json`` in the project directory (as ``lake env`` runs it):

- the config is read as Main.lean:311-319 ``Config`` with a derived ``FromJson``: the four required
  keys must be there, other keys are ignored silently; ``enable_nanoda`` together with
  ``external_kernels`` is refused (Main.lean:331-332);
- ``lean --print-prefix`` runs in the project (Main.lean:71-78) and ``which git`` (:63-69);
- "Building Challenge", then ``$COMPARATOR_LANDRUN <flags> -- lake build Challenge``; "Exporting ...
  from Challenge", then ``$COMPARATOR_LANDRUN <flags> -- $COMPARATOR_LEAN4EXPORT Challenge -- ...``;
  the same for Solution (Main.lean:80-150, 295-307, with buildLandrunArgs' flags); a child that exits
  nonzero ends comparator with "uncaught exception: Child exited with N" (:97-98, :111-112);
- each external kernel runs under landrun with a nanoda-style config file when its name contains
  ``noda`` (:152-209); a nonzero exit prints "<name> kernel rejected the solution";
- every uncaught exception prints ``uncaught exception: <message>`` on stderr and exits 1, as a Lean
  ``main`` does; success prints "Your solution is okay!" and exits 0 (:309).

The candidate's marker line ``-- fake-comparator: <mode>`` stands for the comparison: ok (accepted),
reject (statement mismatch), liar (prints the success line, exits 1), errortext (prints an error
line, is accepted), crash (dies by SIGSEGV), hang.
It records what it was given to ``fake-record.json`` in the project.
"""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

SECRET_PREFIXES = ("OPENAI", "ANTHROPIC", "AXLE")
REQUIRED = ("challenge_module", "solution_module", "theorem_names", "permitted_axioms")


class Uncaught(Exception):
    pass


def landrun(
    project: Path,
    command: list[str],
    env_pass: list[str],
    ro: list[str],
    rwx: list[str],
    rox: list[str],
    capture: bool = False,
) -> str:
    args = ["--best-effort", "--ro", "/", "--rw", "/dev", "-ldd", "-add-exec"]
    for name in env_pass:
        args += ["--env", name]
    for flag, paths in (("--ro", ro), ("--rwx", rwx), ("--rox", rox)):
        for path in paths:
            args += [flag, path]
    tool = os.environ.get("COMPARATOR_LANDRUN", "landrun")
    done = subprocess.run(
        [tool, *args, "--", *command],
        cwd=project,
        env={**os.environ, "LEAN_ABORT_ON_PANIC": "1"},
        stdout=subprocess.PIPE if capture else None,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise Uncaught(f"Child exited with {done.returncode if done.returncode >= 0 else 128 - done.returncode}")
    return done.stdout or ""


def build_and_export(project: Path, module: str, prefix: str, targets: list[str]) -> str:
    print(f"Building {module}", flush=True)
    git = subprocess.run(["which", "git"], capture_output=True, text=True, check=False).stdout.strip()
    landrun(
        project,
        ["lake", "build", module],
        ["PATH", "HOME", "LEAN_ABORT_ON_PANIC"],
        [str(project)],
        [str(project / ".lake")],
        [prefix, git],
    )
    print(f"Exporting {targets} from {module}", flush=True)
    exporter = os.environ.get("COMPARATOR_LEAN4EXPORT", "lean4export")
    return landrun(
        project,
        [exporter, module, "--", *targets],
        ["PATH", "HOME", "LEAN_PATH", "LEAN_ABORT_ON_PANIC"],
        [str(project), str(project / ".lake")],
        [],
        [prefix],
        capture=True,
    )


def run_kernels(project: Path, kernels: dict[str, list[str]], axioms: list[str]) -> str | None:
    for name, command in kernels.items():
        print(f"Running {name} kernel on solution", flush=True)
        config = project / ".lake" / f"{name}-config.json"
        config.write_text(json.dumps({"use_stdin": False, "permitted_axioms": axioms}))
        try:
            landrun(project, [*command, str(config)], [], [str(config)], [], [])
        except Uncaught:
            print(f"{name} kernel rejected the solution", flush=True)
            return f"{name} rejected"
    return None


def compare(project: Path, argv: list[str]) -> None:
    try:
        config = json.loads((project / argv[1]).read_text())
    except (IndexError, OSError, ValueError) as exc:
        raise Uncaught(str(exc)) from exc
    missing = [key for key in REQUIRED if key not in config]
    if missing:
        raise Uncaught(f"Property '{missing[0]}' not found in object")
    kernels = dict(config.get("external_kernels", {}))
    if config.get("enable_nanoda") and kernels:
        raise Uncaught("Cannot use enable_nanoda and an external kernel list at the same time")
    solution = (project / f"{config['solution_module']}.lean").read_text()
    record(project, argv, config, solution)
    prefix = subprocess.run(["lean", "--print-prefix"], cwd=project, capture_output=True, text=True, check=True)
    targets = [*config["theorem_names"], *config["permitted_axioms"]]
    build_and_export(project, config["challenge_module"], prefix.stdout.strip(), targets)
    build_and_export(project, config["solution_module"], prefix.stdout.strip(), targets)
    found = re.search(r"fake-comparator: (\w+)", solution)
    mode = found.group(1) if found else "reject"
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        time.sleep(300)
    if mode == "liar":
        print("Your solution is okay!", flush=True)
    if mode == "errortext":
        print("error: Challenge and solution theorem statement do not match", flush=True)
    if mode not in ("ok", "errortext"):
        raise Uncaught(f"Some targets failed:\n- {config['theorem_names'][0]}: theorem statement do not match")
    kernel_error = run_kernels(project, kernels, config["permitted_axioms"])
    if kernel_error:
        raise Uncaught(kernel_error)
    print("Your solution is okay!")


def record(project: Path, argv: list[str], config: dict, solution: str) -> None:
    marker = project / ".lake" / "build" / "previous-run"
    (project / "fake-record.json").write_text(
        json.dumps(
            {
                "argv": argv,
                "cwd": str(project),
                "config": config,
                "challenge": (project / f"{config['challenge_module']}.lean").read_text(),
                "solution": solution,
                "env": {
                    k: v for k, v in os.environ.items() if k.startswith(("COMPARATOR_", "ELAN", "PATH", "LEAN_PATH"))
                },
                "secrets": sorted(k for k in os.environ if k.startswith(SECRET_PREFIXES)),
                "packages_link": os.readlink(project / ".lake" / "packages"),
                "saw_previous_run": marker.exists(),
            }
        )
    )
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text("built\n")


def main(argv: list[str]) -> int:
    try:
        compare(Path.cwd(), argv)
    except Uncaught as exc:
        print(f"uncaught exception: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
