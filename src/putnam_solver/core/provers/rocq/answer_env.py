"""No-answer: the candidate's answer must elaborate in the challenge's environment alone (a G4 check).

G2 refuses an answer that names a helper the candidate declares, as text. But Coq also declares constants
the text never names: ``abstract`` in a helper's proof adds ``<helper>_subproof`` (opaque), ``Program``
its obligations. An answer naming one (``proj1_sig zz_witness_subproof``) hides the answer behind an
opaque constant of the candidate's own: the verdict's answer record shows nothing, and no answer check can
ever compare it with the official one, so a wrong answer would never be ``disputed``.

So the rule is decided by coqc, by meaning: the harness compiles the candidate's text up to and including
its solution definition with every sentence dropped except the challenge's own header sentences and the
candidate's reading commands (``Require``/``Import``/``Export``, ``Open``/``Close Scope``: the environment
the answer may use, G2's class 2). If the answer does not elaborate there, it uses something the candidate
defined, however it was named.
"""

from __future__ import annotations

from collections import Counter

from putnam_solver.core.provers.rocq.checks import reads
from putnam_solver.core.provers.rocq.syntax import LexError, Statement, sentences

ANSWER_ENV = "AnswerEnv"
"""The module name of the harness's environment file (``Putnam.AnswerEnv``)."""


def answer_env_source(statement: Statement, candidate: str) -> str | None:
    """The candidate up to its solution, with its own declarations dropped (see the module docstring);
    None where there is nothing to check (no solution hole, or no solution definition G2 would accept)."""
    if statement.solution is None or statement.solution_name is None:
        return None
    try:
        sents = sentences(candidate)
    except LexError:
        return None
    header = Counter(s.key for s in statement.sentences[: statement.solution])
    kept: list[str] = []
    for sentence in sents:
        if sentence.command == "Definition" and sentence.declared_name == statement.solution_name:
            if not sentence.ended:
                return None
            kept.append(candidate[sentence.start : sentence.end])
            return "\n".join(kept) + "\n"
        if header[sentence.key] > 0:
            header[sentence.key] -= 1
            kept.append(candidate[sentence.start : sentence.end])
        elif reads(sentence):
            kept.append(candidate[sentence.start : sentence.end])
    return None
