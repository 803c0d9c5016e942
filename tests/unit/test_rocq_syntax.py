"""The Rocq lexer, sentence splitter and statement parser, on hand-written text and all PutnamBench files."""

from __future__ import annotations

import json

import pytest

from putnam_solver.core.provers.rocq._lexer import _Lexer
from putnam_solver.core.provers.rocq.challenge import REFERENCE_SECTION, reference_source
from putnam_solver.core.provers.rocq.statement_shape import binder_names, parse_statement
from putnam_solver.core.provers.rocq.syntax import Kind, LexError, StatementError, sentences, tokenize
from tests.helpers import COQ_BENCH


def texts(source: str) -> list[str]:
    return [t.text for t in tokenize(source)]


def test_nested_comments_and_strings_inside_comments_are_skipped() -> None:
    source = 'a (* outer (* inner *) "a *) in a string" still *) b.'
    assert texts(source) == ["a", "b", "."]


def test_strings_keep_doubled_quotes_as_one_token() -> None:
    toks = tokenize('idtac "say ""Qed."" now".')
    assert [t.kind for t in toks] == [Kind.WORD, Kind.STRING, Kind.END]
    assert toks[1].text == '"say ""Qed."" now"'


def test_unterminated_comment_and_string_name_the_line() -> None:
    with pytest.raises(LexError, match="line 2"):
        tokenize("a.\n(* never closed")
    with pytest.raises(LexError, match="unterminated string"):
        tokenize('x "open')


def test_sentence_ends_only_at_period_followed_by_space() -> None:
    source = "From Coq Require Import Coq.Logic.Classical.\nCheck (n.+1, p.[x], 1.5).\nLemma x : True."
    sents = sentences(source)
    assert len(sents) == 3
    assert "Coq.Logic.Classical" in sents[0].words
    assert sents[1].words[-1] == "."


def test_gluing_is_recorded_so_spacing_inside_tokens_counts() -> None:
    glued, spaced = sentences("Check [:: 1]."), sentences("Check [ :: 1].")
    assert glued[0].words == spaced[0].words
    assert glued[0].key != spaced[0].key
    assert sentences("Check   [::\n 1].")[0].key == sentences("Check [:: (* c *) 1].")[0].key


def test_command_skips_attributes_and_locality() -> None:
    (sent,) = sentences("#[local] Local Open Scope R_scope.")
    assert sent.command == "Open"
    (decl,) = sentences("#[bypass_check(guard)] Fixpoint f (n : nat) : nat := n.")
    assert (decl.command, decl.declared_name) == ("Fixpoint", "f")


def test_binder_names_of_variable_declarations() -> None:
    def names(text: str) -> list[str]:
        return binder_names(sentences(text)[0])

    assert names("Variable R : realType.") == ["R"]
    assert names("Variables G B : finType.") == ["G", "B"]
    assert names("Variables (I : finType) (P : pred I).") == ["I", "P"]
    assert names("Context `{Tarski_2D} `{TE:@Tarski_euclidean Tn TnEQD}.") == ["TE"]


def test_statement_parts() -> None:
    text = (
        "Require Import Arith.\nVariable A : Type.\nDefinition foo_solution : nat := 3.\n"
        "Theorem foo (n : nat) : n + foo_solution >= 3.\nProof. Admitted.\n"
    )
    st = parse_statement(text, "foo")
    assert (st.theorem_name, st.solution_name) == ("foo", "foo_solution")
    assert [name for _, name in st.assumptions] == ["A"]
    assert len(st.header) == 3 and not st.trailer


def test_statement_without_placeholder_proof_is_an_error() -> None:
    with pytest.raises(StatementError, match=r"Proof\. Admitted"):
        parse_statement("Theorem foo : True.\nProof. exact I. Qed.\n", "foo")


@pytest.mark.skipif(not COQ_BENCH.is_file(), reason=f"PutnamBench Coq data not found at {COQ_BENCH}")
def test_all_putnambench_coq_statements_parse() -> None:
    records = [json.loads(line) for line in COQ_BENCH.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 412
    with_solution = 0
    for record in records:
        st = parse_statement(record["formal_statement"], record["problem_id"])
        assert st.sentences[st.theorem].command == "Theorem"
        with_solution += st.solution is not None
    assert with_solution == 203  # putnam_1970_b5 names its theorem `..._solution`


@pytest.mark.parametrize(
    "text",
    [
        "Lemma a : x.(y) = z..\n  exact h. Qed.",
        "x .\ny. z.",
        "a.b.c 1.2.3 1_000 'C( .+1 [:: x] %:R -> <-> :=.",
        "intros.\n(* c *) x.\n\ty\x0bz\x0c.\r\nw.",
        'idtac "a""b".\nx.',
        "Definition α := β.\nx.\n",
        "x.\x1cy.\x00z.",
        "{ - + * } .",
        "end.",
    ],
)
def test_plain_stretches_lex_as_the_character_rules_do(text: str) -> None:
    """Whole plain lines are lexed by one pattern; the general path alone must give the same tokens."""
    general = _Lexer(text)
    general._general(len(text))
    assert _Lexer(text).run() == general.tokens  # the two paths; tokenize also refuses Coq's non-blanks


def test_the_references_leading_requires_precede_its_section_and_later_ones_stay_in_it() -> None:
    text = (
        "Require Import Arith.\nFrom Coq Require Import Lia.\nVariable n : nat.\nRequire Import ZArith.\n"
        "Theorem t : n = n.\nProof. Admitted.\n"
    )
    reference = reference_source(parse_statement(text, "t"))
    section = reference.index(f"Section {REFERENCE_SECTION}.")
    assert reference.index("Require Import Arith.") < reference.index("From Coq Require Import Lia.") < section
    assert section < reference.index("Variable n : nat.") < reference.index("Require Import ZArith.")
    assert reference.count("Require") == 3
