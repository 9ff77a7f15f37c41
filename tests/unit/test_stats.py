"""The statistics module against textbook values: Student's t quantiles (any printed t table), Wilson's
interval (Wilson 1927; Newcombe 1998, table I) and the mean and paired intervals worked by hand."""

from __future__ import annotations

import math

import pytest

from interpreter.stats import incomplete_beta, mean_interval, paired_difference, t_cdf, t_quantile, wilson_interval


@pytest.mark.parametrize(("probability", "freedom", "expected"), [
    (0.975, 1, 12.706), (0.975, 2, 4.303), (0.975, 3, 3.182), (0.975, 5, 2.571), (0.975, 10, 2.228),
    (0.975, 30, 2.042), (0.95, 20, 1.725), (0.995, 4, 4.604), (0.975, 120, 1.980), (0.025, 10, -2.228),
])
def test_t_quantiles_match_the_t_table(probability: float, freedom: int, expected: float) -> None:
    assert t_quantile(probability, freedom) == pytest.approx(expected, abs=5e-4)


def test_t_tends_to_the_normal_and_its_distribution_function_is_symmetric() -> None:
    assert t_quantile(0.975, 100_000) == pytest.approx(1.95996, abs=1e-4)
    assert t_cdf(0.0, 7) == pytest.approx(0.5)
    assert t_cdf(-2.0, 7) == pytest.approx(1 - t_cdf(2.0, 7))
    assert incomplete_beta(0.5, 2, 2) == pytest.approx(0.5)  # symmetric
    assert incomplete_beta(0.3, 1, 1) == pytest.approx(0.3)  # uniform


def test_wilson_interval_matches_newcombe() -> None:
    # Newcombe (1998), Statistics in Medicine 17, table I: 81/263 -> 0.2553 to 0.3662; 15/148 -> 0.0624 to 0.1605.
    found = wilson_interval(81, 263)
    assert (round(found.low, 4), round(found.high, 4)) == (0.2553, 0.3662)
    found = wilson_interval(15, 148)
    assert (round(found.low, 4), round(found.high, 4)) == (0.0624, 0.1605)
    none = wilson_interval(0, 10)  # 0/10: 0 to 0.2775, never below 0
    assert none.low == 0.0 and none.high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(10, 10).high == 1.0


def test_mean_interval_from_students_t() -> None:
    found = mean_interval(list(range(1, 11)))  # mean 5.5, s = 3.0277, t(0.975, 9) = 2.2622
    assert found.value == 5.5
    assert (found.low, found.high) == (pytest.approx(3.3341, abs=1e-4), pytest.approx(7.6659, abs=1e-4))
    assert found.excludes(0) and not found.excludes(5)
    assert mean_interval([4.0]).low == mean_interval([4.0]).high == 4.0
    assert math.isnan(mean_interval([]).value)


def test_paired_difference_is_the_interval_of_the_differences() -> None:
    a, b = [10, 20, 30, 40], [11, 22, 31, 43]  # differences 1, 2, 1, 3: mean 1.75, s = 0.9574, t(3) = 3.1824
    found = paired_difference(b, a)
    assert found.value == pytest.approx(1.75)
    assert found.half_width == pytest.approx(3.1824 * 0.9574 / 2, abs=1e-3)
    assert found.excludes(0)
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1])


def test_a_small_mean_or_difference_is_shown_with_two_significant_digits() -> None:
    # (a comparison read "lower with B by 0.00 (0.04 -> 0.04)" for a change the statistics found significant)
    from interpreter.runners.report import decimals
    shown = {value: f"{value:.{decimals(value, 2)}f}" for value in (0.0, 0.04, -0.004, 0.0004, 0.1, 12.345)}
    assert shown == {0.0: "0.00", 0.04: "0.040", -0.004: "-0.0040", 0.0004: "0.0004", 0.1: "0.10", 12.345: "12.35"}
    assert f"{0.04:.{decimals(0.04, 1)}f}" == "0.040" and f"{2.5:.{decimals(2.5, 1)}f}" == "2.5"
