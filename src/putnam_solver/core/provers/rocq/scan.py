"""G2's walk over a candidate: its state (:class:`Scan`) and how it reads a proof (:func:`take_proof`).

A proof is read as coqc reads it: its sentences up to the proof end that closes it, a proof opened inside it
(``Nested Proofs Allowed``) read first, the commands whose effect outlives ``Qed`` judged (``vernacular``,
``policy.proof_commands_elaborating``) and the declarations Coq makes global named apart from the challenge's
words (:func:`note_name`). What a candidate adds between proofs is ``checks.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.rocq import vernacular
from putnam_solver.core.provers.rocq.libraries import library_ok, unresolved_names
from putnam_solver.core.provers.rocq.policy import POLICY, QUERY_COMMANDS, READING_COMMANDS, STATEMENT_CHECK
from putnam_solver.core.provers.rocq.sentence_rules import (
    GOAL,
    gives_term,
    goal_name,
    mutual_names,
    opens_proof,
    program_obligation,
    proof_owner,
    second_word,
)
from putnam_solver.core.provers.rocq.syntax import PROOF_ENDS, THEOREM_COMMANDS, Sentence, render, rolled_back
from putnam_solver.core.verify import PROFILE_GATES, Profile

_DENIED_IN_PROOFS = frozenset(POLICY.proof_commands_denied)  # asked of every sentence of every proof
_NAMED_IN_PROOFS: Final = THEOREM_COMMANDS | {"Definition", "Let", "Fixpoint", "CoFixpoint", GOAL, "Ltac"}
"""Declarations Coq accepts in proof mode and makes global (``Definition x := t.`` inside a proof defines
``x`` for the rest of the file): their names are judged as a helper's are. One that opens a proof (with
``Nested Proofs Allowed``; coqc refuses it otherwise) is read as coqc reads it: its proof ends first. An
``Ltac`` too (red team 30, measured with coqc 8.16: ``Ltac lra := ...`` in a helper's proof is the ``lra`` a
later ``ltac:(lra)`` runs, so a statement that runs tactics met the candidate's; it passed G2 unnamed)."""
NESTING: Final = 8  # how deep G2 reads proofs opened inside proofs (each level one call)
_ELABORATING_IN_PROOFS: Final = frozenset(POLICY.proof_commands_elaborating)
_NOTED_IN_PROOFS: Final = (
    PROOF_ENDS
    | QUERY_COMMANDS
    | READING_COMMANDS
    | _DENIED_IN_PROOFS
    | _NAMED_IN_PROOFS
    | _ELABORATING_IN_PROOFS
    | vernacular.IN_PROOFS
    | {"Open", "Close", "Proof", "Next"}
)
"""The commands :func:`take_proof` looks at (``is_query`` and ``reads`` read no other); it passes over
the rest (tactics, bullets, braces) without a look."""


def quote(sentence: Sentence, limit: int = 80) -> str:
    """A sentence as a violation's construct: its text in backquotes, cut to ``limit`` characters."""
    text = render(sentence.tokens)
    return f"`{text if len(text) <= limit else text[: limit - 3] + '...'}`"


def last_line(sents: list[Sentence]) -> int:
    """Where a violation about something absent is reported: the end of the file, where it was looked for."""
    return sents[-1].tokens[-1].line if sents else 1


def is_query(sentence: Sentence) -> bool:
    """A command that only prints or silences messages (or clears the Ltac profile): it leaves nothing behind
    that could be read.

    ``Global Set Warnings "+all"`` is no query: Coq 8.16 replays it in every file that merely ``Require``s
    the candidate (measured), the harness's answer check included, where any warning would then fail the
    file; it is judged as the option it is (``vernacular``: an exported option is refused)."""
    if sentence.command == "Set":
        return second_word(sentence) == "Warnings" and not vernacular.exporting(sentence)
    if sentence.words == PRENEX_IMPLICITS_IMPORT:
        return True
    return sentence.command in QUERY_COMMANDS or vernacular.resets_profile(sentence)


PRENEX_IMPLICITS_IMPORT: Final = ("Import", "Prenex", "Implicits", ".")
"""ssreflect's ``Import Prenex Implicits.``, which Coq 8.16 reads as ``Unset Printing Implicit Defensive``
(``plugins/ssr/ssrvernac.mlg`` 176-180; without ssreflect loaded it imports modules ``Prenex`` and
``Implicits``, which no permitted library has and a candidate cannot declare, and coqc fails): printing
only, so harmless wherever it stands (mathcomp's file headers write it)."""


def reads(sentence: Sentence) -> bool:
    """A command that changes how later text is read (libraries, modules, scopes), and nothing else."""
    if sentence.command in ("Open", "Close"):
        return second_word(sentence) == "Scope"
    return sentence.command in READING_COMMANDS


ELABORATION: Final = "through elaboration only"  # what every refusal left to G5 says
READ_OTHERWISE: Final = f"it can change how the statement is read ({ELABORATION})"
LOADS_AXIOMS: Final = (
    "the library it loads can declare an axiom that the proof then uses, which only G5's `Print Assumptions` "
    "of the theorem reports (`Coq.Compat.AdmitAxiom.proof_admitted`)"
)
AFTER_THEOREM_REPLAYED: Final = (
    "after the theorem it can act only in the files that `Require` the candidate, the harness's checks "
    "among them, where `Require` replays it (an `Arguments` or `Prenex Implicits` of a constant you did not "
    "define that is not `Local`); make it `Local` or drop it"
)


@dataclass
class Scan:
    """A walk over the candidate's sentences, and what it found wrong so far."""

    sents: list[Sentence]
    reserved: set[str]
    rules: Profile
    installed: frozenset[str] = frozenset()
    """Every library the installed coqc can load, to resolve partially qualified ``Require``s."""
    violations: list[Violation] = field(default_factory=list)
    defined: set[str] = field(default_factory=set)
    """Names the candidate's own additions declare (helpers, tactics), which an answer may not use."""
    tactics: bool = False
    """Whether the challenge runs tactics while it elaborates (``vernacular.runs_tactics``)."""
    ltac2: bool = False
    """Whether the challenge loads Ltac2, without which coqc reads no ``Ltac2`` command
    (``vernacular.loads_ltac2``)."""
    sections: int = 0
    """How many of the challenge's own sections are open here (a ``Let`` there is its theorem's)."""
    after: bool = False
    """Past the theorem and the challenge's last sentence: nothing left to read the statement, so no
    addition there can change it; only what ``Require`` replays in the harness's files still counts."""
    i: int = 0
    own_sections: int = 0
    """How many sections the candidate opened are open here."""
    theorem: Sentence | None = None
    """The challenge's theorem while it is the next sentence expected (a section of the candidate's may hold it)."""
    holding: list[str] = field(default_factory=list)
    """The candidate's sections that hold the theorem, innermost first: each must close right after its proof."""
    scoped: list[list[Sentence]] = field(default_factory=list)
    """Scope commands in each open section of the candidate's, judged at its end (``sections.section_scoped``)."""

    def peek(self) -> Sentence | None:
        return self.sents[self.i] if self.i < len(self.sents) else None

    def take(self) -> Sentence:
        self.i += 1
        return self.sents[self.i - 1]

    def needs_elaboration_check(self, sent: Sentence, where: str, effect: str = READ_OTHERWISE) -> None:
        """A class-2 addition: passes only where the statement is checked semantically (Rocq G5), which
        also reports the axioms the theorem uses (``effect`` says which of the two it needs)."""
        if not self.after and STATEMENT_CHECK not in PROFILE_GATES[self.rules]:
            rule = (
                f"{where} {effect}, so only a profile that checks the statement semantically accepts it: the "
                f"`{Profile.FULL}` profile (G5's trusted type check) decides it; this acceptance runs `{self.rules}`"
            )
            self.violations.append(Violation(sent.line, quote(sent), rule))

    def library_rule(self, sent: Sentence) -> None:
        """A ``Require`` loads installed libraries under the permitted roots only, wherever it stands, a
        proof included (red team 26: after the theorem it once passed unread, ``From Putnam Require
        Reference.`` included)."""
        if sent.command in ("Require", "From") and not library_ok(sent, self.installed, POLICY.permitted_libraries):
            rule = f"only installed libraries ({', '.join(POLICY.permitted_libraries)} or bare names) may be required"
            self.violations.append(Violation(sent.line, quote(sent), rule))
        elif sent.command in ("Require", "From") and (unresolved := unresolved_names(sent, self.installed)):
            self.violations.append(Violation(sent.line, quote(sent), unresolved_rule(unresolved)))

    def judge(self, sent: Sentence, judged: vernacular.Judgement, where: str | None) -> None:
        """A tactic or elaboration setting (``vernacular.classify``); class 2 only counts ``where`` given."""
        if judged.kind is None:
            self.violations.append(Violation(sent.line, quote(sent), judged.reason))
        elif self.after and vernacular.replayed(sent, self.defined):
            self.violations.append(Violation(sent.line, quote(sent), AFTER_THEOREM_REPLAYED))
        elif vernacular.replayed_before_theorem(sent, self.defined, self.sections + self.own_sections > 0):
            self.violations.append(Violation(sent.line, quote(sent), vernacular.REPLAYED_ARGUMENTS))
        elif judged.kind == vernacular.ELABORATING and where is not None:
            self.needs_elaboration_check(sent, f"{where} ({judged.reason}),")


def unresolved_rule(names: list[str]) -> str:
    """Why a ``Require`` of a library coqc cannot find is refused before the compile, and the fix."""
    shown = ", ".join(f"`{n}`" for n in names)
    return (
        f"coqc cannot find {shown}: it finds Coq's own libraries by a suffix of their names (`Reals`), the "
        "others by their full names (`Coquelicot.Rcomplements`) or within the root a `From` names (`From "
        "mathcomp Require Import ssrnat.`); measured with coqc 8.16, `Require Import Ltac2.` fails so. Name an "
        f"installed library under a permitted root ({', '.join(POLICY.permitted_libraries)}); Ltac2 is none: "
        "write the proof in Ltac"
    )


def take_proof(scan: Scan, owner: str, before_theorem: bool, depth: int = 0) -> None:
    """Consume proof sentences up to and including the proof end; note commands proofs may not use.

    Scopes, imports and libraries a proof loads outlive its ``Qed`` (measured with coqc 8.16), so before
    the theorem they are class 2; in the theorem's own proof they come after the statement and cannot
    change it (``Require Import Lia.`` there was refused, red team 31). A library loaded there still needs
    G5, as one loaded before the theorem does: it can declare an axiom the proof uses (``Coq.Compat.AdmitAxiom``),
    which only G5's ``Print Assumptions`` reports, so the ``text`` and ``fast`` profiles refuse it.
    """
    sents, size = scan.sents, len(scan.sents)
    while True:
        i = scan.i
        while i < size and sents[i].command not in _NOTED_IN_PROOFS:  # tactics: nothing to note, one test
            i += 1
        scan.i = i
        if (sent := scan.peek()) is None:
            break
        scan.take()
        opens = opens_proof(sent) or (program_obligation(sent) and not rolled_back(sent))
        if sent.command in _NAMED_IN_PROOFS or opens:
            if sent.command in _NAMED_IN_PROOFS:
                note_name(scan, sent)
            if opens and depth < NESTING:  # a nested proof (`Nested Proofs Allowed`) ends first
                take_proof(scan, proof_owner(sent), before_theorem, depth + 1)
            elif opens:
                scan.violations.append(Violation(sent.line, quote(sent), f"proofs nested over {NESTING} deep"))
            continue
        if rolled_back(sent) and (sent.command in PROOF_ENDS or sent.command == "Proof"):
            continue  # `Fail Qed.` (an unfinished proof) or `Succeed Qed.` leave the proof open
        if sent.command == "Proof" and gives_term(sent):
            return
        if sent.command in PROOF_ENDS:
            if sent.command not in ("Qed", "Defined", "Admitted"):
                rule = f"ends with `{sent.command}`; end it with Qed or Defined"
                scan.violations.append(Violation(sent.line, f"the proof of {owner}", rule))
            return
        if is_query(sent):
            continue
        if (
            sent.command in vernacular.IN_PROOFS
            and (judged := vernacular.classify(sent, scan.defined, scan.tactics, scan.ltac2)) is not None
        ):
            scan.judge(sent, judged, f"inside the proof of {owner}, before the theorem" if before_theorem else None)
            continue
        if reads(sent) or sent.command in _ELABORATING_IN_PROOFS:
            scan.library_rule(sent)
            if before_theorem:
                scan.needs_elaboration_check(sent, f"inside the proof of {owner}, before the theorem,")
            elif sent.command in ("Require", "From"):
                scan.needs_elaboration_check(sent, f"inside the proof of {owner},", LOADS_AXIOMS)
            continue
        if sent.command in _DENIED_IN_PROOFS:
            rule = (
                f"the command `{sent.command}` is not allowed in proofs (it changes how later text is read, "
                "or declares types or universes of its own)"
            )
            scan.violations.append(Violation(sent.line, f"{quote(sent)} inside the proof of {owner}", rule))
    scan.violations.append(
        Violation(last_line(scan.sents), f"the proof of {owner}", "never ends (no Qed. or Defined.)")
    )


def note_name(scan: Scan, sent: Sentence) -> None:
    """A name the candidate declares (a helper, or a declaration inside a proof): one an answer may not
    use, and never a word of the challenge, which it could shadow. A ``Goal`` declares the first of
    ``Unnamed_thm``, ``Unnamed_thm0``, ``Unnamed_thm1``... not yet declared (``goal_name``)."""
    declared = goal_name(scan.defined) if sent.command == GOAL else sent.declared_name
    for name in (n for n in (declared, *mutual_names(sent)) if n is not None):
        scan.defined.add(name)
        if name in scan.reserved:
            rule = "has the name of a word of the challenge; rename it so it cannot shadow anything the statement uses"
            scan.violations.append(Violation(sent.line, f"the added {sent.command} `{name}`", rule))
