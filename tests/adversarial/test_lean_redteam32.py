"""Red team 32 (Lean, G2 and G3 on the text profile): code Lean runs in its interpreter through a list of
rationals, and scope tricks that were refused already.

Found and fixed (passed the text profile):

* Mathlib's ``pi_lower_bound [a, b, ...]`` and ``pi_upper_bound [...]`` (Mathlib/Analysis/Real/Pi/Bounds.lean,
  lines 104-126 today and 108-126 at the Mathlib of Lean 4.27: ``unsafe Meta.evalExpr ℚ q(ℚ)
  (← Term.elabTermAndSynthesize l (some q(ℚ)))`` for each item ``l``) compile and run every item of their
  list to read a rational, like a tactic configuration's values (red team 27) and ``from_lrat``'s strings
  (red team 29). ``pi_lower_bound [zzQ]`` ran the candidate's ``def zzQ : ℚ`` in the interpreter, and no G3
  word saw it. The items must now be numerals with arithmetic, as in Mathlib's own proofs
  (``_evaluated.NUMERAL_LISTS``).

* A tactic block G3 read as a term. A discharger's value is a tactic sequence (core's ``discharger :=
  atomic(" (" patternIgnore(&"discharger" <|> &"disch")) " := " ... tacticSeq ")"``, src/Init/Tactics.lean;
  Mathlib's ``linear_combination (norm := tac)``), and so is the first item of Batteries' ``map_tacs [t1;
  t2]`` (Batteries/Tactic/SeqFocus.lean), but ``:=`` and ``[`` were read as the start of a term: Mathlib's
  ``trace e``, ``success_if_fail_with_msg e``, a ``run_...`` runner and the configuration items of a tactic no
  list names (``noncomm_ring (maxSteps := zzN)``) went unread there, so ``simp (disch := trace zzS)`` ran a
  helper. Both now begin a tactic's place (``_tactic_position.TACTIC_ITEMS``, ``TACTIC_LISTS``).

Tried and refused already (kept as regression cases, each must stay refused):

* the ``in`` combinator around a scope: Lean expands ``cmd in c`` to ``section cmd c end``
  (leanprover/lean4 src/Lean/Elab/BuiltinCommand.lean, ``expandInCmd``), so ``open N in section`` (or
  ``set_option o v in section``) leaves the outer section, with ``open N`` in force, open over the theorem:
  G2 refuses a ``section`` after ``in``;
* ``namespace A.B`` ended by ``end B`` (``elabEnd`` pops one scope per name part, leaving ``A`` open over the
  theorem), Mathlib's ``variables`` (an alias of ``variable``, Mathlib/Tactic/Basic.lean), a section's
  ``variable``/``include`` still open at the theorem, the module system's ``meta def``, ``«native»`` as a
  configuration item, and the theorem's name declared in a namespace and exported to the root.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from tests.helpers import failures, lean_filled, lean_text_verdict, sampled

PUTNAM = "putnam_1962_a1"
PI_WORDS = "`pi_lower_bound [..]`"
LOWER = "338 / 239, 704 / 381, 1940 / 989, 1447 / 727"
"""Mathlib's own witness for ``3.14 < π`` (``Real.pi_gt_d2``)."""


def _pi_helper(tactic: str, items: str, before: str = "") -> str:
    """A helper lemma bounding ``π`` by Mathlib's tactic, after ``before``."""
    relation = "(3.14 : ℝ) < Real.pi" if tactic == "pi_lower_bound" else "Real.pi < (3.15 : ℝ)"
    return f"{before}theorem zz_pi : {relation} := by\n  {tactic} [{items}]\n\n"


ZZQ = "def zzQ : ℚ := 338 / 239\n\n"
RUN_ITEMS = {
    "a helper's name as an item": _pi_helper("pi_lower_bound", "zzQ, 704 / 381, 1940 / 989, 1447 / 727", ZZQ),
    "an upper bound's item": _pi_helper("pi_upper_bound", "zzQ", ZZQ),
    "a name among numerals": _pi_helper("pi_lower_bound", "338 / 239, 704 / (zzQ.den : ℚ)", ZZQ),
    "an ascribed name": _pi_helper("pi_lower_bound", "(zzQ : ℚ)", ZZQ),
    "a list never closed": "theorem zz_pi : (3.14 : ℝ) < Real.pi := by\n  pi_lower_bound [338 / 239\n\n",
}
NUMERALS = {
    "Mathlib's lower witness": _pi_helper("pi_lower_bound", LOWER),
    "Mathlib's upper witness": _pi_helper("pi_upper_bound", "41 / 29, 109 / 59, 865 / 441, 412 / 207"),
    "numerals with arithmetic": _pi_helper("pi_lower_bound", "(338 / 239), 704 / 381 - 0, 3 * 2 ^ 2 / 4"),
}


def _found(bench: Benchmark, before: str, proof: str = "by\n  simp") -> dict[str, str]:
    return failures(lean_text_verdict(bench, PUTNAM, lean_filled(bench, PUTNAM, proof=proof, before=before)))


@pytest.mark.parametrize("before", sampled(RUN_ITEMS, {"a helper's name as an item"}))
def test_pi_bound_items_lean_would_run_are_refused(lean_putnambench: Benchmark, before: str) -> None:
    assert PI_WORDS in _found(lean_putnambench, before).get("G3", "")


@pytest.mark.parametrize("before", sampled(NUMERALS, {"Mathlib's lower witness"}))
def test_pi_bounds_with_numeral_witnesses_pass(lean_putnambench: Benchmark, before: str) -> None:
    assert _found(lean_putnambench, before) == {}


def test_pi_bound_words_are_read_wherever_they_stand() -> None:
    """A keyword after ``import Mathlib`` wherever it stands: in the theorem's own proof, after ``<;>``, in a
    ``where`` declaration's proof; a lemma named with it as one part of several is only a name."""
    for proof in ("by\n  pi_lower_bound [zzQ]", "by\n  norm_num <;> pi_upper_bound [zzQ]"):
        assert check_forbidden(f"def zzQ : ℚ := 1\n\ntheorem t : (3 : ℝ) < Real.pi := {proof}\n") != []
    nested = "theorem t : True := by\n  trivial\nwhere\n  zz : (3 : ℝ) < Real.pi := by pi_lower_bound [zzQ]\n"
    assert check_forbidden(nested) != []
    assert check_forbidden("theorem t : True := by\n  have := Real.pi_lower_bound_start 0\n  trivial\n") == []


RUNNERS = 'def zzS : String := "x"\n\ndef zzN : ℕ := 5\n\n'
TACTIC_VALUES = {
    # name: (proof, whether G3 refuses it): each attack, then an honest twin in the same place
    "Mathlib's trace as a discharger": ("by\n  simp (disch := trace zzS)", True),
    "a discharger spelled out": ("by\n  field_simp (discharger := trace zzS)", True),
    "a normalisation tactic": ("by\n  linear_combination (norm := trace zzS) hS", True),
    "a quoted item name": ("by\n  simp («disch» := trace zzS)", True),
    "a tactic list's first item": ("by\n  map_tacs [trace zzS; simp]", True),
    "a configuration in a discharger": ("by\n  simp (disch := noncomm_ring (maxSteps := zzN))", True),
    "a configuration in a tactic list": ("by\n  map_tacs [noncomm_ring (maxSteps := zzN)]", True),
    "a message run in a discharger": ("by\n  simp (disch := success_if_fail_with_msg zzS skip)", True),
    "honest: a discharger": ("by\n  simp (disch := norm_num)", False),
    "honest: a discharger spelled out": ("by\n  field_simp (discharger := positivity)", False),
    "honest: a normalisation tactic": ("by\n  linear_combination (norm := ring_nf) hS", False),
    "honest: core's trace of a literal": ('by\n  simp (disch := trace "x")', False),
    "honest: a tactic list": ("by\n  map_tacs [simp; norm_num (maxSteps := 100)]", False),
    "honest: a lemma's named argument": ("by\n  exact zz_f (norm := hS) (x := zzN)", False),
}


@pytest.mark.parametrize(
    ("proof", "refused"), sampled(TACTIC_VALUES, {"Mathlib's trace as a discharger", "honest: a discharger"})
)
def test_a_tactic_value_is_read_as_tactics(lean_putnambench: Benchmark, proof: str, refused: bool) -> None:
    found = _found(lean_putnambench, RUNNERS, proof)
    assert "G3" in found if refused else found == {}


TRIED = {
    # name: (helpers before the theorem, text after the proof)
    "open in a section": ("open Nat in section\n\n", "end\n"),
    "an option in a section": ("set_option autoImplicit true in section\n\n", "end\n"),
    "an elaboration option in a section": ("set_option synthInstance.maxSize 1 in section\n\n", "end\n"),
    "a dotted namespace ended by its last part": ("namespace Real.Zz\nend Zz\n\n", "end Real\n"),
    "a section's variable included": ("section\nvariable (zz : False)\ninclude zz\n\n", "end\n"),
    "Mathlib's variables": ("variables (zz : False)\n\n", ""),
    "a meta definition": ("meta def zz : Nat := 1\n\n", ""),
    "a native item quoted": ("theorem zz : 2 + 2 = 4 := by\n  decide +«native»\n\n", ""),
    "a namespaced copy exported": (
        "namespace Zz\ntheorem putnam_1962_a1 : True := trivial\nend Zz\nexport Zz (putnam_1962_a1)\n\n",
        "",
    ),
}


@pytest.mark.parametrize(("before", "after"), sampled(TRIED, {"open in a section"}))
def test_scope_and_native_spellings_stay_refused(lean_putnambench: Benchmark, before: str, after: str) -> None:
    candidate = lean_filled(lean_putnambench, PUTNAM, proof="by\n  simp", before=before, after=after)
    assert failures(lean_text_verdict(lean_putnambench, PUTNAM, candidate)).keys() & {"G2", "G3"}


def test_a_closed_section_before_the_theorem_passes(lean_putnambench: Benchmark) -> None:
    """The near-twin of the scope tricks: a section opened and closed before the theorem, with an ``open ...
    in`` helper inside."""
    before = "section\n\nopen Nat in\ntheorem zz : 2 + 2 = 4 := by\n  norm_num\n\nend\n\n"
    assert _found(lean_putnambench, before) == {}
