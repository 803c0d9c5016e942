"""The agent's Rocq library search writes one sentence, ``<command> <query>.``: a query that could end it
and run other vernacular (``Redirect`` writes files, ``Print All`` floods, a comment hides a sentence
end) is refused before coqtop sees it; ordinary queries, quotes and scopes included, pass unchanged."""

from __future__ import annotations

import pytest

from putnam_solver.kits.rocq.search import SearchRefused, format_hits, search_sentence

VALID = [
    ("Search", "(_ + _ = _ + _)", "Search (_ + _ = _ + _)."),
    ("Search", "Nat.add_comm.", "Search Nat.add_comm."),
    ("Search", 'Nat.add "comm"', 'Search Nat.add "comm".'),
    ("SearchPattern", "(Rabs _ <= _)%R", "SearchPattern (Rabs _ <= _)%R."),
    ("SearchRewrite", "(_ * (_ + _))", "SearchRewrite (_ * (_ + _))."),
    ("Search", '"+"', 'Search "+".'),
    ("Search", "(_ mod _) inside Z", "Search (_ mod _) inside Z."),
]
INJECTIONS = [
    ("Search", 'x. Redirect "out" Print All', "period followed by a space"),
    ("Search", "x.\tPrint All", "control characters"),
    ("Search", "x.\u00a0Print All", "period followed by a space"),
    ("Search", "x.\nPrint All", "one line"),
    ("Search", "x (* hidden *) y", "comment"),
    ("Search", "x (*.Print All", "comment"),
    ("Search", '"a. Print All"', "period followed by a space"),
    ("Search", 'Redirect "f" x', "Redirect"),
    ("Search", '"unterminated', "does not lex"),
    ("Print", "All", "unknown search command"),
    ("Redirect", '"f" Search x', "unknown search command"),
    ("Search", "", "needs a query"),
    ("Search", "x" * 401, "longer than"),
]


@pytest.mark.parametrize(("command", "query", "sentence"), VALID)
def test_ordinary_queries_become_one_sentence(command: str, query: str, sentence: str) -> None:
    assert search_sentence(command, query) == sentence


@pytest.mark.parametrize(("command", "query", "why"), INJECTIONS)
def test_queries_that_could_run_other_vernacular_are_refused(command: str, query: str, why: str) -> None:
    with pytest.raises(SearchRefused, match=why):
        search_sentence(command, query)


def test_hits_are_bounded_with_their_continuation_lines() -> None:
    output = "".join(f"lemma_{i}:\n  forall n : nat, n = n\n" for i in range(30))
    shown = format_hits(output, max_hits=3)
    assert shown.splitlines() == [
        "lemma_0:",
        "  forall n : nat, n = n",
        "lemma_1:",
        "  forall n : nat, n = n",
        "lemma_2:",
        "  forall n : nat, n = n",
        "... 27 more results; narrow the query",
    ]
    assert format_hits("\n") == "no results"
