"""`State.resample` (a state dealt again for one seat, consistent with what it has seen), the search bot, and the
property that bots do not peek: two states that differ only in cards a seat cannot see give that seat's bots
the same decision with the same seed."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from interpreter import CHANCE, Game, State, load_ruleset
from interpreter.actions import Action
from interpreter.agents import SearchAgent, check_kind, make_agent
from interpreter.agents.heuristic import CANDIDATES, HeuristicAgent
from interpreter.agents.search import MOST_ITERATIONS, MOST_SECONDS
from interpreter.cli import cli
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.observation import sees_zone
from interpreter.runners.logfile import seen_event
from tests.cli_helpers import run_apart
from tests.play_helpers import play_out, random_choices

ROOT = Path(__file__).resolve().parent.parent.parent
BOURRE = ROOT / "rulesets" / "bourre.yaml"
BURRACO = ROOT / "rulesets" / "burraco.yaml"
HEARTS = ROOT / "tests" / "games" / "hearts.yaml"
PRESIDENT = ROOT / "tests" / "games" / "president.yaml"


@cache
def game(path: Path) -> Game:
    return load_ruleset(path)


def hidden_places(state: State, seat: int) -> list[tuple[str, int]]:
    found = []
    for name, zone in state.game.ruleset.zones.items():
        if zone.kind == "melds":
            continue
        for owner in ([-1] if zone.owner == "table" else range(len(state.values[name]))):
            if not sees_zone(state, zone, owner, seat):
                found.append((name, owner))
    return found


def cards_of(state: State, key: tuple[str, int]) -> list[int]:
    name, owner = key
    return state.values[name] if owner < 0 else state.values[name][owner]


def played_to(state: State, steps: int, seed: int = 1) -> State:
    """A match played `steps` actions on by random bots, stopped at a decision."""
    state = play_out(state, random_choices(seed), steps)
    while state.current_player == CHANCE:
        state.apply_chance()
    return state


# --- resample --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "players", "steps"), [(BOURRE, 5, 12), (BOURRE, 7, 30), (HEARTS, 4, 20),
                                                         (BURRACO, 4, 25)])
def test_resample_keeps_what_the_seat_sees(path: Path, players: int, steps: int) -> None:
    state = played_to(game(path).new_initial_state(seed=4, players=players), steps)
    seat = state.current_player
    seen_before = state.observation(seat)
    changed = 0
    for draw in range(10):
        trial = state.resample(seat, random.Random(draw))
        assert trial.observation(seat) == seen_before  # sizes, face-up cards, own and public zones, variables
        assert Counter(c for key in hidden_places(state, seat) for c in cards_of(trial, key)) == \
            Counter(c for key in hidden_places(state, seat) for c in cards_of(state, key))
        for key in hidden_places(state, seat):
            assert len(cards_of(trial, key)) == len(cards_of(state, key))
            up = state.face_up.of(key)
            assert Counter(up) <= Counter(cards_of(trial, key)) and trial.face_up.of(key) == up
        changed += any(cards_of(trial, key) != cards_of(state, key) for key in hidden_places(state, seat))
        assert trial.legal_actions() == state.legal_actions()
    assert changed >= 8
    assert state.observation(seat) == seen_before  # the state itself is left as it was


def test_a_deal_for_another_seat_leaves_the_seat_to_act_a_legal_action() -> None:
    """Hearts: the holder of the two of clubs leads it, so that whoever is to lead the first trick holds it, a fact
    every seat knows: a deal for another seat gives it the two of clubs (without the redraw, two in three deals
    left the leader no legal action)."""
    hearts = game(HEARTS)
    state = hearts.new_initial_state(seed=0, players=4)
    chooser = random.Random(0)
    while state.current_player == CHANCE or state.legal_actions()[0].kind != "play":
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(chooser.choice(state.legal_actions()))
    leader, two_of_clubs = state.current_player, hearts.deck.parse_card("2C")
    others = [seat for seat in range(4) if seat != leader]
    for draw in range(30):
        seat = others[draw % 3]
        trial = state.resample(seat, random.Random(draw))
        assert trial.observation(seat) == state.observation(seat)
        assert two_of_clubs in trial.values["hand"][leader] and trial.legal_actions()


def test_resample_is_deterministic_with_its_generator_and_reseeds_the_copy() -> None:
    state = played_to(game(HEARTS).new_initial_state(seed=2), 15)
    seat = state.current_player
    first, second = state.resample(seat, random.Random(5)), state.resample(seat, random.Random(5))
    assert first.values == second.values
    assert first.rng.getstate() == second.rng.getstate() != state.rng.getstate()
    assert state.resample(seat, random.Random(6)).values != first.values


def test_a_passed_card_stays_with_the_player_it_was_passed_to() -> None:
    """Hearts: the three cards p0 passes are known to p0 to be in the receiver's hand until they are played."""
    state = game(HEARTS).new_initial_state(seed=7)
    choose = random_choices(7)
    passed: list[int] = []
    while not (state.phase == "play" and passed and state.current_player != CHANCE):
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        action = choose(state)
        if action.seat == 0 and action.kind == "discard":
            passed.append(action.card)
        state.apply(action)
    receiver = next(seat for seat in range(1, 4) if set(passed) <= set(state.values["hand"][seat]))
    for _ in range(12):  # on through the hand, checking each time p0 decides
        if state.current_player == 0:
            still = [card for card in passed if card in state.values["hand"][receiver]]
            for draw in range(5):
                trial = state.resample(0, random.Random(draw))
                assert Counter(still) <= Counter(trial.values["hand"][receiver])
        state = play_out(state, choose, 1)
        while state.current_player == CHANCE:
            state.apply_chance()
    # the other seats, which did not see the pass, know nothing of where those cards are
    third = next(seat for seat in range(1, 4) if seat != receiver and state.current_player != CHANCE)
    moved = Counter()
    for draw in range(30):
        trial = state.resample(third, random.Random(draw))
        moved.update(card for card in passed if card in state.values["hand"][receiver]
                     and card not in trial.values["hand"][receiver])
    assert sum(moved.values()) > 0


def test_a_pile_taken_into_a_hand_stays_in_it() -> None:
    """Burraco: the cards of a discard pile a player takes are known to every seat to be in that hand."""
    state = game(BURRACO).new_initial_state(seed=3)
    choose = random_choices(3)
    for _ in range(3000):
        if state.is_terminal:
            pytest.skip("no pile was taken")
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        action = choose(state)
        taken = list(state.values["discard"]) if action.kind == "take" else []
        taker = action.seat
        state.apply(action)
        if len(taken) >= 2:
            break
    while state.current_player == CHANCE:
        state.apply_chance()
    seat = (taker + 1) % 4
    still = Counter(taken) & Counter(state.values["hand"][taker])
    assert still
    for draw in range(5):
        assert still <= Counter(state.resample(seat, random.Random(draw)).values["hand"][taker])


def test_a_state_not_played_from_its_start_is_resampled_from_what_its_seat_sees_now() -> None:
    state = played_to(game(HEARTS).new_initial_state(seed=2), 15)
    seat = state.current_player
    other = (seat + 1) % 4, (seat + 2) % 4
    hands = state.values["hand"]
    hands[other[0]][0], hands[other[1]][0] = hands[other[1]][0], hands[other[0]][0]  # (placed by hand)
    trial = state.resample(seat, random.Random(1))
    assert trial.observation(seat) == state.observation(seat)


# --- two states a seat cannot tell apart ---------------------------------------------------------------------------


def replayed(state: State, swap: tuple[int, int]) -> State:
    """The same match with two cards swapped in every shuffle: what changes is only where those two cards lie."""
    a, b = swap
    twin = state.game.new_initial_state(seed=state.seed, players=state.player_count)
    for event in state._events:
        if event[0] == "action":
            twin.apply(event[1])
        elif event[0] == "chance":
            twin.apply_chance([b if card == a else a if card == b else card for card in event[2]])
        elif event[0] == "pick":
            twin.apply_chance(event[2])
    return twin


def twins(path: Path, players: int, seed: int, steps: int, pick: int) -> tuple[State, State, int]:
    """A state at a decision and one that its seat cannot tell from it: two cards it has never seen swapped."""
    state = played_to(game(path).new_initial_state(seed=seed, players=players), steps, seed)
    assume(not state.is_terminal)
    seat = state.current_player
    moved = {card for action in state.history for card in (action.card, *action.cards) if card >= 0}
    unseen = sorted({card for key in hidden_places(state, seat) if key[1] != seat for card in cards_of(state, key)
                     if card not in moved and card not in state.face_up.of(key)})
    pairs = [(a, b) for a in unseen for b in unseen if a < b and not any(
        a in cards_of(state, key) and b in cards_of(state, key) for key in hidden_places(state, seat))]
    assume(pairs)
    try:
        twin = replayed(state, pairs[pick % len(pairs)])
    except IllegalActionError:  # (the swap made a past action illegal: a player held other suits)
        assume(False)
    assume(twin.observation(seat) == state.observation(seat))
    assume([seen_event(event, seat) for event in twin.events] == [seen_event(event, seat) for event in state.events])
    assert twin.values != state.values or twin.face_up.cards != state.face_up.cards
    return state, twin, seat


CASES = [(BOURRE, 5), (HEARTS, 4), (BURRACO, 4)]


@pytest.mark.parametrize(("path", "players"), CASES, ids=["bourre", "hearts", "burraco"])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(1, 10_000), steps=st.integers(0, 40), pick=st.integers(0, 1000),
       bot_seed=st.integers(0, 1000))
def test_bots_decide_the_same_on_states_their_seat_cannot_tell_apart(path: Path, players: int, seed: int,
                                                                     steps: int, pick: int, bot_seed: int) -> None:
    state, twin, seat = twins(path, players, seed, steps, pick)
    hidden = hidden_places(state, seat)
    first, second = state.resample(seat, random.Random(bot_seed)), twin.resample(seat, random.Random(bot_seed))
    assert all(cards_of(first, key) == cards_of(second, key) for key in hidden)
    assert HeuristicAgent(bot_seed).choose(state) == HeuristicAgent(bot_seed).choose(twin)
    assert SearchAgent(bot_seed, iterations=12).choose(state) == SearchAgent(bot_seed, iterations=12).choose(twin)


# --- the bots ------------------------------------------------------------------------------------------------------


def test_search_bot_kinds_and_their_options() -> None:
    assert isinstance(make_agent("search", 1), SearchAgent)
    bot = make_agent("search:400:2.5s", 1)
    assert isinstance(bot, SearchAgent) and (bot.iterations, bot.seconds) == (400, 2.5)
    timed = make_agent("search:1s", 1)
    assert isinstance(timed, SearchAgent) and (timed.iterations, timed.seconds) == (None, 1.0)
    assert check_kind("search:0") and check_kind("search:many") and check_kind("heuristic:3")
    for endless in ("search:infs", "search:1e999s", "search:nans", "search:400:2s:3s", "search:1:2"):
        assert "search takes a number of iterations" in check_kind(endless), endless  # (no budget, or two)
    assert check_kind("searcher") == "unknown bot 'searcher'"
    result = CliRunner().invoke(cli, ["play", str(HEARTS), "--bots", "search:x"])
    assert result.exit_code == 2 and "search takes a number of iterations" in result.output


# (a match played whole as it starts, without a decision: a bot that is accepted ends it at once, whatever its budget)
NO_DECISIONS = str(ROOT / "tests" / "unit" / "playout_files" / "no_decisions.yaml")


def test_search_budgets_up_to_their_caps_are_taken_and_past_them_refused() -> None:
    assert (MOST_ITERATIONS, MOST_SECONDS) == (1_000_000, 3600.0)
    for kind in (f"search:{MOST_ITERATIONS}", f"search:{MOST_SECONDS:g}s", "search:1000000:3600s", "search:1e-3s"):
        assert check_kind(kind) is None, kind
    bot = make_agent("search:1000000:3600s", 1)
    assert isinstance(bot, SearchAgent) and (bot.iterations, bot.seconds) == (1_000_000, 3600.0)
    assert check_kind("search:1000001") == "search takes at most 1,000,000 playouts per decision, not '1000001'"
    assert check_kind("search:3600.5s") == "search takes at most 3600 seconds per decision, not '3600.5s'"
    assert check_kind("search:1e308s") == "search takes at most 3600 seconds per decision, not '1e308s'"
    # (the option past its cap is the one named, wherever it stands)
    assert check_kind("search:2000000:2s") == "search takes at most 1,000,000 playouts per decision, not '2000000'"
    assert check_kind("search:10:7200s") == "search takes at most 3600 seconds per decision, not '7200s'"


@pytest.mark.parametrize(("kind", "message"), [
    ("search:1000000000000", "--bots: search takes at most 1,000,000 playouts per decision, not '1000000000000'"),
    ("search:99999999s", "--bots: search takes at most 3600 seconds per decision, not '99999999s'"),
    ("search:100:86400s", "--bots: search takes at most 3600 seconds per decision, not '86400s'"),
])
@pytest.mark.parametrize("command", ["play", "simulate", "compare"])
def test_a_search_budget_past_its_cap_is_a_usage_error(command: str, kind: str, message: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "three_hands.yaml"  # (compare's B: other rules, no decision either)
    other.write_text(Path(NO_DECISIONS).read_text().replace("hands: 2", "hands: 3"))
    arguments = {"play": ["play", NO_DECISIONS, "--seed", "1"],
                 "simulate": ["simulate", NO_DECISIONS, "-n", "2", "--workers", "1"],
                 "compare": ["compare", NO_DECISIONS, str(other), "-n", "2", "--workers", "1"]}[command]
    code, out, err = run_apart([*arguments, "--bots", kind], capsys)
    assert code == 2 and out == "", (code, out, err)
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(("kind", "option"), [
    ("search:0", "0"), ("search:-1", "-1"), ("search:0s", "0s"), ("search:nan s", "nan s"), ("search:nans", "nans"),
    ("search:inf s", "inf s"), ("search:infs", "infs"), ("search:1e400s", "1e400s"), ("search:1e-400s", "1e-400s"),
    ("search:", ""), ("search:10:", ""), ("search::10", ""), ("search:1.5", "1.5"),
])
def test_a_search_budget_that_is_no_budget_is_a_usage_error(kind: str, option: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_apart(["play", NO_DECISIONS, "--seed", "1", "--bots", kind], capsys)
    assert code == 2 and out == "", (code, out, err)
    assert (f"--bots: search takes a number of iterations and/or seconds (search:400, search:2s, search:400:2s), "
            f"not {option!r}") in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["play", "simulate", "compare", "serve"])
def test_the_bots_help_names_the_search_caps(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_apart([command, "--help"], capsys)
    assert code == 0
    assert f"(up to {MOST_ITERATIONS:,})" in out and f"(up to {MOST_SECONDS:g})" in out


def test_search_bot_is_deterministic_with_its_seed_and_plays_a_match_out() -> None:
    tiny = game(ROOT / "tests" / "games" / "tiny.yaml")
    bots = [SearchAgent(seat, iterations=8) for seat in range(tiny.ruleset.players.default)]

    def choose(state: State) -> Any:
        return bots[state.current_player].choose(state)

    ended = play_out(tiny.new_initial_state(seed=1), choose, 5000)
    assert ended.is_terminal
    again = [SearchAgent(seat, iterations=8) for seat in range(tiny.ruleset.players.default)]
    replay = play_out(tiny.new_initial_state(seed=1), lambda state: again[state.current_player].choose(state), 5000)
    assert replay.history == ended.history
    assert sum(bot.decisions for bot in bots) > 0


def test_heuristic_bot_plays_out_a_bounded_number_of_choices() -> None:
    """President: a lead may be any rank in any number held; only CANDIDATES of them are played out."""
    state = game(PRESIDENT).new_initial_state(seed=1)
    while state.current_player == CHANCE:
        state.apply_chance()
    legal = state.legal_actions()
    bot = HeuristicAgent(1)
    if len(legal) <= CANDIDATES:
        pytest.skip("a lead with few choices")
    candidates = bot._candidates(legal)
    assert len(candidates) == CANDIDATES and set(candidates) <= set(legal)
    assert [action for action in legal if not action.arguments] == \
        [action for action in candidates if not action.arguments]
    assert bot.choose(state) in legal


# --- how the search bot weighs a decision --------------------------------------------------------------------------

WHIST = ROOT / "tests" / "games" / "whist.yaml"


def whist_decision(seed: int = 3, steps: int = 6) -> State:
    """Whist played on by random bots to a card play with several cards to choose from."""
    state = played_to(game(WHIST).new_initial_state(seed=seed), steps, seed)
    while len(state.legal_actions()) < 3:
        state = played_to(play_out(state, random_choices(seed), 1), 0)
    return state


def test_search_bot_counts_its_rivals_gains_against_its_own() -> None:
    """Whist: a partnership's gain is its score's less the other side's, so a hand the other side wins by less
    counts for something (scored by its own points alone, every hand lost would look the same: nothing)."""
    state = whist_decision()
    seat = state.current_player
    assert SearchAgent.rivals(state, seat) == sorted([(seat + 1) % 4, (seat + 3) % 4])
    bourre = game(BOURRE).new_initial_state(seed=1, players=5)
    assert SearchAgent.rivals(bourre, 2) == [0, 1, 3, 4]
    bot = SearchAgent(1, iterations=8)
    action = state.legal_actions()[0]
    deal = state.resample(seat, random.Random(1))
    ours = bot._playout(deal.clone(), seat, action, 7, SearchAgent.rivals(state, seat))
    other = (seat + 1) % 4
    theirs = bot._playout(deal.clone(), other, action, 7, SearchAgent.rivals(state, other))
    assert ours == -theirs != 0  # a hand's odd tricks go to one side or the other


def test_search_bot_plays_every_candidate_on_the_same_deal_and_moves() -> None:
    """Bourré, whose cheap policy decides pass or play at random: a playout is fixed by its deal and its moves,
    so that candidates are compared on the same luck."""
    state = played_to(game(BOURRE).new_initial_state(seed=2, players=5), 3, 2)
    seat = state.current_player
    bot = SearchAgent(1, iterations=8)
    rivals = SearchAgent.rivals(state, seat)
    for draw in range(5):
        deal = state.resample(seat, random.Random(draw))
        action = state.legal_actions()[0]
        first = bot._playout(deal.clone(), seat, action, draw, rivals)
        bot.policy.rng.random()  # (whatever the policy drew before)
        assert bot._playout(deal.clone(), seat, action, draw, rivals) == first


def test_search_bot_keeps_the_habits_choice_without_evidence_against_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playouts that cannot tell the actions apart (pure noise) leave the cheap policy's choice; gains
    consistently higher for another action make the bot play that one."""
    state = whist_decision()
    habit = SearchAgent(0).policy.choose(state)
    noise = random.Random(5)
    monkeypatch.setattr(SearchAgent, "_playout", lambda self, *args: noise.gauss(0, 10))
    kept = sum(SearchAgent(seed, iterations=60).choose(state) == habit for seed in range(20))
    assert kept >= 17  # (the best of four means alone: about one time in four)
    other = next(action for action in state.legal_actions() if action != habit)
    monkeypatch.setattr(SearchAgent, "_playout",
                        lambda self, trial, seat, action, moves, rivals: noise.gauss(0, 1) + 3 * (action == other))
    assert SearchAgent(1, iterations=60).choose(state) == other
    assert SearchAgent.convincing([1.0, 1.0, 1.0], [0.0, 0.0, 0.0])
    assert not SearchAgent.convincing([5.0, -5.0, 6.0, -4.0], [0.0, 0.0, 0.0, 0.0])


def test_search_bot_spends_its_budget_and_halves_the_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    state = whist_decision()
    tried: list[Action] = []

    def playout(self: SearchAgent, trial: State, seat: int, action: Action, moves: int, rivals: list[int]) -> float:
        tried.append(action)
        return float(state.legal_actions().index(action))  # the last legal action is best

    monkeypatch.setattr(SearchAgent, "_playout", playout)
    bot = SearchAgent(1, iterations=60)
    assert bot.choose(state) == state.legal_actions()[-1]
    counts = Counter(tried)
    assert 45 <= len(tried) <= 60
    assert len(counts) == len(state.legal_actions())
    assert counts[state.legal_actions()[-1]] > min(counts.values())  # (the worse half dropped, stage by stage)
    timed = SearchAgent(1, iterations=None, seconds=0.05)
    assert timed.choose(state) in state.legal_actions()


BOOKS_LATE = ROOT / "tests" / "unit" / "bot_files" / "go_fish_books_late.yaml"


@pytest.mark.parametrize(("kind", "seed"), [("heuristic", 1), ("search:20", 2)])
def test_a_playout_the_rules_cannot_go_on_with_is_dropped_not_the_match(kind: str, seed: int) -> None:
    # The deal a bot draws again keeps what its seat has seen, not every fact the rules keep true by themselves:
    # here another seat may be dealt four of a rank that the real game would have laid down, and the playout
    # reaches a seat with no legal action. That deal is dropped and another drawn; the match went on to fail
    # with the playout's error, at a position the real game never reached.
    result = CliRunner().invoke(cli, ["play", str(BOOKS_LATE), "--players", "2", "--seed", str(seed), "--bots",
                                      kind])
    assert result.exit_code == 0, result.output
    assert "Match over after 1 hand" in result.output and "runtime error" not in result.output
