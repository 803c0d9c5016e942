"""G3, forbidden constructs: named constructs are rejected anywhere outside comments, strings and doc
comments, matched on whole tokens or whole ``.``-separated name parts (``sorry`` is rejected, ``sorry_free``
and ``h_axiom`` are not). Every ``@[...]`` attribute list anywhere in the file, including those of ``where``
and ``let rec`` declarations inside a proof, may name only ``policy.helper_attributes`` (the simp set, a
declaration's own reducibility, compiler hints: ``_attributes`` says why and where G2 narrows them): the
others run code when the module is loaded (``init``), replace compiled code (``implemented_by``,
``extern``, ``csimp``), change elaboration (``instance``, ``default_instance``, ``coe``...) or generate
declarations (``to_additive``, ``simps``...).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress, count
from operator import itemgetter
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._aesop_clauses import (
    ATTRIBUTE,
    aesop_attributes,
    aesop_phase_words,
    registers_rules,
)
from putnam_solver.core.provers.lean._aesop_code import CONSTRUCT as AESOP_CODE
from putnam_solver.core.provers.lean._aesop_code import aesop_code_rules
from putnam_solver.core.provers.lean._attribute_items import attribute_word
from putnam_solver.core.provers.lean._brackets import CONSTRUCT as BRACKET_CONSTRUCT
from putnam_solver.core.provers.lean._brackets import unmatched_brackets
from putnam_solver.core.provers.lean._commands import commands_of, library_glued
from putnam_solver.core.provers.lean._evaluated import (
    TRACE_CONSTRUCT,
    VALUE_CONSTRUCT,
    evaluated_traces,
    evaluated_values,
)
from putnam_solver.core.provers.lean._glue import bracket_glued
from putnam_solver.core.provers.lean._literals import CONSTRUCT as INTERPOLATION
from putnam_solver.core.provers.lean._literals import interpolations
from putnam_solver.core.provers.lean._policy import (
    POLICY,
    RUNNER_CONSTRUCT,
    RUNNER_PREFIXES,
    ForbiddenRule,
    LeanPolicy,
    elaboration_option,
    option_allowed,
)
from putnam_solver.core.provers.lean._resumed_names import CONSTRUCT as RESUMED
from putnam_solver.core.provers.lean._resumed_names import resumed_names
from putnam_solver.core.provers.lean._tactic_config import CONFIG_CONSTRUCT, whole_configs
from putnam_solver.core.provers.lean._tactic_position import TacticPlaces
from putnam_solver.core.provers.lean.syntax import (
    DOC,
    IDENT,
    NAME,
    SYMBOL,
    LexError,
    Token,
    lex_code,
    name_parts,
    positions,
)


def scan_forbidden(tokens: Sequence[Token], policy: LeanPolicy = POLICY) -> list[Violation]:
    """Every forbidden construct among the code tokens (comments, strings and doc comments are skipped: a doc
    comment is never reported, nor read as the token after another)."""
    words = policy.forbidden_words()
    rules = {r.construct: r for r in policy.forbidden}  # ``policy.rule``, without a search per violation
    found: list[Violation] = []

    said: dict[str, str] = {}  # each rule's text, made once however many times it is broken

    def add(token: Token, rule: ForbiddenRule, construct: str) -> None:
        text = said.get(rule.construct) or said.setdefault(rule.construct, f"{rule.rule}: {rule.reason}")
        found.append(Violation(token.line, construct, text))

    for token in whole_configs(tokens) if CONFIG_CONSTRUCT in rules else ():  # read by field (red team 24)
        add(token, rules[CONFIG_CONSTRUCT], CONFIG_CONSTRUCT)
    for token in evaluated_values(tokens) if VALUE_CONSTRUCT in rules else ():  # run by Lean (red team 27)
        add(token, rules[VALUE_CONSTRUCT], f"({token.text} := ...)")
    for token in evaluated_traces(tokens) if TRACE_CONSTRUCT in rules else ():
        add(token, rules[TRACE_CONSTRUCT], TRACE_CONSTRUCT)
    for token in aesop_code_rules(tokens) if AESOP_CODE in rules else ():  # red team 31
        add(token, rules[AESOP_CODE], f"{AESOP_CODE}: {token.text}")
    for token in interpolations(tokens) if INTERPOLATION in rules else ():  # red team 41 (`_literals`)
        add(token, rules[INTERPOLATION], INTERPOLATION)
    for token in resumed_names(tokens) if RESUMED in rules else ():  # red team 49 (`_resumed_names`)
        add(token, rules[RESUMED], f"{RESUMED}: {token.text}")
    texts = list(map(_TEXT, tokens))
    flagged = _flagged_texts(set(texts), words)
    if not flagged:
        return found
    lists: dict[int, list[str]] | None = None
    aesop_rules: bool | None = None

    def aesop_refused(absolute: list[str], i: int) -> bool:
        """Whether the name of the ``Aesop`` namespace at ``tokens[i]`` is refused: not a module imported; the
        namespace itself (``open Aesop``, ``namespace Aesop``: scoped extensions), or any name in a file that
        adds rules (``registers_rules``)."""
        nonlocal lists, aesop_rules
        if _imported(tokens, i):
            return False
        if aesop_rules is None and len(absolute) > 1:
            lists = attribute_lists(tokens) if lists is None else lists
            aesop_rules = registers_rules(tokens, lists.values())
        return len(absolute) == 1 or bool(aesop_rules)

    places = _Places()
    phases = aesop_phase_words(tokens) if "unsafe" in flagged else frozenset()  # `aesop (add unsafe r)`
    ruled, aesop_lists = aesop_attributes(tokens) if ATTRIBUTE in texts else (frozenset(), frozenset())
    phases |= ruled  # `@[aesop unsafe 50% apply]`: the phase word of a rule expression (round 29)
    for i in _flagged_positions(texts, flagged):
        token = tokens[i]
        if token.offset in phases:
            continue
        if len(found) >= ENOUGH:
            found.append(Violation(token.line, "...", f"the scan stopped after {ENOUGH} violations"))
            break
        if token.kind == DOC:
            continue
        text, nxt = token.text, next(_code_after(tokens, i), None)
        glued = token.kind == NAME and library_glued(tokens, i)  # a library token may end in the backquote
        if token.kind == IDENT or glued:
            parts = name_parts(text)
            absolute = parts[1:] if parts[:1] == ["_root_"] else parts  # `_root_.Lean.x` is `Lean.x`
            hit = next((w for w in map(_bare, parts) if w in words), None)
            if hit is not None:
                add(token, words[hit], text)
            elif RUNNER_CONSTRUCT in rules and len(parts) == 1 and _runner(parts[0]) and places.tactic(tokens, i):
                add(token, rules[RUNNER_CONSTRUCT], text)  # red team 29: a `run_...` tactic no list names
            elif absolute[:1] == ["Lean"] or (absolute[:1] == ["Aesop"] and aesop_refused(absolute, i)):
                add(token, rules[f"{absolute[0]}.*"], text)
            elif glued or (i and _after_library_token(tokens[i - 1], token)):
                tails = _tails(parts[0], words)  # what Lean reads after a library token `→r` (below)
                for tail in [*tails, parts[0]] if token.kind == NAME else tails:  # after `→``: all of it
                    rule = words.get(tail) or _tail_rule(tail, parts, nxt, rules, policy)
                    if rule is not None:
                        add(token, rule, f"{tail} (in {text})")
        elif text.startswith("#") and len(text) > 1 and text not in policy.read_only_commands:
            add(token, rules["#command"], text)
        if text == "@[":
            lists = attribute_lists(tokens) if lists is None else lists
            for name in lists[i]:
                if name not in policy.helper_attributes or (name == ATTRIBUTE and i not in aesop_lists):
                    add(token, rules["@[attribute]"], f"@[{name}]")
        if text == "eval" and nxt is not None and nxt.text == "%" and not nxt.spaced:  # the token `eval%`
            add(token, rules["eval%"], "eval%")
        if text == "open" and nxt is not None and nxt.text == "private":
            add(token, rules["open private"], "open private")
        if text == "set_option" and (nxt is None or not settable(nxt.text, policy)):
            add(token, rules["set_option"], f"set_option {nxt.text if nxt else ''}".strip())
    return found


ENOUGH: Final = 10_000
"""Violations after which G3 stops looking: the file is refused many times over (a crafted one can break a
rule at every token), and the statement's own constructs, which are excused afterwards, are far fewer."""
_TEXT: Final = itemgetter(1)
"""``Token.text`` as a function: ``map`` over it runs without a Python frame per token."""
_SCANNED: Final = frozenset({"@[", "open", "set_option", "eval"})


_TAIL_WORDS: Final = ("Lean", "Aesop", "_root_", "eval", "open", "set_option")


def _tails(first: str, words: dict[str, ForbiddenRule]) -> list[str]:
    """The forbidden words and scanned keywords that end ``first`` (a name's first part) and are not all of
    it. Lean reads the longest token of its table, which imports extend, before an identifier: after a
    symbol, a library token ending in letters (Mathlib's ``→r``, ``→o``, ``≃o``) takes the head of the name
    glued to it, and Lean reads the rest as a name of its own (``→rsorry`` is ``→r`` then ``sorry``)."""
    return [w for w in (*words, *_TAIL_WORDS) if len(first) > len(w) and first.endswith(w)]


def _runner(part: str) -> bool:
    """Whether a one-part name begins like the runners' tactic keywords (``_policy.RUNNER_PREFIXES``; a
    keyword is one part: ``run_conv.x`` is a name)."""
    return _bare(part).startswith(RUNNER_PREFIXES)


class _Places:
    """Where a tactic may begin (``_tactic_position``), found once per file and only if a word needs it."""

    def __init__(self) -> None:
        self.places: TacticPlaces | None = None
        self.index: dict[int, int] = {}

    def tactic(self, tokens: Sequence[Token], i: int) -> bool:
        """Whether ``tokens[i]`` stands where a tactic may begin: not after ``.`` (``(e).run_bind`` is a
        field, ``rawIdent``), nor where a term or binder stands (``(run_count : ℕ)``, ``exact run_x``)."""
        if self.places is None:
            code = [t for t in tokens if t.kind != DOC]
            self.index = {t.offset: k for k, t in enumerate(code)}
            self.places = TacticPlaces(code)
        j = self.index[tokens[i].offset]
        return not (j and self.places.code[j - 1].text == ".") and self.places.may_be_tactic(j)


def _after_library_token(before: Token, token: Token) -> bool:
    """Whether the name ``token`` is glued to a symbol that may begin a longer library token ending in
    letters: the non-ASCII ones (``→``, ``≃``, ``↪``...), and ``[`` before a capital, as in Mathlib's ``[MOD``,
    ``[ZMOD``, ``[PMOD``, ``[SMOD`` (``_glue.bracket_glued``: ``[MODsorry`` is ``[MOD`` then ``sorry``).
    Any other ASCII bracket or operator glued to a name (``(h_axiom``, ``-x``) is read as itself."""
    if token.spaced or before.kind != SYMBOL or before.end != token.offset:
        return False
    return not before.text.isascii() or bracket_glued(before, token)


def _tail_rule(
    tail: str, parts: list[str], nxt: Token | None, rules: dict[str, ForbiddenRule], policy: LeanPolicy
) -> ForbiddenRule | None:
    """The rule a name's tail breaks when Lean reads it as a name of its own (see :func:`_tails`)."""
    if tail in ("Lean", "Aesop") or (tail == "_root_" and parts[1:2] in (["Lean"], ["Aesop"])):
        return rules[f"{tail if tail != '_root_' else parts[1]}.*"]
    alone = len(parts) == 1
    if alone and tail == "eval" and nxt is not None and nxt.text == "%" and not nxt.spaced:
        return rules["eval%"]
    if alone and tail == "open" and nxt is not None and nxt.text == "private":
        return rules["open private"]
    if alone and tail == "set_option" and (nxt is None or not settable(nxt.text, policy)):
        return rules["set_option"]
    return None


def _imported(tokens: Sequence[Token], i: int) -> bool:
    """Whether ``tokens[i]`` is a module name of an ``import`` (miniF2F's header has ``import Aesop``; G2
    holds the imports to the challenge's), not a name in code."""
    j = i - 1
    while j >= 0 and tokens[j].kind == DOC:
        j -= 1
    return j >= 0 and tokens[j].text == "import"


def _bare(part: str) -> str:
    """A name part without the ``?`` and ``!`` that end it (red team 24). Lean's name characters include
    them (``isIdRest``), and a library token that ends in one is read before a name of the same length:
    core's ``bv_decide?`` (src/Std/Tactic/BVDecide/Syntax.lean, "suggest a proof script for a
    ``bv_decide`` call") runs ``bv_decide``, whose proof is ``Lean.ofReduceBool``, and G3 read it as a name
    no word matched. ``sorry!``, ``native_decide?`` and kin are refused with their word alike."""
    return part.rstrip("?!") or part


def _may_flag(text: str, words: dict[str, ForbiddenRule]) -> bool:
    """Whether a token with this text can be reported by :func:`scan_forbidden` (whatever its kind and
    neighbours): texts that are none of these are skipped there, each distinct text decided once."""
    if text in _SCANNED or (text.startswith("#") and len(text) > 1):
        return True
    parts = name_parts(text)
    absolute = parts[1:] if parts[:1] == ["_root_"] else parts
    if absolute[:1] in (["Lean"], ["Aesop"]) or not words.keys().isdisjoint(map(_bare, parts)):  # (in C)
        return True
    if len(parts) == 1 and _runner(parts[0]):
        return True
    return bool(parts) and (bool(_tails(parts[0], words)) or (text[:1] == "`" and parts[0] in _TAIL_WORDS))


def _flagged_positions(texts: list[str], flagged: set[str]) -> list[int]:
    """Where the flagged texts occur, in order. Usually one or two texts are flagged (``open``,
    ``set_option``): one C scan of the list per text beats testing every token against the set, which
    is what many flagged texts get (so that the work stays linear in the file)."""
    if len(flagged) > _FEW:
        return list(compress(count(), map(flagged.__contains__, texts)))  # a loop in C
    return sorted(i for text in flagged for i in positions(texts, text))


_FEW: Final = 8


def _flagged_texts(texts: set[str], words: dict[str, ForbiddenRule]) -> set[str]:
    """The texts among ``texts`` that :func:`_may_flag` accepts, most of them ruled out at once.

    A name part is a substring of its text (``«sorry»`` contains ``sorry``), so a text can have a
    forbidden word or ``Lean`` as a part only if it contains that string. One substring search per
    word over all the texts joined by line breaks finds the words present (a word found there lies
    within one text: a word has no line break, and if it had, a match across texts would only add
    suspects). Only the texts containing one of those, and the ones flagged whatever their parts
    (``_SCANNED``, ``#...``), are left for :func:`_may_flag` to decide."""
    joined = "\n".join(texts)
    present = [word for word in (*words, *_TAIL_WORDS, *RUNNER_PREFIXES) if word in joined]
    suspects = {text for text in texts if any(word in text for word in present)} if present else set()
    suspects |= texts & _SCANNED
    if "#" in joined:
        suspects |= {text for text in texts if text.startswith("#")}
    return {text for text in suspects if _may_flag(text, words)}


def attribute_names(tokens: Sequence[Token], start: int) -> list[str]:
    """The attribute names of the ``@[...]`` opened at ``tokens[start]`` (see :func:`attribute_lists`)."""
    return attribute_lists(tokens)[start]


_OPENERS: Final = frozenset({"(", "[", "{", "⟨", "@["})
_CLOSERS: Final = frozenset({")", "]", "}", "⟩"})
_UNCLOSED: Final = "<unclosed>"


def attribute_lists(tokens: Sequence[Token]) -> dict[int, list[str]]:
    """The attribute names of every ``@[...]`` list, by the index of its ``@[``, in one pass.

    A list's names are the first token of each comma-separated item at its own bracket depth, after
    ``local``/``scoped`` (``@[simp, local instance 100]`` -> simp, instance). A list that never closes,
    or in which a closing bracket matches nothing opened inside it (``@[simp) (]``: not an attribute
    list Lean reads), ends with ``<unclosed>``, so that the caller refuses it; so does an item that does
    not start with a name, through its first token's text. Depth is one counter and the lists open at
    any point form a stack (each deeper than the one below it), so every token is read once, however
    many lists are nested or left open; between lists, the scan jumps to the next ``@[``."""
    found: dict[int, list[str]] = {}
    texts = list(map(_TEXT, tokens))
    starts: list[int] = []  # the open lists, innermost last: their ``@[``, depth, names, and
    depths: list[int] = []  # whether the next token at their depth begins an item
    names: list[list[str]] = []
    fresh: list[bool] = []
    depth, j, size = 0, 0, len(tokens)
    while j < size:
        if not starts:  # nothing open: only the next list matters, and depth counts from it
            try:
                j = texts.index("@[", j)
            except ValueError:
                break
            depth = 0
        text = texts[j]
        if tokens[j].kind == DOC:
            j += 1
            continue
        step = 1 if text in _OPENERS else -1 if text in _CLOSERS else 0
        if starts and depths[-1] == depth:  # a token at the innermost list's own depth
            if text == "]":
                found[starts.pop()] = names.pop()
                del depths[-1], fresh[-1]
                depth -= 1
                j += 1
                continue
            if step == 0 and text == ",":
                fresh[-1] = True
            elif fresh[-1] and text not in ("local", "scoped"):
                names[-1].append(attribute_word(text))
                fresh[-1] = False
        depth += step
        while starts and depths[-1] > depth:  # closed by a bracket it did not open
            found[starts.pop()] = [*names.pop(), _UNCLOSED]
            del depths[-1], fresh[-1]
        if text == "@[":
            starts.append(j)
            depths.append(depth)
            names.append([])
            fresh.append(True)
        j += 1
    for start, left in zip(starts, names, strict=True):
        found[start] = [*left, _UNCLOSED]
    return found


def _code_after(tokens: Sequence[Token], i: int) -> Iterator[Token]:
    """The tokens after ``tokens[i]`` without doc comments, one at a time: a caller reads only a few, so
    neither the rest of the file nor a doc-free copy of it is made."""
    for j in range(i + 1, len(tokens)):
        if tokens[j].kind != DOC:
            yield tokens[j]


def check_forbidden(candidate: str, policy: LeanPolicy = POLICY) -> list[Violation]:
    """G3 on a whole file. Unlexable text is itself a violation: what cannot be read cannot be cleared."""
    try:
        tokens = lex_code(candidate)
    except LexError as exc:
        return [Violation(exc.line, "unreadable source", f"lexing: {exc.reason}")]
    found = scan_forbidden(tokens, policy)
    rule = next((r for r in policy.forbidden if r.construct == BRACKET_CONSTRUCT), None)
    if rule is not None:  # red team 34: judged per command, as Lean parses them
        unmatched = unmatched_brackets(command.tokens for command in commands_of(candidate))
        found += [Violation(t.line, f"{rule.construct}: {t.text}", f"{rule.rule}: {rule.reason}") for t in unmatched]
    return found


def settable(name: str, policy: LeanPolicy) -> bool:
    """Options G3 lets a candidate set anywhere: the harmless ones and those G2 leaves to G6."""
    return option_allowed(name, policy) or elaboration_option(name, policy)
