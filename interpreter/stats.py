"""The few statistics a run of many matches needs: a mean with its 95% interval (Student's t), a share with its
Wilson interval, and the difference of paired samples. Plain Python: `statistics.NormalDist` for the normal
quantile, and Student's t from the regularised incomplete beta function."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """A value measured from a sample, with its interval at `CONFIDENCE` (`low == high == value` when the sample
    is too small to say more)."""

    value: float
    low: float
    high: float
    count: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def excludes(self, point: float) -> bool:
        """Whether the interval leaves out `point` (for a difference: whether it is significant)."""
        return self.count > 1 and (self.low > point or self.high < point)

    def as_json(self) -> dict[str, object]:
        return {"value": self.value, "ci95": [self.low, self.high], "n": self.count}


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Estimate:
    """The sample mean with its two-sided interval from Student's t (n - 1 degrees of freedom)."""
    count = len(values)
    if count == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = statistics.fmean(values)
    if count == 1:
        return Estimate(mean, mean, mean, 1)
    half = t_quantile(0.5 + confidence / 2, count - 1) * statistics.stdev(values) / math.sqrt(count)
    return Estimate(mean, mean - half, mean + half, count)


def paired_difference(b: Sequence[float], a: Sequence[float], confidence: float = CONFIDENCE) -> Estimate:
    """The mean of `b[i] - a[i]` with its interval: each pair measured on the same seed, so the interval is that
    of the differences, far narrower than that of two independent samples when the pairs are alike."""
    if len(a) != len(b):
        raise ValueError(f"paired samples of different sizes: {len(a)} and {len(b)}")
    return mean_interval([y - x for x, y in zip(a, b, strict=True)], confidence)


def wilson_interval(successes: float, trials: int, confidence: float = CONFIDENCE) -> Estimate:
    """A share with Wilson's score interval (sound near 0 and 1, unlike the normal one). `successes` may be
    fractional (a win shared among tied seats counts its share)."""
    if trials == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return Estimate(share, low, high, trials)


def t_quantile(probability: float, freedom: int) -> float:
    """The `probability` quantile of Student's t with `freedom` degrees of freedom (by bisection on its
    distribution function; exact forms for 1 and 2)."""
    if not 0 < probability < 1 or freedom < 1:
        raise ValueError("t_quantile needs 0 < probability < 1 and freedom >= 1")
    if freedom == 1:
        return math.tan(math.pi * (probability - 0.5))
    if freedom == 2:
        return (2 * probability - 1) / math.sqrt(2 * probability * (1 - probability))
    if probability < 0.5:
        return -t_quantile(1 - probability, freedom)
    low, high = 0.0, 1.0
    while t_cdf(high, freedom) < probability:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if t_cdf(middle, freedom) < probability:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def t_cdf(value: float, freedom: int) -> float:
    """The distribution function of Student's t: 1 - I_x(freedom/2, 1/2) / 2 for value >= 0, x = ν/(ν + t²)."""
    tail = incomplete_beta(freedom / (freedom + value * value), freedom / 2, 0.5) / 2
    return 1 - tail if value >= 0 else tail


def incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function I_x(a, b), by its continued fraction (Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result
