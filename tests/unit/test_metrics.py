"""A ruleset's `metrics:`: worked out as each hand ends, before the next hand's first steps, for the state
watched only (not for a bot's copies of it)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from interpreter import CHANCE, load_ruleset
from interpreter.engine.state import State
from interpreter.runners.metrics import HandMeasures, declared_metrics
from interpreter.runners.simulate import Job, play_one

ROOT = Path(__file__).resolve().parents[2]
BOURRE = ROOT / "rulesets" / "bourre.yaml"


def _play(state: State, seed: int) -> None:
    choices = random.Random(seed)
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(choices.choice(state.legal_actions()))


def test_the_shipped_rulesets_declare_their_metrics() -> None:
    bourre = declared_metrics(load_ruleset(BOURRE))
    assert [(m.name, m.label, m.at_match_end) for m in bourre][:2] == [
        ("pot", "pot after the hand", True), ("bourres", "bourré players", False)]
    assert "clean_burracos" in [m.name for m in declared_metrics(load_ruleset("burraco"))]


def test_a_metric_is_read_as_the_hand_ends_before_the_next_hand_antes() -> None:
    game = load_ruleset(BOURRE, {"hands": 4})
    state = State(game, 4, 11)
    measures = HandMeasures(state, declared_metrics(game))
    state.start()
    _play(state, 11)
    # The ruleset's last line of each hand says the pot as the hand ends; the next hand's antes come after.
    logged = [int(found) for event in state.events if event["type"] == "log"
              for found in re.findall(r"^The pot is now (\d+)$", event["text"])]
    assert [hand[0] for hand in measures.hands] == logged and len(logged) == 4
    assert measures.last()[0] == -sum(state.returns())  # at the end: the chips that no seat's result holds
    assert measures.per_hand_means()[0] == sum(logged) / 4


def test_a_copy_of_the_state_records_nothing() -> None:
    game = load_ruleset(BOURRE, {"hands": 2})
    state = State(game, 3, 5)
    measures = HandMeasures(state, declared_metrics(game))
    state.start()
    _play(state.clone(), 5)  # a bot's playout plays a copy to its end
    assert measures.hands == []
    _play(state, 5)
    assert len(measures.hands) == 2


def test_a_truth_value_counts_one_or_zero(tmp_path: Path) -> None:
    variant = tmp_path / "measured.yaml"
    variant.write_text(f"extends: {ROOT / 'tests' / 'games' / 'tiny.yaml'}\nname: Tiny, measured\nmetrics:\n"
                       "  p0_best: {value: 'all(tricks[0] >= tricks[p] for p in seats())', label: p0 most tricks}\n"
                       "  tricks_played: sum(tricks[p] for p in seats())\n", encoding="utf-8")
    record = play_one(Job(str(variant), (), 2, ("random",)), 3)
    assert record.hands == 3 and 0 <= record.metric_means[0] <= 1 and record.metric_means[0] * 3 % 1 == 0
    assert record.metric_means[1] == 5.0  # five tricks a hand


def test_a_ruleset_without_metrics_measures_nothing() -> None:
    record = play_one(Job(str(ROOT / "tests" / "games" / "tiny.yaml"), (), 2, ("random",)), 3)
    assert record.metric_means == () and record.first_dealer == 0


def test_a_truth_values_interval_stays_between_0_and_1(tmp_path: Path) -> None:
    """A truth value's mean is a share of hands: Student's t over a few matches may reach past 0 or 1 (the
    interval of 0.38 over two matches was -1.21 to 1.96), a share's interval never does; a number's is as it is."""
    from interpreter.runners.simulate import new_summary
    variant = tmp_path / "measured.yaml"
    variant.write_text(f"extends: {ROOT / 'tests' / 'games' / 'tiny.yaml'}\nname: Tiny, measured\nparams:\n"
                       "  hands: {default: 2}\nmetrics:\n"
                       "  p0_best: {value: 'all(tricks[0] >= tricks[p] for p in seats())', label: p0 most tricks}\n"
                       "  tricks_played: sum(tricks[p] for p in seats()) - 5\n", encoding="utf-8")
    job = Job(str(variant), (), 2, ("random",))
    assert [metric.truth for metric in declared_metrics(load_ruleset(variant))] == [True, False]
    summary = new_summary(job, 2)
    for seed in range(1, 40):
        summary.records = [play_one(job, seed), play_one(job, seed + 100)]
        shares = {statistic.key: statistic for statistic in summary.statistics()}
        share, number = shares["metric.p0_best"].estimate(), shares["metric.tricks_played"].estimate()
        assert 0 <= share.low <= share.value <= share.high <= 1
        assert number.low == number.high == 0.0  # (five tricks a hand: no spread, nothing bounded)
        first, second = (record.metric_means[0] for record in summary.records)
        if first != second:  # (a spread that Student's t stretches past a bound)
            break
    else:
        raise AssertionError("no two matches differed")
