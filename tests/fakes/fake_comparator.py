"""A stand-in for leanprover/comparator that follows its Main.lean (pinned commit) step by step, with
the comparison and the kernel replaced by a marker the candidate carries.

Run as ``comparator config.json`` in the project directory (as ``lake env`` runs it):

- the config is read as Main.lean:311-319 ``Config`` with a derived ``FromJson``: the four required
  keys must be there, other keys are ignored silently; ``enable_nanoda`` together with
  ``external_kernels`` is refused (Main.lean:331-332);
- ``lean --print-prefix`` runs in the project (Main.lean:71-78) and ``which git`` (:63-69);
- "Building Challenge", then ``$COMPARATOR_LANDRUN <flags> -- lake build Challenge``; "Exporting ...
  from Challenge", then ``$COMPARATOR_LANDRUN <flags> -- $COMPARATOR_LEAN4EXPORT Challenge -- ...`` with
  the builtin and primitive targets, the theorems, axioms and definition holes (Main.lean:296-297);
  the same for Solution (Main.lean:80-150, 295-307, with buildLandrunArgs' flags); a child that exits
  nonzero ends comparator with "uncaught exception: Child exited with N" (:97-98, :111-112);
- each external kernel runs under landrun with a nanoda-style config file when its name contains
  ``noda`` (:152-209); a nonzero exit prints "<name> kernel rejected the solution";
- every uncaught exception prints ``uncaught exception: <message>`` on stderr and exits 1, as a Lean
  ``main`` does; success prints "Your solution is okay!" and exits 0 (:309).

The candidate's marker line ``-- fake-comparator: <mode>`` stands for the comparison and the replay
(without one, ``judged`` reads the candidate's text), with comparator's own messages:

- ok: accepted ("Your solution is okay!", Main.lean:309);
- reject: ``compareAt`` throws "Challenge and solution theorem statement do not match: 'X'"
  (Comparator/Compare.lean:85);
- axiom: ``checkAxioms`` throws "Illegal axiom detected: 'sorryAx'" (Comparator/Axioms.lean:45);
- kernel: the replay fails; "Running Lean default kernel on solution." and "Lean default kernel rejects
  the solution" (Main.lean:212, :224), then the kernel's message is thrown (:225, :293), rendered as
  leanprover/lean4 src/Lean/Message.lean renders an unknown constant ("(kernel) unknown constant 'X'";
  src/Lean/Replay.lean skips unsafe constants, so a proof through one meets exactly this);
- deeprec: the same, with "(kernel) deep recursion detected" (Message.lean, a resource, not a verdict);
- liar (prints the success line, then is rejected), errortext (prints an error line, is accepted),
  crash (dies by SIGSEGV), hang.

The candidate's build runs the project's `lake build` (fake_lake.py), which honours its own markers
(an aborting or failing build). It records what it was given to ``fake-record.json`` in the project.
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
BUILTIN = ["Nat", "String", "String.mk", "Char", "Quot", "Quot.mk", "Quot.lift", "Quot.ind"]  # Main.lean:267-271
PRIMITIVES = [  # Main.lean:240-265: exported from both modules, whatever their Lean release
    *(f"Nat.{op}" for op in ("add", "sub", "mul", "pow", "gcd", "div", "mod", "beq", "ble", "land", "lor", "xor")),
    "Nat.shiftLeft",
    "Nat.shiftRight",
    "String.ofList",
    "Char.ofNat",
    "List",
    "eagerReduce",
]
REQUIRED = ("challenge_module", "solution_module", "theorem_names", "permitted_axioms")


class Uncaught(Exception):
    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


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
    if done.returncode != 0:  # Lean's Process.wait gives 128+N for a child killed by signal N
        code = done.returncode if done.returncode >= 0 else 128 - done.returncode
        raise Uncaught(f"Child exited with {code}", code)
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
        except Uncaught as exc:  # Main.lean:196-199: a nonzero exit, whatever its cause, reads "rejected"
            print(f"{name} kernel rejected the solution", flush=True)
            return f"{name} exited with {exc.code}"
        print(f"{name} kernel accepts the solution", flush=True)
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
    targets = [*BUILTIN, *config["theorem_names"], *config["permitted_axioms"], *PRIMITIVES]
    targets += config.get("definition_names", [])
    build_and_export(project, config["challenge_module"], prefix.stdout.strip(), targets)
    build_and_export(project, config["solution_module"], prefix.stdout.strip(), targets)
    found = re.search(r"fake-comparator: (\w+)", solution)
    mode = found.group(1) if found else judged(challenge_text(project, config), solution)
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        time.sleep(300)
    if mode == "liar":
        print("Your solution is okay!", flush=True)
    if mode == "errortext":
        print("error: Challenge and solution theorem statement do not match", flush=True)
    if mode in ("reject", "liar"):
        raise Uncaught(f"Challenge and solution theorem statement do not match: '{config['theorem_names'][0]}'")
    if mode == "axiom":
        raise Uncaught("Illegal axiom detected: 'sorryAx'")
    external = run_kernels(project, kernels, config["permitted_axioms"])
    builtin = builtin_kernel(mode)  # Main.lean:290-291: `result <|> (← runBuiltinKernel ..)` runs it in any case
    kernel_error = external or builtin
    if kernel_error:
        raise Uncaught(kernel_error)
    print("Your solution is okay!")


def challenge_text(project: Path, config: dict) -> str:
    return (project / f"{config['challenge_module']}.lean").read_text()


def judged(challenge: str, solution: str) -> str:
    """Without a marker (the selftest's canaries), a textual stand-in for the comparison and the replay:
    a proof through an ``unsafe`` definition built with ``debug.skipKernelTC`` is rejected on replay
    (lean4export leaves unsafe constants out unless asked, lean4export Export.lean:236, and
    leanprover/lean4 src/Lean/Replay.lean skips them, so the theorem meets an unknown constant); a
    solution that does not repeat the challenge's statement word for word is a mismatch; one with a
    ``sorry`` or an ``axiom`` of its own fails ``checkAxioms``."""
    if "unsafe def" in solution and "debug.skipKernelTC" in solution:
        return "kernel"
    statement = challenge[challenge.rindex("theorem") : challenge.rindex(":=")].strip()
    if statement not in solution:
        return "reject"
    if re.search(r"\bsorry\b|^axiom ", solution, re.M):  # sorryAx or a declared axiom: checkAxioms refuses
        return "axiom"
    return "ok"


def builtin_kernel(mode: str) -> str | None:
    """runBuiltinKernel (Main.lean:211-238): what it prints, and the error it returns on a rejection."""
    print("Running Lean default kernel on solution.", flush=True)
    if mode in ("kernel", "deeprec"):
        print("Lean default kernel rejects the solution", flush=True)
        return "(kernel) deep recursion detected" if mode == "deeprec" else "(kernel) unknown constant 'canary_loop'"
    print("Lean default kernel accepts the solution", flush=True)
    return None


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
