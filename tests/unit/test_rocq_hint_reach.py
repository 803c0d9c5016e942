"""A global hint is harmless wherever it stands because no harness file consults a hint database after
loading the candidate (``vernacular.HINT_TACTICS``, red team 29).

``Require`` replays a candidate's global hint (``Hint Resolve``, ``#[global] Hint Extern``, ``Hint
Rewrite``, ``Remove Hints``) in every file that loads it, the harness's among them. Such a hint acts only
on the tactics that consult its database: ``auto``, ``trivial`` (and ``easy``/``now``, which run it),
``autorewrite``... Instances (``typeclass_instances``, consulted by ``rewrite`` and ``lia``) are refused
outright. So G2 judges a hint alike before and after the theorem, and this test keeps the premise true:
every harness-written file that ``Require``s the candidate runs none of those tactics after it.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.rocq.answer_env import names_source
from putnam_solver.core.provers.rocq.answers import ATTEMPTS, check_source
from putnam_solver.core.provers.rocq.build import CANDIDATE, ROOT
from putnam_solver.core.provers.rocq.challenge import official_answer, statement_of
from putnam_solver.core.provers.rocq.recursion import Listing
from putnam_solver.core.provers.rocq.statement import trusted_source
from putnam_solver.core.provers.rocq.syntax import Kind, tokenize
from putnam_solver.core.provers.rocq.vernacular import HINT_TACTICS
from putnam_solver.core.verify import Track
from tests.helpers import COQ_BENCH, pinned

PROBLEMS = ("putnam_2013_b2", "putnam_1987_b4", "putnam_1996_a3", "putnam_1971_a2", "putnam_2020_a2")
"""Reals, a tuple with yes/no parts, a yes/no answer, a MathComp set answer, a function answer."""


def _after_candidate(source: str) -> str:
    """What a harness file runs once the candidate is loaded."""
    loaded = f"Require {ROOT}.{CANDIDATE}."
    assert loaded in source, source[:300]
    return source[source.index(loaded) + len(loaded) :]


def _harness_files(problem_id: str) -> list[str]:
    statement = statement_of(pinned(COQ_BENCH).problems[problem_id])
    files = [trusted_source(statement, track, "M", Listing.fresh(["zz"])) for track in Track]
    if statement.solution is not None:
        files += [
            check_source(statement, claim, tactic, official_answer(statement) or "") for claim, tactic, _, _ in ATTEMPTS
        ]
        files.append(names_source(statement, "M"))
    return files


def _hint_tactics(text: str) -> list[str]:
    """The hint-consulting tactics ``text`` runs (``intuition t`` with a tactic ``t`` of its own aside)."""
    tokens = [t for t in tokenize(text) if t.kind is not Kind.STRING]
    found = []
    for i, tok in enumerate(tokens):
        if tok.text not in HINT_TACTICS:
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok.text == "intuition" and after is not None and after.kind is Kind.WORD:
            continue
        found.append(tok.text)
    return found


@pytest.mark.parametrize("problem_id", PROBLEMS)
def test_no_harness_file_consults_a_hint_database_after_loading_the_candidate(problem_id: str) -> None:
    for source in _harness_files(problem_id):
        assert _hint_tactics(_after_candidate(source)) == [], _after_candidate(source)[:2000]


def test_the_scan_sees_a_hint_tactic() -> None:
    """The premise's test reads tactics, not spellings in strings."""
    assert _hint_tactics("Proof. intros; easy. Qed.") == ["easy"]
    assert _hint_tactics("Proof. intuition. Qed.") == ["intuition"]
    assert _hint_tactics('Proof. intuition congruence. idtac "auto". Qed.') == []
