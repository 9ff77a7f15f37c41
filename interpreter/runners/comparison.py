"""Two runs on the same seeds, compared: each statistic for A and for B, and the mean of the paired differences
B - A with its 95% interval (each pair is one seed played under both rulesets, so luck of the deal largely
cancels out), and the plain words for what changed."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from interpreter.runners.report import decimals, few_matches_note, interval, label_width, shown
from interpreter.runners.summary import Statistic, Summary
from interpreter.stats import Estimate, paired_difference


@dataclass(frozen=True)
class Compared:
    """One statistic of both runs; `difference` is B - A over the pairs where both were measured."""

    statistic: Statistic  # A's (or B's, when A has none): its key, label and kind
    a: Estimate | None
    b: Estimate | None
    difference: Estimate | None

    @property
    def significant(self) -> bool:
        return self.difference is not None and self.difference.excludes(0.0)


def paired(a: Summary, b: Summary) -> tuple[Summary, Summary]:
    """The two runs cut to the matches both finished (the first ones of each: an interrupted run's)."""
    count = min(len(a.records), len(b.records))
    return (dataclasses.replace(a, records=a.records[:count]), dataclasses.replace(b, records=b.records[:count]))


def compare(a: Summary, b: Summary) -> list[Compared]:
    """Every statistic of either run, A's first, with the paired difference where both have it."""
    a, b = paired(a, b)
    of_a = {statistic.key: statistic for statistic in a.statistics()}
    of_b = {statistic.key: statistic for statistic in b.statistics()}
    rows = []
    for key in [*of_a, *(key for key in of_b if key not in of_a)]:
        first, second = of_a.get(key), of_b.get(key)
        difference = None
        if first is not None and second is not None:
            pairs = [(x, y) for x, y in zip(first.values, second.values, strict=True)
                     if not (math.isnan(x) or math.isnan(y))]
            difference = paired_difference([y for _, y in pairs], [x for x, _ in pairs])
        rows.append(Compared(first or second,  # type: ignore[arg-type]  # (one of them is there)
                             first.estimate() if first else None, second.estimate() if second else None,
                             difference))
    return rows


def comparison_lines(rows: list[Compared]) -> list[str]:
    shown_rows = []
    for row in rows:
        statistic = row.statistic
        a = shown(row.a.value, statistic) if row.a else "-"
        b = shown(row.b.value, statistic) if row.b else "-"
        difference = shown(row.difference.value, statistic, signed=True) if row.difference else "-"
        spread = interval(row.difference, statistic, signed=True) if row.difference else ""
        mark = "  *" if row.significant else ""
        shown_rows.append((statistic.label, a, b, difference, spread + mark))
    width = label_width([label for label, *_ in shown_rows])
    values = max([10, *(len(value) for _, *numbers, _ in shown_rows for value in numbers)])
    lines = [f"{'':<{width}} {'A':>{values}} {'B':>{values}} {'B - A':>{values}}   95% interval of B - A"]
    lines.extend(f"{label:<{width}} {a:>{values}} {b:>{values}} {difference:>{values}}   {spread}"
                 for label, a, b, difference, spread in shown_rows)
    pairs = max((row.difference.count for row in rows if row.difference is not None), default=0)
    return lines + few_matches_note(pairs)


def what_changed(rows: list[Compared], bots: Sequence[str] = (), players: int = 0) -> list[str]:
    """The plain words: each statistic whose difference's interval leaves out 0, and how many did not move.
    `bots`: the kinds that played (what else to try is said from them); `players`: the table's seats."""
    changed = [row for row in rows if row.significant]
    measured = [row for row in rows if row.difference is not None and row.difference.count > 1]
    if not measured:
        return ["Too few matches to tell what changed."]
    lines = []
    said: list[Compared] = []
    for row in changed:
        assert row.difference is not None and row.a is not None and row.b is not None
        statistic, difference = row.statistic, row.difference
        if any(_mirrored(row, earlier) for earlier in said):  # (said with the other: the same fact)
            continue
        said.append(row)
        size = abs(difference.value)
        amount = (f"{size * 100:.{decimals(size * 100, 1)}f} percentage points" if statistic.share
                  else f"{size:,.{decimals(size, 2)}f}")
        mirror = next((other for other in changed if other is not row and _mirrored(row, other)), None)
        also = f" {mirror.statistic.label}: {'lower' if difference.value > 0 else 'higher'} by as much (the " \
            "other side of the same matches)." if mirror is not None else ""
        lines.append(f"- {statistic.label}: {'higher' if difference.value > 0 else 'lower'} with B by {amount} "
                     f"({shown(row.a.value, statistic)} -> {shown(row.b.value, statistic)}; 95% interval of the "
                     f"difference {interval(difference, statistic, signed=True)}).{also}")
    sides = [row for row in measured if row.statistic.key.startswith(("result.", "wins."))]
    moved = [row for row in changed if row in sides]
    if len(set(bots)) == 1 and moved and len(moved) < len(sides) and _seats_alike(rows, players):
        lines.append(f"- Every seat plays the same bots and deals as often: {len(moved)} of the sides' "
                     f"{len(sides)} results and wins changing where the others did not may well be chance rather "
                     "than the rule's doing; read them together (all results together), or play more matches.")
    steady = len(measured) - len(changed)
    if all(row.difference.value == row.difference.low == row.difference.high == 0  # type: ignore[union-attr]
           for row in measured):
        other = next((kind for kind in ("random", "heuristic") if kind not in bots), "search")
        lines.append(f"- A and B came out the same in every match, all {len(measured)} statistics alike: the "
                     f"difference between them never came into play (another kind of bot, `--bots {other}`, or "
                     "more matches may reach it).")
        return lines
    if not changed:
        lines.append(f"- Nothing changed significantly: all {steady} differences' intervals include 0.")
    else:
        lines.append(f"- The other {steady} statistics did not change significantly.")
    lines.append(f"  (At 95%, about 1 in 20 of the {len(measured)} statistics compared may seem to change by chance "
                 "alone; more matches narrow the intervals.)")
    return lines


def _seats_alike(rows: list[Compared], players: int) -> bool:
    """Whether the seats take the same places in every match of both runs: each deals as often (every match as
    many hands, a multiple of the seats), and the first dealer's edge did not change (a rule about the dealer,
    or any seat's place, moves one seat and not the others by its own doing)."""
    found = {row.statistic.key: row for row in rows}
    hands, dealer = found.get("hands"), found.get("first_dealer")
    if players < 2 or hands is None or dealer is None or dealer.significant:
        return False
    return all(estimate is not None and estimate.low == estimate.high == estimate.value and
               estimate.value % players == 0 for estimate in (hands.a, hands.b))


def _mirrored(row: Compared, other: Compared) -> bool:
    """Whether two shares of matches are each other's other side in every match of both runs (one of two sides
    wins, a tie shared between them): one of them says all there is to say of both."""
    first, second = row.statistic, other.statistic
    if not (first.share and second.share) or len(first.values) != len(second.values) or \
            row.difference is None or other.difference is None:
        return False
    return all(x + y == 1 for x, y in zip(first.values, second.values, strict=True)) and \
        math.isclose(row.difference.value, -other.difference.value, abs_tol=1e-12)


def comparison_json(rows: list[Compared]) -> dict[str, Any]:
    """Per statistic: its label, `a`, `b`, `difference` (B - A), `ci95` (of the difference) and whether the
    interval leaves out 0; NaN (nothing measured) as null."""
    found = {}
    for row in rows:
        found[row.statistic.key] = {
            "label": row.statistic.label,
            "a": _value(row.a), "b": _value(row.b), "difference": _value(row.difference),
            "ci95": [_number(row.difference.low), _number(row.difference.high)] if row.difference else None,
            "a_ci95": [_number(row.a.low), _number(row.a.high)] if row.a else None,
            "b_ci95": [_number(row.b.low), _number(row.b.high)] if row.b else None,
            "significant": row.significant,
        }
    return found


def _value(estimate: Estimate | None) -> float | None:
    return None if estimate is None else _number(estimate.value)


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value
