"""A false rejection the slow mutation sweep reported (red team 19), round 31: its cause was the sweep, not G3.

``test_no_mutant_of_a_published_proof_is_misjudged[putnam-fix-jsonl__putnam_2008_b2.lean]`` put the valid
``open Real in skip`` (``open Classical in skip``, ``set_option maxHeartbeats 400000 in skip``) at its
``tactic_block`` site and G3 refused the file at ``(fa := (0 : ℝ))``. That site lay inside a term: the line
before it and the line after it are arguments of one application, one per line at one column::

      have h :=
        intervalIntegral.integral_eq_sub_of_hasDerivAt_of_tendsto
          (a := (0 : ℝ)) (b := x) (f := G (n + 1)) (f' := G n)
          open Real in skip                  <- the inserted line
          (fa := (0 : ℝ)) (fb := G (n + 1) x) hx

Lean ends the application at ``open`` (a leading term parser below ``maxPrec``, no argument), the tactic
block at its column check, and the file does not compile; G3 reads ``skip (fa := (0 : ℝ))`` as the tactic
``skip`` with a configuration item whose value is a term, and refuses it, which fails closed on a file that
is no proof. The sweep's site finder took any line at the column of the line before it for a tactic's place;
it now wants one line of that run to follow a line that opens tactics (``by``, an arm's ``=>``, a ``·``
bullet) (``tests/lean_mutations._in_tactic_block``). Five other sites of the corpus were arguments or
continued terms too (``putnam_1985_b1``, ``putnam_1989_b3``, ``putnam_1991_a6``, ``putnam_2011_a3``,
``putnam_1981_b1``); those mutants had passed only because their insertions happened to be no forbidden text.

What G3 does with ``open ... in`` and ``set_option ... in`` at a real tactic place was right and is pinned
here: the combinator takes the next tactic (``open Real in tac``, ``set_option o v in tac``), so a named
argument of a later term is no configuration (honest, accepted), and a configuration item of the tactic it
prefixes is read as one (attacks, refused): ``decide (config := ⟨false, true, true, false⟩)`` switches on
``native`` without naming it (red team 24), ``noncomm_ring (maxSteps := zzRead)`` runs a name (red team 28).
One case of each class runs in CI; the others are slow.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.helpers import failures, lean_text_verdict, sampled
from tests.lean_mutations import CORPUS, accepted_files, sites

FILE = "lean/putnam-fix-jsonl__putnam_2008_b2.lean"
PID = "putnam_2008_b2"
HAVE = "      have h :=\n        intervalIntegral.integral_eq_sub_of_hasDerivAt_of_tendsto\n"
"""The tactic whose term holds the named arguments ``(a := ...)`` .. ``(fb := ...)``, at a real tactic place."""


def _before_have(line: str) -> str:
    """The published proof with ``line`` (indented as the ``have``) as a tactic right before it."""
    text = (CORPUS / FILE).read_text(encoding="utf-8")
    assert text.count(HAVE) == 1
    return text.replace(HAVE, "      " + line.replace("\n", "\n      ") + "\n" + HAVE)


def _failures(bench: Benchmark, line: str) -> dict[str, str]:
    verdict = lean_text_verdict(bench, PID, _before_have(line))
    return {} if verdict.status == "accepted" else failures(verdict) or {"verdict": verdict.status}


HONEST = {
    "open in skip": "open Real in skip",
    "open Classical in skip": "open Classical in skip",
    "set_option in skip": "set_option maxHeartbeats 400000 in skip",
    "open in, the next tactic on its own line": "open Real in\nskip",
    "two combinators": "open Real in set_option maxHeartbeats 400000 in skip",
    "a named argument in a have": "open Real in have _hz := Nat.zero_le (n := 0)",
}
ATTACKS = {
    "open in decide, the whole configuration": "open Real in decide (config := ⟨false, true, true, false⟩)",
    "open in, decide on the next line": "open Real in\ndecide (config := .mk false true true false)",
    "set_option in decide": "set_option maxHeartbeats 400000 in decide (config := id ⟨false, true, true, false⟩)",
    "open in noncomm_ring, a name run": "open Real in noncomm_ring (maxSteps := zzRead)",
    "two combinators, a name run": "open Real in set_option maxHeartbeats 400000 in norm_num (maxSteps := zzRead)",
}


@pytest.mark.parametrize("line", sampled(HONEST, {"open in skip"}))
def test_a_combinator_before_a_term_with_named_arguments_is_accepted(lean_putnambench: Benchmark, line: str) -> None:
    assert _failures(lean_putnambench, line) == {}


@pytest.mark.parametrize("line", sampled(ATTACKS, {"open in decide, the whole configuration"}))
def test_a_configuration_after_a_combinator_is_refused(lean_putnambench: Benchmark, line: str) -> None:
    assert "G3" in _failures(lean_putnambench, line)


def test_no_tactic_site_of_the_sweep_lies_among_a_terms_arguments() -> None:
    """No line the sweep displaces with a tactic continues an application: none is a named argument
    ``(x := e)`` following a line at its own column (the 2008 B2 case), in any corpus file."""
    for entry in accepted_files():
        text = (CORPUS / entry["file"]).read_text(encoding="utf-8")
        for site, (at, indent) in sites(entry["file"], entry["problem_id"]).tactic.items():
            line = text[at:].split("\n", 1)[0]
            assert not (line.startswith(indent + "(") and ":=" in line.split(")", 1)[0]), (entry["file"], site)
