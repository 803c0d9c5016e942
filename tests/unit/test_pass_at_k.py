"""pass@k's unbiased estimator (Chen et al. 2021) and the per-split table SUMMARY.md and audit print."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from putnam_solver.run.ledger_rows import AttemptRow, sha256_text
from putnam_solver.run.pass_at_k import (
    pass_at_k,
    pass_at_k_lines,
    pass_at_k_table,
    samples_of_first_campaign,
)


def exact(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k) in exact arithmetic (the definition the stable product must equal)."""
    return float(1 - Fraction(comb(n - c, k), comb(n, k)))


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (2, 1, 1, 0.5),
        (2, 1, 2, 1.0),
        (10, 3, 5, 1 - 21 / 252),  # 1 - C(7,5)/C(10,5)
        (4, 1, 2, 0.5),  # 1 - C(3,2)/C(4,2) = 1 - 3/6
        (5, 0, 3, 0.0),  # c = 0: never
        (5, 5, 1, 1.0),  # n = c: always
        (5, 5, 5, 1.0),
        (7, 1, 7, 1.0),  # k = n with one pass: every draw holds it
        (7, 0, 7, 0.0),  # k = n with none
        (1, 1, 1, 1.0),
        (1, 0, 1, 0.0),
    ],
)
def test_known_values(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_pass_at_1_is_the_share_of_passes() -> None:
    for n in range(1, 20):
        for c in range(n + 1):
            assert pass_at_k(n, c, 1) == pytest.approx(c / n, abs=1e-12)


def test_equals_the_exact_binomial_ratio_and_is_monotone_in_k() -> None:
    for n in range(1, 25):
        for c in range(n + 1):
            values = [pass_at_k(n, c, k) for k in range(1, n + 1)]
            assert values == pytest.approx([exact(n, c, k) for k in range(1, n + 1)], abs=1e-12)
            assert values == sorted(values)


def test_large_n_stays_finite_where_binomials_overflow_floats() -> None:
    n, c, k = 2000, 3, 100  # C(2000, 100) has ~190 digits: far past a float
    assert pass_at_k(n, c, k) == pytest.approx(exact(n, c, k), rel=1e-9)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, -1, 1), (3, 1, 0), (3, 1, 4), (0, 0, 1)])
def test_refuses_impossible_counts(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError, match="pass@k needs"):
        pass_at_k(n, c, k)


def _row(ident: int, campaign: int, problem: str, passed: bool, sample: int = 1) -> AttemptRow:
    candidate = f"proof {ident}"
    verdict = {"status": "accepted" if passed else "rejected", "candidate_sha256": sha256_text(candidate)}
    status = "passed" if passed else "rejected"
    row = (ident, campaign, problem, status, 1, 0, 0, 0.0, candidate, sha256_text(candidate), None, None, None)
    return AttemptRow(*row, verdict, "", sample)


def test_only_the_first_campaign_counts_and_defective_statements_are_left_out() -> None:
    rows = [
        _row(1, 1, "p_a", False, 1),
        _row(2, 1, "p_a", True, 2),
        _row(3, 1, "p_b", False, 1),
        _row(4, 1, "p_b", False, 2),
        _row(5, 2, "p_b", True, 1),  # a later campaign: carried forward, not an independent sample
        _row(6, 1, "p_bad", True, 1),
        _row(7, 1, "p_bad", True, 2),
    ]
    samples = samples_of_first_campaign(rows, excluded=["p_bad"])
    assert sorted(samples) == ["p_a", "p_b"] and all(len(v) == 2 for v in samples.values())
    (row,) = pass_at_k_table(samples, 2, {})
    assert row.split == "all" and row.problems == 2
    assert row.values == pytest.approx((0.25, 0.5))  # p_a: 0.5, 1.0; p_b: 0, 0


def test_per_split_rows_and_problems_short_of_samples() -> None:
    rows = [_row(1, 1, "p_a", True, 1), _row(2, 1, "p_a", False, 2), _row(3, 1, "p_b", False, 1)]
    table = pass_at_k_table(samples_of_first_campaign(rows), 2, {"p_a": "valid", "p_b": "test"})
    assert [r.split for r in table] == ["all", "valid", "test"]
    assert table[0].values == pytest.approx((0.25, 1.0)) and table[0].counted == (2, 1)
    assert table[2].values[1] is None  # p_b has one sample: no pass@2
    lines = pass_at_k_lines(table)
    assert lines[0] == "| split | problems | pass@1 | pass@2 |"
    assert "| all | 2 | 0.250 | 1.000 (over 1) |" in lines
    assert "| test | 1 | 0.000 | n/a |" in lines


def test_a_pass_counts_only_as_the_given_rule_says() -> None:
    rows = [_row(1, 1, "p_a", True, 1), _row(2, 1, "p_a", True, 2)]
    confirmed = {1}
    (row,) = pass_at_k_table(samples_of_first_campaign(rows), 2, {}, passed=lambda a: a.id in confirmed)
    assert row.values == pytest.approx((0.5, 1.0))
