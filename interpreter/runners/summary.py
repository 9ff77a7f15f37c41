"""What a run of many matches measured: one record per match, and from them every statistic with its 95%
interval (each seat's or team's result and share of wins, the length of hands and matches, the first dealer's
advantage, matches stopped by the hand cap, and the ruleset's own metrics)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.stats import Estimate, mean_interval, wilson_interval


@dataclass(frozen=True)
class MatchRecord:
    """One match: each seat's result, its length, whether the hand cap stopped it, who dealt first, and each
    metric's mean over its hands and value at its end."""

    returns: list[int]
    hands: int
    actions: int
    capped: bool
    first_dealer: int
    metric_means: tuple[float, ...] = ()
    metric_last: tuple[float, ...] = ()


@dataclass(frozen=True)
class Statistic:
    """One statistic: its value in each match, in seed order (the pairs of a comparison are by position)."""

    key: str
    label: str
    values: tuple[float, ...]
    share: bool = False  # a share of matches, with Wilson's interval, rather than a mean with Student's
    bounded: bool = False  # each value is a share of hands (a truth value's mean): the interval within 0 and 1

    def estimate(self) -> Estimate:
        if self.share:
            return wilson_interval(sum(self.values), len(self.values))
        found = mean_interval([value for value in self.values if not math.isnan(value)])
        if self.bounded and not math.isnan(found.value):  # (Student's t knows nothing of the bounds)
            return Estimate(found.value, max(found.low, 0.0), min(found.high, 1.0), found.count)
        return found


@dataclass
class Summary:
    """The records of a run's matches, in seed order, and the statistics drawn from them."""

    matches: int  # planned: the records are fewer when the run was interrupted
    players: int
    teams: tuple[tuple[int, ...], ...] = ()
    metrics: tuple[tuple[str, str, bool, bool], ...] = ()  # each metric's name, label, whether to show its end,
    # and whether it is a truth value (its values are shares of hands, its interval kept within 0 and 1)
    records: list[MatchRecord] = field(default_factory=list)
    bots: tuple[str, ...] = ()  # the kind of bot at each seat (one for every seat: the same kind everywhere)

    def add(self, record: MatchRecord) -> None:
        self.records.append(record)

    @property
    def results(self) -> list[list[int]]:
        return [record.returns for record in self.records]

    @property
    def hands(self) -> list[int]:
        return [record.hands for record in self.records]

    @property
    def actions(self) -> list[int]:
        return [record.actions for record in self.records]

    @property
    def capped(self) -> int:
        return sum(record.capped for record in self.records)

    def sides(self) -> list[tuple[str, tuple[int, ...]]]:
        """Who a result belongs to: each team of partners whose results are always equal (`team 0 (p0+p2)`),
        else each seat (`p0`)."""
        teams = [team for team in self.teams if team]
        if teams and any(len(team) > 1 for team in teams) and all(
                len({result[seat] for seat in team}) == 1 for result in self.results for team in teams):
            return [(f"team {number} (" + "+".join(f"p{seat}" for seat in team) + ")", team)
                    for number, team in enumerate(teams)]
        return [(f"p{seat}", (seat,)) for seat in range(self.players)]

    def statistics(self) -> list[Statistic]:
        """Every statistic of the run, in the order reports show them."""
        found: list[Statistic] = []
        sides = self.sides()
        side_results = [[float(result[side[0]]) for _, side in sides] for result in self.results]
        for index, (name, _) in enumerate(sides):
            key = name.split(" (")[0].replace(" ", "")
            found.append(Statistic(f"result.{key}", f"{name} result", tuple(r[index] for r in side_results)))
        for index, (name, _) in enumerate(sides):
            key = name.split(" (")[0].replace(" ", "")
            found.append(Statistic(f"wins.{key}", f"{name} wins", tuple(_share_of_best(r, index)
                                                                         for r in side_results), share=True))
        found.extend(self._by_kind(sides, side_results))
        found.append(Statistic("total", "all results together (" + " + ".join(name.split(" (")[0] for name, _ in sides)
                               + ")", tuple(sum(r) for r in side_results)))
        found.append(Statistic("first_dealer", "first dealer's edge",
                               tuple(self._first_dealer_edge(record, sides) for record in self.records)))
        found.append(Statistic("hands", "hands per match", tuple(float(h) for h in self.hands)))
        found.append(Statistic("actions_per_hand", "actions per hand",
                               tuple(r.actions / r.hands if r.hands else math.nan for r in self.records)))
        found.append(Statistic("capped", "stopped by the hand cap", tuple(float(r.capped) for r in self.records),
                               share=True))
        for index, (name, label, at_end, truth) in enumerate(self.metrics):
            found.append(Statistic(f"metric.{name}", _with(label, "(per hand)"),
                                   tuple(r.metric_means[index] for r in self.records), bounded=truth))
            if at_end:
                found.append(Statistic(f"metric.{name}.end", _with(label, "(at the match's end)"),
                                       tuple(r.metric_last[index] for r in self.records), bounded=truth))
        return found

    def _by_kind(self, sides: list[tuple[str, tuple[int, ...]]],
                 side_results: list[list[float]]) -> list[Statistic]:
        """Where the seats play different kinds of bots (`search:100` among heuristic ones): the sides of each
        kind played by two sides or more, together, their mean result and their share of wins, so that "does the
        rule change who wins" reads as how the players of a kind fare (a kind played by one side alone is that
        side's rows); none where every side plays one kind (or a team mixes kinds)."""
        if len(self.bots) != self.players:
            return []
        kinds = [{self.bots[seat] for seat in side} for _, side in sides]
        if any(len(kind) != 1 for kind in kinds):
            return []
        of_side = [next(iter(kind)) for kind in kinds]
        if len(set(of_side)) < 2:
            return []
        found = []
        for kind in dict.fromkeys(of_side):
            members = [index for index, side_kind in enumerate(of_side) if side_kind == kind]
            if len(members) < 2:
                continue
            who = ("sides" if any(len(side) > 1 for _, side in sides) else "seats") + f" playing {kind}"
            found.append(Statistic(f"kind.result.{kind}", f"{who}: mean result",
                                   tuple(statistics.fmean(r[index] for index in members) for r in side_results)))
            found.append(Statistic(f"kind.wins.{kind}", f"{who}: wins",
                                   tuple(sum(_share_of_best(r, index) for index in members) for r in side_results),
                                   share=True))
        return found

    @staticmethod
    def _first_dealer_edge(record: MatchRecord, sides: list[tuple[str, tuple[int, ...]]]) -> float:
        """The result of the seat (or team) that dealt first, less the mean of the others'."""
        mine = next((side for _, side in sides if record.first_dealer in side), sides[0][1])
        others = [record.returns[side[0]] for _, side in sides if side != mine]
        return record.returns[mine[0]] - statistics.fmean(others) if others else 0.0

    def per_seat(self) -> list[dict[str, float]]:
        rows = []
        for seat in range(self.players):
            values = [result[seat] for result in self.results]
            wins = sum(_share_of_best(result, seat) for result in self.results)
            spread = statistics.stdev(values) if len(values) > 1 else 0.0
            rows.append({"seat": seat, "mean": statistics.fmean(values), "stdev": spread,
                         "stderr": spread / math.sqrt(len(values)), "wins": wins / len(values)})
        return rows

    def as_json(self) -> dict[str, Any]:
        played = len(self.records)
        return {"matches": played, "planned": self.matches, "players": self.players,
                "seats": self.per_seat() if played else [],
                "mean_hands": statistics.fmean(self.hands) if played else None,
                "mean_actions": statistics.fmean(self.actions) if played else None, "capped": self.capped,
                "statistics": {s.key: {"label": s.label, **_estimate_json(s.estimate())} for s in self.statistics()}}


def _estimate_json(estimate: Estimate) -> dict[str, Any]:
    return {"value": _number(estimate.value), "ci95": [_number(estimate.low), _number(estimate.high)]}


def _number(value: float) -> float | None:
    """A float for JSON: NaN (nothing measured) as null."""
    return None if math.isnan(value) else value


def _share_of_best(result: Sequence[float], seat: int) -> float:
    best = max(result)
    tied = sum(1 for value in result if value == best)
    return 1 / tied if result[seat] == best else 0.0


def _with(label: str, said: str) -> str:
    """A metric's label with what its statistic is (`(per hand)`), unless the label says so already."""
    return label if label.casefold().endswith(said.strip("()").casefold()) or label.endswith(said) else \
        f"{label} {said}"
