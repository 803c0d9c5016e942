"""G5 statement and assumptions: a trusted file checks the candidate's theorem against the pinned statement.

G5 compiles the reference (challenge.py: the pinned statement inside a section, so its assumptions
become arguments) and then the harness's trusted file, which ``Require``s (never ``Import``s) both::

    Lemma __putnam_answer : @Putnam.Candidate.sol = @Putnam.Reference.__putnam_official_solution
                              Putnam.Candidate.R.
    Proof. unfold Putnam.Candidate.sol, Putnam.Reference.__putnam_official_solution. reflexivity. Qed.
                                                                             (with-answer only)
    Definition __putnam_same_type_0 : @eq _ (@Putnam.Reference.__putnam_binders_0)
      (fun x : ltac:(let t := type of Putnam.Candidate.R@{} in exact t) => @Putnam.Reference.__putnam_binders_0 x)
      := eq_refl.
                            (one per plugged-in declaration, monomorphic: its type, not a subtype)
    Strategy expand [Putnam.Reference.def Putnam.Candidate.def].    (the statement's own definitions)
    Definition __putnam_check :
      ltac:(let t := type of (@Putnam.Reference.thm Putnam.Candidate.R Putnam.Candidate.sol) in exact t)
      := @Putnam.Candidate.thm.

The statement is elaborated by the harness from the pinned text before the candidate is loaded, so the
candidate's notations, instances, coercions or redefinitions cannot change what it says; only its
top-level assumptions (``Variable R : realType``) and its solution are plugged in, and the kernel checks
that the candidate's theorem has that type (up to conversion: a proof of a convertible type is a proof
of the statement). With the solution plugged in as well, a faithful candidate's type is syntactically
the expected one, so the kernel accepts it without reducing anything (comparing ``X 2007`` for a
let-bound ``fix`` by reduction exhausts memory in ``putnam_2007_b3``); on the with-answer track
``__putnam_answer`` separately makes the kernel check the candidate's solution against the official one.
Then ``Print Assumptions`` of the check and of every
plugged-in assumption: each assumption must be an axiom (not a definition picking a concrete model), and
everything else must be on the allow-list. Output is read only after a random marker the trusted file
prints once both ``Require``s are done: loading a ``.vo`` prints nothing of the candidate (its
``idtac``/``Print`` ran when it was compiled), and the marker makes that irrelevant anyway. Options a
candidate exports with ``Global Set`` do reach the trusted file, so it re-enables the kernel checks.

The trusted file also lists the fields of the candidate's module, as the kernel holds them: an inductive
block the pinned statement does not declare fails G5, however it was declared (G2 refuses type
declarations as text, but a control prefix such as ``Time Inductive ...`` in a proof once hid one from
it): Coq 8.16's kernel and coqchk share bugs that turn a candidate's inductive into a proof of ``False``
with no axiom (rocq#22378: let-ins of ``SProp`` type in a constructor). The listing does not look inside
a module, so any module but the statement's own, held by the kernel as the same functor application as in
the pinned statement, fails G5 too (``recursion.module_check``), whether or not recursion is allowed.
On a Coq with guard-checker bugs it also prints the kernel terms of the fields its text declares
(``recursion.py`` prints any other field's): a fixpoint in a constant of the candidate's own fails G5,
however it was written (the text rule of G3 is only a first line). A trusted file with such prints that
fails is run again without them, so that only the check itself decides.

Every run is judged by the gate kit (``gatekit.judge_run``): a trusted file that coqc rejects is a
mismatch (``failed``); one stopped by a cap is an ``error``.
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from putnam_solver.core.artifacts import Artifact
from putnam_solver.core.gatekit import guarded
from putnam_solver.core.provers.rocq.build import CANDIDATE, REFERENCE, ROOT, TRUSTED, Built, build
from putnam_solver.core.provers.rocq.challenge import (
    BINDERS,
    OFFICIAL_SOLUTION,
    instantiation,
    reference_instance,
    solution_arguments,
    statement_of,
)
from putnam_solver.core.provers.rocq.kernel_bugs import Version, guard_note, recursion_refused
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.provers.rocq.products import prerequisites
from putnam_solver.core.provers.rocq.recursion import (
    INDUCTIVE_KINDS,
    Finding,
    Listing,
    Unreadable,
    inspect_terms,
    module_check,
    predicted_fields,
    statement_names,
)
from putnam_solver.core.provers.rocq.statement_shape import Statement
from putnam_solver.core.provers.rocq.toolchain import COQC, allowed_printed_name, detected_version, find_tool
from putnam_solver.core.verify import GateResult, GateStatus, Submission, Track

G5 = ("G5", "statement and assumptions")
UNSAFE_ENTRY = re.compile(r" is assumed to be | relies on ")


def trusted_source(statement: Statement, track: Track, marker: str, listing: Listing | None = None) -> str:
    """The harness's check file (see the module docstring); ``marker`` precedes the output it reads.

    With ``listing``, the file ends by listing the candidate module's fields and printing the guessed
    ones, for the recursion check (``recursion.py``)."""
    thm = statement.theorem_name
    candidate = f"{ROOT}.{CANDIDATE}"
    args = "".join(f" {candidate}.{n}" for n in instantiation(statement))
    uses = "".join(f", __putnam_uses {candidate}.{n}" for _, n in statement.assumptions)
    instance, reference = reference_instance(statement, f"{ROOT}.{REFERENCE}", candidate)
    lines = [
        f"Require {ROOT}.{REFERENCE}.",
        f"Require {candidate}.",
        "Set Guard Checking.",
        "Set Positivity Checking.",
        "Set Universe Checking.",
        *instance,
        *_same_types(instantiation(statement), reference, candidate),
    ]
    if statement.definitions:
        # The statement's own constants are unfolded before anything else when the kernel compares the
        # two types: left to its default order, it may unfold a library function first and evaluate the
        # statement's computation (miniF2F's mathd_numbertheory_427 sums divisors of 500 in unary).
        # Only the order of unfolding changes; the kernel still decides the conversion.
        names = " ".join(f"{m}.{n}" for m in (reference, candidate) for n in statement.definitions)
        lines.append(f"Strategy expand [{names}].")
    if track is Track.WITH_ANSWER and statement.solution is not None:
        official = "".join(f" {candidate}.{n}" for n in solution_arguments(statement))
        # Unfold both definitions, then compare: a plain `eq_refl` lets conversion evaluate the answer
        # (putnam_2017_b6's `fact 2016` exhausts memory), while the unfolded bodies are equal as written.
        ours, theirs = f"{candidate}.{statement.solution_name}", f"{reference}.{OFFICIAL_SOLUTION}"
        lines.append(
            f"Lemma __putnam_answer : @{ours} = @{theirs}{official}.\nProof. unfold {ours}, {theirs}. reflexivity. Qed."
        )
    lines += [
        "Definition __putnam_check :",
        f"  ltac:(let t := type of (@{reference}.{thm}{args}) in exact t)",
        f"  := @{candidate}.{thm}.",
        "Definition __putnam_uses {A : Type} (_ : A) : unit := tt.",
        f"Definition __putnam_assumptions := (__putnam_uses __putnam_check{uses}).",
        f'Goal True. idtac "{marker}". Abort.',
        "Print Assumptions __putnam_assumptions.",
    ]
    if listing is not None:
        lines += listing.sentences()
    return "\n".join(lines) + "\n"


def _same_types(names: Sequence[str], reference: str, candidate: str) -> list[str]:
    """Sentences that make the kernel check each plugged-in declaration's type convertible to the
    reference's argument it fills, given the earlier ones. Applying the reference theorem checks only
    that it is a subtype (cumulativity), so an ``Axiom R : Set`` (or ``: Prop``) for the statement's
    ``Variable R : Type`` would pass, and the candidate would prove the statement only for small ``R``.
    A product's domain is compared by conversion, so the reference's binder constant applied so far
    (``challenge.binders``: the theorem's binders, value ``tt``) equals its eta-expansion over the
    candidate's type only when the two types are convertible. The binder constant, not the theorem: the
    equality's type would hold the whole statement, which the kernel compares by reduction when the two
    sides differ (``putnam_2007_b3``'s ``fix`` applied to 2007 exhausted memory). (The candidate's type is
    the binder's, not the reference's: Coq may refresh the universe of a sort that ``exact`` puts in a
    binder, which made ``Set`` match the statement's ``Type``, measured on Coq 8.16.1.) ``@{}`` (no
    universe instance) refuses a universe-polymorphic declaration, as the statement's never is: each
    occurrence of one gets universes of its own, so ``Polymorphic Axiom R@{u} : Type@{u}`` would pass
    here at the statement's level and fill the theorem at ``R@{Set}``."""
    sentences = []
    for index, name in enumerate(names):
        applied = f"(@{reference}.{BINDERS}{index}{''.join(f' {candidate}.{n}' for n in names[:index])})"
        ours = f"ltac:(let t := type of {candidate}.{name}@{{}} in exact t)"
        sentences.append(
            f"Definition __putnam_same_type_{index} : @eq _ {applied} (fun x : {ours} => {applied} x) := eq_refl."
        )
    return sentences


@dataclass(frozen=True)
class Assumptions:
    """What the trusted ``Print Assumptions`` reported, split by verdict."""

    allowed: list[str]
    plugged: list[str]
    unsafe: list[str]
    other: list[str]


ASSUMPTION_HEADERS = ("Axioms:", "Closed under the global context")
"""What ``Print Assumptions`` always prints (``printing/printer.ml``, ``pr_assumptionset``): one of them."""


def read_assumptions(output: str, marker: str, variables: Sequence[str]) -> Assumptions | None:
    """Classify the entries printed after ``marker`` (None if the marker or ``Print Assumptions``'s own
    header never appeared: output silenced or cut short is never an empty list of assumptions)."""
    lines = output.splitlines()
    if marker not in lines:
        return None
    after = lines[lines.index(marker) + 1 :]
    if not any(line in ASSUMPTION_HEADERS for line in after):
        return None
    found = Assumptions([], [], [], [])
    plugged_names = {f"{CANDIDATE}.{v}": v for v in variables} | {f"{ROOT}.{CANDIDATE}.{v}": v for v in variables}
    for line in after:
        if not line or line[0].isspace() or line in ASSUMPTION_HEADERS:
            continue
        name = line.split(" : ", 1)[0].strip()
        if UNSAFE_ENTRY.search(line):
            found.unsafe.append(line.strip())
        elif name in plugged_names:
            found.plugged.append(plugged_names[name])
        elif allowed_printed_name(name, reserved=(CANDIDATE, ROOT)):
            found.allowed.append(name)
        else:
            found.other.append(name)
    return found


def mismatch(sub: Submission, statement: Statement, trusted: Built) -> GateResult | None:
    """The result of a trusted file that did not compile cleanly (None when it did): coqc's rejection is
    a statement mismatch, a cap an ``error``."""
    judged = trusted.judgement(sub)
    if judged is None:
        return None
    status, why = judged
    detail = (
        f"the candidate's `{statement.theorem_name}` does not prove the challenge statement "
        f"(or a statement assumption is missing or retyped): {why}"
        if status is GateStatus.FAILED
        else f"the trusted statement check: {why}"
    )
    return GateResult(*G5, status, detail, trusted.evidence())


@dataclass(frozen=True)
class TrustedRun:
    """The trusted file's run (``TRUSTED_RUN``): the ``.vo`` files it loaded, the run, and the random
    markers before the output it reads."""

    ready: tuple[Built, Built]
    built: Built
    marker: str
    listing: Listing
    version: Version | None
    terms: bool
    """Whether candidate recursion is refused, so the listed constants' kernel terms are read."""


def run_trusted(sub: Submission) -> TrustedRun | GateResult:
    """Compile the trusted file on the candidate's and the reference's ``.vo`` (a G5 result if either is
    missing); with guessed prints, again without them if it does not compile cleanly."""
    statement = statement_of(sub.problem)
    ready = prerequisites(sub, G5)
    if isinstance(ready, GateResult):
        return ready
    version = detected_version(find_tool(COQC, sub.options))
    terms = recursion_refused(sub.options.of(RocqOptions).allow_recursion, version)
    # The statement's top-level assumptions are fields of every faithful candidate (G5 requires them as its
    # own axioms): guessed with the text's declarations, they spare a print run of their own.
    assumed = [n for _, n in statement.assumptions]
    listing = Listing.fresh(predicted_fields(sub.candidate, assumed) if terms else ())
    run = _trusted_run(sub, statement, ready, listing, version, terms)
    if listing.guessed and run.built.judgement(sub) is not None:
        run = _trusted_run(sub, statement, ready, Listing.fresh(()), version, terms)
    return run


def _trusted_run(
    sub: Submission,
    statement: Statement,
    ready: tuple[Built, Built],
    listing: Listing,
    version: Version | None,
    terms: bool,
) -> TrustedRun:
    marker = f"PUTNAM-TRUSTED-{secrets.token_hex(16)}"
    source = trusted_source(statement, sub.track, marker, listing)
    trusted = build(sub, TRUSTED, source, [v for b in ready if (v := b.vo)])
    return TrustedRun(ready, trusted, marker, listing, version, terms)


TRUSTED_RUN: Artifact[TrustedRun | GateResult] = Artifact("rocq.trusted", run_trusted)


def statement_gate(sub: Submission) -> GateResult:
    """G5: kernel-checked statement identity, then the assumptions against the allow-list."""

    def body() -> GateResult:
        statement = statement_of(sub.problem)
        run = sub.artifacts.get(TRUSTED_RUN, sub)
        if isinstance(run, GateResult):
            return run
        trusted, marker, listing = run.built, run.marker, run.listing
        failed = mismatch(sub, statement, trusted)
        if failed is not None or trusted.result is None:
            return failed or GateResult(*G5, GateStatus.ERROR, "the trusted file was not compiled")
        evidence = trusted.evidence()
        variables = [n for _, n in statement.assumptions]
        stdout = trusted.result.stdout
        output = stdout.split(f"\n{listing.fields_marker}\n", 1)[0]
        found = read_assumptions(output, marker, variables)
        if found is None:
            return GateResult(*G5, GateStatus.ERROR, "the trusted file printed no assumptions", evidence)
        evidence |= {"allowed": found.allowed, "plugged": found.plugged}
        problems = _assumption_problems(found, variables)
        if problems:
            return GateResult(*G5, GateStatus.FAILED, "; ".join(problems), evidence)
        try:
            fields, printed = listing.read(stdout)
        except Unreadable as exc:
            return GateResult(*G5, GateStatus.ERROR, f"listing the candidate's constants: {exc}", evidence)
        candidate_vo = run.ready[0].vo
        if candidate_vo is None:
            return GateResult(*G5, GateStatus.ERROR, "the candidate's .vo is missing for the module check", evidence)
        modules = module_check(sub, statement, fields, candidate_vo, G5)
        if modules is not None:
            return replace(modules, evidence=evidence | modules.evidence)
        recursion = "allowed"
        if run.terms:
            checked = _recursion_check(sub, statement, fields, printed, candidate_vo, run.version)
            if isinstance(checked, GateResult):
                return replace(checked, evidence=evidence | checked.evidence)
            evidence["recursion"] = checked.evidence()
            recursion = f"no fixpoint of its own in {len(checked.fields)} constants (kernel terms)"
        types = own_types(fields, statement, sub.track)
        if types:
            return GateResult(*G5, GateStatus.FAILED, _types_detail(types), evidence)
        return GateResult(
            *G5,
            GateStatus.PASSED,
            f"same statement (kernel-checked); assumptions: {len(found.allowed)} allowed axioms"
            + (f", statement variables {', '.join(found.plugged)}" if found.plugged else "")
            + f"; recursion: {recursion}",
            evidence,
        )

    return guarded(*G5, body)


def own_types(fields: Sequence[tuple[str, str]], statement: Statement, track: Track) -> list[str]:
    """The inductive blocks of the candidate's module that the pinned statement does not declare, and its
    nested modules (whose own inductives the listing does not show)."""
    declared = statement_names(statement, track)
    kinds = (*INDUCTIVE_KINDS, "Module", "Module Type")
    return [label for kind, label in fields if kind in kinds and label not in declared]


def _types_detail(types: Sequence[str]) -> str:
    names = ", ".join(f"`{n}`" for n in types)
    return (
        f"the candidate's module declares the inductive type(s) or module(s) {names}, which the statement does not: "
        "a candidate may declare no types of its own (Coq 8.16's kernel and coqchk share bugs through which "
        "a declared inductive proves False with no axiom, rocq#22378)"
    )


def _recursion_check(
    sub: Submission,
    statement: Statement,
    fields: list[tuple[str, str]],
    printed: dict[str, str],
    candidate_vo: Path,
    version: Version | None,
) -> Finding | GateResult:
    """The kernel-term recursion check (``recursion.py``): refused when a constant of the candidate's own
    holds a fixpoint."""
    finding = inspect_terms(sub, statement, fields, printed, candidate_vo, G5)
    if isinstance(finding, GateResult) or not finding.refused:
        return finding
    names = ", ".join(f"`{n}`" for n in finding.refused)
    detail = (
        f"the kernel terms of the candidate's own {names} contain a fixpoint (however it was written: "
        f"`Fixpoint`, `fix`, a mutual theorem with `with`, a tactic or plugin); {guard_note(version)}"
    )
    return GateResult(*G5, GateStatus.FAILED, detail, {"recursion": finding.evidence()})


def _assumption_problems(found: Assumptions, variables: Sequence[str]) -> list[str]:
    problems = [f"relies on a disabled kernel check: {u}" for u in found.unsafe]
    problems += [f"axiom `{o}` is not on the allow-list" for o in found.other]
    counts = Counter(found.plugged)
    for v in variables:
        if counts[v] != 1:
            problems.append(
                f"the statement's `{v}` must be the candidate's own axiom, declared as in the "
                f"challenge (found {counts[v]} times among the assumptions)"
            )
    return problems
