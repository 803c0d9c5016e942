"""G3's word scan: every word (or name part) and word pair of some sentences that a rule names.

The scan is the hot path of G3 on large candidates: it finds the distinct token texts first (C loops over
them all) and reads again, token by token, only the sentences holding a wanted one.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, compress, count, repeat
from operator import attrgetter, itemgetter
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.rocq.policy import Rule
from putnam_solver.core.provers.rocq.syntax import Kind, Sentence, Token
from putnam_solver.core.provers.rocq.vernacular import DEBUG_OPTIONS, exporting, option_name, resets_profile

TEXT: Final = attrgetter("text")
TOKENS: Final = attrgetter("tokens")
FIRST: Final = itemgetter(0)


def rule_hits(
    sents: Sequence[Sentence], rules: Sequence[Rule], phrase_rules: Sequence[Rule], local: frozenset[int] = frozenset()
) -> list[Violation]:
    """Each word (or name part) and word pair of ``sents`` that a rule names, with its line and reason; the
    command word of the sentences ``local`` indexes (assumptions of a section, discharged) aside."""
    words = {r.construct: r for r in rules}
    phrases = {tuple(r.construct.split()): r for r in phrase_rules}
    hits: list[Violation] = []
    seconds = {pair[-1] for pair in phrases}
    distinct = set(map(TEXT, chain.from_iterable(map(TOKENS, sents))))
    wanted = {t for t in distinct if t in seconds or any(w in words for w in (t, *t.split(".")))}
    if not wanted:  # the usual case: no sentence to read again, token by token
        return hits
    texts = map(TEXT, chain.from_iterable(map(TOKENS, sents)))
    owners = chain.from_iterable(map(repeat, count(), map(len, map(TOKENS, sents))))  # each token's sentence
    for at in sorted(set(compress(owners, map(wanted.__contains__, texts)))):  # those holding a wanted text
        sent = sents[at]
        toks = [t for t in sent.tokens if t.kind is Kind.WORD]
        tactic_notation = sent.command == "Tactic" and sent.tokens[sent.command_at + 1].text == "Notation"
        keyword = grammar_keyword(sent)
        for k, tok in enumerate(toks):
            rule = next((words[w] for w in (tok.text, *tok.text.split(".")) if w in words), None)
            if tactic_notation and tok is sent.tokens[sent.command_at + 1]:
                rule = None  # tactic grammar only (vernacular.py), not a term notation
            if at in local and tok is sent.tokens[sent.command_at]:
                rule = None
            if tok is keyword:
                rule = None
            pair = (toks[k - 1].text, tok.text) if k else None
            if pair in phrases:
                rule = phrases[pair]
            if rule is not None:
                hits.append(Violation(tok.line, f"`{rule.construct}`", rule.reason))
    return hits


def grammar_keyword(sent: Sentence) -> Token | None:
    """A forbidden word that is part of a harmless command's grammar, not the construct it names; every other
    word of the sentence is read as in any sentence. The ``Variable``/``Variables`` keyword of ``Generalizable
    All|No Variables`` or ``Generalizable Variable(s) x ...`` (which declares no assumption), and the
    ``Typeclasses`` of an option that only prints: a debug option set for the candidate's file alone
    (``vernacular.DEBUG_OPTIONS``; not ``Global``/``Export``), or any ``Test`` (a query); and the ``Reset`` of
    ``Reset Ltac Profile`` (``vernacular.resets_profile``), which rewinds nothing."""
    if resets_profile(sent):
        return sent.tokens[0]
    if sent.command in ("Set", "Unset", "Test") and not exporting(sent):
        option = option_name(sent)
        printing = sent.command == "Test" or option in DEBUG_OPTIONS
        return sent.tokens[sent.command_at + 1] if printing and option.startswith("Typeclasses ") else None
    if sent.command != "Generalizable":
        return None
    after = sent.tokens[sent.command_at + 1 : sent.command_at + 3]
    at = 1 if after[:1] and after[0].text in ("All", "No") else 0
    keyword = after[at] if len(after) > at else None
    return keyword if keyword is not None and keyword.text in ("Variable", "Variables") else None


__all__ = ["FIRST", "TEXT", "TOKENS", "grammar_keyword", "rule_hits"]
