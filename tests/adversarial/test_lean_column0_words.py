"""A column-0 word no list of ours holds: Lean ends the command before it (``_continuation``).

Lean parses each top-level command inside ``withPosition`` (src/Lean/Parser/Module.lean), and an
application argument must stand right of that position (``checkColGt`` in ``Term.argument``,
src/Lean/Parser/Term.lean), as must a tactic block: a word in column 0 continues a command only where
the command cannot end yet (an open bracket, a token such as ``:=`` or ``→`` after which a term must
follow) or where it is itself a trailing keyword (``then``, ``termination_by``...). Elsewhere it begins
the next command: a library command (Mathlib's ``unset_option``), or a core one (Lean 4.35's
``unlock_limits``, ``deprecated_module``: found below by reading every word of the toolchain at column 0).

Found: the splitter split only at words of its lists, so such a command after a helper, after the
theorem's proof or after a no-answer value was read as more of that body, and no rule of G2 (the
allow-list of additions, ``open``/``set_option``/section rules, the answer rules) judged it: the text
and fast profiles accepted ``unlock_limits`` (heartbeats off) or ``unset_option autoImplicit`` (Mathlib)
between a helper and the theorem. Fixed: the splitter ends a command at any column-0 word Lean cannot
read as a continuation; the word begins a command of its own, which G2 refuses as no permitted
addition. Measured on every statement of the three pinned benchmarks and every Lean proof of the
conformance corpora (2777 texts): the split is unchanged on all of them. What Lean reads as a
continuation and the splitter does not (a structure's column-0 fields after the first, which Lean reads
as fields only when they are identifiers, not keywords) is refused: a false rejection, never an
acceptance, and none occurs in those corpora.

Found with it: Lean's command combinator ``cmd₁ in cmd₂`` (``section cmd₁ cmd₂ end``) takes any command
after any command, on the same line too (``theorem zz_h : True := trivial in unlock_limits``), and the
word after a trailing ``in`` in column 0 likewise. Fixed: G2 refuses an ``in`` inside a command that no
binder (``∑ x in s``, ``∫ x in a..b``, ``for``, ``conv in``), ``open`` or ``set_option`` takes; none of
the 2777 texts has one.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import _commands
from putnam_solver.core.provers.lean._commands import COMMAND_ONLY_KEYWORDS, split_commands
from putnam_solver.core.provers.lean._continuation import TRAILING_WORDS
from putnam_solver.core.provers.lean.syntax import lex_code
from putnam_solver.core.verify import GateStatus, Profile, Track
from tests.adversarial.test_lean_redteam22_g2g3 import Edit, _rep, _verdict
from tests.adversarial.test_scoped_additions import _toy_run
from tests.helpers import failures, lean_verdict, needs_sandbox, one_record_benchmark
from tests.toylean.build import ToyLean

PID = "putnam_1962_a1"
"""Read after ``open MeasureTheory``; no answer."""
ANSWER = "putnam_2024_a1"
"""Has an answer (``putnam_2024_a1_solution``), judged on no-answer with the official value ``{1}``."""

WORDS = {
    "a core command no list held (heartbeats off)": "unlock_limits",
    "a core command no list held": "deprecated_module",
    "Mathlib's unset_option": "unset_option autoImplicit",
    "Mathlib's count_heartbeats": "count_heartbeats in",
    "a ProofWidgets command": "show_panel_widgets [GoalTypePanel]",
    "any library's command": "zz_library_command 1",
}
"""Commands at column 0: the first four are real ones; the last two stand for any a library may add."""

PLACES: dict[str, tuple[Track, str, Callable[[str], Edit]]] = {
    "after a helper": (Track.WITH_ANSWER, PID, lambda w: {"before": f"theorem zz_h : True := trivial\n{w}\n\n"}),
    "after a helper's tactic proof": (
        Track.WITH_ANSWER,
        PID,
        lambda w: {"before": f"theorem zz_h : True := by\n  trivial\n{w}\n\n"},
    ),
    "after a closing bracket": (Track.WITH_ANSWER, PID, lambda w: {"before": f"def zz : ℕ := (1 + 1)\n{w}\n\n"}),
    "after a postfix operator": (
        Track.WITH_ANSWER,
        PID,
        lambda w: {"before": f"noncomputable def zz : ℝ := (2 : ℝ)⁻¹\n{w}\n\n"},
    ),
    "after a helper in a closed section": (
        Track.WITH_ANSWER,
        PID,
        lambda w: {"before": f"section\ntheorem zz_h : True := trivial\n{w}\nend\n\n"},
    ),
    "after a helper's trailing in": (
        Track.WITH_ANSWER,
        PID,
        lambda w: {"before": f"theorem zz_h : True := trivial in\n{w}\n\n"},
    ),
    "after the header's open": (
        Track.WITH_ANSWER,
        PID,
        lambda w: _rep("open MeasureTheory\n", f"open MeasureTheory\n{w}\n"),
    ),
    "after the theorem's proof": (Track.WITH_ANSWER, PID, lambda w: {"after": f"{w}\n"}),
    "after a no-answer value": (Track.NO_ANSWER, ANSWER, lambda w: {"value": f"{{1}}\n{w}"}),
}


@pytest.mark.parametrize("word", sorted(WORDS))
@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_column_0_command_is_judged_as_a_command(lean_putnambench: Benchmark, place: str, word: str) -> None:
    track, pid, edit = PLACES[place]
    found = _verdict(lean_putnambench, edit(WORDS[word]), pid, track)
    assert "not a permitted addition" in found.get("G2", ""), found


VALID: dict[str, Edit] = {
    "a helper's proof on the line after :=": {"before": "theorem zz_h : True :=\ntrivial\n\n"},
    "a statement continued after ∧": {"before": "theorem zz_h : True ∧\nTrue := ⟨trivial, trivial⟩\n\n"},
    "a statement continued after →": {"before": "theorem zz_h : True →\nTrue := fun h => h\n\n"},
    "a statement continued after ↔": {"before": "theorem zz_h : True ↔\nTrue := Iff.rfl\n\n"},
    "a statement continued after =": {"before": "theorem zz_h : (1 : ℕ) =\n1 := rfl\n\n"},
    "a statement continued after :": {"before": "theorem zz_h :\nTrue := trivial\n\n"},
    "a statement continued after a spaced +": {"before": "theorem zz_h : (1 : ℕ) +\nNat.zero = 1 := rfl\n\n"},
    "an argument inside parentheses": {"before": "def zz : ℕ := (Nat.succ\nNat.zero)\n\n"},
    "an argument inside an anonymous constructor": {"before": "theorem zz_h : True ∧ True := ⟨trivial,\ntrivial⟩\n\n"},
    "then and else in column 0": {"before": "def zz (n : ℕ) : ℕ := if n = 0\nthen 1\nelse 2\n\n"},
    "termination_by in column 0": {
        "before": "def zz : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => zz n\ntermination_by n => n\n\n"
    },
    "a where clause in column 0": {"before": "def zz : ℕ := zz_aux\nwhere\n  zz_aux : ℕ := 1\n\n"},
    "the theorem's proof on the next line": {"proof": "\nby\n  simp [foo] <;> linarith"},
    "an operator in column 0": {"before": "theorem zz_h : True\n∧ True := ⟨trivial, trivial⟩\n\n"},
}


@pytest.mark.parametrize("case", sorted(VALID))
def test_what_lean_reads_as_a_continuation_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    assert _verdict(lean_putnambench, VALID[case]) == {}


def test_the_no_answer_value_may_continue_in_column_0(lean_putnambench: Benchmark) -> None:
    """The official answer written over two lines, its second in column 0 after an open brace."""
    assert _verdict(lean_putnambench, {"value": "{\n1}"}, ANSWER, Track.NO_ANSWER) == {}


# --- the command combinator: `cmd₁ in cmd₂` runs any command, wherever it stands ----------------------

GLUED_BY_IN: dict[str, Edit] = {
    "after a helper, on its line": {"before": "theorem zz_h : True := trivial in zz_library_command 1\n\n"},
    "after a helper, a core command": {"before": "theorem zz_h : True := trivial in unlock_limits\n\n"},
    "after the theorem's tactic proof": {"proof": "by\n  simp [foo] <;> linarith in zz_library_command"},
    "after a bracket": {"before": "def zz : ℕ := (1 + 1) in zz_library_command\n\n"},
    "after a binder's in, past its comma": {
        "before": "def zz : ℕ := ∑ i in Finset.range 3, i in zz_library_command\n\n"
    },
}
BOUND_IN: dict[str, Edit] = {
    "a big operator's binder": {"before": "def zz : ℕ := ∑ i in Finset.range 3, i\n\n"},
    "nested big operators": {"before": "def zz : ℕ := ∑ i in Finset.range 3, ∏ j in Finset.range i, (i + j)\n\n"},
    "a typed binder": {"before": "def zz : ℕ := ∑ i : ℕ in Finset.range 3, i\n\n"},
    "a pattern binder": {"before": "def zz : ℕ := ∑ ⟨i, j⟩ in Finset.range 3 ×ˢ Finset.range 3, (i + j)\n\n"},
    "an average": {"before": "noncomputable def zz : ℝ := ⨍ t in Set.Icc (0 : ℝ) 1, t\n\n"},
    "an interval integral": {"before": "noncomputable def zz : ℝ := ∫ t in (0 : ℝ)..1, t\n\n"},
    "open ... in inside the proof": {"proof": "by\n  open Real in\n  simp [foo] <;> linarith"},
    "set_option ... in inside the proof": {"proof": "by\n  set_option maxHeartbeats 400000 in\n  simp [foo]"},
    "conv in": {"proof": "by\n  conv in (occs := 1) S => rfl\n  simp [foo]"},
}


@pytest.mark.parametrize("case", sorted(GLUED_BY_IN))
def test_a_command_glued_by_in_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _verdict(lean_putnambench, GLUED_BY_IN[case])
    assert "command combinator" in found.get("G2", ""), found


@pytest.mark.parametrize("case", sorted(BOUND_IN))
def test_an_in_a_binder_or_open_takes_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    assert _verdict(lean_putnambench, BOUND_IN[case]) == {}


# --- the splitter: a command word ends the command whether or not a list holds it --------------------


def _split(text: str) -> list[str]:
    return [" ".join(t.text for t in c.tokens) for c in split_commands(lex_code(text))]


@pytest.mark.parametrize("word", sorted(COMMAND_ONLY_KEYWORDS - TRAILING_WORDS))
def test_every_command_word_ends_a_helper_without_its_list(monkeypatch: pytest.MonkeyPatch, word: str) -> None:
    """The lists say which words begin a command; with the word taken out of them, the column-0 reading
    still ends the helper there (so a word the lists lack is read the same way)."""
    monkeypatch.setattr(_commands, "_COLUMN_0_STARTERS", _commands._COLUMN_0_STARTERS - {word})
    assert _split(f"theorem zz_h : True := trivial\n{word} x\n") == ["theorem zz_h : True := trivial", f"{word} x"]


CONTINUED = {
    "after :=": "def zz : Nat :=\nfoo",
    "after →": "def zz : Type := Nat →\nNat",
    "after a spaced +": "def zz := a +\nb",
    "after ¬": "def zz := ¬\np",
    "inside ( )": "def zz := (f\nx)",
    "inside [ ] after l[i]'h": "def zz := [l[i]'h,\nx]",
    "inside { } (structure instance)": "def zz : S := { x := 1,\ny := 2 }",
    "then": "def zz := if c\nthen a else b",
    "else": "def zz := if c then a\nelse b",
    "termination_by": "def zz := zz\ntermination_by x",
    "partial_fixpoint": "def zz := zz\npartial_fixpoint",
    "where": "def zz := g\nwhere\ng := 1",
    "after a doc comment inside": "structure S where\n  /-- a -/\nx : Nat",
    "by after show": "def zz := show T\nby exact x",
    "the first word after an all-prefix line": "@[simp]\nzz_cmd x",
}
ENDED = {
    "after an identifier": "def zz := f\nx",
    "after a number": "def zz := 1\nx",
    "after a closing parenthesis": "def zz := (f x)\ny",
    "after l[i]'h": "def zz := l[i]'h\ny",
    "after ⁻¹": "def zz := a⁻¹\ny",
    "after Type*": "def zz : Type*\ny",
    "after ℕ+": "def zz : Type := ℕ+\ny",
    "after a closing bar": "def zz := |a|\ny",
    "after ;": "theorem zz : T := by simp;\ny",
    "after a structure's where": "structure S where\ny : Nat",
    "after a structure's :=": "structure S :=\ny",
    "a tactic in column 0": "theorem zz : T := by\n  simp\nexact h",
    "after a trailing in": "def zz := x in\ny",
    "after a column-0 in": "def zz := x\nin\ny",
    "a second field in column 0": "structure S where\n  x : Nat\ny : Nat",
    "after an instance's where": "instance : C where\ny",
    "after a definition's where": "def zz : S where\ny",
}


@pytest.mark.parametrize("case", sorted(CONTINUED))
def test_a_column_0_word_lean_may_continue_with_stays_in_the_command(case: str) -> None:
    assert len(_split(CONTINUED[case])) == 1, _split(CONTINUED[case])


@pytest.mark.parametrize("case", sorted(ENDED))
def test_a_column_0_word_after_a_complete_command_begins_another(case: str) -> None:
    assert len(_split(ENDED[case])) == 2, _split(ENDED[case])


# --- the premises, on the toy Lean 4.35 ----------------------------------------------------------------


def _lean(toy_lean: ToyLean, tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "Zz.lean").write_text(text, encoding="utf-8")
    return _toy_run(toy_lean, tmp_path, "Zz.lean")


def test_lean_reads_no_column_0_identifier_as_an_argument(toy_lean: ToyLean, tmp_path: Path) -> None:
    """``id`` then ``n`` in column 0: the value is ``id`` alone, and ``n`` is where a command is expected."""
    run = _lean(toy_lean, tmp_path, "def zz (n : Nat) : Nat := id\nn\n")
    assert "Zz.lean:2:0: error: unexpected identifier; expected command" in run.stdout, run.stdout


def test_lean_reads_no_column_0_tactic(toy_lean: ToyLean, tmp_path: Path) -> None:
    run = _lean(toy_lean, tmp_path, "theorem zz : True := by\nexact True.intro\n")
    assert "Zz.lean:2:0: error: unexpected identifier; expected command" in run.stdout, run.stdout


def test_lean_runs_a_column_0_command_after_a_trailing_in(toy_lean: ToyLean, tmp_path: Path) -> None:
    """``cmd₁ in cmd₂`` takes any two commands: the word after a definition's trailing ``in`` is a command."""
    run = _lean(toy_lean, tmp_path, "def zz : Nat := Nat.zero\nin\ndeprecated_module\n#print zz\n")
    assert run.returncode == 0 and "Zz.lean:3:0: warning: `deprecated_module`" in run.stdout, run.stdout


def test_lean_runs_a_command_glued_by_in_on_the_same_line(toy_lean: ToyLean, tmp_path: Path) -> None:
    run = _lean(toy_lean, tmp_path, "theorem zz : True := True.intro in deprecated_module\n#print zz\n")
    assert run.returncode == 0 and "Zz.lean:1:35: warning: `deprecated_module`" in run.stdout, run.stdout


@pytest.mark.parametrize("word", ["deprecated_module", "unlock_limits", "init_quot"])
def test_lean_runs_a_column_0_command_word_after_a_definition(toy_lean: ToyLean, tmp_path: Path, word: str) -> None:
    """The definition ends before the word, which Lean elaborates as a command of its own: no error, and
    the definition is the one-token value (``#print`` shows it)."""
    run = _lean(toy_lean, tmp_path, f"def zz : Nat := Nat.zero\n{word}\n#print zz\n")
    assert run.returncode == 0 and ": error" not in run.stdout, run.stdout
    assert "def zz : Nat :=\nNat.zero" in run.stdout, run.stdout


CONTINUATIONS = {
    "after :=": "def zz : Nat :=\nNat.zero\n",
    "after →": "def zz : Type := Nat →\nNat\n",
    "inside ( )": "theorem zz : And True True := (And.intro True.intro\nTrue.intro)\n",
    "inside ⟨ ⟩": "theorem zz : And True True := ⟨True.intro,\nTrue.intro⟩\n",
    "match arms": "def zz (b : Bool) : Nat := match b with\n| Bool.true => Nat.zero\n| Bool.false => Nat.zero\n",
    "the first field after where": "structure ZzS where\nx : Nat\n",
    "partial_fixpoint": "def zz : Nat := Nat.zero\npartial_fixpoint\n",
}


@pytest.mark.parametrize("case", sorted(CONTINUATIONS))
def test_lean_continues_where_the_command_is_incomplete(toy_lean: ToyLean, tmp_path: Path, case: str) -> None:
    run = _lean(toy_lean, tmp_path, CONTINUATIONS[case])
    assert run.returncode == 0 and ": error" not in run.stdout, run.stdout


# --- the fast profile on the toy Lean: the attack compiled, and what must still pass -------------------

TOY_ID = "toy_and_comm"
TOY = "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := sorry\n"
TOY_PROOF = "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := And.intro h.right h.left\n"


@needs_sandbox
@pytest.mark.parametrize("word", ["unlock_limits", "deprecated_module"])
def test_the_fast_profile_refuses_a_core_command_after_a_helper(
    toy_lean_env: ToyLean, tmp_path_factory: pytest.TempPathFactory, word: str
) -> None:
    """It compiles (G4 passes: Lean runs the command), so only G2 can refuse it."""
    bench = one_record_benchmark(tmp_path_factory.mktemp("bench"), TOY_ID, TOY)
    candidate = f"theorem zz_h : True := True.intro\n{word}\n\n{TOY_PROOF}"
    verdict = lean_verdict(bench, TOY_ID, candidate, Profile.FAST)
    assert verdict.status == "rejected"
    assert "not a permitted addition" in failures(verdict).get("G2", ""), failures(verdict)
    assert next(g for g in verdict.gates if g.id == "G4").status is GateStatus.PASSED


@needs_sandbox
def test_the_fast_profile_accepts_column_0_continuations(
    toy_lean_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    bench = one_record_benchmark(tmp_path_factory.mktemp("bench"), TOY_ID, TOY)
    helpers = (
        "theorem zz_h (p q : Prop) (h : And p q) :\nAnd q p :=\nAnd.intro h.right h.left\n\n"
        "theorem zz_i : True →\nTrue := fun h => h\n\n"
        "theorem zz_j : And True True := (And.intro True.intro\nTrue.intro)\n\n"
    )
    candidate = helpers + "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p :=\nzz_h p q h\n"
    verdict = lean_verdict(bench, TOY_ID, candidate, Profile.FAST)
    assert verdict.status == "accepted", failures(verdict)
