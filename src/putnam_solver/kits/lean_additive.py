"""The names Mathlib's ``@[to_additive]`` gives, guessed from the sources as Mathlib guesses them.

Most of Mathlib's additive lemmas are never written out: ``@[to_additive] theorem prod_range_succ``
declares ``Finset.sum_range_succ`` too, ``mul_comm`` declares ``add_comm``, ``mabs_of_one_le``
declares ``abs_of_nonneg``. A text index that knows only the written name cannot find the lemmas a
competition proof uses most (``bench/retrieval_recall_lean.py`` counted them among the names it could
not resolve). This module turns a multiplicative name into its additive one by the rule Mathlib itself
applies when the attribute gives no name: ``Mathlib/Tactic/Translate/GuessName.lean`` (``guessName``:
split the name at ``_`` and at case changes, translate each word by ``nameDict``, then fix the
abbreviations of ``abbreviationDict``), with the two dictionaries of
``Mathlib/Tactic/Translate/ToAdditive.lean`` (read at Mathlib ``a3a10db0e9``, PutnamBench's pin).
A name the attribute states (``@[to_additive sum_foo]``) is taken as stated.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

NAME_DICT: dict[str, tuple[str, ...]] = {
    "one": ("Zero",), "mul": ("Add",), "smul": ("VAdd",), "inv": ("Neg",), "div": ("Sub",),
    "prod": ("Sum",), "hmul": ("HAdd",), "hsmul": ("HVAdd",), "hdiv": ("HSub",), "hpow": ("HSMul",),
    "finprod": ("Finsum",), "tprod": ("TSum",), "pow": ("NSMul",), "npow": ("NSMul",), "zpow": ("ZSMul",),
    "mabs": ("Abs",), "monoid": ("Add", "Monoid"), "submonoid": ("Add", "Submonoid"),
    "group": ("Add", "Group"), "subgroup": ("Add", "Subgroup"), "semigroup": ("Add", "Semigroup"),
    "magma": ("Add", "Magma"), "haar": ("Add", "Haar"), "prehaar": ("Add", "Prehaar"),
    "unit": ("Add", "Unit"), "units": ("Add", "Units"), "cyclic": ("Add", "Cyclic"),
    "semigrp": ("Add", "Semigrp"), "grp": ("Add", "Grp"), "commute": ("Add", "Commute"),
    "semiconj": ("Add", "Semiconj"), "rootable": ("Divisible",), "zpowers": ("ZMultiples",),
    "powers": ("Multiples",), "multipliable": ("Summable",), "gpfree": ("APFree",),
    "quantale": ("Add", "Quantale"), "square": ("Even",), "mconv": ("Conv",),
    "irreducible": ("Add", "Irreducible"), "mlconvolution": ("LConvolution",),
}  # fmt: skip
"""``ToAdditive.nameDict``: one word of a name to its additive words."""

ABBREVIATIONS: dict[str, str] = {
    "isCancelAdd": "IsCancelAdd", "isLeftCancelAdd": "IsLeftCancelAdd", "isRightCancelAdd": "IsRightCancelAdd",
    "cancelAdd": "AddCancel", "leftCancelAdd": "AddLeftCancel", "rightCancelAdd": "AddRightCancel",
    "cancelCommAdd": "AddCancelComm", "commAdd": "AddComm", "zero_le": "Nonneg", "zeroLE": "Nonneg",
    "zero_lt": "Pos", "zeroLT": "Pos", "lezero": "Nonpos", "le_zero": "Nonpos", "ltzero": "Neg", "lt_zero": "Neg",
    "addSingle": "Single", "addSupport": "Support", "addTSupport": "TSupport", "addIndicator": "Indicator",
    "isEven": "Even", "isRegular": "IsAddRegular", "isLeftRegular": "IsAddLeftRegular",
    "isRightRegular": "IsAddRightRegular", "hasFundamentalDomain": "HasAddFundamentalDomain",
    "quotientMeasure": "AddQuotientMeasure", "negFun": "InvFun", "uniqueProds": "UniqueSums",
    "orderOf": "AddOrderOf", "zeroLePart": "PosPart", "leZeroPart": "NegPart", "isScalarTower": "VAddAssocClass",
    "isOfFinOrder": "IsOfFinAddOrder", "isCentralScalar": "IsCentralVAdd",
    "function_addSemiconj": "Function_semiconj", "function_addCommute": "Function_commute",
    "divisionAddMonoid": "SubtractionMonoid", "subNegZeroAddMonoid": "SubNegZeroMonoid",
    "modularCharacter": "AddModularCharacter", "isQuotientCoveringMap": "IsAddQuotientCoveringMap",
    "addExact": "exact",
}  # fmt: skip
"""``ToAdditive.abbreviationDict``: fixes after the word-by-word translation (``zero_le`` is ``nonneg``)."""

END_CAPITALS: dict[str, tuple[str, ...]] = {
    "LE": ("",), "LT": ("",), "GE": ("",), "GT": ("",), "WF": ("",), "Coe": ("TC", "T", "HTCT")
}  # fmt: skip
"""``GuessName.endCapitalNames``: words that end in a capital letter (``LE`` in ``zeroLE``)."""
_LONGEST_CAPITAL = max(map(len, END_CAPITALS))


def split_case(word: str) -> list[str]:
    """``String.splitCase``: ``InvHMulLEConjugate₂SMul_ne_top`` is
    ``Inv HMul LE Conjugate₂ SMul _ ne _ top`` (split around ``_``, after an ``END_CAPITALS`` word, and
    between a lower-case letter and an upper-case one)."""
    pieces: list[str] = []
    start = i = 0  # the current piece is word[start:], Lean's string after its last split
    while i + 1 < len(word):
        here, after = word[i], word[i + 1]
        cut: int | None = None
        if here == "_" or after == "_":
            cut = i + 1
        elif _upper(after):
            tails = END_CAPITALS.get(word[start : i + 1]) if i + 1 - start <= _LONGEST_CAPITAL else None
            tail = next((t for t in tails or () if word.startswith(t, i + 1)), None)
            if tail is not None:
                cut = i + 1 + len(tail)
            elif not _upper(here):
                cut = i + 1
        if cut is None:
            i += 1
            continue
        pieces.append(word[start:cut])
        start = i = cut
    return [*pieces, word[start:]]


def _upper(char: str) -> bool:
    """Lean's ``Char.isUpper``: ASCII ``A``-``Z`` only."""
    return "A" <= char <= "Z"


def _decapitalize_run(text: str) -> str:
    """``String.decapitalizeSeq``: the leading upper-case letters lower-cased."""
    run = len(text) - len(text.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    return text[:run].lower() + text[run:]


def _like(model: str, text: str) -> str:
    """``decapitalizeLike``: ``text`` as is after an upper-case ``model``, else decapitalized."""
    return text if _upper(model[:1]) else _decapitalize_run(text)


def _translate_words(pieces: list[str]) -> list[str]:
    """``applyNameDict``: each word by ``NAME_DICT``, the first output word cased like the input."""
    out: list[str] = []
    for piece in pieces:
        found = NAME_DICT.get(piece.lower())
        out += [_like(piece, found[0]), *found[1:]] if found else [piece]
    return out


def _fix_abbreviations(pieces: list[str]) -> str:
    """``fixAbbreviation``: from each word on, the first run of words that ``ABBREVIATIONS`` rewrites,
    rewritten; a run starting upper-case never extends over a ``_`` (``eventuallyLE_one`` stays)."""
    out, rest, run = "", list(pieces), list[str]()
    while rest or run:
        if not rest:
            out, rest, run = out + run[0], run[1:], []
            continue
        run, rest = [*run, rest[0]], rest[1:]
        joined = "".join(run)
        if run[-1] == "_" and _upper(joined[:1]):
            out, rest, run = out + run[0], run[1:] + rest, []
        elif (post := ABBREVIATIONS.get(_decapitalize_run(joined))) is not None:
            out, run = out + _like(joined, post), []
    return out


MAX_NAME = 300
"""Longer names are left untranslated; Mathlib's longest are about 100 characters."""


@lru_cache(maxsize=65536)
def additive_name(name: str) -> str:
    """``guessName`` on each component of a dotted name (``Finset.prod_range_succ`` is
    ``Finset.sum_range_succ``, ``Monoid.foo`` ``AddMonoid.foo``); each ``'``-separated part apart. A name
    longer than ``MAX_NAME`` stays as it is (the abbreviation pass is quadratic in its words, as Lean's)."""
    if len(name) > MAX_NAME:
        return name
    return ".".join(
        "'".join(_fix_abbreviations(_translate_words(split_case(p))) if p else p for p in part.split("'"))
        for part in name.split(".")
    )


_IDENTIFIER = re.compile(r"[A-Za-z_][\w'.]*")
_SYMBOLS = {"∏": "∑", "*": "+", "⁻¹": "-", "/": "-", "^": "•"}
_SYMBOL = re.compile(r"∏|\*|⁻¹|/|\^")


def additive_text(text: str) -> str:
    """A statement in additive words, for the index (``∏ i ∈ s, f i * g i`` is ``∑ i ∈ s, f i + g i``):
    names by ``additive_name``, products, inverses, quotients and powers by theirs. Numerals stay: a
    ``1`` becomes ``0`` only where it is the monoid's, which the text does not say."""
    named = _IDENTIFIER.sub(lambda m: additive_name(m.group()), text)
    return _SYMBOL.sub(lambda m: _SYMBOLS[m.group()], named)


_ATTRIBUTE = re.compile(r"\bto_(?P<which>additive|dual)\b(?![_?])(?P<rest>[^\]]*)")
_OPTION = re.compile(r"\s*\((?:[^()]|\([^()]*\))*\)")
_DOC = re.compile(r'"((?:[^"\\]|\\.)*)"|/--(.*?)-/', re.S)


class Twin(NamedTuple):
    """A declaration an attribute adds beside the written one: its name, its doc (empty: none stated),
    and whether it is the additive form (its statement then reads in additive words)."""

    name: str
    doc: str
    additive: bool


def translated_name(attributes: str, name: str) -> Twin | None:
    """The declaration an ``@[...]`` attribute list adds beside ``name`` (qualified), and its doc:
    ``to_additive``'s stated or guessed name, ``to_dual``'s stated one (its guesses are not followed
    here); None for neither, or for ``existing`` (the other declaration is written out elsewhere)."""
    found = _ATTRIBUTE.search(attributes)
    if found is None:
        return None
    rest = found.group("rest")
    while (option := _OPTION.match(rest)) is not None:
        rest = rest[option.end() :]
    words = rest.split()
    stated = words[0].rstrip(",") if words and _IDENTIFIER.fullmatch(words[0].rstrip(",")) else None
    if stated == "existing":
        return None
    doc = _DOC.search(rest)
    text = " ".join((doc.group(1) or doc.group(2) or "").split()) if doc else ""
    additive = found.group("which") == "additive"
    if stated is None:
        return Twin(additive_name(name), text, additive) if additive else None
    if stated.startswith("_root_."):
        return Twin(stated.removeprefix("_root_."), text, additive)
    namespace = name.rpartition(".")[0]
    return Twin(f"{namespace}.{stated}" if namespace and "." not in stated else stated, text, additive)
