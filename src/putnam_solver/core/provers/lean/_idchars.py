"""Which characters Lean reads as part of an identifier, and which as a digit: one predicate for every
text rule that asks of a token's text (the answer readings, the copy check), so that none asks Python's
Unicode-wide ``str.isalpha``/``isdigit``/``isalnum`` instead.

The two disagree both ways. Python calls ``λ``, ``Π`` and ``Σ`` letters (Lean: binder symbols), ``²``,
``₂`` and ``١`` digits (Lean: symbols); Lean calls the whole Letterlike Symbols block letters, ``℘``
(U+2118) and ``℧`` (U+2127) included, which Python does not (math symbol, other symbol). A copy of the
statement's side whose only name was ``℘`` read as no question at all and was accepted as an answer.

Transcribed from leanprover/lean4 ``src/Init/Meta/Defs.lean`` (read at
024d2419f3147f8458bc347f0bf18a9b61396b14): ``isLetterLike`` lines 101-109. ``Char.isAlpha``,
``Char.isDigit`` and ``Char.isAlphanum`` are ASCII-only in Lean (``src/Init/Data/Char/Basic.lean``). The
lexer's identifier regex (``_lexer._ID_FIRST``/``_ID_REST``) spells Lean's ``isIdFirst``/``isIdRest``
(lines 114-134) with these letters; a test transcribes both and holds them equal over every code point.
"""

from __future__ import annotations


def is_letter_like(c: str) -> bool:
    """Lean's ``isLetterLike``: Greek but ``λ``, ``Π``, ``Σ``; Coptic; Greek Extended; the Letterlike Symbols
    block; mathematical alphanumerics; Latin-1 letters but ``×``, ``÷``; Latin Extended-A."""
    v = ord(c)
    return (
        (0x3B1 <= v <= 0x3C9 and v != 0x3BB)
        or (0x391 <= v <= 0x3A9 and v not in (0x3A0, 0x3A3))
        or 0x3CA <= v <= 0x3FB
        or 0x1F00 <= v <= 0x1FFE
        or 0x2100 <= v <= 0x214F
        or 0x1D49C <= v <= 0x1D59F
        or (0xC0 <= v <= 0xFF and v not in (0xD7, 0xF7))
        or 0x100 <= v <= 0x17F
    )


def is_digit(c: str) -> bool:
    """Lean's ``Char.isDigit``: ASCII ``0``-``9`` only (a numeric literal starts with one)."""
    return "0" <= c <= "9"


def is_letter(c: str) -> bool:
    """A letter to Lean: ASCII or :func:`is_letter_like` (``isIdFirst`` without the underscore)."""
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or is_letter_like(c)


def starts_letter(text: str) -> bool:
    """``text`` begins with a Lean letter (what ``text[:1].isalpha()`` meant)."""
    return bool(text) and is_letter(text[0])


def starts_name(text: str) -> bool:
    """``text`` begins an identifier: Lean's ``isIdFirst`` (a letter or ``_``) or ``isIdBeginEscape`` (``«``)."""
    return starts_letter(text) or text[:1] in ("_", "«")


def starts_term(text: str) -> bool:
    """``text`` begins an identifier or a numeral (an atom of a term, not a symbol)."""
    return starts_name(text) or starts_digit(text)


def starts_digit(text: str) -> bool:
    """``text`` begins with an ASCII digit (what ``text[:1].isdigit()`` meant)."""
    return bool(text) and is_digit(text[0])


def starts_alnum(text: str) -> bool:
    """``text`` begins with a Lean letter or digit (what ``text[:1].isalnum()`` meant)."""
    return starts_letter(text) or starts_digit(text)


def all_digits(text: str) -> bool:
    """``text`` is a run of ASCII digits (what ``text.isdigit()`` meant)."""
    return bool(text) and all(map(is_digit, text))
