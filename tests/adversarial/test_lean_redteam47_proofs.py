"""Lean proof-side red team 47 (text profile): a command hidden after a digit separator, and what else was tried.

Found: Lean 4.35 takes ``_`` between the digits of every part of a decimal number (``1.5_3``, ``1e1_0``), the
lexer only in its integer part. So ``def zz_s := 1.5_e3axiom zz : False`` was read by the gates as ``1.5``
and the name ``_e3axiom`` (no command), while Lean reads ``1.5_``, stops there ("unexpected character"),
resumes reading commands and declares ``axiom zz : False``; ``1e1_0axiom`` is read whole by Lean as
``1e1_0`` with ``axiom`` after it. The text profile accepted each (14 of the 14 spellings of ``NUMBERS``).
Now (``_literals.literal_error``) a number glued to a name that begins with ``_`` is a lexing error: G2 and
G3 refuse the file as unreadable (no statement of the pinned benchmarks and no proof of the conformance
corpora writes such a literal). The toy Lean declares each hidden axiom
(``test_lean_reads_the_hidden_command``). Since round 49 the lexer reads a number as Lean does (``1.5_3`` and
``1e1_0`` whole): a ``_`` glued after one is where Lean stops, still refused as glued; a number Lean reads
whole is followed by the hidden command as a token of its own, refused by G2 and G3 as that command.
A replay of 4000 random texts (a number, quote, escape or comment prefix glued to ``axiom zz : False``;
1582 of them the lexer read with no ``axiom`` and no ``#`` word) found one that the
toy Lean declares before the fix (``1.5_2axiom``) and none after it; a second replay of 3000 with a wider
alphabet (brackets, ``s!"``, quotations, subscripts, ``@[``, ``#[``: 864 read with no ``axiom``) found none
after it.

Tried and refused before this round (``TRIED``, kept as regressions), each as a helper before the theorem or
as its proof: a char literal holding ``"`` or ``\\'`` before an axiom, a char literal left open, string
escapes Lean refuses (``\\x``, ``\\u`` with too few digits, ``\\u{..}``, ``\\q``), an unterminated ``«``,
``r#`` with no quote, a line comment ending in a lone carriage return, a byte order mark or a tab inside
the file, ``1e+axiom``, a syntax quotation, ``#!``; ``#exit``, ``open ... in``/``set_option autoImplicit ..
in`` on the theorem, ``variable``, ``universe``, ``macro_rules``, ``local``/``scoped notation``,
``notation3``, ``attribute [local instance]``/``[-instance]``/``[local simp]``, ``export``, ``deriving
instance``, an ``instance`` before the theorem, a helper in an opened, named or new namespace
(``MeasureTheory.convexHull``, ``Real.``, ``Lean.``), the theorem inside a ``namespace``, ``private``,
``protected``, ``nonrec``, ``lemma``, ``@[simp]``/``@[instance]``/``@[reducible]`` on it, ``unsafe``,
``partial``, ``@[implemented_by]``, ``@[extern]``; in the proof ``sorry``/``admit``/``stop`` (also in
``«»``), ``sorryAx``, ``lcProof``, ``unsafeCast``, ``native_decide``, ``decide +native`` and its config
form, ``bv_decide``, ``bv_check``, ``Lean.ofReduceBool`` (bare, ``_root_.``, ``«Lean».``, under ``open
Lean in``), ``Lean.trustCompiler``; ``set_option debug.skipKernelTC`` spelled with guillemets, before the
theorem or in its proof; ``open Classical in`` before a ``section`` that holds the theorem (Lean expands
``c in d`` to ``section c d end``, so the ``end`` closes the candidate's ``section`` and the ``open`` stays
in force to the end of the file: measured on the toy Lean, refused by G2 since ``section`` is no
permitted addition after ``in``). Read as Lean reads them and accepted (``CONSISTENT``): nested block
comments, ``/-/``, a raw string with hashes, a line comment holding a carriage return or U+2028, a file
with CRLF line ends, a ``noncomputable section`` around the theorem.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.syntax import LexError, lex
from tests.helpers import lean_edit_failures, lean_filled, lean_text_verdict
from tests.toylean.build import ToyLean

PID = "putnam_1962_a1"
GLUED = "a number glued to"
UNREADABLE = "unreadable source"

# the number Lean reads on past the lexer's, each glued to `axiom`; accepted before, refused now
NUMBERS = (
    "1.5_",
    "1.5_e3",
    "1e1_0",
    "1e1_",
    "1.5__3",
    "1.5_3_",
    "1E+1_0",
    "1e-1_0",
    "1_000.5_",
    "12.0_0",
    "0.5_",
    "1.5_3e2_",
    "2.5e1__",
    "3.1_4",
)

HOSTILE: dict[str, str] = {
    **{f"{n}axiom": f"def zz_s := {n}axiom zz : False" for n in NUMBERS},
    "an instance after 1.5_": "def zz_s := 1.5_instance zz_i : Inhabited ℕ := ⟨0⟩",
    "a kernel option after 1e1_0": (
        "def zz_s := 1e1_0set_option debug.skipKernelTC true in\ntheorem zz_t : True := trivial"
    ),
    "inside a helper's proof": "theorem zz_t : True := by\n  have : (1.5_axiom zz : False",
}

# numbers and names the lexer reads as Lean does, each accepted
HONEST: dict[str, str] = {
    "separators in the integer part": "def zz_n : ℕ := 1_000_000 + 0x_FF + 0b1_0",
    "scientific literals": "noncomputable def zz_r : ℝ := 1.5 + 2.5e3 + 3e-2 + 1_000.25",
    "a number before a spaced name": "def zz_n (_x : ℕ) : ℕ := 1 + 2",
    "names with digits and separators": "def zz_n (h1_pos : ℕ) (a_1 : ℕ) : ℕ := h1_pos + a_1",
    "a projection by index": "def zz_n (p : ℕ × ℕ) : ℕ := p.1 + p.2",
}

# attacks of this round that were refused before it: (as helper, as proof), the gate, words of its reason
TRIED: dict[str, tuple[str, str, str, str]] = {
    "a char literal holding a quote": ("def zz_c : Char := '\"'\naxiom zz : False -- \"", "", "G3", "axiom"),
    "an escaped quote char": ("def zz_c : Char := '\\''\naxiom zz : False -- '", "", "G3", "axiom"),
    "a char literal left open": ("def zz_s := 'a axiom zz : False'", "", "G3", UNREADABLE),
    "\\x with no hex digit": ('def zz_s := "\\xg axiom zz : False -- "', "", "G3", UNREADABLE),
    "\\u with three digits": ('def zz_s := "\\u12 axiom zz : False -- "', "", "G3", UNREADABLE),
    "\\u with braces": ('def zz_s := "\\u{41} axiom zz : False -- "', "", "G3", UNREADABLE),
    "an unterminated guillemet": ("def «zz_s axiom zz : False", "", "G3", UNREADABLE),
    "r# with no quote": ("def zz_s := r#axiom zz : False", "", "G3", "#axiom"),
    "1e+ before an axiom": ("def zz_s := 1e+axiom zz : False", "", "G3", "axiom"),
    "a syntax quotation": ("def zz_s := `(1 + axiom zz : False)", "", "G3", "axiom"),
    "a byte order mark": ("\ufeffaxiom zz : False", "", "G3", UNREADABLE),
    "a tab": ("def zz_t :=\t1", "", "G3", UNREADABLE),
    "#exit": ("#exit", "", "G3", "#exit"),
    "open in on the theorem": ("open Classical in", "", "G2", "open ... in"),
    "variable": ("variable (zz : False)", "", "G2", "not a permitted addition"),
    "universe": ("universe zz", "", "G2", "universe"),
    "local notation": ('local notation "zzn" => (1 : ℕ)', "", "G2", "local notation"),
    "attribute local instance": ("attribute [local instance] Classical.propDecidable", "", "G3", "attribute"),
    "export": ("namespace Zz\ndef zz_f : ℕ := 1\nend Zz\nexport Zz (zz_f)", "", "G3", "export"),
    "an instance": ("instance zz_i : Inhabited ℕ := ⟨1⟩", "", "G2", "instance"),
    "a helper in an opened namespace": ("def MeasureTheory.convexHull : ℕ := 1", "", "G2", "MeasureTheory"),
    "a helper in namespace Lean": ("namespace Lean\ntheorem zz_t : True := trivial\nend Lean", "", "G3", "Lean"),
    "simp on the theorem": ("@[simp]", "", "G2", "differs from the challenge"),
    "unsafe": ("unsafe def zz_u : ℕ := 1", "", "G3", "unsafe"),
    "implemented_by": ("@[implemented_by id] opaque zz_o : ℕ → ℕ", "", "G3", "implemented_by"),
    "sorry in guillemets": ("", "by\n  exact «sorry»", "G3", "proof hole"),
    "sorryAx": ("", "by\n  exact sorryAx _ false", "G3", "proof hole"),
    "stop": ("", "by\n  stop\n  simp", "G3", "proof hole"),
    "decide +native": ("", "by\n  decide +native", "G3", "native"),
    "decide config native": ("", "by\n  decide (config := { native := true })", "G3", "native"),
    "bv_decide": ("", "by\n  bv_decide", "G3", "native"),
    "ofReduceBool under open Lean in": ("", "by\n  open Lean in exact absurd (ofReduceBool _ _ rfl) id", "G3", "Lean"),
    "ofReduceBool in guillemets": ("", "by\n  exact absurd («Lean».ofReduceBool _ _ rfl) id", "G3", "native"),
    "lcProof": ("", "by\n  exact lcProof", "G3", "unsafe"),
    "a kernel option in guillemets": ("set_option «debug».skipKernelTC true in", "", "G3", "option"),
    "a kernel option as one guillemet name": ("set_option «debug.skipKernelTC» true in", "", "G3", "option"),
    "a kernel option in a proof": ("", "by\n  set_option debug.«skipKernelTC» true in\n  simp", "G3", "option"),
    "open in before a section": ("open Classical in\nsection", "", "G2", "`section`"),
}

# texts Lean reads as the gates do (the command stays in a comment or a string to both): accepted
CONSISTENT: dict[str, str] = {
    "nested block comments": "/- /- -/ axiom zz : False -/",
    "/-/ opens a comment": "/-/ axiom zz : False -/",
    "a raw string with hashes": 'def zz_s := r##"a"#\naxiom zz : False\n"##',
    "a carriage return in a line comment": "-- a\raxiom zz : False",
    "U+2028 in a line comment": "-- a\u2028axiom zz : False",
}


@pytest.mark.parametrize("name", HOSTILE)
def test_each_hidden_command_is_refused(lean_putnambench: Benchmark, name: str) -> None:
    """Refused as glued where Lean stops at a ``_``; where Lean reads the number whole (``1e1_0``, round 49's
    lexer too), refused by the command that follows it, read as Lean reads it."""
    found = lean_edit_failures(lean_putnambench, PID, {"before": HOSTILE[name] + "\n\n"})
    hidden = ("axiom", "instance", "set_option")
    for gate in ("G2", "G3"):
        assert GLUED in found.get(gate, "") or any(w in found.get(gate, "") for w in hidden), found


@pytest.mark.parametrize("name", [*HONEST, *CONSISTENT])
def test_each_honest_twin_passes(lean_putnambench: Benchmark, name: str) -> None:
    helper = {**HONEST, **CONSISTENT}[name]
    assert lean_edit_failures(lean_putnambench, PID, {"before": helper + "\n\n"}) == {}


@pytest.mark.parametrize("name", TRIED)
def test_each_tried_attack_is_refused(lean_putnambench: Benchmark, name: str) -> None:
    helper, proof, gate, words = TRIED[name]
    edit = {"before": helper + "\n"} if helper else {}
    if proof:
        edit["proof"] = proof
    found = lean_edit_failures(lean_putnambench, PID, edit)
    assert words in found.get(gate, ""), found


def test_a_crlf_file_passes(lean_putnambench: Benchmark) -> None:
    text = lean_filled(lean_putnambench, PID).replace("\n", "\r\n")
    assert lean_text_verdict(lean_putnambench, PID, text).status == "accepted"


@pytest.mark.parametrize("number", ["1.5_", "1e1_0", "3.1_4"])
def test_lean_reads_the_hidden_command(toy_lean: ToyLean, tmp_path: Path, number: str) -> None:
    """The real Lean declares the hidden axiom; the lexer now refuses the text."""
    text = f"def zz_s := {number}axiom zz : False"
    (tmp_path / "T.lean").write_text(f"{text}\n#print axioms zz\n", encoding="utf-8")
    env = {"LEAN_PATH": str(toy_lean.init_dir), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [str(toy_lean.lean), "T.lean"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert "'zz' depends on axioms: [zz]" in run.stdout, run.stdout + run.stderr
    if number.endswith("_"):
        with pytest.raises(LexError, match=GLUED):
            lex(text)
    else:  # read whole by both since round 49: the `axiom` is a token of its own, which G2 and G3 read
        assert "axiom" in [t.text for t in lex(text)]
