"""Red team 30 (Lean, G2 and G3): commands Lean begins where the splitter saw none, a tactic block G3 read
as a term, and compiled modules whose import runs code through extensions the reader did not name.

Found and fixed (each passed the text profile):

* A library command indented after a helper. Lean ends a command wherever its parser stops, at any
  column (leanprover/lean4 src/Lean/Parser/Module.lean, ``parseCommand``: the next command is parsed from
  where the last one stopped): a command keyword is a token no term, argument or tactic begins with, so a
  term, a tactic block (``sepByIndent``, ``allowTrailingSep``) and the declaration end before it. The
  splitter split only at column 0 and reported indented command words of its list; Mathlib's
  ``name_poly_vars X over ℤ`` (notation for ``X``), Batteries' ``theorem_wanted`` and a dozen more were in
  no list and were read as more of the helper's body. The list now holds every ``: command`` syntax of
  Mathlib, Batteries, Aesop, Qq, ProofWidgets and Plausible that is not a ``#`` command
  (``_commands.COMMAND_ONLY_KEYWORDS``).

* A module doc, doc comment or attribute list inside a body. Lean's whitespace reader stops at ``/--``
  and ``/-!`` ("actual tokens", src/Lean/Parser/Basic.lean ``whitespace``); ``/-!`` is the command
  ``moduleDoc``, and ``/--``/``@[`` begin a declaration's modifiers, which no term or tactic takes. The
  lexer read ``/-!`` as a comment and the splitter let ``/--``/``@[`` at any column but 0 stay in the
  command before, so ``trivial /-! x -/ zz_library_command 1`` hid a command of any library from G2, at any
  place a body stands (a helper, a tactic block, a structure, after the theorem's proof). The splitter
  now ends a command there (``_doc_breaks``), except where the grammar takes them (fields, constructors,
  ``where``/``let rec`` declarations at their column, not a structure instance's ``where``, whose fields
  take none); measured on the toy Lean below. An indented helper with its docstring, refused before as a
  layout error, is now judged as the helper it is.

* ``decreasing_by`` read as a word of a term. G3 reads a configuration item or a ``run_...`` runner only
  where a tactic may stand; an indented ``decreasing_by`` (whose tactic block Lean elaborates and runs as
  any other) was not a separator, so ``decreasing_by noncomm_ring (maxSteps := zzN)`` ran a helper's code
  unread (``_tactic_position.SEPARATORS``).

* Import-time code the ``.olean`` reader did not name: the pretty printer's keyed attributes (formatter,
  parenthesizer, category parenthesizer: ``KeyedDeclsAttribute``, each entry evaluated when imported),
  quotation prechecks, code actions (core's hole and command ones, Batteries' tactic ones: evaluated by
  ``addImportedFn``; providers by the server) and Mathlib's ``gcongr_forward``, tactic analysis and
  ``polynomial`` extensions (``olean.LOAD_TIME_EXTENSIONS``). G3 refuses each attribute by name; the reader
  is the check by meaning behind it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from putnam_solver.core.provers.lean._commands import commands_of
from putnam_solver.core.provers.lean.olean import load_time_code
from putnam_solver.core.verify import Track
from tests.adversarial.test_lean_redteam27 import ANSWERED, PURE, PUTNAM
from tests.adversarial.test_lean_redteam28_compiled import _olean
from tests.adversarial.test_scoped_additions import _toy_run
from tests.helpers import failures, lean_filled, lean_text_verdict, sampled
from tests.toylean.build import ToyLean

NEW_COMMAND = "starts a new command here"
NOT_PERMITTED = "not a permitted addition"

INDENTED: dict[str, str] = {
    # name: helpers in which a library command stands indented after a helper's body
    "Mathlib's name_poly_vars (notation for X)": "theorem zz_h : True := trivial\n  name_poly_vars X, Y over ℤ\n\n",
    "after a tactic block": "theorem zz_h : True := by\n  trivial\n  name_poly_vars X over ℤ\n\n",
    "Batteries' theorem_wanted": "theorem zz_h : True := trivial\n  theorem_wanted zz_w : False\n\n",
    "Mathlib's to_additive_name_hint": "theorem zz_h : True := trivial\n  to_additive_name_hint zz_a zz_b\n\n",
    "Mathlib's recall?": "theorem zz_h : True := trivial\n  recall? zz_h\n\n",
    "Mathlib's name_power_vars": "theorem zz_h : True := trivial\n  name_power_vars X over ℤ\n\n",
}
BROKEN: dict[str, str] = {
    # name: helpers in which a module doc, doc comment or attribute list ends a body before any command
    "a module doc after a term": "theorem zz_h : True := trivial /-! x -/ zz_library_command 1\n\n",
    "a module doc in a tactic block": "theorem zz_h : True := by\n  trivial\n  /-! x -/\n  zz_library_command 1\n\n",
    "a module doc in a structure": "structure zz_S where\n  x : ℕ\n  /-! x -/ zz_library_command 1\n\n",
    "a doc comment in a tactic block": "theorem zz_h : True := by\n  trivial\n  /-- x -/ zz_library_command 1\n\n",
    "attributes after a term": "theorem zz_h : True := trivial\n  @[simp] zz_library_command zz_x : True\n\n",
    "a doc comment right of the where block": (
        "def zz_f : ℕ := zz_g where\n  zz_g : ℕ := 1\n    /-- d -/ zz_library_command 1\n\n"
    ),
    "a doc comment before no constructor": "inductive zz_T where\n  | a\n  /-- b -/ zz_library_command 1\n\n",
    "a doc comment after a structure instance's fields": (
        "structure zz_T where\n  x : ℕ\n\n"
        "instance : Inhabited zz_T where\n  default := ⟨1⟩\n  /-- d -/ zz_library_command 1\n\n"
    ),
}
HONEST: dict[str, str] = {
    # name: helpers whose doc comments, module docs and attributes Lean reads where they stand
    "an indented helper with its doc comment": (
        "theorem zz_h : True := trivial\n  /-- d -/ theorem zz_h2 : True := trivial\n\n"
    ),
    "documented where declarations": (
        "def zz_f : ℕ := zz_g + zz_k where\n  /-- d -/\n  zz_g : ℕ := 1\n  /-- e -/\n  zz_k : ℕ := 2\n\n"
    ),
    "a where declaration with attributes": "def zz_f (n : ℕ) : ℕ := zz_go n\nwhere\n  @[simp] zz_go : ℕ → ℕ := id\n\n",
    "a documented let rec": "def zz_f (n : ℕ) : ℕ :=\n  let rec /-- d -/ zz_go : ℕ → ℕ := id\n  zz_go n\n\n",
    "module docs between helpers": "/-! # Helpers -/\n\ntheorem zz_h : True := trivial\n\n/-! ## More -/\n\n",
    "documented constructors": "inductive zz_T where\n  /-- a -/\n  | a\n  /-- b -/\n  | b\n\n",
    "documented fields": "structure zz_S where\n  /-- the x -/\n  x : ℕ\n  /-- the y -/\n  y : ℕ\n\n",
}
DECREASING: dict[str, str] = {
    # name: a helper whose indented `decreasing_by` block runs code
    "a configuration item": "  decreasing_by noncomm_ring (maxSteps := zzN)",
    "a runner": "  decreasing_by run_zz pure ()",
    "a configuration on a later line": "  decreasing_by\n    simp_wf\n    simp (maxSteps := zzN)",
}
RECURSIVE = "def zz (n : ℕ) : ℕ := if h : n = 0 then 0 else zz (n - 1)\n"
EXTENSIONS: dict[str, str] = {
    # name: the extension name Lean records a module's entries under
    "formatter": "Lean.PrettyPrinter.formatterAttribute",
    "parenthesizer": "Lean.PrettyPrinter.parenthesizerAttribute",
    "category parenthesizer": "Lean.PrettyPrinter.categoryParenthesizerAttribute",
    "quotation precheck": "Lean.Elab.Term.Quotation.precheckAttribute",
    "hole code action": "Lean.CodeAction.holeCodeActionExt",
    "command code action": "Lean.CodeAction.cmdCodeActionExt",
    "Batteries' tactic code action": "Batteries.CodeAction.tacticCodeActionExt",
    "Batteries' tactic sequence code action": "Batteries.CodeAction.tacticSeqCodeActionExt",
    "code action provider": "Lean.Server.codeActionProviderExt",
    "Mathlib's gcongr_forward": "Mathlib.Tactic.GCongr.forwardExt",
    "Mathlib's tactic analysis": "Mathlib.TacticAnalysis.tacticAnalysisExt",
    "Mathlib's polynomial": "Mathlib.Tactic.Polynomial.polynomialExt",
}


def _g2(bench: Benchmark, before: str) -> str:
    return failures(lean_text_verdict(bench, PUTNAM, lean_filled(bench, PUTNAM, before=before))).get("G2", "")


@pytest.mark.parametrize("before", sampled(INDENTED, {"Mathlib's name_poly_vars (notation for X)"}))
def test_an_indented_library_command_is_a_command(lean_putnambench: Benchmark, before: str) -> None:
    assert NEW_COMMAND in _g2(lean_putnambench, before)


@pytest.mark.parametrize("before", sampled(BROKEN, {"a module doc in a tactic block", "attributes after a term"}))
def test_what_follows_a_doc_comment_or_attributes_inside_a_body_is_a_command(
    lean_putnambench: Benchmark, before: str
) -> None:
    assert NOT_PERMITTED in _g2(lean_putnambench, before) and "zz_library_command" in _g2(lean_putnambench, before)


def test_a_module_doc_after_the_theorem_ends_its_proof(lean_putnambench: Benchmark) -> None:
    text = lean_filled(lean_putnambench, PUTNAM, after="  /-! x -/ zz_library_command 1\n")
    assert NOT_PERMITTED in failures(lean_text_verdict(lean_putnambench, PUTNAM, text)).get("G2", "")


def test_a_module_doc_after_a_no_answer_value_ends_it(lean_putnambench: Benchmark) -> None:
    value = "3987 /-! m -/ zz_library_command 1"
    text = lean_filled(lean_putnambench, ANSWERED, Track.NO_ANSWER, value=value)
    found = failures(lean_text_verdict(lean_putnambench, ANSWERED, text, Track.NO_ANSWER))
    assert NOT_PERMITTED in found.get("G2", ""), found
    honest = lean_filled(lean_putnambench, ANSWERED, Track.NO_ANSWER, value="3987")
    assert failures(lean_text_verdict(lean_putnambench, ANSWERED, honest, Track.NO_ANSWER)) == {}


@pytest.mark.parametrize("before", sampled(HONEST, {"an indented helper with its doc comment"}))
def test_honest_doc_comments_and_attributes_pass(lean_putnambench: Benchmark, before: str) -> None:
    text = lean_filled(lean_putnambench, PUTNAM, before=before)
    assert failures(lean_text_verdict(lean_putnambench, PUTNAM, text)) == {}


@pytest.mark.parametrize("block", sampled(DECREASING, {"a configuration item"}))
def test_an_indented_decreasing_by_block_is_read_as_tactics(block: str) -> None:
    assert any("meta" in v.rule for v in check_forbidden(f"{PURE}{RECURSIVE}{block}\n")), block


def test_an_honest_decreasing_by_block_passes_g3() -> None:
    for block in ("  decreasing_by simp_wf; omega", "  decreasing_by exact zz_lt (h := zzN)"):
        assert check_forbidden(f"{PURE}{RECURSIVE}{block}\n") == [], block


@pytest.mark.parametrize("name", sampled(EXTENSIONS, {"formatter"}))
def test_the_reader_names_import_time_extensions(name: str) -> None:
    assert [line.rsplit("(", 1)[1] for line in load_time_code(_olean([(name, 1)]))] == [f"{name})"]


def test_lean_ends_a_command_at_a_doc_comment_module_doc_or_attributes(toy_lean: ToyLean, tmp_path: Path) -> None:
    """The premise on Lean 4.35, and the splitter's reading of the same file: after a module doc, and after
    a ``/--`` or ``@[`` that no field, constructor or ``where`` declaration takes, a declaration of its own
    begins (each is declared under its own name, with its own attribute), at any column; a documented
    ``where`` declaration at its block's column stays the definition's (``zz_f.zz_k``)."""
    text = (
        "def zz_a : Nat := Nat.zero\n  @[reducible] def zz_b : Nat := Nat.zero\n"
        "def zz_c : Nat := Nat.zero /-! m -/ /-- d -/ def zz_d : Nat := Nat.zero\n"
        "def zz_f : Nat := zz_g where\n  /-- d -/\n  zz_g : Nat := zz_k\n  /-- e -/\n  zz_k : Nat := Nat.zero\n"
        "    /-- e -/ def zz_e : Nat := Nat.zero\n"
        "inductive zz_T where\n  /-- a -/\n  | a\n  /-- b -/ def zz_i : Nat := Nat.zero\n"
    )
    printed = ("zz_b", "zz_d", "zz_f.zz_k", "zz_e", "zz_i")
    (tmp_path / "Zz.lean").write_text(text + "".join(f"#print {n}\n" for n in printed), encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "@[reducible] def zz_b" in run.stdout and all(f"def {n} : Nat" in run.stdout for n in printed)
    assert [c.name for c in commands_of(text)] == ["zz_a", "zz_b", "zz_c", "zz_d", "zz_f", "zz_e", "zz_T", "zz_i"]
