"""The Rocq toolchain: where its tools are, what identifies them, and which axioms its libraries may bring.

The gates need ``coqc`` and ``coqchk`` (Coq 8.16.1, as Debian ships it) with the libraries PutnamBench's
Coq statements import: mathcomp (with mathcomp-analysis) and Coquelicot. ``putnam bootstrap --prover rocq``
installs them (``putnam_solver.kits.rocq.install``); ``putnam doctor``'s rows on their health are the kit's
too (``kits.rocq.status``).

The axiom allow-list lives here because it is a property of the installed libraries: the axioms that
the statements' own libraries (Reals, Coquelicot, mathcomp-analysis) legitimately rest on. G5 holds the
assumptions of the candidate's theorem against it, G6 the whole environment coqchk reports. Every entry
says why it is there; docs/rocq.md explains the categories.
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

from putnam_solver.core.gatekit import ResolvedTool, ToolSpec, ToolUnavailable, resolve_tool
from putnam_solver.core.provers.rocq.kernel_bugs import Version, parse_version
from putnam_solver.core.sandbox import base_environment, outside_system_dirs
from putnam_solver.core.tree_state import Tree, tree_listing
from putnam_solver.core.verify import VerifyOptions

ROCQ_VERSION = "8.16.1"
DEBIAN_PACKAGES = ("coq", "libcoq-mathcomp", "libcoq-mathcomp-analysis", "libcoq-coquelicot")
PINS: dict[str, str] = {"coq": ROCQ_VERSION, "packages": " ".join(DEBIAN_PACKAGES)}
"""What the gates and the axiom allow-list target (recorded in proof bundles)."""
COQC = ToolSpec("coqc", "PUTNAM_COQC", "the Coq compiler of G4-G6 (default: on PATH)")
COQCHK = ToolSpec("coqchk", "PUTNAM_COQCHK", "the Coq kernel checker of G6 (default: on PATH)")
BOOTSTRAP_HINT = "run `putnam bootstrap --prover rocq` (Debian/Ubuntu) or install Coq 8.16 with opam"


def _first_line(argv: list[str]) -> str | None:
    env = base_environment(Path(tempfile.gettempdir()))
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else None


def find_tool(spec: ToolSpec, options: VerifyOptions) -> ResolvedTool:
    """``coqc`` or ``coqchk`` as every gate runs it: the user's choice, else the one on PATH, resolved
    once to an absolute, hashed file (ToolUnavailable, saying how to install it, when there is none)."""
    try:
        return resolve_tool(spec, options)
    except ToolUnavailable as exc:
        raise ToolUnavailable(f"{exc}; {BOOTSTRAP_HINT}") from exc


def optional_tool(spec: ToolSpec, options: VerifyOptions) -> ResolvedTool | None:
    """``find_tool``, or None when the tool is missing (for reports that go on without it)."""
    try:
        return find_tool(spec, options)
    except ToolUnavailable:
        return None


def coq_library(coqc: ResolvedTool) -> Path | None:
    """``coqc -where``: the directory of the Coq library this coqc loads (None if it will not say)."""
    where = tool_line(coqc, "-where")
    return Path(where) if where else None


def sandbox_paths(coqc: ResolvedTool) -> tuple[Path, ...]:
    """What the sandbox must show for this coqc or coqchk to run: its directory and, for an install
    outside the system directories (opam), the prefix of its library (plugins, findlib), read-only."""
    library = coq_library(coqc)
    prefix = library.parent if library is not None and outside_system_dirs(library) else None
    return (*coqc.readonly, *([prefix] if prefix else []))


def tool_line(tool: ResolvedTool, flag: str) -> str | None:
    """The first output line of a trusted query of ``tool``, probed once per file state."""
    return _probed_line(str(tool.path), tool.sha256, flag)


@functools.cache
def _probed_line(path: str, sha256: str, flag: str) -> str | None:
    return _first_line([path, flag])


def toolchain_fingerprint(options: VerifyOptions) -> str:
    """coqc's version, the SHA-256 of coqc and coqchk, and the state of the library coqc loads
    (:func:`library_state`), for the evidence, the verdict cache and the kept reference builds (a changed
    Coq or library changes the fingerprint); the same resolved files the gates run."""
    coqc, coqchk = optional_tool(COQC, options), optional_tool(COQCHK, options)
    if coqc is None or coqchk is None:
        return "rocq: coqc/coqchk not found"
    parts = [tool_line(coqc, "--version") or "coqc: no version"]
    parts += [f"{tool.path}:{tool.sha256[:16]}" for tool in (coqc, coqchk)]
    parts.append(f"library:{library_state(coq_library(coqc))[:16]}")
    return "; ".join(parts)


def library_state(library: Path | None) -> str:
    """The size and modification time of every file of the Coq library and of the plugins coqc loads from
    the packages beside it (``plugin_packages``), hashed (``tree_state``, which remembers the listing while
    nothing in it moved): a reinstalled library, or any one package of it updated or rebuilt, changes it.

    Not the change time nor the inode, which would catch a file rewritten with its size and time set back
    (``touch -r``): the nodes of a cluster must agree on this state with the head (``cluster/ray.py``), and
    copies of one install on two machines differ in both. Not the bytes either: measured (red team 20) at
    0.24 to 0.46 s per process for Debian's 224 MB, 1,844-file library (every Rocq verification reads the
    state, the text profile's too). Rewriting an installed library needs the account that owns the
    toolchain, which is trusted."""
    return library_listing(library)[0] if library is not None else hashlib.sha256(b"None").hexdigest()


def library_listing(library: Path) -> tuple[str, tuple[str, ...]]:
    """``library_state`` and the paths of the files it was read from (``tree_listing``)."""
    plugins = [Tree(package, PLUGIN_FILES) for package in plugin_packages(library)]
    return tree_listing([Tree(library), *plugins], seed=str(library))


PLUGIN_FILES = (".cmxs", "META")
"""What coqc reads of a plugin package: the native code it links in and findlib's description of it (its
other files, interfaces and sources, are read only by builds against it)."""


def plugin_packages(library: Path) -> list[Path]:
    """The OCaml packages beside the Coq library whose native plugins coqc loads as it compiles: its core
    (``coq-core``: ``ltac``, ``ring``, ``micromega``, ``ssreflect`` ..., ``coqc -config``'s ``COQCORELIB``
    is ``COQLIB/../coq-core``) and the plugin packages named after it (``coq-elpi``, ``rocq-*``). They
    were outside the library's state (before red team 20): a ``ring_plugin.cmxs`` rebuilt or replaced
    left the fingerprint, and so the verdict cache's key and the selftest's record, as they were."""
    try:
        entries = list(os.scandir(library.parent))
    except OSError:
        return []
    named = (e for e in entries if e.name.startswith(("coq-", "rocq-")) and e.path != str(library))
    return sorted(Path(e.path) for e in named if e.is_dir())


# --------------------------------------------------------------------------------------------- allow-list

LOGICAL_AXIOMS: dict[str, str] = {
    "Coq.Logic.Classical_Prop.classic": "excluded middle; Coq's classical logic",
    "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep": (
        "function extensionality; the Coq 8.16 real numbers are built on it"
    ),
    "Coq.Logic.PropExtensionality.propositional_extensionality": "propositional extensionality",
    "Coq.Logic.ProofIrrelevance.proof_irrelevance": "proof irrelevance (implied by propext)",
    "Coq.Logic.ClassicalEpsilon.constructive_indefinite_description": "classical choice (Hilbert epsilon)",
    "Coq.Logic.IndefiniteDescription.constructive_indefinite_description": "the same choice axiom",
    "Coq.Logic.Epsilon.epsilon_statement": "Hilbert's epsilon",
    "Coq.Logic.Description.constructive_definite_description": "unique choice",
    "Coq.Logic.ClassicalUniqueChoice.dependent_unique_choice": "unique choice",
    "Coq.Logic.Eqdep.Eq_rect_eq.eq_rect_eq": (
        "uniqueness of identity proofs (implied by proof irrelevance; used by dependent destruction)"
    ),
    "Coq.Reals.ClassicalDedekindReals.sig_forall_dec": (
        "LPO-style decision of real-number predicates; an axiom of Coq 8.16's Reals construction"
    ),
    "Coq.Reals.ClassicalDedekindReals.sig_not_dec": "weak excluded middle; an axiom of Coq 8.16's Reals",
    "Coq.Sets.Ensembles.Extensionality_Ensembles": "extensionality of Ensembles (sets as predicates)",
    "Coq.Logic.RelationalChoice.relational_choice": (
        "the axiom of choice for relations (Coq's ClassicalChoice, SetoidChoice); implied by the allowed "
        "indefinite description"
    ),
    "Coq.Logic.ExtensionalFunctionRepresentative.extensional_function_representative": (
        "a representative per extensional class of functions (SetoidChoice); with function extensionality "
        "the identity is one"
    ),
    "mathcomp.classical.boolp.propositional_extensionality": "mathcomp-analysis's propext",
    "mathcomp.classical.boolp.functional_extensionality_dep": "mathcomp-analysis's funext",
    "mathcomp.classical.boolp.constructive_indefinite_description": "mathcomp-analysis's choice",
}
"""Axioms in the logical sense. All hold together in the standard set-theoretic model of Coq."""

SEALED_MODULES: dict[str, str] = {
    "Coq.Reals.Rdefinitions.RbaseSymbolsImpl": "Coq Reals: R, 0, 1, +, *, -, < behind a signature",
    "Coq.Reals.Rdefinitions.RinvImpl": "Coq Reals: the inverse behind a signature",
    "Coq.ssr.ssrunder.Under_rel": "ssreflect's under tactic",
    "mathcomp.analysis.topology.PropInFilter": "mathcomp-analysis",
    "mathcomp.field.algC.Algebraics.Implementation": "mathcomp's algebraic numbers",
    "mathcomp.fingroup.perm.PermDef": "mathcomp permutations",
    "mathcomp.finmap.finmap.FinSupp": "mathcomp finmap",
    "mathcomp.finmap.finmap.Fsfun": "mathcomp finmap",
    "mathcomp.finmap.finmap.Imfset": "mathcomp finmap",
    "mathcomp.finmap.finmap.SortKeys": "mathcomp finmap",
    "mathcomp.finmap.multiset.EnumMset": "mathcomp multisets",
    "mathcomp.ssreflect.bigop.BigOp": "mathcomp big operators",
    "mathcomp.ssreflect.finfun.FinfunDef": "mathcomp finite functions",
    "mathcomp.ssreflect.finset.Imset": "mathcomp finite sets",
    "mathcomp.ssreflect.finset.SetDef": "mathcomp finite sets",
    "mathcomp.ssreflect.fintype.CardDef": "mathcomp finite types",
    "mathcomp.ssreflect.fintype.Finite.EnumDef": "mathcomp finite types",
    "mathcomp.ssreflect.fintype.SubsetDef": "mathcomp finite types",
    "mathcomp.ssreflect.generic_quotient.MPi": "mathcomp quotients",
    "mathcomp.ssreflect.generic_quotient.Pi": "mathcomp quotients",
    "mathcomp.ssreflect.generic_quotient.Repr": "mathcomp quotients",
    "mathcomp.ssreflect.tuple.FinTuple": "mathcomp tuples",
}
"""Library modules sealed behind a signature (``Module M : S := ...``): coqchk lists their fields as
axioms, yet each is implemented in the library. Module path -> library."""

PRIMITIVE_MODULES: dict[str, str] = {
    "Coq.Numbers.Cyclic.Int63.PrimInt63": "63-bit machine integers, kernel primitives",
    "Coq.Floats.PrimFloat": "IEEE floats, kernel primitives",
}
"""Modules whose every assumption is a ``Primitive`` declaration (their computation is built into the
kernel; coqchk lists them as axioms)."""

PRIMITIVES: dict[str, str] = {
    **{
        f"Coq.Array.PArray.{name}": "persistent arrays, a kernel primitive"
        for name in ("array", "make", "get", "default", "set", "length", "copy", "max_length")
    },
    "Coq.Floats.PrimFloat.Leibniz.eqb": "IEEE float equality, a kernel primitive",
}
"""The ``Primitive`` declarations allowed by name: those of a module that also states real axioms
(``Coq.Array.PArray`` declares the arrays' specification as ``Axiom``s, ``get_set_same``, ``array_ext``...,
which are none of the allowed ones: red team 11, the whole module once passed), and ``PrimFloat.Leibniz``'s
one primitive, ``eqb``, whose module part ``Leibniz.`` a specification module ends with too
(``FloatAxioms.Leibniz``, whose ``eqb_spec`` is an ``Axiom``): by name, its print as ``Leibniz.eqb`` (where
``FloatAxioms`` is not loaded) is allowed and ``Leibniz.eqb_spec`` is not (red team 26)."""


PRIMITIVE_SPECIFICATIONS: dict[str, str] = {
    "Coq.Floats.FloatAxioms": "IEEE floats: what each primitive operation computes",
    "Coq.Floats.FloatAxioms.Leibniz": "IEEE floats: primitive equality is Leibniz equality",
    "Coq.Numbers.Cyclic.Int63.Uint63": "63-bit integers: what each primitive operation computes",
    "Coq.Numbers.Cyclic.Int63.Sint63": "63-bit integers read signed: what each primitive operation computes",
    "Coq.Array.PArray": "persistent arrays: what each primitive operation computes",
}
"""Library modules whose ``Axiom``s specify the kernel's primitive operations (``add_spec``, ``of_to_Z``,
``get_set_same``...). Merely loading one (``Require Import Floats``, ``Uint63``, ``Sint63``, ``PArray``, or
MathComp and Coquelicot headers that load them) puts them in coqchk's environment: G6 does not refuse them
there, as it cannot tell whether the theorem uses them; G5's ``Print Assumptions`` of the theorem (its
kernel terms) refuses every use, since they are on no allow-list. Their history is why: the specification
of ``PrimFloat.leb`` (rocq#12483, Coq 8.11) and of ``classify`` (rocq#16096, Coq 8.11-8.15) each proved
``False``; neither exploit goes through on Coq 8.16.1 (measured), and no known critical bug of 8.16.1 lets
the kernel (coqc with its VM and native machines off, coqchk) compute a primitive wrongly: those of the
VM (rocq#19402) and native machine (rocq#17871) are kept out by ``build.COQC_MACHINES_OFF`` and coqchk."""


def primitive_specification(name: str) -> bool:
    """Whether a fully qualified axiom name (as coqchk prints it) specifies a kernel primitive."""
    return not allowed_full_name(name) and name.rsplit(".", 1)[0] in PRIMITIVE_SPECIFICATIONS


def allowed_full_name(name: str) -> bool:
    """Whether a fully qualified axiom name (as coqchk prints it) is on the allow-list."""
    if name in LOGICAL_AXIOMS or name in PRIMITIVES:
        return True
    module = name.rsplit(".", 1)[0]
    return module in SEALED_MODULES or module in PRIMITIVE_MODULES


def allowed_printed_name(name: str, reserved: tuple[str, ...]) -> bool:
    """Whether a name as ``Print Assumptions`` prints it denotes an allowed axiom.

    Coq prints the shortest suffix of the full name that still resolves to it. In the trusted file
    nothing is imported, so anything of the candidate's module prints with one of the ``reserved``
    segments (``Candidate``, ``Putnam``) first; such names never match. Otherwise a name is allowed when
    it is a dot-suffix of an allowed full name (the libraries are installed and trusted, so no other
    library global shares that suffix).
    """
    if not name or name.split(".", 1)[0] in reserved:
        return False
    module_part = name.rsplit(".", 1)[0] + "." if "." in name else ""

    def under(module: str) -> bool:
        full = f"{module}."
        return bool(module_part) and (full == module_part or full.endswith("." + module_part))

    if any(full == name or full.endswith("." + name) for full in (*LOGICAL_AXIOMS, *PRIMITIVES)):
        return True
    # Any field of a listed module is allowed, but a module part that a specification module ends with too
    # (`Leibniz.`: `PrimFloat.Leibniz`, `FloatAxioms.Leibniz`) could be either: refused (red team 26).
    ambiguous = any(under(m) for m in PRIMITIVE_SPECIFICATIONS)
    return not ambiguous and any(under(m) for m in (*SEALED_MODULES, *PRIMITIVE_MODULES))


def detected_version(coqc: ResolvedTool | None) -> Version | None:
    """The version of ``coqc``; None when it is missing or its version is unreadable."""
    return None if coqc is None else parse_version(tool_line(coqc, "--version"))
