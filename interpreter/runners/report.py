"""The text of a run's statistics, and of a comparison of two runs: one line per statistic, its value and its
95% interval."""

from __future__ import annotations

import math

from interpreter.runners.summary import Statistic, Summary
from interpreter.stats import Estimate

LABEL_WIDTH = 44


def summary_lines(summary: Summary) -> list[str]:
    """Each statistic of a run with its 95% interval (Student's t for means, Wilson's for shares)."""
    lines = [f"{'':<{LABEL_WIDTH}} {'value':>10}   95% interval"]
    for statistic in summary.statistics():
        estimate = statistic.estimate()
        lines.append(f"{statistic.label:<{LABEL_WIDTH}} {shown(estimate.value, statistic):>10}   "
                     f"{interval(estimate, statistic)}")
    return lines


def shown(value: float, statistic: Statistic, *, signed: bool = False) -> str:
    """A value as a report shows it: a share as a percentage, a mean with two decimals; nothing measured as -."""
    if math.isnan(value):
        return "-"
    sign = "+" if signed else ""
    return f"{value * 100:{sign}.1f}%" if statistic.share else f"{value:{sign},.2f}"


def interval(estimate: Estimate, statistic: Statistic, *, signed: bool = False) -> str:
    if estimate.count < 2 or math.isnan(estimate.low):
        return "(too few matches)"
    return f"{shown(estimate.low, statistic, signed=signed)} to {shown(estimate.high, statistic, signed=signed)}"


def interrupted_line(summary: Summary) -> str:
    played = len(summary.records)
    if not played:
        return f"Interrupted after 0 of {summary.matches} matches: no statistics."
    return (f"Interrupted after {played} of {summary.matches} matches: the statistics below are of the first "
            f"{played}.")
