"""Red team 41: where Lean resumes reading commands at a place the gates took to be inside one token.

After a parse error Lean's command loop parses the next command from the error's position, skipping a
token at a time until one parses (leanprover/lean4 src/Lean/Parser/Module.lean ``parseCommand``;
src/Lean/Parser/Basic.lean, module doc: "Lean's top-level ``parseCommand`` loop skips tokens until the next
command keyword on error"). Measured on the toy Lean (Lean 4.35): after an error it resumes even inside a
binder (``def f (axiom zz : False) : Nat := 1`` declares ``zz``). So the command boundaries the gates must
agree with are not only those of a file that parses: the text profile never sees a parse error, and every
token of a command may begin the next one. Two consequences, searched systematically here:

* A command word the lists hold is reported wherever it stands (``_commands.body_keywords``); its exemptions
  (a member's modifier, ``open``/``set_option ... in``, Aesop's ``unsafe`` phase, a type's ``deriving``
  clause, ``local notation``'s own word) each begin no command Lean can parse without another listed word,
  which is reported. A word no list holds (``zz_library_command``) may begin a command after any parse
  error, in a binder or a term as well as at a line's start: that class stays open (the threat model's
  "Left"), G6 and the keyword lists are its defence.
* The lexer must split the text where Lean does in every parse state, since Lean resumes *inside* a token
  the lexer made whenever its own reading of that token fails there. Five places did not, each hiding a
  whole command (``axiom``, ``instance``, ``notation``, ``set_option debug.skipKernelTC``...) from G2 and G3
  in what they read as a string or a name; each was accepted by the text profile before this round, and
  the toy Lean declares the hidden ``axiom`` (``test_lean_reads_the_hidden_command``):

  1. ``\\{`` in a string: Lean's ``quotedStringFn`` refuses it outside an interpolated string ("invalid
     escape sequence") and reads the rest of the string as code; it was listed in
     ``test_lean_lexer_conformance`` as a harmless divergence ("Lean refuses it"), which holds only where
     G4 runs;
  2. a string gap over a blank line (``"a\\`` then two line breaks): ``stringGapFn``'s "unexpected
     additional newline in string gap";
  3. ``0b``, ``0o``, ``0x`` with no digit of their base: ``takeDigitsFn`` fails at the next character and
     Lean resumes there, where the lexer read ``0`` and a name (``0baxiom``: ``baxiom``; ``0xinstance``);
  4. a name after two backquotes (two backquotes, then ``axiom``): core's ``doubleQuotedName`` reads
     ``ident`` there, which fails at a keyword, and Lean resumes at it (found by replaying random text on
     the toy Lean);
  5. interpolated strings: where the term between braces does not parse (``s!"{1 : ℕ} axiom zz : False"``,
     ``interpolatedStrFn`` wants ``}`` where the term stopped), or after an earlier error in the command
     (Lean then skips ``s!`` and reads a plain string, closed by the first ``"``), Lean reads the string's
     text as code, and from there every later string of the file pairs its quotes otherwise
     (``s!"{1 : ℕ}" ++ "axiom zz : False -- "``).

Fixed (``_literals``): the first four are lexing errors (G2 and G3 refuse the file as unreadable), every
interpolated string is refused by G3 (whether its term parses is Lean's to say; no statement of the pinned
benchmarks and no proof of the conformance corpora writes one). Verdict changes: the honest interpolated
helpers of three older tests are now refused and were replaced there by plain strings.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.syntax import LexError, lex
from tests.helpers import lean_edit_failures
from tests.toylean.build import ToyLean

PID = "putnam_1962_a1"
UNREADABLE = "unreadable source"
INTERPOLATED = "interpolated string"

# name: (a helper holding the hidden command, as a candidate writes it; the gate that refuses it; its words)
HOSTILE: dict[str, tuple[str, str, str]] = {
    "an axiom after \\{": ('def zz_s : String := "\\{ axiom zz : False -- "', "G3", "`\\{`"),
    "an instance after \\{": (
        'def zz_s : String := "ok \\{ instance zz_i : Inhabited ℕ := ⟨1⟩ -- "',
        "G3",
        "`\\{`",
    ),
    "an axiom after a gap over a blank line": (
        'def zz_s : String := "a\\\n\naxiom zz : False -- "',
        "G3",
        "string gap",
    ),
    "a kernel option after a gap over a blank line": (
        'def zz_s : String := "a\\\n  \nset_option debug.skipKernelTC true -- "',
        "G3",
        "string gap",
    ),
    "an axiom after 0b": ("def zz_s := 0baxiom zz : False", "G3", "`0b` with no digit"),
    "an axiom after 0b and a decimal digit": ("def zz_s := 0b2axiom zz : False", "G3", "`0b` with no digit"),
    "an axiom after 0o": ("def zz_s := 0oaxiom zz : False", "G3", "`0o` with no digit"),
    "an instance after 0x": ("def zz_s := 0xinstance zz_i : Inhabited ℕ := ⟨1⟩", "G3", "`0x` with no digit"),
    "a notation after 0O": ('def zz_s := 0Onotation "zz" => False', "G3", "`0O` with no digit"),
    "an axiom after an interpolated term that does not parse": (
        'def zz_s : String := s!"{1 : ℕ} axiom zz : False -- "',
        "G3",
        INTERPOLATED,
    ),
    "an axiom in the next string after an interpolated term that does not parse": (
        'def zz_s : String := s!"{1 : ℕ}" ++ "axiom zz : False -- "',
        "G3",
        INTERPOLATED,
    ),
    "an axiom in an interpolated string after an earlier error": (
        'def zz_s : String := ++ s!"{" axiom zz : False -- "}"',
        "G3",
        INTERPOLATED,
    ),
    "an axiom after \\{ in an interpolated string": (
        'def zz_s : String := s!"\\{ axiom zz : False -- "',
        "G3",
        "`\\{`",
    ),
    "an axiom after two backquotes": ("def zz_n := ``axiom zz : False", "G3", "two backquotes"),
    "an instance after two backquotes": (
        "def zz_n := ``instance zz_i : Inhabited ℕ := ⟨1⟩",
        "G3",
        "two backquotes",
    ),
    "m! with a bad term": ('def zz_s := m!"{zz :} attribute [-simp] Nat.add_zero -- "', "G3", INTERPOLATED),
    # the structural class with a listed word: reported wherever Lean may resume at it (regressions)
    "an axiom in a binder": ("def zz_f (axiom zz : False) : ℕ := 1", "G3", "axiom"),
    "an instance in a field's binder": (
        "structure ZzS where\n  x : ℕ\n  (instance zz_i : Inhabited Empty)",
        "G2",
        "starts a new command here",
    ),
    "a notation after a match with no alternative": (
        'def zz_f (n : ℕ) : ℕ := match n with\n  notation "zz" => 1',
        "G2",
        "starts a new command here",
    ),
}

# name: a helper of the same kind that Lean reads as the gates do, which the text profile accepts
HONEST: dict[str, str] = {
    "Lean's escapes in a string": 'def zz_s : String := "a\\n\\"b\\" \\\\ c \\x41 \\u0041 \\t"',
    "a string gap": 'def zz_s : String := "a\\\n    b"',
    "a string gap at a line's end of spaces": 'def zz_s : String := "a\\\n  \\\n  b"',
    "numerals in every base": "def zz_n : ℕ := 0b101 + 0o17 + 0xFF + 0x_1F + 1_000 + 0",
    "a zero before a name after a space": "def zz_n (b : ℕ) : ℕ := 0 * b",
    "braces in a raw string": 'def zz_s : String := r"{x}" ++ r#"{"y"}"#',
    "a closing brace in a string": 'def zz_s : String := "}" ++ "a"',
    "text by toString": 'def zz_s (n : ℕ) : String := "n = " ++ toString n',
    "a name literal": "def zz_n := `Nat.add",
}

CASES: dict[str, tuple[str, str, str]] = {**{n: (h, "", "") for n, h in HONEST.items()}, **HOSTILE}


@pytest.mark.parametrize("name", CASES)
def test_each_literal_is_read_as_lean_reads_it(lean_putnambench: Benchmark, name: str) -> None:
    helper, gate, words = CASES[name]
    found = lean_edit_failures(lean_putnambench, PID, {"before": helper + "\n\n"})
    assert (words in found.get(gate, "")) if gate else not found, found


# The attacks on the toy Lean, whose prelude has no `s!`: `dbg_trace` reads its string with the same parser
# (`interpolatedStr`, src/Lean/Parser/Term.lean `dbgTrace`), so it stands in for `s!`.
TOY: dict[str, str] = {
    "\\{ in a string": 'def zz_s := "\\{ axiom zz : False -- "',
    "a gap over a blank line": 'def zz_s := "a\\\n\naxiom zz : False -- "',
    "0b": "def zz_s := 0baxiom zz : False",
    "0o": "def zz_s := 0oaxiom zz : False",
    "an interpolated term that does not parse": 'def zz_s : Nat := dbg_trace "{zz_s : Nat} axiom zz : False -- "; 0',
    "the next string": 'def zz_s : Nat := dbg_trace "{(zz_s}" ++ "axiom zz : False -- "; 0',
    "an earlier error": 'def zz_s : Nat := + dbg_trace "{" axiom zz : False -- "}"; 0',
    "a binder": "def zz_f (axiom zz : False) : Nat := 1",
    "two backquotes": "def zz_n := ``axiom zz : False",
}


@pytest.mark.parametrize("name", TOY)
def test_lean_reads_the_hidden_command(toy_lean: ToyLean, tmp_path: Path, name: str) -> None:
    """The real Lean declares the hidden axiom; the lexer refuses the text or reads ``axiom`` as code."""
    text = TOY[name]
    (tmp_path / "T.lean").write_text(f"{text}\n#print axioms zz\n", encoding="utf-8")
    env = {"LEAN_PATH": str(toy_lean.init_dir), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [str(toy_lean.lean), "T.lean"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert "'zz' depends on axioms: [zz]" in run.stdout, run.stdout + run.stderr
    try:
        tokens = lex(text)
    except LexError:
        return
    assert "axiom" in [t.text for t in tokens if t.kind == "ident"] or any(
        t.kind == "string" and t.text.endswith("{") for t in tokens
    ), tokens
