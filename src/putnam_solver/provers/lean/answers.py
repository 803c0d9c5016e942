"""The Lean side of the answer check (see ``answer_check``): non-closed forms are recognised here.

Proving ``candidate = official`` needs Mathlib's ``norm_num``/``simp`` and the real toolchain, which
the harness does not run for this record yet, so every other answer is ``unknown`` with that reason.
"""

from __future__ import annotations

from putnam_solver.answer_check import AnswerCheck, non_closed_form, unknown
from putnam_solver.provers.lean.syntax import LexError, code_tokens, lex, name_parts

NON_CLOSED_FORMS: dict[str, str] = {
    "∫": "an integral",
    "∑'": "an infinite sum",
    "∏'": "an infinite product",
    "limUnder": "a limit",
    "lim": "a limit",
    "deriv": "a derivative",
    "sSup": "a supremum",
    "sInf": "an infimum",
    "iSup": "a supremum",
    "iInf": "an infimum",
    "Classical.choose": "a choice",
    "Exists.choose": "a choice",
    "Classical.epsilon": "a choice",
}


def answer_words(value: str) -> list[str]:
    """The code tokens of an answer, with each name's last part (``Real.limUnder`` gives ``limUnder``)."""
    try:
        tokens = code_tokens(lex(value))
    except LexError:
        return []
    return [w for t in tokens for w in (t.text, (name_parts(t.text) or [t.text])[-1])]


def check_value(candidate: str | None, official: str | None) -> AnswerCheck:
    if candidate is None or official is None:
        return unknown("no solution value to compare")
    flagged = non_closed_form([*answer_words(candidate), *answer_words(official)], NON_CLOSED_FORMS)
    if flagged is not None:
        return flagged
    return unknown("the Lean answer check (rfl, decide, norm_num, simp) does not run here yet")
