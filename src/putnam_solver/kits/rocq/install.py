"""``putnam bootstrap --prover rocq``: Debian's Coq and the libraries the statements import, or how to
install them with opam where there is no apt."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from putnam_solver.core.provers.rocq.toolchain import DEBIAN_PACKAGES, ROCQ_VERSION
from putnam_solver.kits.installing import InstallError
from putnam_solver.kits.rocq.status import rocq_status
from putnam_solver.verifier.options import GateFlags

OPAM_ROUTE = (
    "Without apt: install opam, then\n"
    "  opam switch create rocq 4.14.1 && eval $(opam env --switch=rocq)\n"
    "  opam repo add coq-released https://coq.inria.fr/opam/released\n"
    f"  opam install coq.{ROCQ_VERSION} coq-mathcomp-ssreflect coq-mathcomp-algebra coq-mathcomp-field "
    "coq-mathcomp-analysis coq-coquelicot\n"
    "and make sure coqc and coqchk of that switch are on PATH."
)


def install_commands() -> list[list[str]]:
    """The commands ``putnam bootstrap --prover rocq`` runs on Debian/Ubuntu (as root)."""
    return [["apt-get", "update"], ["apt-get", "install", "-y", *DEBIAN_PACKAGES]]


class RocqInstallError(InstallError):
    """The Rocq toolchain could not be installed; the message says how to do it by hand."""


@dataclass(frozen=True)
class AptInstall:
    """``putnam bootstrap --prover rocq``: the Debian packages, skipped when everything is present."""

    name: str = "coq"
    description: str = f"apt-get install {' '.join(DEBIAN_PACKAGES)} (Debian's Coq {ROCQ_VERSION} and libraries)"

    def run(self, progress: Callable[[str], None]) -> None:
        if all(ok for _, ok, _ in rocq_status(GateFlags().options())):
            progress("coq: already installed")
            return
        if shutil.which("apt-get") is None or os.geteuid() != 0:
            raise RocqInstallError(f"apt-get is not available here (or not as root). {OPAM_ROUTE}")
        for argv in install_commands():
            progress(f"coq: running {' '.join(argv)}")
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                check=False,
                env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
            )
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip()[-800:]
                raise RocqInstallError(f"`{' '.join(argv)}` failed (exit {done.returncode}): {tail}\n{OPAM_ROUTE}")


def install_plan() -> list[AptInstall]:
    return [AptInstall()]
