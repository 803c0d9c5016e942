"""Red team 17 (Lean): where the gates' reading of the text disagrees with Lean's tokenizer.

* Bypass (text profile): Lean 4.35's ``isLetterLike`` (Init/Meta/Defs.lean) takes the Latin-1 letters
  (U+00C0-U+00FF without ``×`` and ``÷``) and Latin Extended-A (U+0100-U+017F) as identifier characters
  (measured on the toy toolchain: ``def éz``, ``def hèz`` are names; ``×`` is not). The lexer read each as
  a one-character symbol, so after ``é`` it started a fresh token: ``ér#" " sorry "x"#`` was ``é`` and a
  raw string to G3, but ``ér``, ``#``, ``" "``, ``sorry``, ``"x"``, ``#`` to Lean (``#`` is a prefix
  token where a library declares one, Mathlib's ``#s`` for ``Finset.card``): a forbidden word in code
  that G3 never saw. Fix (``_lexer._ID_FIRST``): Lean's ranges; the raw string then never starts inside
  a name, and the rest of the line lexes as Lean lexes it (here an unterminated string: refused).
* Bypass (text profile, with a library's token table): Lean reads the longest token of its table before
  an identifier, and Mathlib's tokens ``→r``, ``↪r``, ``≃r`` (relation morphisms), ``→o``, ``≃o`` (order
  morphisms) end in a letter. ``ℕ →rsorry`` was ``→`` and the name ``rsorry`` to G3 but ``→r`` then
  ``sorry`` to Lean with Mathlib; ``→r#" " sorry "x"#`` was ``→`` and a raw string. Fixes: a raw string
  glued to a symbol is a lexing error (``_lexer._refuse_glued``, as comments and char literals already
  were); a name glued to a non-ASCII symbol is also read from each inner position where a forbidden word
  or scanned keyword ends it (``_forbidden._tails``): ``→rsorry``, ``¬xnative_decide``, ``→reval%``,
  ``→rLean.Elab.x`` are refused. ASCII brackets glued to names (``(h_axiom``) are read as before (no
  library token runs from ``(`` into a name; the published proofs are full of them).
* False rejection: a helper named with such a letter (``def zé``) was ``z`` then a symbol to G2, refused as
  a look-alike name; Lean compiles it (the fast profile on the toy Lean now accepts it).
* False rejection / false acceptance of a char escape: Lean's ``\\u`` takes exactly four hex digits
  (``'\\u0041'`` is ``'A'``; ``'\\u{41}'`` is "invalid hexadecimal numeral", measured on Lean 4.35). The
  lexer had Rust's ``\\u{...}``: it refused the first and read the second as a char. Now as Lean.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.syntax import IDENT, SYMBOL, LexError, lex_code
from putnam_solver.core.verify import Profile
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_verdict, needs_sandbox, one_record_benchmark
from tests.toylean.build import ToyLean

PLAIN = "putnam_1962_a1"

HIDDEN = {
    "sorry after a Latin-1 letter": 'by\n  exact ér#" " sorry "x"#',
    "native_decide after Latin Extended-A": 'by\n  exact ŝr#" " (by native_decide) "x"#',
    "two hashes": 'by\n  exact Ær##" " sorry "x"##',
}


@pytest.mark.parametrize("case", sorted(HIDDEN))
def test_a_raw_string_opened_inside_a_latin_name_hides_nothing(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PLAIN, proof=HIDDEN[case])
    verdict = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert verdict.status == "rejected"
    assert "G3" in failures(verdict)


def test_a_latin_name_is_one_identifier_as_in_lean() -> None:
    tokens = lex_code('ér#" x "# hèz Ǿ x×y x÷y')
    assert [(t.kind, t.text) for t in tokens] == [
        (IDENT, "ér"),
        (SYMBOL, "#"),
        ("string", '" x "'),
        (SYMBOL, "#"),
        (IDENT, "hèz"),
        (SYMBOL, "Ǿ"),
        (IDENT, "x"),
        (SYMBOL, "×"),
        (IDENT, "y"),
        (IDENT, "x"),
        (SYMBOL, "÷"),
        (IDENT, "y"),
    ]


def test_a_forbidden_word_inside_a_latin_name_is_not_the_word(lean_putnambench: Benchmark) -> None:
    """Lean reads ``sorryé`` as one name, not ``sorry``: the gates no longer see the word in it (a sound
    proof with such a helper name passes the text profile); a string in a Latin name's wake stays a string."""
    helper = "theorem sorryé_aux : True := trivial\n\n"
    candidate = lean_filled(lean_putnambench, PLAIN, proof='by\n  exact ér#" sorry "#', before=helper)
    verdict = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert verdict.status == "accepted", failures(verdict)


GLUED = {
    "sorry after a relation arrow": "by\n  exact (fun (_ : ℕ →rsorry) => trivial) 0",
    "native_decide after a negation": "by\n  exact (fun (_ : ¬xnative_decide) => trivial) 0",
    "eval% after an order arrow": "by\n  exact (fun (_ : ℕ →oeval% 1) => trivial) 0",
    "Lean namespace after an arrow": "by\n  exact (fun (_ : ℕ →rLean.Elab.x) => trivial) 0",
    "raw string after an arrow": 'by\n  exact (fun (_ : ℕ →r#" " sorry "x"#) => trivial) 0',
}


@pytest.mark.parametrize("case", sorted(GLUED))
def test_a_word_a_library_token_may_split_off_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PLAIN, proof=GLUED[case])
    verdict = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert verdict.status == "rejected"
    assert "G3" in failures(verdict)


SPACED = {
    "a spaced relation arrow": "by\n  exact (fun (_ : ℕ →r x) => trivial) 0",
    "names glued to brackets": "by\n  exact (fun (h_axiom : ¬h_free) => trivial) (sorry_free)",
    "a raw string after a space": 'by\n  exact (fun (_ : ℕ →r r#" sorry "#) => trivial) 0',
    "a coercion arrow": "by\n  exact (fun (_ : ↑x_axiom_free) => trivial) 0",
}


@pytest.mark.parametrize("case", sorted(SPACED))
def test_the_same_words_read_as_lean_reads_them_are_accepted(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PLAIN, proof=SPACED[case])
    verdict = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert verdict.status == "accepted", failures(verdict)


def test_a_unicode_char_escape_has_four_hex_digits_as_in_lean() -> None:
    assert [(t.kind, t.text) for t in lex_code("'\\u0041'")] == [("char", "'\\u0041'")]
    with pytest.raises(LexError):
        lex_code("'\\u{41}'")


TOY_STATEMENT = "theorem toy_latin : Eq Nat.zero Nat.zero := sorry\n"
TOY_SOUND = "def zé : Nat := Nat.zero\n\ntheorem toy_latin : Eq Nat.zero Nat.zero := Eq.refl zé\n"


@needs_sandbox
def test_a_helper_with_a_latin_name_compiles_and_is_accepted(
    toy_lean_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    bench = one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_latin", TOY_STATEMENT)
    verdict = lean_verdict(bench, "toy_latin", TOY_SOUND, Profile.FAST)
    assert verdict.status == "accepted", failures(verdict)
