"""The text of a run's statistics, and of a comparison of two runs: one line per statistic, its value and its
95% interval."""

from __future__ import annotations

import math

from interpreter.runners.summary import Statistic, Summary
from interpreter.stats import Estimate

LABEL_WIDTH = 44  # the labels' column, wider when a label is longer (up to WIDEST_LABELS)
WIDEST_LABELS = 80


def label_width(labels: list[str]) -> int:
    """The width of the labels' column: every label and its value in line."""
    return min(max([LABEL_WIDTH, *(len(label) for label in labels)]), WIDEST_LABELS)


def summary_lines(summary: Summary) -> list[str]:
    """Each statistic of a run with its 95% interval (Student's t for means, Wilson's for shares)."""
    rows = [(statistic.label, shown(estimate.value, statistic), interval(estimate, statistic))
            for statistic in summary.statistics() for estimate in [statistic.estimate()]]
    width = label_width([label for label, _, _ in rows])
    values = max([10, *(len(value) for _, value, _ in rows)])
    lines = [f"{'':<{width}} {'value':>{values}}   95% interval"]
    lines.extend(f"{label:<{width}} {value:>{values}}   {spread}" for label, value, spread in rows)
    return lines + few_matches_note(len(summary.records))


FEW_MATCHES = 10  # fewer matches than this: their intervals are said to be rough


def few_matches_note(matches: int) -> list[str]:
    """A line under a report of so few matches that its intervals say little."""
    if not 2 <= matches < FEW_MATCHES:
        return []
    return ["", f"(Only {matches} matches: these intervals are rough, and one of zero width says only that those "
            "matches came out alike; a few hundred matches give intervals to rely on.)"]  # (apart from the rows)


def shown(value: float, statistic: Statistic, *, signed: bool = False) -> str:
    """A value as a report shows it: a share as a percentage with one decimal, a mean with two, or more for a
    value so small that those would read as 0 (two significant digits, at most four decimals); nothing measured
    as -."""
    if math.isnan(value):
        return "-"
    sign = "+" if signed else ""
    if statistic.share:
        return f"{value * 100:{sign}.{decimals(value * 100, 1)}f}%"
    return f"{value:{sign},.{decimals(value, 2)}f}"


def decimals(value: float, usual: int) -> int:
    """The decimals that show `value` with two significant digits where `usual` would not (0.04 as 0.040, not
    0.04; 0.004 as 0.0040, not 0.00), at most four."""
    size = abs(value)
    if size == 0 or math.isinf(size) or size >= 10 ** (1 - usual):
        return usual
    return min(4, max(usual, 1 - math.floor(math.log10(size))))


def interval(estimate: Estimate, statistic: Statistic, *, signed: bool = False) -> str:
    if estimate.count < 2 or math.isnan(estimate.low):
        return "(too few matches)"
    return f"{shown(estimate.low, statistic, signed=signed)} to {shown(estimate.high, statistic, signed=signed)}"


def stopped_line(played: int, planned: int, *, failed: bool, pairs: bool = False) -> str:
    """What a run stopped early still reports: by Ctrl-C, or by a match the rules failed in (`failed`); of a
    comparison (`pairs`), the pairs of matches (A's and B's on one seed) both runs played."""
    stopped = "A match failed" if failed else "Interrupted"
    unit, report = ("pairs of matches", "comparison below is") if pairs else ("matches", "statistics below are")
    if not played:
        return f"{stopped} after 0 of {planned} {unit}: no {report.split()[0]}."
    if pairs:
        those = "those before it; the error follows it" if failed else "those"
    else:
        those = f"the {played} before it; the error follows them" if failed else f"the first {played}"
    return f"{stopped} after {played} of {planned} {unit}: the {report} of {those}."
