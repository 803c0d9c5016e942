"""G6, kernel replay: leanprover/comparator judges the candidate against the harness's challenge.

Comparator builds a trusted ``Challenge`` module and the candidate's ``Solution`` module, exports both
with lean4export, checks that the theorem (and, on the no-answer track, the ``*_solution`` definition
holes) has the same statement and the same dependencies in both, that the proof uses only the permitted
axioms, and replays the solution into the Lean kernel (and, with ``--kernels lean,nanoda``, into nanoda
too). Its exit code is the verdict: a candidate can make the build print anything, including
comparator's own success line.

Where it runs. Comparator sandboxes the two builds itself with landrun (Landlock), so it runs outside
bubblewrap, under its own time and memory caps, on a fresh project per run whose Mathlib packages are
linked read-only from the bootstrapped project. Its README asks two more things of its caller: not a
privileged user (as root, G6 drops to an unprivileged user with ``setpriv``) and no ``AF_UNIX``
sockets (a seccomp filter, ``nounix.py``). Where either cannot be done, G6 is ``unavailable`` unless
``--unsafe-comparator`` is given, which the verdict records.

Reading its end. Comparator's ``main`` exits 0 on success and 1 on any uncaught exception, whether the
candidate was rejected or landrun, lake, lean4export or Landlock failed (leanprover/comparator
Main.lean:97-98 and :111-112 throw "Child exited with N"; :292-293 throw the kernel's error); ``lake
env`` runs it as a child and exits 128+N when it dies by signal N (leanprover/lean4
src/runtime/process.cpp ``lean_io_process_child_wait``). So: exit 0 passes; a signal, a timeout, a cap
or an exit code comparator never gives is ``error``; exit 1 is ``error`` when comparator stopped before
it started building the candidate (the line ``Building Solution``, Main.lean:115, is printed before the
candidate's build and is absent otherwise). After it, exit 1 is a rejection only when comparator's own
message says the statement, a definition or the axioms differ or a kernel rejected the replay
(``comparator_output``); a build that aborts, a kernel that crashes or runs out of memory, is ``error``
and never cached. What remains ambiguous (a toolchain that builds the challenge but breaks on every
solution) is settled by the self-test: when it recorded that this toolchain's known-good canary did not
pass, G6 is ``unavailable``.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
from functools import cache
from pathlib import Path
from typing import Any

from putnam_solver.core.artifacts import Artifact
from putnam_solver.core.gatekit import ToolUnavailable, capped, sandbox_limits
from putnam_solver.core.provers.lean import nounix
from putnam_solver.core.provers.lean.axioms import ALLOWED_AXIOMS
from putnam_solver.core.provers.lean.challenge_build import (
    PROJECT_FILES,
    ChallengeBuild,
    challenge_build,
    new_project,
    project_files,
    seed,
)
from putnam_solver.core.provers.lean.checks import challenge_theorem, form_challenge
from putnam_solver.core.provers.lean.comparator_output import not_a_verdict, rejection
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.provers.lean.project import CHALLENGE_MODULE, COMPARATOR_REV, SOLUTION_MODULE
from putnam_solver.core.provers.lean.toolchain import (
    DEFAULT,
    LeanRelease,
    ToolchainPaths,
    checkers_fingerprint,
    pinned_toolchain_env,
    release_paths,
)
from putnam_solver.core.sandbox import (
    DEFAULT_PATH,
    SandboxLimits,
    SandboxResult,
    landlock_status,
    run_sandboxed,
)
from putnam_solver.core.util import sha256_file, sha256_hex
from putnam_solver.core.verify import GateResult, GateStatus, Submission, Track, VerifyOptions

GATE_ID = "G6"
GATE_NAME = "kernel"
KERNELS = ("lean", "nanoda")
OUTPUT_TAIL = 3000
SOLUTION_DEF = re.compile(r"^(?:noncomputable\s+)?(?:abbrev|def)\s+(\S+_solution)\b", re.MULTILINE)
"""An answer hole (PutnamBench): ``abbrev putnam_X_solution`` (or ``def``) at the start of a line."""
SOLUTION_BUILD_LINE = f"Building {SOLUTION_MODULE}"
"""What comparator prints just before it builds the candidate (Main.lean:115 ``safeLakeBuild``)."""
UNPRIVILEGED_USER = "nobody"


UNJUDGED_RELEASES: dict[str, str] = {
    "v4.24.0": (
        f"comparator {COMPARATOR_REV[:12]} cannot judge Lean v4.24.0 proofs: it always exports "
        "String.ofList, one of the kernel primitives it checks (leanprover/comparator Main.lean:261), and "
        "Lean v4.24.0 has no such constant, so lean4export aborts on the harness's own challenge. Every "
        "comparator commit that checks primitives (since b2e9090) exports it, and the commits before lack "
        "the soundness fixes G6 relies on, so no pairing exists. The fast profile (G1-G4: --gates fast, "
        "and G7 with --axle) is the strongest that can accept a proof for this release"
    ),
}
"""Releases a benchmark states that the pinned comparator cannot judge, and why (G6 is ``unavailable``
for them, and ``doctor``, ``selftest`` and ``verify`` say so)."""


def default_comparator_memory_mb(cpus: int | None = None) -> int:
    """G6's default address-space cap: 8 GB for Mathlib's mapped .olean files and the kernel, plus
    1 GB per core, because the ``lake build`` inside comparator runs Lean with one worker thread per
    core and Lean reserves about 1 GB of address space per thread (see compile.LEAN_THREADS); at
    least 16 GB. Comparator's landrun passes no variable that could pin the thread count."""
    return max(16384, 8192 + 1024 * (cpus or os.cpu_count() or 1))


def comparator_limits(options: VerifyOptions) -> SandboxLimits:
    lean = options.of(LeanOptions)
    memory = lean.comparator_memory_mb or default_comparator_memory_mb()
    return SandboxLimits(timeout_seconds=lean.comparator_timeout_seconds, memory_mb=memory)


def comparator_available(
    root: Path, kernels: tuple[str, ...] = ("lean",), release: LeanRelease = DEFAULT
) -> tuple[bool, str]:
    """Whether comparator can run from the toolchain of ``release`` at ``root``, and what is missing if not."""
    paths = ToolchainPaths(root, release)
    if release.version in UNJUDGED_RELEASES:
        return False, UNJUDGED_RELEASES[release.version]
    unknown = [k for k in kernels if k not in KERNELS]
    if unknown:
        return False, f"unknown kernel(s) {', '.join(unknown)}; choose from {', '.join(KERNELS)}"
    needed = [
        paths.comparator,
        paths.lean4export,
        paths.landrun,
        paths.toolchain_bin / "lake",
        paths.toolchain_bin / "lean",
        *(paths.project / name for name in PROJECT_FILES),
        *([paths.nanoda] if "nanoda" in kernels else []),
    ]
    missing = [p for p in needed if not p.is_file()]
    if not (paths.project / ".lake" / "packages").is_dir():
        missing.append(paths.project / ".lake" / "packages")
    if missing:
        names = ", ".join(str(p.relative_to(root)) for p in missing)
        fix = f"putnam bootstrap --toolchain {release.version}" + (" --nanoda" if "nanoda" in kernels else "")
        return False, f"comparator toolchain {release.version} at {root} incomplete (missing {names}); run {fix}"
    landlock, why = landlock_status()
    if not landlock:
        return False, f"comparator sandboxes builds with landrun, which needs Landlock: {why}"
    return True, f"comparator {COMPARATOR_REV[:12]} at {paths.comparator}"


def known_good_failed(options: VerifyOptions) -> bool:
    """Whether the last ``putnam selftest`` on this toolchain saw comparator refuse its known-good proof.

    Comparator exits 1 for a rejected proof and for a broken landrun, lake or Landlock alike; a toolchain
    that refuses a known-good proof cannot tell them apart, so G6 is then ``unavailable``, not a rejection.
    The selftest itself judges afresh (``options.selftest_run``): the previous record must not decide it.
    """
    if options.selftest_run:
        return False
    from putnam_solver.core.selftest_record import last_known_good  # it reads G6 itself: import it late

    return last_known_good("lean", options, GATE_ID) is False


def definition_holes(challenge: str) -> list[str]:
    """The ``*_solution`` definitions of a challenge: the holes a no-answer candidate fills."""
    return list(dict.fromkeys(SOLUTION_DEF.findall(challenge)))


def comparator_config(sub: Submission, paths: ToolchainPaths) -> dict[str, Any]:
    """The configuration comparator reads (Main.lean:311-319 ``Config``; keys it does not know are
    ignored by the derived ``FromJson``, so nothing else is written). Only the no-answer track has
    definition holes: with the answer inlined, the ``*_solution`` definition is a dependency compared
    by value like any other. A kernel whose name contains ``noda`` is given a nanoda-style config
    (Main.lean:173, 207-209)."""
    config: dict[str, Any] = {
        "challenge_module": CHALLENGE_MODULE,
        "solution_module": SOLUTION_MODULE,
        "theorem_names": [challenge_theorem(sub)],
        "permitted_axioms": list(ALLOWED_AXIOMS),
    }
    if "nanoda" in sub.options.of(LeanOptions).kernels:
        config["external_kernels"] = {"nanoda": [str(paths.nanoda)]}
    if sub.track is Track.NO_ANSWER:
        config["definition_names"] = definition_holes(form_challenge(sub)[1])
    return config


def prepare_project(sub: Submission, paths: ToolchainPaths, config: dict[str, Any], built: ChallengeBuild) -> Path:
    """A fresh Lake project under ``sub.scratch``: harness challenge with its cached build products
    (``challenge_build``: comparator's Lake finds them up to date), candidate solution, config, and the
    bootstrapped Mathlib packages linked in (read-only to the candidate's build: landrun lets it write
    only to this project's own ``.lake``, and the link points outside it). The project is also the
    builds' ``HOME``, whose ``.gitconfig`` lets the git Lake runs read those packages as ``nobody``
    (``toolchain.git_trust_env``: landrun passes no other variable that could carry it)."""
    files = project_files(sub, paths)
    files[f"{SOLUTION_MODULE}.lean"] = sub.candidate_bytes
    files["config.json"] = json.dumps(config, indent=2).encode("utf-8")
    project = new_project(files, paths, sub.scratch / "comparator")
    seed(project, built)
    return project


def run_confined(
    sub: Submission, paths: ToolchainPaths, project: Path, argv: list[str]
) -> tuple[SandboxResult, dict[str, Any]]:
    """Run ``argv`` in ``project`` as comparator is run: its confinement (``confinement``; none with
    ``--unsafe-comparator``, else Unconfinable is raised), environment and caps; with what the
    confinement did, for evidence. G6's ``lake build Challenge`` in a candidate-free project runs so too."""
    try:
        prefix, confined = confinement(project, paths, sub.scratch)
    except Unconfinable as exc:
        if not sub.options.of(LeanOptions).unsafe_comparator:
            raise
        prefix, confined = [], {"unsafe_comparator": str(exc)}
    limits = comparator_limits(sub.options)
    env = comparator_env(paths, project)
    return run_sandboxed([*prefix, *argv], workdir=project, env=env, limits=limits, unsafe_no_sandbox=True), confined


@cache
def challenge_artifact(root: Path | None = None) -> Artifact[ChallengeBuild]:
    """G6's challenge build (``challenge_build``) for the toolchain at ``root`` (None: the options'),
    made once per verification and kept across them per problem and toolchain."""

    def make(sub: Submission) -> ChallengeBuild:
        paths = release_paths(sub.options, root)
        available, why = comparator_available(paths.root, sub.options.of(LeanOptions).kernels, paths.release)
        if not available or known_good_failed(sub.options):  # G6 will not run: build nothing for it
            raise ToolUnavailable(why if not available else "G6 is unavailable on this toolchain (selftest)")
        limit = sandbox_limits(sub.options).disk_bytes
        lake_build = [str(paths.toolchain_bin / "lake"), "build", CHALLENGE_MODULE]
        return challenge_build(sub, paths, lambda project: run_confined(sub, paths, project, lake_build)[0], limit)

    return Artifact(f"lean.challenge {root or ''}".strip(), make, pinned=True)


def comparator_env(paths: ToolchainPaths, project: Path) -> dict[str, str]:
    """A minimal environment: the pinned toolchain's own binaries first on PATH (comparator calls
    ``lean`` and ``lake`` by name, Main.lean:73 and :125), ``ELAN_TOOLCHAIN`` for any shim still
    reached, the tool paths comparator reads (Main.lean:325-326), and no secrets of the caller."""
    env = pinned_toolchain_env(paths)
    env["PATH"] = ":".join([env["PATH"], str(paths.comparator.parent)])
    return {
        **env,
        "HOME": str(project),
        "COMPARATOR_LEAN4EXPORT": str(paths.lean4export),
        "COMPARATOR_LANDRUN": str(paths.landrun),
    }


class Unconfinable(Exception):
    """Comparator's README conditions cannot be met here; the message says which and how to fix it."""


def confinement(project: Path, paths: ToolchainPaths, scratch: Path) -> tuple[list[str], dict[str, Any]]:
    """The command prefix that meets comparator's README conditions, and what it did, for evidence.

    AF_UNIX sockets are refused by ``nounix`` (before anything else runs); as root, the rest runs as
    ``nobody`` through ``setpriv``, which then owns the fresh project and must be able to read the
    toolchain. Raises Unconfinable."""
    ok, why = nounix.libseccomp_status()
    if not ok:
        raise Unconfinable(f"cannot deny AF_UNIX sockets to comparator: {why}")
    prefix = nounix.command_prefix()
    evidence: dict[str, Any] = {"af_unix": "denied (seccomp)", "user": pwd.getpwuid(os.geteuid()).pw_name}
    if os.geteuid() != 0:
        return prefix, evidence
    return [*prefix, *_drop_root(project, paths, scratch)], {**evidence, "user": UNPRIVILEGED_USER}


def _drop_root(project: Path, paths: ToolchainPaths, scratch: Path) -> list[str]:
    setpriv = shutil.which("setpriv", path=DEFAULT_PATH)
    if setpriv is None:
        raise Unconfinable("running as root and setpriv (util-linux) is missing to drop to an unprivileged user")
    try:
        user = pwd.getpwnam(UNPRIVILEGED_USER)
    except KeyError as exc:
        raise Unconfinable(f"running as root and there is no user {UNPRIVILEGED_USER!r} to run comparator as") from exc
    hidden = [p for p in (paths.root.resolve(), *paths.root.resolve().parents) if not p.stat().st_mode & 0o001]
    if hidden:
        raise Unconfinable(
            f"running as root, comparator runs as {UNPRIVILEGED_USER}, who cannot enter {hidden[0]}; "
            "put the toolchain where others can read it (PUTNAM_TOOLCHAIN_DIR) or run putnam unprivileged"
        )
    for directory, _, names in os.walk(project):
        for entry in (directory, *(os.path.join(directory, n) for n in names)):
            os.chown(entry, user.pw_uid, user.pw_gid, follow_symlinks=False)
    _let_through(project, scratch)
    return [setpriv, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"]


def _let_through(project: Path, scratch: Path) -> None:
    """Let ``nobody`` reach the fresh project: the verification's scratch directory is private
    (``mkdtemp``, 0700), and comparator runs outside bubblewrap, which would otherwise bind the path in.
    The directories from the project up to the scratch directory get search permission for others,
    not read: nothing in them can be listed, only the project's own random path followed. Raises
    Unconfinable when a directory above the scratch directory keeps others out."""
    if not project.is_relative_to(scratch):
        raise Unconfinable(f"comparator's project {project} is not inside the scratch directory {scratch}")
    for directory in (project.parent, *project.parent.parents):
        if directory == scratch.parent:
            break
        mode = directory.stat().st_mode
        if not mode & 0o001:
            directory.chmod(mode & 0o7777 | 0o001)
    hidden = [p for p in scratch.resolve().parents if not p.stat().st_mode & 0o001]
    if hidden:
        raise Unconfinable(
            f"running as root, comparator runs as {UNPRIVILEGED_USER}, who cannot enter {hidden[0]} above the "
            "verification's scratch directory; point TMPDIR at a directory others can enter"
        )


def _tail(text: str) -> str:
    return text[-OUTPUT_TAIL:]


def judge(result: SandboxResult, limits: SandboxLimits) -> tuple[GateStatus, str]:
    """The verdict from how comparator ended (see the module docstring): the gate kit's rule for caps
    and signals (``gatekit.capped``), then comparator's own exit codes."""
    if result.ok:
        return GateStatus.PASSED, "comparator accepted: same statement, permitted axioms, kernel replay"
    cap = capped(result, "comparator", limits)
    if cap is not None:
        return GateStatus.ERROR, f"{cap}; not a verdict on the candidate"
    code = result.exit_code
    if code != 1:
        return GateStatus.ERROR, f"exit code {code}, which comparator never gives (0 or 1); not a verdict"
    if SOLUTION_BUILD_LINE not in result.stdout.splitlines():
        return (
            GateStatus.ERROR,
            "comparator failed before building the candidate (building or exporting the harness's own "
            "challenge), so lake, landrun, lean4export or Landlock is broken here; not a verdict",
        )
    why = rejection(result.stdout, result.stderr)
    if why is None:
        return GateStatus.ERROR, not_a_verdict(result.stderr)
    return GateStatus.FAILED, f"comparator rejected the candidate (exit code 1): {why[:500]}"


def comparator_gate(sub: Submission, root: Path | None = None) -> GateResult:
    """G6: run comparator on a fresh project; passed only if it exits 0 on its own."""
    options, lean = sub.options, sub.options.of(LeanOptions)
    paths = release_paths(options, root)
    available, why = comparator_available(paths.root, lean.kernels, paths.release)
    if not available:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.UNAVAILABLE, why)
    fingerprint = checkers_fingerprint(paths)
    evidence: dict[str, Any] = {"comparator_rev": COMPARATOR_REV, "fingerprint": fingerprint}
    if known_good_failed(options):
        detail = "the self-test's known-good proof did not pass comparator on this toolchain; run putnam selftest"
        return GateResult(GATE_ID, GATE_NAME, GateStatus.UNAVAILABLE, detail, evidence)
    try:
        built = sub.artifacts.get(challenge_artifact(root), sub)
        evidence["challenge_build"] = built.evidence()
        if built.failure is not None:
            detail = f"the harness's challenge does not build ({built.failure}); not a verdict on the candidate"
            return GateResult(GATE_ID, GATE_NAME, GateStatus.ERROR, detail, evidence)
        config = comparator_config(sub, paths)
        project = prepare_project(sub, paths, config, built)
        argv = [str(paths.toolchain_bin / "lake"), "env", str(paths.comparator), "config.json"]
        result, confined = run_confined(sub, paths, project, argv)
    except Unconfinable as exc:
        detail = f"{exc}; or pass --unsafe-comparator (recorded in the verdict)"
        return GateResult(GATE_ID, GATE_NAME, GateStatus.UNAVAILABLE, detail, evidence)
    limits = comparator_limits(options)
    status, detail = judge(result, limits)
    if status is not GateStatus.PASSED:
        detail += f"\n{_tail(result.stderr or result.stdout)}"
    evidence.update(
        {
            "comparator_sha256": sha256_file(paths.comparator),
            "lean4export_sha256": sha256_file(paths.lean4export),
            "landrun_sha256": sha256_file(paths.landrun),
            "config": config,
            "confinement": confined,
            "limits": {"timeout_seconds": limits.timeout_seconds, "memory_mb": limits.memory_mb},
            "challenge_sha256": sha256_hex(form_challenge(sub)[1].encode("utf-8")),
            "candidate_sha256": sha256_hex(sub.candidate_bytes),
            "exit_code": result.exit_code,
            "killed_reason": result.killed_reason,
            "wall_seconds": round(result.wall_seconds, 3),
            "peak_memory_kb": result.peak_memory_kb,
            "stdout_tail": _tail(result.stdout),
            "stderr_tail": _tail(result.stderr),
        }
    )
    return GateResult(GATE_ID, GATE_NAME, status, detail, evidence)
