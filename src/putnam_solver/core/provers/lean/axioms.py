"""G5 axioms (without comparator): the theorem may depend only on ``propext``, ``Quot.sound`` and
``Classical.choice``, as reported by a file the harness writes.

In a new fresh sandbox, `lean --json` compiles the harness file ``<Module>Axioms.lean``::

    import <Module>
    #print axioms <theorem>

with the candidate's compiled module on ``LEAN_PATH``. ``#print axioms`` walks the theorem's type and
value and everything they use, transitively, so the answer definitions of a no-answer candidate and
every helper are covered by naming the theorem alone. The gate passes only when `lean` exits 0 without
an error and exactly one message sits at the ``#print axioms`` line of the harness file, names the
theorem, and lists nothing outside the allowed set. Anything else (no such message, two of them,
unexpected wording) is an error, never a pass.

The module is the ``.olean`` that G4 compiled from the candidate's exact bytes in this verification
(``compile.CANDIDATE_OLEAN``, which G5 declares it needs); G5 re-hashes it against the hash taken when
that run ended and exposes a copy read-only. Compiling the candidate again
would produce the same file by the same process at twice the cost (minutes with Mathlib) and would
not make it more trustworthy: whatever guards the first compilation guards a second one.

Why the candidate cannot steer this result:

- Its messages are not part of its ``.olean``: what it printed while G4 compiled it (``#print "..."``,
  a forged "does not depend on any axioms") is never replayed on import, and only the message whose
  file is the harness file and whose line is the ``#print axioms`` line is read.
- Importing runs none of its code: `lean` runs the ``[init]`` declarations of what a file imports, so
  the module is read as data first (``olean.load_time_code``, red team 28) and one with entries for an
  extension whose import runs its code (``initialize``, parsers, macros, elaborators) is refused, never
  imported; G3's words against writing them are the first line. The harness file enables nothing (no
  plugins, no options). Syntax extensions it might declare
  (``macro_rules``, ``elab``, notation) would reach the harness file, which is why G2/G3 admit none
  and why G6 (comparator, kernel replay) is the stronger check when installed.
- It cannot re-declare the standard axioms with other statements: the harness file imports ``Init``
  (it is not a ``prelude`` file), and a module that declares ``propext`` or any other name of ``Init``
  itself fails to import with "environment already contains".
- ``sorry`` elaborates to the axiom ``sorryAx``, and an ``axiom`` or ``opaque`` hides nothing from the
  walk: each shows up by name and is outside the allowed set.
- The exit code must be 0 and no error may be reported, so a harness file that did not elaborate (an
  unknown theorem, a failed import) can never pass on a stray message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from putnam_solver.core.gatekit import read_product, sandbox_limits
from putnam_solver.core.provers.lean.checks import challenge_theorem
from putnam_solver.core.provers.lean.compile import (
    CANDIDATE_OLEAN,
    LeanMessage,
    ShadowedModule,
    compile_against_candidate,
    failure_detail,
)
from putnam_solver.core.provers.lean.imports import header_imports
from putnam_solver.core.provers.lean.olean import OleanError, imported_modules, load_time_code
from putnam_solver.core.provers.lean.toolchain import LeanNotFound, find_lean
from putnam_solver.core.safe_files import UnsafeFile
from putnam_solver.core.sandbox import SandboxUnavailable, fresh_copy
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import GateResult, GateStatus, Submission

GATE_ID, GATE_NAME = "G5", "axioms"
ALLOWED_AXIOMS = ("propext", "Quot.sound", "Classical.choice")
"""Mathlib's three axioms: the only ones a proof may rest on, here and in comparator's G6 config."""
PRINT_LINE = 2
_NONE = re.compile(r"'(?P<name>[^']+)' does not depend on any axioms")
_SOME = re.compile(r"'(?P<name>[^']+)' depends on axioms: \[(?P<axioms>[^\]]*)\]")


@dataclass(frozen=True)
class AxiomReport:
    """The axioms ``#print axioms`` listed for ``theorem``, read from the harness file's message."""

    theorem: str
    axioms: tuple[str, ...]

    @property
    def disallowed(self) -> tuple[str, ...]:
        return tuple(a for a in self.axioms if a not in ALLOWED_AXIOMS)


class AxiomOutputError(Exception):
    """The harness file's ``#print axioms`` message is missing, ambiguous or not in the known form."""


class LoadTimeCode(AxiomOutputError):
    """The candidate's compiled module has code Lean would run on importing it: it is never imported."""


def harness_source(module: str, theorem: str) -> str:
    """The trusted file: import the candidate, print the theorem's axioms on line ``PRINT_LINE``."""
    return f"import {module}\n#print axioms {theorem}\n"


def harness_module(module: str) -> str:
    return f"{module}Axioms"


def read_axiom_report(
    messages: tuple[LeanMessage, ...], harness_file: str, theorem: str, line: int = PRINT_LINE
) -> AxiomReport:
    """The one report at the harness file's ``#print axioms`` line; AxiomOutputError for anything else."""
    at_line = [m for m in messages if m.file_name == harness_file and m.line == line]
    if len(at_line) != 1:
        raise AxiomOutputError(f"expected one message at {harness_file}:{line}, found {len(at_line)}")
    message = at_line[0]
    if message.severity != "information":
        raise AxiomOutputError(f"{message.severity} at {message.where()}: {message.text[:300]}")
    text = message.text.strip()
    none, some = _NONE.fullmatch(text), _SOME.fullmatch(text)
    match = none or some
    if match is None or match.group("name") != theorem:
        raise AxiomOutputError(f"unexpected #print axioms output for {theorem}: {text[:300]!r}")
    axioms = tuple(a.strip() for a in some.group("axioms").split(",") if a.strip()) if some else ()
    return AxiomReport(theorem=theorem, axioms=axioms)


def compiled_module(sub: Submission) -> tuple[str, bytes]:
    """The name and bytes of the .olean G4's compile of this verification left (``CANDIDATE_OLEAN``),
    read again with ``safe_files`` (a sandboxed run wrote it) and held against the hash taken when that
    run ended: a file altered, replaced or removed since is an error, never imported; a module that
    would run code of its own when imported (``olean.load_time_code``) is LoadTimeCode, never imported, and
    one that imports a module its header, as G2 read it, does not name is an error."""
    compiled = sub.artifacts.get(CANDIDATE_OLEAN, sub)
    olean, digest = compiled.run.olean, compiled.olean_sha256
    if olean is None or digest is None:
        why = f" ({compiled.refused})" if compiled.refused else ""
        raise AxiomOutputError(f"no compiled module: the candidate's compile left no usable .olean{why}")
    try:
        data = read_product(olean, sandbox_limits(sub.options))
    except (OSError, UnsafeFile) as exc:
        raise AxiomOutputError(f"refused the compiled module: {exc}") from exc
    if sha256_hex(data) != digest:
        raise AxiomOutputError(f"{olean} differs from the file G4 compiled")
    try:
        run_on_import = load_time_code(data)
        hidden = sorted(set(imported_modules(data)) - {"Init", *header_imports(sub.candidate)})
    except OleanError as exc:
        raise AxiomOutputError(f"the compiled module could not be read before importing it: {exc}") from exc
    if run_on_import:
        raise LoadTimeCode(
            "the compiled module carries code Lean runs when a file imports it, so no harness file imports "
            f"it: {'; '.join(run_on_import)}"
        )
    if hidden:  # G2 judged the imports it read; Lean read others (a lexing disagreement): never imported
        names = ", ".join(hidden)
        raise AxiomOutputError(f"the compiled module imports {names}, which its header as G2 read it does not")
    return olean.name, data


def axioms_gate(sub: Submission) -> GateResult:
    """G5: ``#print axioms`` in a harness file, held against the allowed set (see module docstring)."""
    module, theorem = sub.problem.module, challenge_theorem(sub)
    evidence: dict[str, Any] = {"theorem": theorem, "allowed": sorted(ALLOWED_AXIOMS)}
    try:
        olean_name, olean = compiled_module(sub)
        lean = find_lean(sub.options)
    except LoadTimeCode as exc:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.FAILED, str(exc), evidence)
    except AxiomOutputError as exc:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.ERROR, str(exc), evidence)
    except LeanNotFound as exc:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.UNAVAILABLE, str(exc), evidence)
    evidence["toolchain"] = lean.evidence()
    evidence["olean_sha256"] = sha256_hex(olean)
    scratch = sub.scratch / "axioms"
    library = fresh_copy({olean_name: olean}, scratch)
    harness = harness_module(module)
    source = harness_source(module, theorem)
    evidence["harness"] = source
    limits = sandbox_limits(sub.options)
    try:
        run = compile_against_candidate(sub, lean, harness, source, scratch, library, limits)
    except SandboxUnavailable as exc:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.UNAVAILABLE, f"sandbox unavailable: {exc}", evidence)
    except ShadowedModule as exc:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.ERROR, f"axiom check: {exc}", evidence)
    evidence.update(run.evidence())
    failure = failure_detail(run, limits)
    if failure is not None:
        return GateResult(GATE_ID, GATE_NAME, failure[0], f"axiom check: {failure[1]}", evidence)
    try:
        report = read_axiom_report(run.messages, f"{harness}.lean", theorem)
    except AxiomOutputError as exc:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.ERROR, str(exc), evidence)
    evidence["axioms"] = list(report.axioms)
    listed = ", ".join(report.axioms) or "no axioms"
    if report.disallowed:
        outside = ", ".join(report.disallowed)
        detail = f"{theorem} depends on axioms outside the allowed set: {outside}"
        return GateResult(GATE_ID, GATE_NAME, GateStatus.FAILED, detail, evidence)
    return GateResult(GATE_ID, GATE_NAME, GateStatus.PASSED, f"{theorem} depends on {listed}", evidence)
