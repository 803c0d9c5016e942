"""Round 20 (Rocq): loading the primitive types' libraries, and using what they state.

G6 refused every proof that merely loaded ``Floats``, ``Uint63``, ``Sint63`` or ``PArray``: coqchk lists
every axiom of the environment, and those libraries state what each kernel primitive computes as
``Axiom``s (``FloatAxioms.add_spec``, ``Uint63.of_to_Z``, ``PArray.get_set_same``...), on no allow-list.
That was no deliberate refusal of a kernel bug: Coq 8.16.1's known critical bugs with primitives are in
the VM (rocq#19402) and native machine (rocq#17871), which the harness's coqc leaves off and coqchk lacks,
or need modules or ``Primitive`` declarations the text gates refuse (rocq#18503, rocq#12439); the two
specifications that once proved ``False`` (``leb``, rocq#12483; ``classify``, rocq#16096) are fixed in
8.16.1 (the second's exploit fails here, below). G6 now lets a loaded library's specifications of primitives
sit in the environment (``toolchain.PRIMITIVE_SPECIFICATIONS``), and G5's ``Print Assumptions`` of the
theorem (its kernel terms) refuses any *use* of them, as before: loading is allowed, computing with the
primitives by the kernel's own conversion is allowed, resting a proof on a specification axiom is not,
and the VM bug stays refused with the libraries loaded.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.toolchain import primitive_specification
from putnam_solver.core.verify import GateStatus, Verdict
from tests.adversarial.test_rocq_redteam11 import INT, VM_FALSE
from tests.adversarial.test_rocq_redteam14 import vacuous, verdict
from tests.helpers import failures, needs_coq

LOADS = {
    "Floats": "Require Import Coq.Floats.Floats.",
    "Uint63": "Require Import Coq.Numbers.Cyclic.Int63.Uint63.",
    "Sint63": "Require Coq.Numbers.Cyclic.Int63.Sint63.",
    "PArray": "Require Import Coq.Array.PArray.",
    "PrimFloat": "Require Coq.Floats.PrimFloat.",
}
BOTH = f"{LOADS['Floats']}\n{LOADS['Uint63']}"


def loaded(load: str, in_proof: str = "", helper: str = "") -> Verdict:
    """The published proof of the vacuous ``putnam_2013_b2`` (answer 3) with ``load`` first."""
    return verdict(f"{load}\n{helper}{vacuous('3', in_proof)}")


@needs_coq
@pytest.mark.parametrize("load", LOADS.values(), ids=LOADS.keys())
def test_a_proof_that_only_loads_a_primitive_library_is_accepted(load: str) -> None:
    v = loaded(load)
    assert v.status == "accepted", failures(v)


COMPUTED = (
    f"Lemma zz_int : {INT}.eqb ({INT}.add 20%uint63 22%uint63) 42%uint63 = true.\nProof. reflexivity. Qed.\n"
    "Lemma zz_float : Coq.Floats.PrimFloat.eqb (Coq.Floats.PrimFloat.add 1%float 1%float) 2%float = true.\n"
    "Proof. reflexivity. Qed.\n"
)


@needs_coq
def test_a_proof_that_computes_with_primitives_by_conversion_is_accepted() -> None:
    """The primitives themselves are trusted (the kernel computes them): a helper the theorem uses, proved
    by ``reflexivity`` (the kernel's conversion, as coqchk's) over integers and floats, is no axiom."""
    v = loaded(BOTH, "pose proof zz_int as zz_a. pose proof zz_float as zz_b. clear zz_a zz_b.", COMPUTED)
    assert v.status == "accepted", failures(v)


SPECIFICATIONS = {
    "float": (LOADS["Floats"], "Coq.Floats.FloatAxioms.Prim2SF_valid", "FloatAxioms.Prim2SF_valid"),
    "Uint63": (LOADS["Uint63"], "Coq.Numbers.Cyclic.Int63.Uint63.of_to_Z", "Uint63.of_to_Z"),
    "Sint63": (LOADS["Sint63"], "Coq.Numbers.Cyclic.Int63.Sint63.div_spec", "Sint63.div_spec"),
    "PArray": (LOADS["PArray"], "Coq.Array.PArray.get_set_same", "PArray.get_set_same"),
}


@needs_coq
@pytest.mark.parametrize(("load", "axiom", "printed"), SPECIFICATIONS.values(), ids=SPECIFICATIONS.keys())
def test_a_proof_resting_on_a_primitive_specification_is_refused_by_g5(load: str, axiom: str, printed: str) -> None:
    v = loaded(load, f"pose proof @{axiom} as zz_e.")
    assert v.status != "accepted"
    assert f"`{printed}` is not on the allow-list" in failures(v)["G5"], failures(v)
    assert primitive_specification(axiom)


@needs_coq
def test_the_vm_bug_stays_refused_with_the_primitive_libraries_loaded() -> None:
    """rocq#19402 (``addmuldiv`` in the VM): ``False`` under plain coqc, refused by the compile here."""
    helper = VM_FALSE.replace(
        "have := zz_lazy. by rewrite zz_vm.", "pose proof zz_lazy as zz_h. rewrite zz_vm in zz_h. discriminate."
    )
    v = loaded(BOTH, "exfalso; exact zz_boom.", helper)
    assert v.status != "accepted"
    assert failures(v)["G4"], failures(v)


HISTORIC = {"classify (rocq#16096)": "Require Import Floats.\nGoal False.\nnow generalize (classify_spec 0).\nQed.\n"}
"""The published exploit of a float specification that proved ``False`` up to Coq 8.15.1."""


@needs_coq
@pytest.mark.parametrize("exploit", HISTORIC.values(), ids=HISTORIC.keys())
def test_the_historic_float_specification_exploits_fail_on_this_coq(exploit: str, tmp_path: Path) -> None:
    """Why loading the specifications is no risk on Coq 8.16.1: the known ones are consistent here."""
    (tmp_path / "E.v").write_text(exploit)
    run = subprocess.run(["coqc", "-q", "E.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode != 0, run.stdout


def test_only_library_specifications_of_primitives_are_tolerated_in_the_environment() -> None:
    for name in ("Coq.Floats.FloatAxioms.add_spec", "Coq.Numbers.Cyclic.Int63.Uint63.lsl_spec"):
        assert primitive_specification(name)
    for name in (
        "Coq.Logic.Classical_Prop.classic",  # allowed, not a specification
        "Coq.Array.PArray.make",  # a primitive, allowed by name
        "Putnam.Candidate.zz_spec",
        "Coq.Floats.FloatAxiomsX.add_spec",
        "Coq.Floats.FloatAxioms.Sub.add_spec",
        "Coq.Init.Logic.False_spec",
    ):
        assert not primitive_specification(name), name
    assert GateStatus.PASSED.value == "passed"
