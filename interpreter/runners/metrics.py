"""The measures a ruleset declares under `metrics:`, worked out in a match's state as each of its hands ends (the
engine's `hand_end_hook`: the next hand's first steps run within the same action, so the end of a hand cannot be
read from outside afterwards)."""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.engine.game import Game
from interpreter.engine.program import Expr
from interpreter.engine.state import State
from interpreter.source import MappingNode, ScalarNode, scalar, yaml_path


@dataclass(frozen=True)
class Metric:
    name: str
    label: str
    expression: Expr
    at_match_end: bool = False  # also reported as the match ends (e.g. chips left in a pot)
    truth: bool = False  # a truth value (counted 1 or 0): its mean is a share of hands, between 0 and 1


def declared_metrics(game: Game) -> tuple[Metric, ...]:
    """The ruleset's metrics, in the order it declares them (the loader has checked and compiled each)."""
    section = game.ruleset.tree.entries.get("metrics")
    found = []
    for name, node in (section.entries.items() if isinstance(section, MappingNode) else ()):
        label, at_end = name, False
        path: tuple[str, ...] = ("metrics", name)
        if isinstance(node, MappingNode):
            given = node.entries.get("label")
            label = str(given.value) if isinstance(given, ScalarNode) else name
            at_end = scalar(node.entries.get("at_match_end")) is True
            path = ("metrics", name, "value")
        where = yaml_path(path)
        function = game.ruleset.expressions[where]
        truth = str(game.ruleset.shown_types.get(where)) == "bool"
        found.append(Metric(name, label, Expr(function, where, getattr(function, "keeps", True)), at_end, truth))
    return tuple(found)


class HandMeasures:
    """Records, for one state, each metric's value as each hand ends (a truth value counts 1 or 0). Copies of the
    state (a bot's playouts) keep the hook, but only the state watched is recorded."""

    def __init__(self, state: State, metrics: tuple[Metric, ...]) -> None:
        self.state = state
        self.metrics = metrics
        self.hands: list[tuple[float, ...]] = []
        if metrics:
            state.hand_end_hook = self._record

    def _record(self, state: State) -> None:
        if state is self.state:
            self.hands.append(tuple(float(state.evaluate(metric.expression, {})) for metric in self.metrics))

    def per_hand_means(self) -> tuple[float, ...]:
        """Each metric's mean over the hands of the match."""
        if not self.hands:
            return tuple(float("nan") for _ in self.metrics)
        return tuple(sum(values) / len(values) for values in zip(*self.hands, strict=True))

    def last(self) -> tuple[float, ...]:
        """Each metric as the last hand ended: at the end of the match, once it is over."""
        return self.hands[-1] if self.hands else tuple(float("nan") for _ in self.metrics)

    def summary(self) -> str | None:
        """One match's metrics in words (each one's mean over the hands recorded, and its value at the end for
        those declared `at_match_end`), or None when the ruleset declares none or no hand ended."""
        if not self.metrics or not self.hands:
            return None
        hands = len(self.hands)
        means = ", ".join(f"{metric.label} {_number(value)}"
                          for metric, value in zip(self.metrics, self.per_hand_means(), strict=True))
        line = f"Metrics, mean per hand over {hands} hand{'s' if hands != 1 else ''}: {means}"
        ending = [f"{metric.label} {_number(value)}"
                  for metric, value in zip(self.metrics, self.last(), strict=True) if metric.at_match_end]
        return line + (f"; at the match's end: {', '.join(ending)}." if ending else ".")


def _number(value: float) -> str:
    """A measure as a summary shows it: a whole number as it is, else with two decimals."""
    return f"{value:,.0f}" if value == int(value) else f"{value:,.2f}"
