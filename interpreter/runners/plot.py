"""Pictures of a run and of a comparison (`--plot FILE.png`): each side's mean result with its 95% interval,
and the distribution of the results over the matches. matplotlib is an optional extra (`pip install
'ruledeck[plot]'`); the core never imports it."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

from interpreter.errors import RuledeckError
from interpreter.runners.summary import Statistic, Summary

if TYPE_CHECKING:
    from interpreter.runners.comparison import Compared

COLOURS = ("#33669a", "#cc6633")  # A (or a single run), B


class PlotUnavailable(RuledeckError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    if importlib.util.find_spec("matplotlib") is None:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'ruledeck[plot]'")


def _pyplot() -> Any:
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")  # a file, never a window
    import matplotlib.pyplot as pyplot

    return pyplot


def _results(summary: Summary) -> list[Statistic]:
    return [statistic for statistic in summary.statistics() if statistic.key.startswith("result.")]


def _names(statistics: list[Statistic]) -> list[str]:
    return [statistic.label.removesuffix(" result") for statistic in statistics]


def plot_simulation(summary: Summary, path: str, *, title: str) -> None:
    """Two panels: each seat's (or team's) mean result with its 95% interval, and the spread of its results."""
    pyplot = _pyplot()
    results = _results(summary)
    figure, (means, spread) = pyplot.subplots(1, 2, figsize=(12, 5))
    _means_panel(means, [results], _names(results), ["this run"])
    _spread_panel(spread, [results], _names(results), ["this run"])
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)


def plot_comparison(rows: list[Compared], a: Summary, b: Summary, path: str, *, title: str) -> None:
    """Three panels: A's and B's mean results with their intervals, their spreads, and every difference B - A
    with its interval (scaled by A's value, so that statistics of any size share one axis)."""
    pyplot = _pyplot()
    from interpreter.runners.comparison import paired

    a, b = paired(a, b)
    of_a, of_b = _results(a), _results(b)
    names = _names(of_a)
    figure = pyplot.figure(figsize=(14, 10))
    grid = figure.add_gridspec(2, 2, height_ratios=(1, 1.2))
    _means_panel(figure.add_subplot(grid[0, 0]), [of_a, of_b], names, ["A", "B"])
    _spread_panel(figure.add_subplot(grid[0, 1]), [of_a, of_b], names, ["A", "B"])
    _differences_panel(figure.add_subplot(grid[1, :]), rows, a)
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)


def _means_panel(axes: Any, runs: list[list[Statistic]], names: list[str], legends: list[str]) -> None:
    width = 0.8 / len(runs)
    for number, (statistics, legend) in enumerate(zip(runs, legends, strict=True)):
        estimates = [statistic.estimate() for statistic in statistics]
        places = [index + (number - (len(runs) - 1) / 2) * width for index in range(len(estimates))]
        axes.errorbar(places, [e.value for e in estimates], yerr=[[e.value - e.low for e in estimates],
                                                                   [e.high - e.value for e in estimates]],
                      fmt="o", capsize=4, color=COLOURS[number], label=legend)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xticks(range(len(names)), names, rotation=20 if len(names) > 4 else 0)
    axes.set_ylabel("mean result per match")
    axes.set_title("Mean result with its 95% interval")
    if len(runs) > 1:
        axes.legend()


def _spread_panel(axes: Any, runs: list[list[Statistic]], names: list[str], legends: list[str]) -> None:
    width = 0.8 / len(runs)
    for number, statistics in enumerate(runs):
        places = [index + (number - (len(runs) - 1) / 2) * width for index in range(len(statistics))]
        parts = axes.boxplot([list(statistic.values) for statistic in statistics], positions=places,
                             widths=width * 0.9, patch_artist=True, showfliers=True,
                             flierprops={"markersize": 2, "alpha": 0.4})
        for box in parts["boxes"]:
            box.set_facecolor(COLOURS[number])
            box.set_alpha(0.5)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xticks(range(len(names)), names, rotation=20 if len(names) > 4 else 0)
    axes.set_ylabel("result of one match")
    axes.set_title("Results over the matches" + (" (" + " and ".join(legends) + ")" if len(runs) > 1 else ""))


def _differences_panel(axes: Any, rows: list[Compared], a: Summary) -> None:
    """Each difference B - A with its interval, in standard deviations of A's per-match values (so that
    statistics of any size share one axis), its value written beside it; the significant ones in B's colour."""
    from interpreter.runners.report import interval, shown

    spreads = {statistic.key: _spread(statistic.values) for statistic in a.statistics()}
    drawn = [row for row in rows if row.difference is not None and row.difference.count > 1
             and spreads.get(row.statistic.key, 0.0) > 0]
    for place, row in enumerate(drawn):
        assert row.difference is not None
        scale = 1 / spreads[row.statistic.key]
        value, low, high = (row.difference.value * scale, row.difference.low * scale, row.difference.high * scale)
        colour = COLOURS[1] if row.significant else "grey"
        axes.errorbar([value], [place], xerr=[[value - low], [high - value]], fmt="o", capsize=3, color=colour)
        axes.annotate(f"{shown(row.difference.value, row.statistic, signed=True)} "
                      f"({interval(row.difference, row.statistic, signed=True)})", (1.01, place),
                      xycoords=("axes fraction", "data"), va="center", fontsize=7, color=colour)
    axes.axvline(0, color="black", linewidth=0.8)
    axes.set_yticks(range(len(drawn)), [row.statistic.label for row in drawn], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel("B - A with its 95% interval, in standard deviations of A's values over the matches "
                    "(beside: the difference itself)")
    axes.set_title("What changed (in colour: the interval leaves out 0)")


def _spread(values: tuple[float, ...]) -> float:
    import statistics

    measured = [value for value in values if value == value]  # (NaN: nothing measured)
    return statistics.stdev(measured) if len(measured) > 1 else 0.0
