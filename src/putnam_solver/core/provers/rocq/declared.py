"""Constants the candidate made Coq declare under a word of the statement, read from the compiled module
(G4, where no G5 follows: the ``fast`` profile).

G2 refuses a helper named like a word of the challenge: declared in the candidate's file before the
theorem, ``Candidate.RInt`` is what the verbatim statement's ``RInt`` then means (``putnam_2003_b6``
becomes ``0 >= 0``). G2 reads names from the text (``abstract ... using RInt`` too), but a tactic can be
given the name as an argument: ``Tactic Notation "mk" ident(n) := transparent_abstract (exact ...) using
n.`` then ``mk RInt.`` declares it with no ``using RInt`` written anywhere, and the ``fast`` profile
accepted the changed statement. On the full profile G5 elaborates the pinned statement itself and sees
the difference; where it does not run, G4 reads what the kernel holds instead: the candidate module's
fields (``Print Module``, as ``recursion.Listing`` lists them), each of whose names must be no word of
the challenge unless the challenge declares it itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from putnam_solver.core.provers.rocq.build import CANDIDATE, ROOT, Built, build
from putnam_solver.core.provers.rocq.recursion import Listing, Unreadable
from putnam_solver.core.provers.rocq.sentence_rules import mutual_names
from putnam_solver.core.provers.rocq.statement_shape import Statement, statement_words
from putnam_solver.core.provers.rocq.syntax import Kind
from putnam_solver.core.verify import GateResult, GateStatus, Submission

NAMES = "Names"
"""The module name of the harness's listing file (``Putnam.Names``)."""


TYPE_COMMANDS = frozenset({"Inductive", "CoInductive", "Variant", "Record", "Structure", "Class"})


def own_names(statement: Statement) -> set[str]:
    """The names the statement's own sentences declare (a faithful candidate repeats them). A type
    declaration also declares its constructors (after ``:=`` or ``|``), projections (before ``:``), and
    schemes (``t_ind``); a word read so that the declaration does not hold only spares a name G2 still
    refuses as text."""
    names = {n for s in statement.sentences if (n := s.declared_name) is not None}
    names.update(n for s in statement.sentences for n in mutual_names(s))
    for sent in (s for s in statement.sentences if s.command in TYPE_COMMANDS):
        toks = sent.tokens
        for i, tok in enumerate(toks):
            before, after = toks[i - 1].text if i else "", toks[i + 1].text if i + 1 < len(toks) else ""
            if tok.kind is Kind.WORD and (before in (":=", "|", "{", ";", "with") or after in (":", ":>")):
                names.add(tok.text)
        heads = [n for n in (sent.declared_name, *mutual_names(sent)) if n is not None]
        names.update(f"{h}_{suffix}" for h in heads for suffix in ("ind", "rect", "rec", "sind"))
        names.update(f"Build_{h}" for h in heads)
    return names | {name for _, name in statement.assumptions}


def shadowing(fields: Sequence[tuple[str, str]], statement: Statement) -> list[str]:
    """The labels of the candidate's module that are words of the statement it does not declare."""
    reserved = statement_words(statement) - own_names(statement)
    return sorted({label for _, label in fields if label in reserved})


def shadowing_check(
    sub: Submission, statement: Statement, candidate: Built, gate: tuple[str, str]
) -> GateResult | None:
    """A failed (or error) result when the compiled candidate declares a constant under a statement word."""
    if candidate.vo is None:
        return GateResult(*gate, GateStatus.ERROR, "the candidate's .vo is missing for the names check")
    listing = Listing.fresh(())
    run = build(sub, NAMES, f"Require {ROOT}.{CANDIDATE}.\n" + "\n".join(listing.sentences()) + "\n", [candidate.vo])
    judged = run.judgement(sub)
    if judged is not None or run.result is None:
        why = judged[1] if judged is not None else "not run"
        return GateResult(*gate, GateStatus.ERROR, f"listing the candidate's constants: {why}", run.evidence())
    try:
        fields, _ = listing.read(run.result.stdout)
    except Unreadable as exc:
        return GateResult(*gate, GateStatus.ERROR, f"listing the candidate's constants: {exc}", run.evidence())
    names = shadowing(fields, statement)
    if not names:
        return None
    detail = (
        f"the compiled candidate declares {', '.join(f'`{n}`' for n in names)}, a word of the statement that "
        "the statement does not declare: the statement's text would mean the candidate's constant (declared "
        "by a tactic, such as `transparent_abstract ... using`, given the name); name it apart"
    )
    return GateResult(*gate, GateStatus.FAILED, detail, run.evidence())
