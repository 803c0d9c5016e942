"""Red team 25: what was tried against miniF2F's and ProofNet's headers, and how G1-G3 judged it.

About 250 candidates in all (this file keeps 63) on ``mathd_algebra_17`` (header ``open BigOperators
Real Nat Topology Rat``, hole ``:= by sorry``) and on ProofNet statements with a header of their own:
``Munkres_exercise_20_2`` (a ``noncomputable section`` left open), ``Rudin_exercise_3_5`` (``local notation "limsup"``),
``Munkres_exercise_21_6a`` (``abbrev I``) and ``Ireland_Rosen_exercise_2_4``, whose ``f_a`` is bound by no
binder: miniF2F and ProofNet keep Lean's default ``autoImplicit`` (their ``lean_options`` are empty), so
``f_a`` is an auto-bound implicit, and a root declaration named ``f_a`` would turn the hypothesis ``hf``
about a variable into one about that constant.

Refused outright (:data:`REFUSED`): a helper named
like an auto-bound name (``def``, ``private``, guillemets, ``mutual``, ``structure``, in a closed
section), every attribute or command that makes a declaration of a name it is given (``to_additive``,
``reassoc``, ``mk_iff``, ``simps``, ``alias``, ``irreducible_def``, ``export``), a ``variable``, ``omit`` or
``include ... in`` before the theorem, a section variable or local instance in ProofNet's open section, an
``end`` closing it, the challenge's ``abbrev I`` edited or shadowed. Left to G6 (:data:`BY_ELABORATION`):
a helper in a namespace the header opens or any other namespace (``Real``, ``Nat``, ``Rat``, ``Set``,
``Function``, guillemet-escaped, nested), a global ``open`` that reorders, drops or adds to the header's,
``open ... in`` the theorem, ``local notation`` anywhere before the theorem. Harmless (:data:`HARMLESS`):
``where``/``let rec`` names (Lean names them under the declaration they stand in: ``currDeclName ++
shortDeclName``, leanprover/lean4 src/Lean/Elab/LetRec.lean, so ``_root_.Real.x`` there is not
``Real.x``), a name that is one guillemet-escaped part (``«Real.zz»``), ``section Real`` (a section opens
no namespace), the header's ``open`` split over lines in its order, a look-alike of an auto-bound name
(``f_ₐ`` is another name), ``pp.*`` and resource options before the theorem.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Track, Verdict
from tests.helpers import LEAN_PROVER, failures, lean_text_verdict

MINIF2F = "mathd_algebra_17"
HEADER_OPEN = "open BigOperators Real Nat Topology Rat"
AUTO_BOUND = "Ireland_Rosen_exercise_2_4"
OPEN_SECTION = "Munkres_exercise_20_2"
ABBREV = "Munkres_exercise_21_6a"
NOTATION = "Rudin_exercise_3_5"
NO: tuple[str, str] = ("", "")
USED = "is a name the challenge uses"
NOT_PERMITTED = "not a permitted addition"
ATTRIBUTE = "attribute not permitted"
F_A = "def f_a : ℕ → ℕ → ℕ := fun _ _ => 2\n\n"


def _candidate(bench: Benchmark, problem: str, before: str = "", edit: tuple[str, str] = ("", "")) -> str:
    """The with-answer challenge proved (``nlinarith`` for miniF2F, ``simp`` for ProofNet), ``before``
    inserted right before the theorem and ``edit`` applied to the header."""
    text = LEAN_PROVER.challenge(bench.problems[problem], Track.WITH_ANSWER)
    hole = text.rindex("sorry")
    text = text[:hole] + ("nlinarith" if problem == MINIF2F else "simp") + text[hole + len("sorry") :]
    if edit[0]:
        assert edit[0] in text
        text = text.replace(edit[0], edit[1])
    at = text.index(f"theorem {problem}")
    return text[:at] + before + text[at:]


REFUSED: dict[str, tuple[str, str, tuple[str, str], str]] = {
    # name: (problem, text before the theorem, header edit, part of G2's reason)
    "auto-bound name": (AUTO_BOUND, F_A, NO, USED),
    "auto-bound name, private": (AUTO_BOUND, f"private {F_A}", NO, USED),
    "auto-bound name, escaped": (AUTO_BOUND, F_A.replace("f_a", "«f_a»"), NO, USED),
    "auto-bound name, structure": (AUTO_BOUND, "structure f_a where\n  x : ℕ\n\n", NO, USED),
    "auto-bound name, theorem": (AUTO_BOUND, "theorem f_a : True := trivial\n\n", NO, USED),
    "auto-bound name, mutual": (AUTO_BOUND, f"mutual\n{F_A}end\n\n", NO, USED),
    "auto-bound name, closed section": (AUTO_BOUND, f"section\n{F_A}end\n\n", NO, USED),
    "auto-bound name, opaque": (AUTO_BOUND, "opaque f_a : ℕ → ℕ → ℕ\n\n", NO, NOT_PERMITTED),
    "auto-bound name, instance": (AUTO_BOUND, "instance f_a : Inhabited ℕ := ⟨2⟩\n\n", NO, "an `instance`"),
    "to_additive names it": (AUTO_BOUND, "@[to_additive f_a] def zzMul : ℕ := 2\n\n", NO, ATTRIBUTE),
    "to_additive escaped": (AUTO_BOUND, "@[to_additive «f_a»] def zzMul : ℕ := 2\n\n", NO, ATTRIBUTE),
    "reassoc names it": (AUTO_BOUND, "@[reassoc f_a] theorem zz : True := trivial\n\n", NO, ATTRIBUTE),
    "mk_iff names it": (AUTO_BOUND, "@[mk_iff f_a] structure Zz : Prop where\n  h : True\n\n", NO, ATTRIBUTE),
    "simps": (AUTO_BOUND, "@[simps] def zz : ℕ × ℕ := (1, 2)\n\n", NO, ATTRIBUTE),
    "attribute command names it": (AUTO_BOUND, "def zz := 1\nattribute [to_additive f_a] zz\n\n", NO, NOT_PERMITTED),
    "alias": (AUTO_BOUND, "alias f_a := Nat.add\n\n", NO, NOT_PERMITTED),
    "alias of an iff": (AUTO_BOUND, "alias ⟨f_a, zz⟩ := Iff.rfl\n\n", NO, NOT_PERMITTED),
    "irreducible_def": (AUTO_BOUND, F_A.replace("def", "irreducible_def"), NO, "is a name the challenge uses"),
    "export a constructor": (AUTO_BOUND, "inductive Zz | f_a\nexport Zz (f_a)\n\n", NO, NOT_PERMITTED),
    "variable": (MINIF2F, "variable (zz : ℕ)\n", NO, NOT_PERMITTED),
    "variable ... in": (MINIF2F, "variable (zz : ℕ) in\n", NO, "a trailing `... in`"),
    "include ... in": (MINIF2F, "include zz in\n", NO, NOT_PERMITTED),
    "autoImplicit ... in": (MINIF2F, "set_option autoImplicit true in\n", NO, "option not allowed"),
    "section variable in the open section": (OPEN_SECTION, "variable [zz : Fact False]\n\n", NO, "still open at"),
    "local instance in the open section": (
        OPEN_SECTION, "attribute [local instance] Classical.propDecidable\n\n", NO, "is in force at the theorem"
    ),
    "end of the open section": (OPEN_SECTION, "end\n\nnoncomputable section\n\n", NO, "closes the challenge's own"),
    "abbrev I edited": (ABBREV, "", ("Icc 0 1", "Icc 0 2"), "differs from the challenge"),
    "abbrev I shadowed": (ABBREV, "private def I : Set ℝ := Icc 0 2\n\n", NO, "collides with a challenge declaration"),
    "helper escaping to the root from a namespace": (
        MINIF2F, "namespace Zz\nnoncomputable def _root_.zz_s (x : ℝ) : ℝ := x\nend Zz\n\n", NO, "namespace `Zz`"
    ),
}  # fmt: skip

BY_ELABORATION: dict[str, tuple[str, str, tuple[str, str]]] = {
    "helper in Real": (MINIF2F, "noncomputable def Real.zz (x : ℝ) : ℝ := x\n\n", NO),
    "helper in Rat": (MINIF2F, "abbrev Rat.zz := 1\n\n", NO),
    "helper in Nat, inductive": (MINIF2F, "inductive Nat.Zz | a\n\n", NO),
    "helper in an escaped Real": (MINIF2F, "def «Real».zz := 1\n\n", NO),
    "helper in namespace Real": (MINIF2F, "namespace Real\ntheorem zz : True := trivial\nend Real\n\n", NO),
    "helper in namespace Function": (MINIF2F, "namespace Function\ndef zz := 1\nend Function\n\n", NO),
    "helper in a nested Real": (MINIF2F, "namespace Zz.Real\ndef zz := 1\nend Zz.Real\n\n", NO),
    "helper in the theorem's namespace": (MINIF2F, f"def {MINIF2F}.zz := 1\n\n", NO),
    "helper in Set, opened by ProofNet": (ABBREV, "def Set.zz : Set ℝ := Icc 0 2\n\n", NO),
    "header open without Nat": (MINIF2F, "", (HEADER_OPEN, HEADER_OPEN.replace(" Nat", ""))),
    "header open reordered": (MINIF2F, "", (HEADER_OPEN, "open BigOperators Nat Real Topology Rat")),
    "header open plus Classical": (MINIF2F, "", (HEADER_OPEN, f"{HEADER_OPEN} Classical")),
    "header open hiding": (MINIF2F, "", (HEADER_OPEN, f"{HEADER_OPEN} hiding sqrt")),
    "header open scoped": (MINIF2F, "", (HEADER_OPEN, HEADER_OPEN.replace("open", "open scoped"))),
    "header namespace opened twice": (MINIF2F, "", (HEADER_OPEN, f"{HEADER_OPEN}\nopen Nat")),
    "open only, global": (MINIF2F, "open Real (sqrt)\n\n", NO),
    "open ... in the theorem": (MINIF2F, "open Nat in\n", NO),
    "open ... renaming ... in the theorem": (MINIF2F, "open Real renaming sqrt → s in\n", NO),
    "local notation redefined": (
        NOTATION, 'local notation "limsup" => fun u : ℕ → EReal => Filter.liminf u Filter.atTop\n\n', NO
    ),
    "open Classical in the open section": (OPEN_SECTION, "open Classical\n\n", NO),
}  # fmt: skip

HARMLESS: dict[str, tuple[str, str, tuple[str, str]]] = {
    "where with a root-looking name": (MINIF2F, "def zz := zzz 1\nwhere _root_.Real.zzz (n : ℕ) := n\n\n", NO),
    "let rec with a dotted name": (MINIF2F, "def zz : ℕ :=\n  let rec Real.zzz (n : ℕ) : ℕ := n\n  1\n\n", NO),
    "where named like an auto-bound name": (AUTO_BOUND, "def zz : ℕ := 1\nwhere f_a : ℕ := 2\n\n", NO),
    "one escaped part with a dot": (MINIF2F, "def «Real.zz» := 1\n\n", NO),
    "section Real": (MINIF2F, "section Real\ndef zz := 1\nend Real\n\n", NO),
    "header open split in order": (MINIF2F, "", (HEADER_OPEN, "open BigOperators Real\nopen Nat Topology Rat")),
    "closed section with an open before the header's": (
        MINIF2F, "", (HEADER_OPEN, f"section\nopen Classical\nend\n{HEADER_OPEN}")
    ),
    "look-alike of an auto-bound name": (AUTO_BOUND, F_A.replace("f_a", "f_ₐ"), NO),
    "structure whose constructor is named like it": (AUTO_BOUND, "structure Zz where\n  f_a ::\n  x : ℕ\n\n", NO),
    "pp option before the theorem": (MINIF2F, "set_option pp.all true in\n", NO),
    "heartbeats before the theorem": (MINIF2F, "set_option maxHeartbeats 400000 in\n", NO),
    "closed section with a variable": (OPEN_SECTION, "section\nvariable (zz : ℕ)\nend\n\n", NO),
    "no heartbeat option": (MINIF2F, "", ("set_option maxHeartbeats 0\n", "")),
}  # fmt: skip


def _verdict(minif2f: Benchmark, proofnet: Benchmark, problem: str, before: str, edit: tuple[str, str]) -> Verdict:
    bench = minif2f if problem == MINIF2F else proofnet
    return lean_text_verdict(bench, problem, _candidate(bench, problem, before, edit))


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused(minif2f: Benchmark, proofnet: Benchmark, case: str) -> None:
    *entry, reason = REFUSED[case]
    verdict = _verdict(minif2f, proofnet, *entry)
    assert verdict.status == "rejected" and not verdict.needs_full_profile, failures(verdict)
    assert reason in failures(verdict)["G2"], failures(verdict)


@pytest.mark.parametrize("case", sorted(BY_ELABORATION))
def test_left_to_g6(minif2f: Benchmark, proofnet: Benchmark, case: str) -> None:
    verdict = _verdict(minif2f, proofnet, *BY_ELABORATION[case])
    assert verdict.status == "rejected" and verdict.needs_full_profile, failures(verdict)


@pytest.mark.parametrize("case", sorted(HARMLESS))
def test_harmless(minif2f: Benchmark, proofnet: Benchmark, case: str) -> None:
    verdict = _verdict(minif2f, proofnet, *HARMLESS[case])
    assert verdict.status == "accepted", failures(verdict)


def test_the_auto_bound_name_is_unbound_in_the_statement(proofnet: Benchmark) -> None:
    """The premise of the auto-bound cases: ``f_a`` has no binder in the statement, and the benchmark keeps
    Lean's default ``autoImplicit`` (no ``lean_options`` of its own)."""
    statement = proofnet.problems[AUTO_BOUND].formal_statement
    assert "(hf : f_a = λ n m : ℕ =>" in statement and "f_a :" not in statement
    assert dict(proofnet.problems[AUTO_BOUND].format.lean_options) == {}
