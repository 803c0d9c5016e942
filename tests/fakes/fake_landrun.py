"""A stand-in for landrun (Zouuup/landrun at 811cfff5) without Landlock: it parses the flags comparator
passes as landrun's CLI does and runs the command after them, but confines nothing.

- flags (cmd/landrun/main.go:27-115): ``--ro``, ``--rox``, ``--rw``, ``--rwx``, ``--unix``, ``--env``,
  ``--log-level``, ``--bind-tcp``, ``--connect-tcp`` take a value; ``--best-effort``, ``--ldd``,
  ``--add-exec``, ``--unrestricted-filesystem``, ``--unrestricted-network``, ``--unrestricted-scoped``,
  ``--ignore-missing`` and the ``--log-*`` switches do not; one or two dashes; ``--`` ends them;
- the command is looked up on PATH and exec'd with only the ``--env`` variables: ``NAME`` copies the
  current value if set, ``NAME=VALUE`` is taken as is (main.go ``processEnvironmentVars``,
  internal/exec/runner.go ``Run``);
- no command, an unknown flag or a command not on PATH: ``[landrun:error] ...`` on stderr and exit 1
  (internal/log/log.go:20 and :60-64 ``Fatal``; main.go:124, :141, :183), the same exit a failed
  ``sandbox.Apply`` gives.
"""

import os
import shutil
import sys

WITH_VALUE = {"ro", "rox", "rw", "rwx", "unix", "env", "log-level", "bind-tcp", "connect-tcp"}
BOOLEAN = {
    "best-effort",
    "ldd",
    "add-exec",
    "unrestricted-filesystem",
    "unrestricted-network",
    "unrestricted-scoped",
    "ignore-missing",
    "log-disable-originating",
    "log-enable-subprocesses",
    "log-disable-subdomains",
}


def fatal(message: str) -> int:
    print(f"[landrun:error] {message}", file=sys.stderr)
    return 1


def main(argv: list[str]) -> int:
    args, env_flags = argv[1:], []
    while args and args[0].startswith("-"):
        flag = args.pop(0)
        if flag == "--":
            break
        name = flag.lstrip("-")
        if name in WITH_VALUE and args:
            value = args.pop(0)
            if name == "env":
                env_flags.append(value)
        elif name not in BOOLEAN:
            return fatal(f"flag provided but not defined: {flag}")
    if not args:
        return fatal("Missing command to run")
    binary = shutil.which(args[0])
    if binary is None:
        return fatal(f"Failed to find binary: exec: {args[0]!r}: executable file not found in $PATH")
    env = dict(e.split("=", 1) if "=" in e else (e, os.environ[e]) for e in env_flags if "=" in e or e in os.environ)
    os.execve(binary, args, env)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
