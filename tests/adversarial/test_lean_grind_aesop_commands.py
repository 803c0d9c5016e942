"""The Lean text gates' rules for ``grind`` and Aesop commands and attributes and for ``local instance``,
each branch run in this process so that coverage sees it (text profile, G2 and G3).

The text gates run in worker processes (``gate_worker``), which coverage does not follow and which are
killed rather than ended, so a coverage run of the default suite listed these branches as never run,
although ``test_lean_falserej28``/``29`` reach most of them through the workers. Here every case runs the
gates in this process (``text_gates_in_process``), and each rule has the hostile case it refuses and an
honest twin it lets pass:

* ``grind_pattern NAME => p`` (``_grind_attribute.grind_pattern_violations``, core's
  src/Lean/Meta/Tactic/Grind/Parser.lean): passes bare, ``local`` in a section and with a bracketed
  attribute name (``grind_pattern [set] NAME => p``); refused without ``=>`` and after any other modifier.
  ``@[grind =]`` and ``@[grind! symbol 100]`` pass (``grind_arguments``); ``@[grind zz_code]`` is refused.
* Aesop's phase word ``unsafe`` in a tactic clause (``_aesop_clauses.aesop_phase_words``, ``_clause``):
  free in ``(add unsafe 50% apply foo)`` and in a bracketed list of rule expressions; refused (G2 and G3)
  inside a nested ``( )`` term, in an unclosed or mismatched clause, in a builder option, in a clause holding
  a command word, after the clause on its line, and with no Aesop tactic in the file (``unsafe def``).
* ``@[aesop ...]`` (``aesop_rule_arguments``, ``_rule_sets``): rule expressions with ``(rule_sets :=
  [A, B])`` or the old ``(rule_sets [A])`` pass; another option, a rule set not bracketed or not of
  names, the ``tactic`` builder and an unmatched ``]`` are refused.
* ``registers_rules``: ``Aesop.BuiltinRules.not_intro`` passes in a file that adds no rule, and is refused
  (G3) with ``add_aesop_rules`` or ``attribute [aesop ...]``.
* ``local instance`` (``_declarations.local_instance_violations``, ``_instance_name``): with a priority in
  a section it passes; at top level, named into ``_root_``, or anonymous where the statement names an
  ``inst...`` constant (Lean would name it so) it is refused.

Coverage of these modules by this file alone (``coverage run --source=putnam_solver.core.provers.lean -m
pytest -n 0 -q`` on it): the brief's uncovered lines of ``_grind_attribute`` (31, 42-53) and of
``_aesop_clauses`` (54-67, 73-90, 126-130, 135, 140-150, 190) all run now (100% and 100% of the module);
``_declarations`` lines 56-57, 75-90 run, and 159-161 (``g2_decides`` on ``attribute [local instance]``
in a section).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.helpers import lean_edit_failures, one_record_benchmark

PID = "putnam_1962_a1"
LEMMA = "theorem zz (n : ℕ) : n + 0 = n := rfl\n\n"
NOT_INTRO = "by\n  apply Aesop.BuiltinRules.not_intro"
UNSAFE, ATTRIBUTE = "unsafe: escapes the kernel's checks", "attribute not permitted"  # G3's and G2's words

# name: the `lean_filled` keywords of an honest addition, which the text gates accept
HONEST: dict[str, dict[str, str]] = {
    "grind_pattern": {"before": LEMMA + "grind_pattern zz => n + 0\n\n"},
    "grind_pattern with a bracketed name": {"before": LEMMA + "grind_pattern [zz_set] zz => n + 0\n\n"},
    "local grind_pattern in a section": {"before": "section\n" + LEMMA + "local grind_pattern zz => n + 0\nend\n\n"},
    "@[grind =]": {"before": "@[grind =] " + LEMMA},
    "@[grind! symbol 100]": {"before": "@[grind! symbol 100] " + LEMMA},
    "aesop (add unsafe 50% apply foo)": {"proof": "by\n  aesop (add unsafe 50% apply foo)"},
    "a list of rule expressions": {"proof": "by\n  aesop (add [unsafe foo, safe bar]) (erase baz)"},
    "@[aesop unsafe 50% apply]": {"before": "@[aesop unsafe 50% apply] " + LEMMA},
    "rule_sets :=": {"before": "@[aesop safe apply (rule_sets := [Zz, Yy])] " + LEMMA},
    "rule_sets, old syntax": {"before": "@[aesop norm (rule_sets [Zz])] " + LEMMA},
    "an Aesop lemma in a file adding no rule": {"proof": NOT_INTRO},
    "local instance with a priority in a section": {
        "before": "section\nlocal instance (priority := 100) zz_inst : Inhabited ℕ := ⟨0⟩\nend\n\n"
    },
    "an anonymous local instance in a section": {"before": "section\nlocal instance : Inhabited ℕ := ⟨0⟩\nend\n\n"},
    "attribute [local instance] in a section": {
        "before": "section\ndef zz_i : Inhabited ℕ := ⟨0⟩\nattribute [local instance] zz_i\nend\n\n"
    },
}

# name: (the `lean_filled` keywords, the gate that refuses, words of its refusal)
HOSTILE: dict[str, tuple[dict[str, str], str, str]] = {
    "grind_pattern without =>": ({"before": "grind_pattern zz\n\n"}, "G2", "expected `grind_pattern NAME => pattern`"),
    "private grind_pattern": (
        {"before": LEMMA + "private grind_pattern zz => n + 0\n\n"},
        "G2",
        "not permitted before `grind_pattern`",
    ),
    "@[grind] with a name": ({"before": "@[grind zz_code] " + LEMMA}, "G2", ATTRIBUTE),
    "unsafe in a nested term": ({"proof": "by\n  aesop (add unsafe (unsafe foo))"}, "G3", UNSAFE),
    "an unclosed clause": ({"proof": "by\n  aesop (add unsafe foo"}, "G3", UNSAFE),
    "a mismatched clause": ({"proof": "by\n  aesop (add unsafe foo]"}, "G3", UNSAFE),
    "a builder option": ({"proof": "by\n  aesop (config := {}) (simp_config := unsafe foo)"}, "G3", UNSAFE),
    "a command word in the clause": ({"proof": "by\n  aesop (add unsafe foo\n  def zz := 1)"}, "G3", UNSAFE),
    "unsafe after the clause": ({"proof": "by\n  aesop (add safe foo) unsafe"}, "G3", UNSAFE),
    "unsafe def, no aesop": ({"before": "unsafe def zz_u (n : ℕ) : ℕ := n\n\n"}, "G3", UNSAFE),
    "@[aesop] with another option": ({"before": "@[aesop safe apply (zz_opt := 1)] " + LEMMA}, "G2", ATTRIBUTE),
    "rule_sets not bracketed": ({"before": "@[aesop safe apply (rule_sets := Zz)] " + LEMMA}, "G2", ATTRIBUTE),
    "rule_sets holding a number": ({"before": "@[aesop safe apply (rule_sets := [Zz, 1])] " + LEMMA}, "G2", ATTRIBUTE),
    "the tactic builder": ({"before": "@[aesop safe tactic] " + LEMMA}, "G2", ATTRIBUTE),
    "an unmatched ]": ({"before": "@[aesop safe ]] " + LEMMA}, "G3", "aesop rule run as code"),
    "an Aesop lemma with add_aesop_rules": (
        {"before": "add_aesop_rules safe apply zz\n\n", "proof": NOT_INTRO},
        "G3",
        "the `Aesop` namespace is Aesop's rule API",
    ),
    "an Aesop lemma with attribute [aesop]": (
        {"before": LEMMA + "attribute [aesop safe apply] zz\n\n", "proof": NOT_INTRO},
        "G3",
        "the `Aesop` namespace is Aesop's rule API",
    ),
    "a local instance at top level": (
        {"before": "local instance (priority := 100) zz_inst : Inhabited ℕ := ⟨0⟩\n\n"},
        "G2",
        "a local attribute at top level is in force at the theorem",
    ),
    "a local instance escaping to _root_": (
        {"before": "section\nlocal instance _root_.zz_inst : Inhabited ℕ := ⟨0⟩\nend\n\n"},
        "G2",
        "helper names may not escape to `_root_`",
    ),
}


def _failures(bench: Benchmark, edit: dict[str, str], pid: str = PID) -> dict[str, str]:
    return lean_edit_failures(bench, pid, edit)


@pytest.mark.parametrize("name", HONEST)
def test_honest_additions_pass(lean_putnambench: Benchmark, name: str) -> None:
    assert _failures(lean_putnambench, HONEST[name]) == {}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_additions_are_refused(lean_putnambench: Benchmark, name: str) -> None:
    edit, gate, words = HOSTILE[name]
    found = _failures(lean_putnambench, edit)
    assert words in found.get(gate, ""), found


INST_STATEMENT = "theorem zz_t : @HAdd.hAdd ℕ ℕ ℕ instHAdd 1 1 = 2 := sorry"


def test_an_anonymous_local_instance_is_refused_where_the_statement_names_inst(tmp_path: Path) -> None:
    """Lean names an anonymous instance ``inst...`` (src/Lean/Elab/DeclNameGen.lean, ``mkInstanceName``):
    where the statement uses such a name, the new one could be taken for it."""
    bench = one_record_benchmark(tmp_path, "zz_t", INST_STATEMENT)
    anonymous = {"before": "section\nlocal instance : Inhabited ℕ := ⟨0⟩\nend\n\n"}
    found = _failures(bench, anonymous, "zz_t")
    assert "an anonymous instance is named `inst...`" in found.get("G2", ""), found
    named = {"before": "section\nlocal instance zz_inst : Inhabited ℕ := ⟨0⟩\nend\n\n"}
    assert _failures(bench, named, "zz_t") == {}
