"""A stand-in for leanprover/comparator reproducing its documented exit codes and output.

Run as ``comparator config.json`` in the project directory (as ``lake env`` does). It records what
it was given to ``fake-record.json`` in that directory, then behaves as the candidate's marker line
``-- fake-comparator: <mode>`` asks:

- ok: prints "Your solution is okay!" and exits 0 (comparator's success);
- reject: prints an uncaught "Some targets failed" error and exits 1 (comparator's rejection);
- liar: prints "Your solution is okay!" but exits 1;
- errortext: prints an error-looking line but exits 0;
- crash: kills itself with SIGKILL;
- hang: sleeps far past any test timeout;
- reportlink / reportfifo: leaves its report as a link to a host file / a FIFO, and exits 0.
"""

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

SECRET_PREFIXES = ("OPENAI", "ANTHROPIC", "AXLE")


def main(argv: list[str]) -> int:
    project = Path.cwd()
    config = json.loads((project / argv[1]).read_text())
    solution = (project / f"{config['solution_module']}.lean").read_text()
    marker = project / ".lake" / "build" / "previous-run"
    record = {
        "argv": argv,
        "cwd": str(project),
        "config": config,
        "challenge": (project / f"{config['challenge_module']}.lean").read_text(),
        "solution": solution,
        "env": {k: v for k, v in os.environ.items() if k.startswith(("COMPARATOR_", "ELAN", "PATH"))},
        "secrets": sorted(k for k in os.environ if k.startswith(SECRET_PREFIXES)),
        "packages_link": os.readlink(project / ".lake" / "packages"),
        "saw_previous_run": marker.exists(),
    }
    (project / "fake-record.json").write_text(json.dumps(record))
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text("built\n")
    found = re.search(r"fake-comparator: (\w+)", solution)
    mode = found.group(1) if found else "reject"
    if mode in ("ok", "errortext"):
        (project / config["json_output_path"]).write_text(json.dumps({"reports": []}))
    if mode == "ok":
        print("Building Challenge\nBuilding Solution\nYour solution is okay!")
        return 0
    if mode == "reportlink":
        os.symlink("/etc/hostname", project / config["json_output_path"])
        return 0
    if mode == "reportfifo":
        os.mkfifo(project / config["json_output_path"])
        return 0
    if mode == "errortext":
        print("error: Challenge and solution theorem statement do not match")
        return 0
    if mode == "liar":
        print("Your solution is okay!")
        return 1
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGKILL)
    if mode == "hang":
        time.sleep(300)
    theorem = config["theorem_names"][0]
    print(
        f"uncaught exception: Some targets failed:\n- {theorem}: Challenge and solution theorem "
        "statement do not match",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
