"""Red team 12 (Lean): no-answer values that reach a library choice operator by dot notation, or through
a library definition no list named.

* Generalized field notation. Lean looks ``f.invFun`` up as ``Function.invFun f`` when ``f`` is a
  function (src/Lean/Elab/App.lean, ``resolveLValLoop``: the namespace of the receiver's type head, and
  ``Function`` for a pi type), ``q.out`` as ``Quotient.out q``, ``h.natEmbedding`` as
  ``Set.Infinite.natEmbedding _ h``. Red team 11 refused ``Function.invFunOn``, ``Function.extend``...
  by full name, but only the extremal operators' last parts were read as fields, so
  ``(fun x : ℝ => x ^ 3).invFun 8`` ("some ``x`` with ``x ^ 3 = 8``"), ``f.invFunOn s b``,
  ``f.extend g e b`` and ``f.partialInv b`` passed the text profile. Every choice operator's last part is
  now a field G2 refuses (but ``choose``/``some``, whose receiver :mod:`_answer_fields` judges, and
  ``find``/``nth``/``ofNat``, which no field reaches).
* Choice inside a library definition, by names no list held: Mathlib's ``Function.sometimes f`` is
  ``f (Classical.choice h)`` (Mathlib/Logic/Function/Basic.lean), so with ``f := Subtype.val`` on
  ``{x // P x}`` it is "an ``x`` with ``P x``" and ``Function.sometimes_eq`` unfolds it;
  ``Multiset.toList`` is ``Quot.out`` (an order picked by choice), so ``s.toList.headI`` is an element of
  a finite set the question defines; ``Finset.sort`` then ``head`` is its least (a ``Finset.min'``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Track
from tests.helpers import (
    assert_linear_work,
    failures,
    lean_filled,
    lean_text_verdict,
    one_record_benchmark,
    text_gates_in_process,
)

INTEGRAL = "putnam_1980_a3"
"""Asks for a real number (``∫ ... = putnam_1980_a3_solution``)."""
FUNCTION = "putnam_2006_b6"
CHOICE = "a choice operator picks a value"


def _no_answer(bench: Benchmark, problem: str, value: str, proof: str = "by\n  simp") -> tuple[str, dict[str, str]]:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, proof=proof, value=value)
    verdict = lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER)
    return verdict.status, failures(verdict)


FIELDS = {
    "a function's invFun": "(fun x : ℝ => x ^ 3).invFun 8",
    "a function's invFun through the pipeline": "(fun x : ℝ => x ^ 3) |>.invFun 8",
    "a function's invFunOn": "(fun x : ℝ => x ^ 2).invFunOn {x : ℝ | 0 < x} 4",
    "a function's extend": "(fun x : {x : ℝ // 0 < x} => ()).extend (fun x => x.1) (fun _ => 0) ()",
    "a function's partialInv": "((fun x : ℝ => (some x : Option ℝ)).partialInv (some 1)).getD 0",
    "a function's sometimes": "(fun x : {x : ℝ // 0 < x} => x.val).sometimes",
    "a quotient's out": "(Quotient.mk (Setoid.ker (fun x : ℝ => x ^ 2)) 1).out",
    "an infinite set's natEmbedding": "((Set.Ioi_infinite (0 : ℝ)).natEmbedding 0).1",
    "a finset's list": "(({1, 2} : Finset ℝ).toList).headI",
    "a finset's sorted list": "(({1, 2} : Finset ℝ).sort (· ≤ ·)).headI",
    # the dual of the refused `s.min`
    "a finset's max": "(((Finset.range 100).filter (fun n => 3 < n)).max).getD 0",
    "a finset's sup": "((((Finset.range 100).filter (fun n => 3 < n)).sup id : ℕ) : ℝ)",
}


NAMES = {
    "Function.sometimes": "Function.sometimes (fun x : {x : ℝ // 0 < x} => x.val)",
    "sometimes under open ... in": "open Function in sometimes (fun x : {x : ℝ // 0 < x} => x.val)",
    "Finset.toList": "(Finset.toList ({1, 2} : Finset ℝ)).headI",
    "Multiset.toList": "(Multiset.toList ({1, 2} : Multiset ℝ)).headI",
    "Finset.sort": "(Finset.sort (· ≤ ·) ({1, 2} : Finset ℝ)).headI",
    "Finset.max": "((Finset.max (Finset.range 3)).getD 0 : ℝ)",
    "Finset.inf": "((Finset.inf (Finset.range 100) id : ℕ) : ℝ)",
    "List.maximum": "(((List.range 100).filter (fun n => 3 < n)).maximum.getD 0 : ℝ)",
}


@pytest.mark.parametrize("case", sorted({**FIELDS, **NAMES}))
def test_choice_by_dot_notation_or_inside_library_definitions_is_refused(
    lean_putnambench: Benchmark, case: str
) -> None:
    status, why = _no_answer(lean_putnambench, INTEGRAL, {**FIELDS, **NAMES}[case])
    assert status == "rejected", why
    assert CHOICE in why.get("G2", ""), why


HONEST = {
    "the official value": (INTEGRAL, "Real.pi / 4"),
    "a field that is no choice operator": (INTEGRAL, "(Real.pi / 4).toNNReal"),
    "an equivalence's inverse by its full name": (INTEGRAL, "Equiv.invFun (Equiv.refl ℝ) (Real.pi / 4)"),
    "an option's list": (INTEGRAL, "(Option.toList (some (Real.pi / 4))).headI"),
    "a binary min": (INTEGRAL, "min (Real.pi / 4) 1"),
    "a binary max": (INTEGRAL, "max (Real.pi / 4) 0"),
    "Max.max": (INTEGRAL, "Max.max (Real.pi / 4) 0"),
    "a lattice sup": (INTEGRAL, "(Real.pi / 4) ⊔ 0"),
    "Nat.find's namesake field on a list": (INTEGRAL, "(([1, 2] : List ℝ).find? (fun x => 0 < x)).getD 0"),
    "a binomial field on the answer's argument": (FUNCTION, "fun k => ((k.choose 2 : ℕ) : ℝ)"),
    "a primed name that is no choice operator's (G2 reads text only)": (INTEGRAL, "(Real.pi / 4) + (Real.exp' 0 : ℝ)"),
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_honest_values_with_fields_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    status, why = _no_answer(lean_putnambench, problem, value)
    assert status == "accepted", why


PRIMED = {
    "Classical.inhabited_of_nonempty'": (
        "(Classical.inhabited_of_nonempty' (h := ⟨⟨1, one_pos⟩⟩) : Inhabited {x : ℝ // 0 < x}).default.1"
    ),
    "a primed field": "(fun x : ℝ => x ^ 3).invFun' 8",
}
"""Mathlib names a variant of a definition with other arguments by a prime: the variant of a choice
operator is one too (``Classical.inhabited_of_nonempty'`` takes its ``Nonempty`` as an instance)."""


@pytest.mark.parametrize("case", sorted(PRIMED))
def test_a_primed_variant_of_a_choice_operator_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    status, why = _no_answer(lean_putnambench, INTEGRAL, PRIMED[case])
    assert status == "rejected", why
    assert CHOICE in why.get("G2", ""), why


CHAINS = {
    "a proof's choose, then identity fields": (INTEGRAL, "(⟨1, one_pos⟩ : ∃ x : ℝ, 0 < x).choose.exp.log"),
    "a proof's choose through the pipeline, then a field": (
        INTEGRAL,
        "(⟨1, one_pos⟩ : ∃ x : ℝ, 0 < x) |>.choose.exp.log",
    ),
    "a nonempty set's some, then a field": (INTEGRAL, "(⟨1, one_pos⟩ : {x : ℝ | 0 < x}.Nonempty).some.exp.log"),
    "a dependent if's choose, then a field": (INTEGRAL, "if h : ∃ x : ℝ, 0 < x then h.choose.exp.log else 0"),
    "a finset's min, then getD": (INTEGRAL, "(((Finset.range 3)).min.getD 0 : ℝ)"),
    "a set's sInf, then a field": (INTEGRAL, "({x : ℝ | 0 < x}).sInf.exp.log"),
    "a library max', then a field": (INTEGRAL, "(Finset.max' ({1, 2} : Finset ℝ) ⟨1, by simp⟩).exp.log"),
    "a function's choose, composed": (
        FUNCTION,
        "fun k => ((⟨fun _ => 0, trivial⟩ : ∃ f : ℕ → ℝ, True).choose.comp id) k",
    ),
    "a choose on a theorem field of the answer's argument": (
        FUNCTION,
        "fun k => ((k.exists_infinite_primes.choose : ℕ) : ℝ)",
    ),
}
"""``e.f.g`` is ``((e).f).g``: every field rule read only a name's last part, so a choice field followed by
any other field (``.exp.log`` is the identity on ``ℝ``, ``.comp id`` on functions) passed the text profile."""


@pytest.mark.parametrize("case", sorted(CHAINS))
def test_a_choice_field_inside_a_field_chain_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = CHAINS[case]
    status, why = _no_answer(lean_putnambench, problem, value)
    assert status == "rejected", why
    assert "choice operator" in why.get("G2", ""), why


HONEST_CHAINS = {
    "a chain of number fields": (INTEGRAL, "(Real.pi / 4).exp.log"),
    "a binomial on the answer's argument": (FUNCTION, "fun k => ((k.choose 2 : ℕ) : ℝ).exp.log"),
    "the official binomial": (FUNCTION, "fun n => ((n - 1).choose (n / 2) : ℝ)"),
    "Nat.choose written in full, then a field": (FUNCTION, "fun n => ((Nat.choose n 2).succ : ℝ)"),
    "an option's value, then a field": (INTEGRAL, "((some (Real.pi / 4)).getD 0).exp.log"),
}


@pytest.mark.parametrize("case", sorted(HONEST_CHAINS))
def test_field_chains_without_choice_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST_CHAINS[case]
    status, why = _no_answer(lean_putnambench, problem, value)
    assert status == "accepted", why


_HAVE = "have h : ∃ x : ℝ, 0 < x := ⟨1, one_pos⟩"
TACTICS = {
    "behind try": f"by\n  {_HAVE}\n  try choose x hx using h; exact x",
    "behind first |": f"by\n  {_HAVE}\n  first | choose x hx using h; exact x | exact 0",
    "in a tactic paren": f"by\n  {_HAVE}\n  (choose x hx using h; exact x)",
    "behind all_goals": f"by\n  {_HAVE}\n  all_goals choose x hx using h; exact x",
    "behind on_goal": f"by\n  {_HAVE}\n  on_goal 1 => choose x hx using h; exact x",
    "choose! behind try": f"by\n  {_HAVE}\n  try choose! x hx using h; exact x",
    "inhabit behind try": (
        "by\n  have h : Nonempty {x : ℝ // 0 < x} := ⟨⟨1, one_pos⟩⟩\n  try inhabit {x : ℝ // 0 < x}; exact default.1"
    ),
    "in a by block inside a term": f"(by {_HAVE}; try choose x hx using h; exact x : ℝ)",
}
"""Mathlib's ``choose`` tactic (``Classical.choose`` unwritten) was refused only at a line start or after
``by``, ``;``, ``<;>``, ``·``: a tactic combinator before it hid it."""


@pytest.mark.parametrize("case", sorted(TACTICS))
def test_the_choose_tactic_behind_a_combinator_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    status, why = _no_answer(lean_putnambench, INTEGRAL, TACTICS[case])
    assert status == "rejected", why
    assert CHOICE in why.get("G2", ""), why


def test_a_binomial_field_in_a_tactic_block_stays_accepted(lean_putnambench: Benchmark) -> None:
    status, why = _no_answer(lean_putnambench, FUNCTION, "fun k => by\n  exact ((k.choose 2 : ℕ) : ℝ)")
    assert status == "accepted", why


_PROOF = "(⟨fun _ => 0, trivial⟩ : ∃ f : ℕ → ℝ, True)"
SHADOWED = {
    "let": f"fun k => let k := {_PROOF}\n  k.choose 3",
    "have": f"fun k => have k := {_PROOF}\n  k.choose 3",
    "an inner fun": f"fun k => (fun (k : ∃ f : ℕ → ℝ, True) => k.choose 3) {_PROOF}",
    "an untyped inner fun": f"fun k => (fun k => k.choose 3) {_PROOF}",
    "a match alternative": f"fun k => match {_PROOF} with\n  | k => k.choose 3",
    "a tactic's obtain": f"fun k => by\n  obtain k := {_PROOF}\n  exact k.choose 3",
}
"""The answer's parameter ``k`` is a number, and ``k.choose 3`` its binomial, only where nothing binds
``k`` again: a ``let`` (or any binder) naming a proof ``k`` made it ``Exists.choose``."""


@pytest.mark.parametrize("case", sorted(SHADOWED))
def test_a_parameter_bound_again_to_a_proof_is_no_number(lean_putnambench: Benchmark, case: str) -> None:
    status, why = _no_answer(lean_putnambench, FUNCTION, SHADOWED[case])
    assert status == "rejected", why
    assert "choice operator" in why.get("G2", ""), why


HONEST_BINDERS = {
    "a binomial beside a finite sum": "fun k => ∑ i ∈ Finset.range k, ((k.choose i : ℕ) : ℝ)",
    "a binomial of the sum's index": "fun k => ∑ i ∈ Finset.range k, ((i.choose 2 : ℕ) : ℝ)",
    "a let of another name": "fun k => let m := k + 1\n  ((k.choose m : ℕ) : ℝ)",
}


@pytest.mark.parametrize("case", sorted(HONEST_BINDERS))
def test_binomials_of_names_never_rebound_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    status, why = _no_answer(lean_putnambench, FUNCTION, HONEST_BINDERS[case])
    assert status == "accepted", why


SEARCHED = {
    "exact?": "by\n  exact?",
    "apply? behind try": "by\n  try apply?",
    "exact? in a term's by": "(by exact? : ℝ)",
    "exact?% as a term": "(exact?% : ℝ)",
    "hint": "by\n  hint",
}
"""Library search indexes every constant, the candidate's module's own included: an answer found by it
can be a helper the answer's text never names (the rule against naming the candidate's constants is
textual)."""


@pytest.mark.parametrize("case", sorted(SEARCHED))
def test_an_answer_searched_for_in_the_environment_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    status, why = _no_answer(lean_putnambench, INTEGRAL, SEARCHED[case])
    assert status == "rejected", why
    assert "searched for in the environment" in why.get("G2", ""), why


def test_library_search_in_the_theorems_proof_stays_accepted(lean_putnambench: Benchmark) -> None:
    """Only the answer's value: a proof that closes its goal with ``exact?`` is a proof (G4 and G5 see
    any ``sorry`` that ``apply?`` leaves)."""
    status, why = _no_answer(lean_putnambench, INTEGRAL, "Real.pi / 4", proof="by\n  exact?")
    assert status == "accepted", why


EXPORTING = (
    "import Mathlib\n\nexport Classical (epsilon)\n\n"
    "abbrev toy_choice_solution : ℕ := sorry\n-- 1\n\n"
    "theorem toy_choice : toy_choice_solution = 1 := by\n  sorry\n"
)
"""A client's record (any JSONL of statements is a benchmark) that exports a choice operator: ``epsilon``
is then ``Classical.epsilon`` at the solution, as under ``open Classical``."""


def test_a_choice_name_the_statement_exports_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    bench = one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_choice", EXPORTING)
    refused = lean_filled(bench, "toy_choice", Track.NO_ANSWER, proof="by\n  rfl", value="epsilon (fun n : ℕ => n = 1)")
    verdict = lean_text_verdict(bench, "toy_choice", refused, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert CHOICE in failures(verdict).get("G2", ""), failures(verdict)
    honest = lean_filled(bench, "toy_choice", Track.NO_ANSWER, proof="by\n  rfl", value="1")
    verdict = lean_text_verdict(bench, "toy_choice", honest, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


IN_NAMESPACE = (
    "import Mathlib\n\nnamespace Classical\n\n"
    "abbrev toy_choice_solution : ℕ := sorry\n-- 1\n\nend Classical\n\n"
    "theorem toy_choice : Classical.toy_choice_solution = 1 := by\n  sorry\n"
)
"""A client's record that declares its solution inside ``namespace Classical``: there ``epsilon`` is
``Classical.epsilon``, as Lean resolves a name in the enclosing namespaces first."""


def test_a_choice_name_of_the_solutions_own_namespace_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    bench = one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_choice", IN_NAMESPACE)
    refused = lean_filled(bench, "toy_choice", Track.NO_ANSWER, proof="by\n  rfl", value="epsilon (fun n : ℕ => n = 1)")
    verdict = lean_text_verdict(bench, "toy_choice", refused, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert CHOICE in failures(verdict).get("G2", ""), failures(verdict)
    honest = lean_filled(bench, "toy_choice", Track.NO_ANSWER, proof="by\n  rfl", value="1")
    verdict = lean_text_verdict(bench, "toy_choice", honest, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)


PRIME_ANSWER = "putnam_2015_a2"
"""Asks for a natural number (``putnam_2015_a2_solution : ℕ``)."""
LEADING_DOT = {
    "Nat.find": "(.find (⟨181, rfl⟩ : ∃ n : ℕ, n = 181) : ℕ)",
    "Nat.nth": "(.nth (fun n => 3 < n) 0 : ℕ)",
    "Nat.Subtype.ofNat": "(.Subtype.ofNat {n : ℕ | 3 < n} 0 : ℕ)",
    "Nat.find after <|": "id (α := ℕ) <| .find (⟨181, rfl⟩ : ∃ n : ℕ, n = 181)",
}
"""``.f`` with nothing before the dot is ``T.f`` for the expected type ``T`` (Lean's anonymous-namespace
dot notation): with ``T = ℕ``, ``.find h`` is ``Nat.find h``, which no name in the text spells."""


@pytest.mark.parametrize("case", sorted(LEADING_DOT))
def test_a_choice_operator_reached_by_a_leading_dot_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    status, why = _no_answer(lean_putnambench, PRIME_ANSWER, LEADING_DOT[case])
    assert status == "rejected", why
    assert CHOICE in why.get("G2", ""), why


@pytest.mark.parametrize("value", ["(.succ 180 : ℕ)", "(180 : ℕ).succ", "181"])
def test_a_leading_dot_to_data_stays_accepted(lean_putnambench: Benchmark, value: str) -> None:
    status, why = _no_answer(lean_putnambench, PRIME_ANSWER, value)
    assert status == "accepted", why


LONG = {
    "open ... in": (lambda n: "open Classical in " * n + "1 + " * (2 * n) + "0", 30_000),
    "distinct open ... in": (lambda n: "".join(f"open N{i} in " for i in range(n)) + "a.b.c.d + " * n + "0", 20_000),
    "a name of many parts": (lambda n: "(x)." + ".".join(["zz"] * (n + 1)), 150_000),
}
"""A no-answer value that made G2 quadratic, with the size that showed it: every ``open`` copied the rest
of the value to find its ``in`` (and so did the ``... in`` check of every command), every name was tried in
every open namespace, every prefix of a name was joined: each case hit the 30 s bound (an ``error``, never
a pass, but a text gate must stay linear). Each now gets its verdict in a few seconds."""


@pytest.mark.parametrize("case", sorted(LONG))
def test_long_no_answer_values_are_read_in_linear_time(lean_putnambench: Benchmark, case: str) -> None:
    value, size = LONG[case]
    assert_linear_work(lambda n: _no_answer(lean_putnambench, INTEGRAL, value(n)), 100)
    with text_gates_in_process():
        status, why = _no_answer(lean_putnambench, INTEGRAL, value(size))
    assert status in ("accepted", "rejected"), why
