"""Red team round 8 of the trust paths: what a Lean candidate's compile can read.

The sandbox shows the system directories and the toolchain read-only, so whatever a compile can read
there is part of what it may build its proof (and its messages) from. Lean's own ``include_str``
(``src/Init/Notation.lean``, elaborated by the builtin ``elabIncludeStr``) needs no import and no ``open``:
it runs its path term in the interpreter and becomes the string ``IO.FS.readFile`` returns. On the
no-answer track the agent's ``check`` returns the compile's messages to the model, and a benchmark copy
installed under ``/usr`` (putnam installed system-wide) holds the official answers: a ``decide`` on one
character of the file is an oracle, bit by bit. Every spelling below was accepted by the text profile
before (``src/putnam_solver/core/provers/lean/_file_reads.py``); names and text that only contain the
word still pass.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

PID = "putnam_1962_a1"
NO_ANSWER = "putnam_2024_a1"
FILE = '"../../../usr/local/lib/python3/dist-packages/putnam_solver/data/putnambench.jsonl"'

READS_IN_PROOFS: dict[str, str] = {
    "in a have": f"by\n  have h := (include_str {FILE}).length\n  exact?",
    "as a decide oracle": f"by\n  have : (include_str {FILE}).get ⟨7⟩ = 'a' := by decide\n  exact?",
    "a computed path": 'by\n  have h := include_str ("../../.." ++ "/usr/x")\n  exact?',
    "in a term proof": f"(fun _ => by exact?) (include_str {FILE})",
    "glued to Mathlib's →r": f"by\n  have h : ℕ →rinclude_str {FILE} := by exact?\n  exact?",
    "inside brackets": f"by\n  have h := [(include_str {FILE})]\n  exact?",
    "after open ... in": f"by\n  have h := open Nat in include_str {FILE}\n  exact?",
}
"""Proofs of ``putnam_1962_a1`` that read a file while elaborating."""

READS_BEFORE_THE_THEOREM: dict[str, str] = {
    "a helper def": f"def zz_data : String := include_str {FILE}\n\n",
    "a helper theorem": f"theorem zz_len : (include_str {FILE}).length = (include_str {FILE}).length := rfl\n\n",
    "an example": f"example : (include_str {FILE}).length = 0 := by decide\n\n",
    "a #check": f"#check include_str {FILE}\n\n",
}
"""Additions before the theorem that read a file (an ``example`` and ``#check`` are otherwise harmless)."""

STILL_VALID: dict[str, str] = {
    "a name holding the word": "by\n  have h_include_str : 1 = 1 := rfl\n  exact?",
    "a dotted name part around it": "by\n  have include_string := 1\n  exact?",
    "the word in a comment": "by\n  -- no include_str here\n  exact?",
    "the word in a string": 'by\n  have h : "include_str" = "include_str" := rfl\n  exact?',
    "the word in a doc comment of a helper": "by\n  exact?",
}
"""Proofs that only mention the word, which Lean does not read as the keyword."""


def _g3(bench: Benchmark, text: str, pid: str = PID, track: Track = Track.WITH_ANSWER) -> str:
    verdict = lean_text_verdict(bench, pid, text, track)
    assert verdict.status == "rejected", (verdict.status, failures(verdict))
    return failures(verdict).get("G3", "")


@pytest.mark.parametrize("case", sorted(READS_IN_PROOFS))
def test_a_proof_that_reads_a_file_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PID, proof=READS_IN_PROOFS[case])
    assert "reads a file of the machine" in _g3(lean_putnambench, text)


@pytest.mark.parametrize("case", sorted(READS_BEFORE_THE_THEOREM))
def test_an_addition_that_reads_a_file_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PID, before=READS_BEFORE_THE_THEOREM[case])
    assert "reads a file of the machine" in _g3(lean_putnambench, text)


def test_a_no_answer_value_that_reads_a_file_is_refused(lean_putnambench: Benchmark) -> None:
    value = f"{{n : ℕ | n = (include_str {FILE}).length}}"
    text = lean_filled(lean_putnambench, NO_ANSWER, track=Track.NO_ANSWER, value=value)
    assert "reads a file of the machine" in _g3(lean_putnambench, text, NO_ANSWER, Track.NO_ANSWER)


def test_the_refusal_says_why_on_its_line(lean_putnambench: Benchmark) -> None:
    text = lean_filled(lean_putnambench, PID, proof=READS_IN_PROOFS["in a have"])
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "include_str" in row)
    assert f"line {line}: include_str: meta:" in _g3(lean_putnambench, text)


@pytest.mark.parametrize("case", sorted(STILL_VALID))
def test_a_proof_that_only_names_the_word_still_passes(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PID, proof=STILL_VALID[case])
    if case == "the word in a doc comment of a helper":
        text = lean_filled(
            lean_putnambench,
            PID,
            proof=STILL_VALID[case],
            before="/-- reads nothing: `include_str` is not used -/\ntheorem zz_aux : 1 = 1 := rfl\n\n",
        )
    verdict = lean_text_verdict(lean_putnambench, PID, text)
    assert verdict.status == "accepted", failures(verdict)


def test_an_honest_no_answer_value_still_passes(lean_putnambench: Benchmark) -> None:
    text = lean_filled(lean_putnambench, NO_ANSWER, track=Track.NO_ANSWER, value="{1}")
    verdict = lean_text_verdict(lean_putnambench, NO_ANSWER, text, Track.NO_ANSWER)
    assert verdict.status == "accepted", failures(verdict)
