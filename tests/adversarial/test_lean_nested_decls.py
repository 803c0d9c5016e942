"""Declarations made inside a Lean proof (`where`, `let rec`) carry attributes past G2's helper rules.

`where` and `let rec` declarations take `@[...]` like any declaration, and G2 compares only the
theorem's statement, not its proof. G3 must refuse every attribute on them except the harmless ones of
``policy.helper_attributes`` (``@[simp]``, the declaration's own reducibility, compiler hints: they reach
only that declaration, which the statement cannot name), and keep refusing the commands that bring
instances or attributes into a proof.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.lean import POLICY, LeanProver
from putnam_solver.core.provers.lean.checks import check_forbidden
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.kits.lean.policy_text import describe
from tests.helpers import SANDBOX_AVAILABLE
from tests.toylean.build import BENCHMARK, ToyLean

STATEMENT = "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := "


def _where(attribute: str) -> str:
    return f"{STATEMENT}by\n  exact zz_h\nwhere\n  {attribute} zz_h : And q p := And.intro h.right h.left\n"


def _let_rec(attribute: str) -> str:
    return f"{STATEMENT}by\n  let rec {attribute} zz_h : Nat := 0\n  exact And.intro h.right h.left\n"


REFUSED_ATTRIBUTES = (
    "@[init]",
    "@[default_instance]",
    "@[coe]",
    "@[implemented_by zz_impl]",
    '@[extern "zz_c"]',
    "@[csimp]",
    "@[instance]",
    "@[local instance 100]",
    "@[scoped instance]",
    "@[macro_inline]",
    "@[reducible, instance]",
    "@[«instance»]",
    "@[export zz_sym]",
    "@[to_additive]",
    "@[simps]",
    "@[simp, instance]",
    "@[simp, default_instance]",
    "@[match_pattern]",
    "@[term_elab zz]",
    "@[simp",
)
"""Attributes that run code, replace compiled code, change elaboration or generate declarations."""

ALLOWED_ATTRIBUTES = (
    "@[simp]",
    "@[simp ←]",
    "@[simp high]",
    "@[reducible]",
    "@[irreducible]",
    "@[inline]",
    "@[specialize]",
    "@[simp, noinline]",
    "",
)
"""On a local declaration they can only help the proof; no attribute at all is the common case."""


@pytest.mark.parametrize("attribute", REFUSED_ATTRIBUTES)
@pytest.mark.parametrize("form", [_where, _let_rec], ids=["where", "let rec"])
def test_attributes_on_declarations_inside_proofs_are_refused(form, attribute: str) -> None:  # type: ignore[no-untyped-def]
    violations = check_forbidden(form(attribute))
    assert any(v.rule.startswith("attribute:") for v in violations), (attribute, violations)


@pytest.mark.parametrize("attribute", ALLOWED_ATTRIBUTES)
@pytest.mark.parametrize("form", [_where, _let_rec], ids=["where", "let rec"])
def test_simp_and_plain_local_declarations_stay_allowed(form, attribute: str) -> None:  # type: ignore[no-untyped-def]
    assert check_forbidden(form(attribute)) == []


@pytest.mark.parametrize(
    "proof",
    [
        "by\n  attribute [local instance] zz in exact And.intro h.right h.left",
        "by\n  attribute [-simp] zz in simp",
        "by\n  deriving instance Repr for Nat\n  simp",
        "by\n  local instance zz : Inhabited Nat := ⟨0⟩\n  simp",
        "by\n  exact (show And q p from by\n    let rec @[init] zz : Nat := 0\n    exact And.intro h.right h.left)",
    ],
)
def test_commands_bringing_instances_or_attributes_into_a_proof_are_refused(proof: str) -> None:
    assert check_forbidden(STATEMENT + proof + "\n")


def test_the_policy_gives_the_reason() -> None:
    rule = POLICY.rule("@[attribute]")
    assert "init" in rule.reason and "default_instance" in rule.reason and "simp" in rule.reason
    assert "`@[attribute]`" in describe(POLICY)


WHERE_REDUCIBLE = (
    "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := And.intro h.right h.left\n"
    "where\n  @[reducible] zz_h (x : Prop) : Prop := x\n"
)
"""A `where` declaration with an attribute that Lean compiles as part of the theorem: its own
reducibility, which the statement, elaborated before it, cannot see."""


def test_lean_compiles_an_attribute_on_a_where_declaration_and_the_gates_accept_it(
    toy_lean: ToyLean, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not SANDBOX_AVAILABLE:
        pytest.skip("bubblewrap unavailable")
    for name, value in toy_lean.env.items():
        monkeypatch.setenv(name, value)
    bench = load_benchmark(BENCHMARK)
    options = VerifyOptions(Profile.FULL, keep_going=True)
    verdict = run_gates(
        LeanProver(), bench, bench.problems["toy_and_comm"], WHERE_REDUCIBLE.encode(), Track.WITH_ANSWER, options
    )
    found = {g.id: g for g in verdict.gates}
    assert found["G4"].passed and found["G5"].passed, verdict.first_problem()
    assert found["G2"].passed and found["G3"].passed, verdict.first_problem()
