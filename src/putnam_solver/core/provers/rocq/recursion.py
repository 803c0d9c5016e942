"""Candidate recursion found in the kernel terms, not in the text (G5, on a Coq with guard-checker bugs).

Coq 8.16's guard checker has bugs shared by coqc and coqchk (rocq#20455 and kin) through which a
fixpoint the candidate builds proves ``False``. The text rule of G3 (``checks.POLICY.recursion_words``)
is a first, cheap line only: a mutual theorem (``Lemma a : A with b : B``) makes Coq build the fixpoint
itself, and so do the ``fix``/``cofix`` tactics, Ltac2, ``Function``, ``Program Fixpoint``,
``Equations``, ``Scheme`` or any future plugin, none of which need a word the rule knows. What decides is
what the kernel holds, read from the compiled ``Candidate.vo``:

1. **Every constant the candidate defines.** ``Set Short Module Printing. Print Module Putnam.Candidate.``
   prints each field of the module's structure as ``<kind> <label>`` (Coq's ``vernac/printmod.ml``,
   ``print_structure`` and ``print_body`` with the ``OnlyNames`` extent: ``Definition`` or ``Parameter``
   for a constant, ``Inductive``/``Variant``/``CoInductive`` for an inductive block, ``Module`` or
   ``Module Type``). The structure is what the kernel checked and ``coqchk`` re-checks, so every constant
   the file created is a field: mutual-theorem siblings, ``abstract`` and obligation constants, schemes.
   Nested modules are not looked into: they are refused.
2. **Each body, printed raw.** Under ``Set Printing All`` (no notations, so no number or string notation
   either) ``Print Putnam.Candidate.<label>`` prints the constant's body (opaque proofs included) as
   detyped from the kernel term. A kernel ``Fix``/``CoFix`` is detyped to a ``GRec`` and always printed
   with the keyword ``fix``/``cofix`` (``pretyping/detyping.ml``, ``interp/constrextern.ml``,
   ``printing/ppconstr.ml`` ``pr_recursive``); the keywords are reserved, so no name can spell them. A
   ``fix`` or ``cofix`` token in that text is a fixpoint in the term, and a fixpoint in the term always
   prints one.
3. **The statement's own definitions.** A candidate repeats the challenge's sentences, and some define
   recursive functions (``Fixpoint a (n : nat) ...``). Such a constant is the benchmark's, not the
   candidate's, when its printed term equals, name for name, the same constant of the pinned statement
   compiled alone (``Putnam.Pristine``), and every candidate constant it mentions is exempt the same way.
   On the no-answer track the solution is the candidate's own and is never exempt. ``Putnam.Pristine``
   depends on the pinned statement alone and is kept in the cache directory like the reference
   (``products.build_pinned``).

The prints of step 2 would need a run of their own after the trusted file, which lists the fields. To
spare it, the trusted file also prints the statement's own assumptions and the constants the candidate's
text declares at its top level (:func:`predicted_fields`, a guess, so only ever a list of names to print): the
field list still decides which constants are read, and a field the guess missed is printed by a run of
its own as before. A guessed name that is not a field makes the trusted file fail; it is then run again
without guesses (``statement.run_trusted``), so a wrong guess costs time, never a verdict.

Library recursion (``nat_ind``, ``Nat.rec``, well-founded ``Fix``) is referred to by name and stays
allowed: only bodies of the candidate's own constants are read. Every run is judged by the gate kit; a
field list or print that cannot be read is an ``error``, never a pass.
"""

from __future__ import annotations

import itertools
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.provers.rocq import challenge
from putnam_solver.core.provers.rocq.build import CANDIDATE, ROOT, Built, build
from putnam_solver.core.provers.rocq.products import build_pinned
from putnam_solver.core.provers.rocq.statement_fixes import only_statement_fixpoints
from putnam_solver.core.provers.rocq.statement_shape import Statement
from putnam_solver.core.provers.rocq.syntax import ROLLED_BACK, THEOREM_COMMANDS, LexError, sentences
from putnam_solver.core.verify import GateResult, GateStatus, Submission, Track

PRISTINE = "Pristine"
"""The module name under which the pinned statement is compiled alone, for comparison."""
TERMS = "Terms"
INDUCTIVE_KINDS = ("Inductive", "Variant", "CoInductive")
"""The kinds ``print_body`` prints for an inductive block (records and classes included)."""
FIELD_KINDS = ("Definition", "Parameter", *INDUCTIVE_KINDS)
"""The kinds ``print_body`` prints for constants and inductive blocks (``Module`` is refused)."""
LABEL = re.compile(r"[^\W\d][\w']*\Z")
"""A Coq identifier (a label of the candidate's module): written into the harness's file only if it
matches, so a field list cannot inject a command."""
FIXPOINT = re.compile(r"(?<![\w'.])(?:co)?fix(?![\w'])")
CANDIDATE_NAME = re.compile(rf"(?<![\w'.])(?:{ROOT}\.)?{CANDIDATE}\.([^\W\d][\w']*)")
PRISTINE_NAME = re.compile(rf"(?<![\w'.])(?:{ROOT}\.)?{PRISTINE}\.([^\W\d][\w']*)")
PRINTING = ("Set Printing All.", "Set Printing Width 1000.", "Set Printing Depth 1073741823.")
"""Set in the harness's print file itself, whatever the candidate's exported options: no notations, and no
depth at which the printer would cut a term short with ``...``."""


class Unreadable(ValueError):
    """Output of a harness-written Coq file that does not have the shape Coq's printer gives it."""


CONSTANT_COMMANDS = THEOREM_COMMANDS | {"Definition", "Fixpoint", "CoFixpoint"}
"""Commands whose declared name is guessed to be a field of the candidate's module."""


def predicted_fields(candidate: str, assumed: Sequence[str] = ()) -> list[str]:
    """Labels the candidate's text declares at its top level or in sections, after the statement's
    ``assumed`` ones (a guess: see the module docstring); only names that are Coq identifiers, so the
    guess cannot add a command to a harness file."""
    labels = [name for name in dict.fromkeys(assumed) if LABEL.match(name)]
    try:
        sents = sentences(candidate)
    except LexError:
        return labels
    blocks: list[str] = []
    for sent in sents:
        if sent.tokens[0].text in ROLLED_BACK:
            continue
        if sent.command in ("Section", "Module") and ":=" not in sent.words:
            blocks.append(sent.command)
        elif sent.command == "End" and blocks:
            blocks.pop()
        elif sent.command in CONSTANT_COMMANDS and "Module" not in blocks:
            name = sent.declared_name
            if name is not None and LABEL.match(name) and name not in labels:
                labels.append(name)
    return labels


@dataclass(frozen=True)
class Listing:
    """The random markers of the trusted file's last part: the candidate's module fields, then the
    guessed constants' prints."""

    fields_marker: str
    prints_marker: str
    guessed: tuple[str, ...]

    @classmethod
    def fresh(cls, guessed: Sequence[str]) -> Listing:
        token = secrets.token_hex(16)
        return cls(f"PUTNAM-FIELDS-{token}", f"PUTNAM-TERMS-{token}", tuple(guessed))

    def sentences(self) -> list[str]:
        """Sentences for the end of the trusted G5 file: the candidate's module fields after
        ``fields_marker``, then the guessed constants printed raw (as :func:`_print_file` does)."""
        listing = [
            "Set Short Module Printing.",
            f'Goal True. idtac "{self.fields_marker}". Abort.',
            f"Print Module {ROOT}.{CANDIDATE}.",
            "Unset Short Module Printing.",
        ]
        return listing + _print_sentences([(CANDIDATE, label) for label in self.guessed], self.prints_marker)

    def read(self, output: str) -> tuple[list[tuple[str, str]], dict[str, str]]:
        """The fields listed and the guessed constants' printed terms (Unreadable if either is missing)."""
        listed, end, _ = output.partition(f"\n{self.prints_marker}-")
        if not end:
            raise Unreadable("the prints of the guessed constants are missing")
        prints = read_prints(output, self.prints_marker, len(self.guessed))
        return read_fields(listed, self.fields_marker), dict(zip(self.guessed, prints, strict=True))


def read_fields(output: str, marker: str) -> list[tuple[str, str]]:
    """(kind, label) of each field ``Print Module`` listed after ``marker`` (Unreadable otherwise)."""
    lines = output.splitlines()
    if marker not in lines:
        raise Unreadable("the module listing was not printed")
    words = " ".join(lines[lines.index(marker) + 1 :]).split()
    if words[:4] != ["Module", CANDIDATE, ":=", "Struct"] or words[-1:] != ["End"]:
        raise Unreadable(f"the module listing does not have the shape `Module {CANDIDATE} := Struct ... End`")
    fields, rest = [], words[4:-1]
    while rest:
        kind, rest = rest[0], rest[1:]
        if kind == "Module" and rest[:1] == ["Type"]:
            kind, rest = "Module Type", rest[1:]
        if not rest:
            raise Unreadable(f"the module listing ends after `{kind}`")
        label, rest = rest[0], rest[1:]
        if kind not in (*FIELD_KINDS, "Module", "Module Type"):
            raise Unreadable(f"unexpected field kind `{kind}` in the module listing")
        fields.append((kind, label))
    return fields


def _print_file(
    module_labels: Sequence[tuple[str, str]], marker: str, requires: Iterable[str], command: str = "Print"
) -> str:
    """A harness file printing each ``(module, label)`` raw, each after its own numbered marker."""
    lines = [f"Require {ROOT}.{m}." for m in requires]
    return "\n".join(lines + _print_sentences(module_labels, marker, command)) + "\n"


def _print_sentences(module_labels: Sequence[tuple[str, str]], marker: str, command: str = "Print") -> list[str]:
    lines = list(PRINTING)
    for index, (module, label) in enumerate(module_labels):
        lines += [f'Goal True. idtac "{marker}-{index}". Abort.', f"{command} {ROOT}.{module}.{label}."]
    lines.append(f'Goal True. idtac "{marker}-end". Abort.')
    return lines


def read_prints(output: str, marker: str, count: int) -> list[str]:
    """The text each print of ``_print_file`` produced, in order (Unreadable if a marker is missing)."""
    lines = output.splitlines()
    at = {line: i for i, line in enumerate(lines) if line.startswith(marker)}
    wanted = [f"{marker}-{index}" for index in [*range(count), "end"]]
    if any(w not in at for w in wanted):
        raise Unreadable("a print of the candidate's constants is missing")
    bounds = [at[w] for w in wanted]
    if bounds != sorted(bounds):
        raise Unreadable("the prints of the candidate's constants are out of order")
    return ["\n".join(lines[start + 1 : end]) for start, end in itertools.pairwise(bounds)]


def statement_names(statement: Statement, track: Track) -> set[str]:
    """Names the pinned statement declares before its theorem (the solution only on with-answer). Read from
    the statement's own sentences: ``parse_statement`` lexed its text already (a text that does not lex is
    no statement), so lexing it again could never fail."""
    header = statement.sentences[: statement.theorem]
    names = {n for s in header if (n := s.declared_name) is not None}
    if track is Track.NO_ANSWER and statement.solution_name is not None:
        names.discard(statement.solution_name)
    return names


@dataclass(frozen=True)
class Finding:
    """What the term check saw: every field, the ones whose term has a fixpoint, the exempt ones."""

    fields: list[tuple[str, str]]
    recursive: list[str]
    exempt: list[str]

    @property
    def refused(self) -> list[str]:
        return [n for n in self.recursive if n not in self.exempt]

    def evidence(self) -> dict[str, object]:
        return {"constants": len(self.fields), "with_fixpoint": self.recursive, "statement_own": self.exempt}


def _normalised(text: str, pattern: re.Pattern[str]) -> str:
    """The printed term with its module's names renamed to ``Pristine`` and its layout (which follows
    the names' lengths) reduced to single spaces."""
    return " ".join(pattern.sub(lambda name: f"{PRISTINE}.{name.group(1)}", text).split())


def exempt_names(candidate_prints: dict[str, str], pristine_prints: dict[str, str]) -> list[str]:
    """Statement constants printed exactly as in the pinned statement, closed under what they mention."""
    same = {
        name
        for name, text in pristine_prints.items()
        if _normalised(candidate_prints[name], CANDIDATE_NAME) == _normalised(text, PRISTINE_NAME)
    }
    changed = True
    while changed:
        changed = False
        for name in sorted(same):
            if any(m.group(1) not in same for m in CANDIDATE_NAME.finditer(candidate_prints[name])):
                same.discard(name)
                changed = True
    return sorted(same)


def _unusable(sub: Submission, gate: tuple[str, str], run: Built, what: str) -> GateResult:
    """A harness-written file that did not print what it should: never the candidate's rejection."""
    judged = run.judgement(sub)
    why = judged[1] if judged is not None else "its output does not have the shape Coq prints"
    return GateResult(*gate, GateStatus.ERROR, f"{what}: {why}", run.evidence())


def _print_run(
    sub: Submission, name: str, labels: Sequence[tuple[str, str]], deps: Sequence[Path], command: str = "Print"
) -> tuple[Built, list[str] | None]:
    marker = f"PUTNAM-TERMS-{secrets.token_hex(16)}"
    requires = sorted({m for m, _ in labels} | {CANDIDATE})
    run = build(sub, name, _print_file(labels, marker, requires, command), deps)
    if run.result is None or run.judgement(sub) is not None:
        return run, None
    try:
        return run, read_prints(run.result.stdout, marker, len(labels))
    except Unreadable:
        return run, None


def inspect_terms(
    sub: Submission,
    statement: Statement,
    fields: list[tuple[str, str]],
    printed: dict[str, str],
    candidate_vo: Path,
    gate: tuple[str, str],
) -> Finding | GateResult:
    """Every field's term (``printed`` already, or printed now); the recursive ones compared with the pinned
    statement's constants."""
    bad = [label for _, label in fields if not LABEL.match(label)]
    if bad:
        return GateResult(*gate, GateStatus.ERROR, f"unreadable constant name in the module listing: {bad[0]!r}")
    kept = statement_modules_of(statement, fields)
    nested = [label for kind, label in fields if kind.startswith("Module") and label not in kept]
    if nested:
        detail = f"the candidate defines module `{nested[0]}`, whose terms the recursion check cannot see"
        return GateResult(*gate, GateStatus.FAILED, detail)
    missing = [(CANDIDATE, label) for _, label in fields if label not in printed]
    by_name = {label: printed[label] for _, label in fields if label in printed}
    if missing:
        run, prints = _print_run(sub, TERMS, missing, [candidate_vo])
        if prints is None:
            return _unusable(sub, gate, run, "printing the candidate's terms")
        by_name |= {label: text for (_, label), text in zip(missing, prints, strict=True)}
    recursive = [label for label, text in by_name.items() if FIXPOINT.search(text)]
    own = sorted(statement_names(statement, sub.track) & set(recursive))
    # the theorem holds the fixpoints of the statement's `(A := fix ...)` binders (statement_fixes.py)
    theorem = [statement.theorem_name] if statement.theorem_name in recursive else []
    if not own and not theorem:
        return Finding(fields, recursive, [])
    pristine = build_pinned(sub, PRISTINE, statement.text)
    if pristine.vo is None:
        return _unusable(sub, gate, pristine, "compiling the pinned statement alone")
    compared = [(PRISTINE, name) for name in own + theorem]
    run, pristine_prints = _print_run(sub, f"{TERMS}{PRISTINE}", compared, [candidate_vo, pristine.vo])
    if pristine_prints is None:
        return _unusable(sub, gate, run, "printing the pinned statement's terms")
    pristine_by = dict(zip(own + theorem, pristine_prints, strict=True))
    exempt = exempt_names(by_name, {name: pristine_by[name] for name in own})
    solution = statement.solution_name if sub.track is Track.NO_ANSWER else None
    avoid = frozenset({f"{PRISTINE}.{solution}"} if solution else ())
    exempt += [
        name
        for name in theorem
        if only_statement_fixpoints(
            _normalised(by_name[name], CANDIDATE_NAME), _normalised(pristine_by[name], PRISTINE_NAME), avoid
        )
    ]
    return Finding(fields, recursive, exempt)


def statement_modules_of(statement: Statement, fields: list[tuple[str, str]]) -> list[str]:
    """The candidate's modules that bear the name of one of the statement's own (``challenge.statement_modules``)."""
    names = {m.name for _, m in challenge.statement_modules(statement)}
    return [label for kind, label in fields if kind == "Module" and label in names]


def module_check(
    sub: Submission, statement: Statement, fields: list[tuple[str, str]], candidate_vo: Path, gate: tuple[str, str]
) -> GateResult | None:
    """The candidate's copies of the statement's own modules: refused (a failed result) unless the kernel
    holds each as the same functor application as the pinned statement. Neither the field listing nor the
    recursion check looks inside a module, and one that only matches the statement's fields may add
    inductive types (rocq#22378 proves ``False`` through one) or fixpoints of its own: decided whether or
    not candidate recursion is allowed (any other module is refused as such)."""
    kept = statement_modules_of(statement, fields)
    return _same_modules(sub, statement, kept, candidate_vo, gate) if kept else None


ALGEBRAIC = re.compile(r":= \(?[\w.' ]+\)?")
"""How Coq prints a module defined by a functor application or an alias: ``:= (F X)``, paths only."""


def _same_modules(
    sub: Submission, statement: Statement, names: list[str], candidate_vo: Path, gate: tuple[str, str]
) -> GateResult | None:
    """The statement's own modules (``challenge.statement_modules``), which the candidate repeats, are
    exempt when the kernel holds each as the same functor application as the pinned statement compiled
    alone: such a module is the library's functor applied to library modules, with no term of the
    candidate's in it. ``Print Module`` prints the expression the kernel stores (``:= (F X)``, names only)."""
    pristine = build_pinned(sub, PRISTINE, statement.text)
    if pristine.vo is None:
        return _unusable(sub, gate, pristine, "compiling the pinned statement alone")
    labels = [(module, name) for name in names for module in (CANDIDATE, PRISTINE)]
    run, prints = _print_run(sub, f"{TERMS}Modules", labels, [candidate_vo, pristine.vo], "Print Module")
    if prints is None:
        return _unusable(sub, gate, run, "printing the statement's modules")
    for name, ours, theirs in zip(names, prints[::2], prints[1::2], strict=True):
        expression = [line for line in ours.splitlines() if line.startswith(":=")]
        pinned = [line for line in theirs.splitlines() if line.startswith(":=")]
        if len(expression) != 1 or not ALGEBRAIC.fullmatch(expression[0]) or expression != pinned:
            detail = f"the candidate's module `{name}` is not the statement's: its kernel definition differs"
            return GateResult(*gate, GateStatus.FAILED, detail, run.evidence())
    return None
