"""benchmarks/plain/canasta.py stays tests/games/canasta.yaml exactly, decision by decision.

benchmarks/games_speed.py times the engine's Canasta against the plain-Python one; the timing means something only
while both play the same game. Comparing the sizes of their legal sets (tests/unit/test_plain_games.py) misses real
rule changes (an initial meld without its minimum, going out without a canasta), so here the engine plays, and at
each of its decisions the plain game is asked about the very same position:

  * the legal sets: the plain game's position is rebuilt from the engine's `state.values`, and its own legal-set
    code (`Canasta.first_options`, `Canasta.meld_options`) must give exactly the engine's legal set, compared
    action by action by what makes an action (its cards and what each wild card stands for, the meld added to,
    the card discarded), each action offered once;
  * the scores: at the end of each hand the plain game scores the engine's final position (`score_hand`) and
    must find the engine's hand scores;
  * the play: whole matches are also played by the plain game's own code (`play_match`: the deal, red threes
    laid out and replaced, the pile taken, melds laid, cards added and discarded, going out, the scores, the
    dealer passing, the end of the match), beside the engine's, its decisions made by the engine's choices and
    its deals laid out as the engine's; before every decision the two positions, players and legal sets must be
    the same, and at the end of each hand who went out, whether concealed, and the scores.

The engine plays random matches from fixed seeds (as benchmarks/games_speed.py plays them), which reach most rules
within a few thousand decisions, as the tests assert (each minimum of the initial meld, frozen piles, the
exhausted stock, a red three drawn last, all four red threes, ...); the few that random play almost never reaches
(black threes, going out concealed, an initial meld that would keep one card) are played from set-up positions.
Not reached: two sides equal at the target (another hand is played), which only a match set up near its end
would show.

Cards are compared as numbers, which the first test holds to mean the same cards in both games: each number's
text in the engine's deck is the plain game's name for it.
"""

from __future__ import annotations

import collections
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from interpreter import CHANCE, Action, Game, load_ruleset
from interpreter.actions import meld_sizes
from interpreter.engine.melds import Meld
from interpreter.engine.state import State
from tests import plain_helpers

ROOT = Path(__file__).resolve().parents[2]
PLAIN = ROOT / "benchmarks" / "plain" / "canasta.py"
RULESET = ROOT / "tests" / "games" / "canasta.yaml"
# (seeds chosen to reach the rarer rules of random play: a side below zero, a red three drawn last, black threes)
SEEDS = (11, 19, 21)
DECISIONS = 8000  # per seed, for the legal sets and the scores of the hands they finish
MATCHES = 4  # per seed, played beside the engine by the plain game's own code

# An action as both games can say it: its kind, then for a meld or a take that lays melds the melds (each its
# sorted (card, role) pairs, a role being the rank a wild card stands for, "" for a natural card), for an
# addition (also of the pile's top card) the rank of the meld added to and the card, for a discard the card.
Key = tuple[Any, ...]
Counts = collections.Counter[str]

# The values of a position that are compared while the two games play side by side.
COMPARED = ("score", "stock", "discard", "hand", "melds", "red_threes", "opened", "has_melded", "frozen", "red_last")


def load_plain(path: Path = PLAIN) -> ModuleType:
    """The plain game's module, loaded by path (benchmarks/ is no package)."""
    return plain_helpers.load_plain(path, "plain_canasta_checked")


@pytest.fixture(scope="module")
def plain() -> ModuleType:
    return load_plain()


@pytest.fixture(scope="module")
def game() -> Game:
    return load_ruleset(RULESET)


# ---------------------------------------------------------------------------------------------- positions


def position(plain: ModuleType, state: State) -> Any:
    """The plain game at the engine's position: every value its legal sets, turns and scores read."""
    values = state.values
    assert list(values["team_of"]) == [0, 1, 0, 1], "the plain game's sides are seats 0 and 2, 1 and 3"
    rebuilt = plain.Canasta(random.Random(0), [], 1 << 62)
    rebuilt.score = list(values["score"])
    rebuilt.stock = list(values["stock"])
    rebuilt.discard = list(values["discard"])
    rebuilt.hand = [list(cards) for cards in values["hand"]]
    rebuilt.melds = [[[meld.rank, list(meld.cards), sum(meld.wild)] for meld in melds] for melds in values["melds"]]
    rebuilt.red_threes = [list(cards) for cards in values["red_threes"]]
    rebuilt.opened = list(values["opened"])
    rebuilt.has_melded = list(values["has_melded"])
    rebuilt.frozen = values["frozen"]
    rebuilt.red_last = values["red_last"]
    rebuilt.hand_over = values["hand_over"]
    rebuilt.turn_done = values["turn_done"]
    rebuilt.went_out = -1 if values["went_out"] is None else values["went_out"]
    rebuilt.concealed = values["concealed"]
    return rebuilt


def comparable(score: list[int], stock: list[int], discard: list[int], hand: list[list[int]],
               melds: list[list[tuple[int, Any, int]]], red_threes: list[list[int]], opened: list[bool],
               has_melded: list[bool], frozen: bool, red_last: bool) -> dict[str, Any]:
    """A position as it is compared (a copy): the sides' totals, the stock and the pile in order, the hands and
    the red threes as multisets (their order is no rule), each side's melds as (rank, sorted cards, wild cards)."""
    return {
        "score": list(score),
        "stock": list(stock),
        "discard": list(discard),
        "hand": [sorted(cards) for cards in hand],
        "melds": [sorted((rank, tuple(sorted(cards)), wilds) for rank, cards, wilds in side) for side in melds],
        "red_threes": [sorted(cards) for cards in red_threes],
        "opened": list(opened),
        "has_melded": list(has_melded),
        "frozen": frozen,
        "red_last": red_last,
    }


def engine_position(state: State) -> dict[str, Any]:
    """The engine's position, to compare."""
    values = state.values
    melds = [[(meld.rank, meld.cards, sum(meld.wild)) for meld in side] for side in values["melds"]]
    return comparable(**{name: values[name] for name in COMPARED if name != "melds"}, melds=melds)


def plain_position(game: Any) -> dict[str, Any]:
    """The plain game's position, to compare."""
    return comparable(**{name: getattr(game, name) for name in COMPARED})


def assert_same_position(engine: dict[str, Any], mine: dict[str, Any], where: str) -> None:
    """The two games' positions are the same (the cards as numbers, as both games number them)."""
    differ = [name for name in COMPARED if engine[name] != mine[name]]
    assert not differ, (f"{where}: the positions differ in {differ}\n"
                        + "\n".join(f"  {name}, engine: {engine[name]}\n  {name}, plain:  {mine[name]}"
                                    for name in differ))


# ---------------------------------------------------------------------------------------------- actions


def engine_keys(state: State, legal: list[Action]) -> list[Key]:
    """The keys of engine actions of the player in turn."""
    melds = state.values["melds"][state.values["team_of"][state.current_player]]
    rank_of = {meld.id: meld.rank for meld in melds}
    keys: list[Key] = []
    for action in legal:
        kind = action.kind
        if kind in ("draw", "choose"):
            keys.append((action.name if kind == "choose" else "draw",))
        elif kind == "discard":
            keys.append(("discard", action.card))
        elif kind == "add":
            keys.append(("add", rank_of[action.target], action.card))
        elif kind == "take" and not action.cards:
            keys.append(("take_add", rank_of[action.target], action.card))
        else:
            assert kind in ("meld", "take"), action
            pairs = list(zip(action.cards, action.roles, strict=True))
            laid, start = [], 0
            for size in meld_sizes(action):
                laid.append(tuple(sorted(pairs[start:start + size])))
                start += size
            keys.append((kind, tuple(sorted(laid))))
    return keys


def plain_keys(plain: ModuleType, game: Any, legal: list[tuple[Any, ...]]) -> list[Key]:
    """The keys of the plain game's actions (`game` at the position they were found for)."""
    keys: list[Key] = []
    for action in legal:
        kind = action[0]
        if kind == plain.DRAW:
            keys.append(("draw",))
        elif kind == plain.STOP:
            keys.append(("stop",))
        elif kind == plain.END_PLAY:
            keys.append(("end_play",))
        elif kind == plain.DISCARD:
            keys.append(("discard", action[1]))
        elif kind == plain.ADD:
            keys.append(("add", action[1][0], action[2]))
        elif kind == plain.TAKE_ADD:
            keys.append(("take_add", action[1][0], game.discard[-1]))
        else:
            assert kind in (plain.MELD, plain.TAKE_MELD), action
            laid = [tuple(sorted((card, plain.RANK_NAMES[rank] if plain.WILD[card] else "") for card in cards))
                    for rank, cards, _, _ in action[1]]
            keys.append(("meld" if kind == plain.MELD else "take", tuple(sorted(laid))))
    return keys


def key_text(plain: ModuleType, key: Key) -> str:
    """A key as text: `meld 5S 5H JK=5 + QD QC QH`, `add QD to Q`, `take_add AC to A`, `discard 4S`."""
    kind = key[0]
    if kind in ("meld", "take"):
        return f"{kind} " + " + ".join(" ".join(plain.card_name(card) + (f"={role}" if role else "")
                                                for card, role in meld) for meld in key[1])
    if kind in ("add", "take_add"):
        return f"{kind} {plain.card_name(key[2])} to {plain.RANK_NAMES[key[1]]}"
    if kind == "discard":
        return f"discard {plain.card_name(key[1])}"
    return kind


def is_first(keys: list[Key]) -> bool:
    """Whether a legal set is that of a turn's first decision: each such set offers to draw, take the pile or
    stop, and the turn's later decisions none of these."""
    return any(key[0] in ("draw", "take", "take_add", "stop") for key in keys)


def assert_same_legal(plain: ModuleType, engine: list[Key], mine: list[Key], where: str,
                      shown: Callable[[], str]) -> None:
    """The two legal sets are the same actions, the plain game's each once (`shown`: the position, described)."""
    repeated = [key for key, count in collections.Counter(mine).items() if count > 1]
    if repeated:
        pytest.fail(f"{where}: the plain game offers an action more than once: "
                    f"{[key_text(plain, key) for key in repeated[:5]]}\n{shown()}", pytrace=False)
    if set(engine) != set(mine):
        only_engine = sorted(set(engine) - set(mine))
        only_plain = sorted(set(mine) - set(engine))
        pytest.fail(
            f"{where}: the legal sets differ ({len(engine)} actions in the engine's, {len(mine)} in the plain "
            f"game's)\n"
            f"  only the engine's: {len(only_engine)}, {[key_text(plain, key) for key in only_engine[:6]]}\n"
            f"  only the plain game's: {len(only_plain)}, {[key_text(plain, key) for key in only_plain[:6]]}\n"
            f"{shown()}", pytrace=False)


def describe(plain: ModuleType, game: Any, player: int) -> str:
    """The position, for the failure messages."""
    side = player % 2

    def names(cards: list[int]) -> str:
        return " ".join(plain.card_name(card) for card in cards)

    return (f"  p{player}'s hand: {names(sorted(game.hand[player]))}\n"
            f"  pile: ... {names(game.discard[-4:])} ({len(game.discard)} cards{', frozen' if game.frozen else ''}); "
            f"stock: {len(game.stock)} cards\n"
            f"  side {side}: {'opened' if game.opened[side] else 'not opened'}, score {game.score[side]}, melds "
            f"{[names(meld[1]) for meld in game.melds[side]]}, red threes {names(game.red_threes[side]) or '-'}"
            f"{'; a red three was drawn last' if game.red_last else ''}")


# ---------------------------------------------------------------------------------------------- what was reached


def reached(seen: Counts, plain: ModuleType, game: Any, player: int, keys: list[Key]) -> None:
    """Count the rules a decision exercises, so that the test can tell its seeds still reach them."""
    side = player % 2
    kinds = {key[0] for key in keys}
    first = is_first(keys)
    seen["first decisions"] += first
    seen.update(f"offers {kind}" for kind in kinds)
    if not game.opened[side] and ("take" in kinds or not first):
        seen[f"initial meld of {plain.minimum(game.score[side])}"] += 1
    seen["initial meld of several melds"] += any(key[0] == "meld" and len(key[1]) > 1 for key in keys)
    seen["frozen pile taken"] += game.frozen and "take" in kinds
    seen["black threes"] += any(key[0] in ("meld", "take") and any(all(card in (0, 3) for card, _ in meld)
                                                                    for meld in key[1]) for key in keys)
    if first and not game.stock:
        seen["stock exhausted, " + ("may stop" if "stop" in kinds else "must take")] += 1
    seen["hand of two, no canasta"] += not first and len(game.hand[player]) == 2 and not game.has_canasta(side)
    seen["over a thousand actions"] += len(keys) > 1000


def reached_end(seen: Counts, values: dict[str, Any]) -> None:
    """Count how a hand ended, and what its scores counted."""
    if values["went_out"] is not None:
        seen["went out concealed" if values["concealed"] else "went out"] += 1
    else:
        seen["red three drawn last" if values["red_last"] else "play stopped"] += 1
    for side in (0, 1):
        melds = values["melds"][side]
        seen["clean canasta"] += any(len(meld.cards) >= 7 and not any(meld.wild) for meld in melds)
        seen["mixed canasta"] += any(len(meld.cards) >= 7 and any(meld.wild) for meld in melds)
        seen["red threes, nothing melded"] += bool(values["red_threes"][side]) and not melds
        seen["all four red threes"] += len(values["red_threes"][side]) == 4


REACHED = ("offers draw", "offers take", "offers take_add", "offers stop", "offers meld", "offers add",
           "offers end_play", "offers discard", "initial meld of 15", "initial meld of 50", "initial meld of 90",
           "initial meld of 120", "initial meld of several melds", "frozen pile taken", "black threes",
           "stock exhausted, may stop", "stock exhausted, must take", "hand of two, no canasta",
           "over a thousand actions", "went out", "play stopped", "red three drawn last", "clean canasta",
           "mixed canasta", "red threes, nothing melded", "all four red threes")


# ---------------------------------------------------------------------------------------------- the checks


def check_legal_sets_and_scores(plain: ModuleType, game: Game, seed: int, decisions: int, seen: Counts) -> None:
    """Random play through the engine for `decisions` decisions: at each, the plain game's legal set at the
    engine's position; at the end of each hand, the plain game's scores of the engine's final position."""
    rng = random.Random(seed)
    made = match = 0
    while made < decisions:
        state = game.new_initial_state(seed=seed * 1000 + match)
        match += 1

        def scored(state: State, where: str = f"seed {seed}, match {match}") -> None:
            values = state.values
            final = position(plain, state)
            final.score = [values["score"][side] - values["hand_score"][side] for side in (0, 1)]
            before = list(final.score)
            final.score_hand()
            mine = [final.score[side] - before[side] for side in (0, 1)]
            assert mine == list(values["hand_score"]), (
                f"{where}, hand {values['hand_number']}: the plain game scores the hand {mine}, the engine "
                f"{list(values['hand_score'])}\n  went out: {values['went_out']}"
                f"{' concealed' if values['concealed'] else ''}; melds "
                f"{[[plain.card_name(card) for card in meld.cards] for melds in values['melds'] for meld in melds]};"
                f" red threes {values['red_threes']}; cards left in the hands {[len(c) for c in values['hand']]}")
            reached_end(seen, values)

        state.hand_end_hook = scored
        while not state.is_terminal and made < decisions:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            player = state.current_player
            legal = state.legal_actions()
            engine = engine_keys(state, legal)
            rebuilt = position(plain, state)
            first = is_first(engine)
            found = rebuilt.first_options(player) if first else rebuilt.meld_options(player)
            where = (f"seed {seed}, match {match}, hand {state.values['hand_number']}, decision {made} "
                     f"(p{player}, {'first' if first else 'later'} decision of the turn)")
            assert_same_legal(plain, engine, plain_keys(plain, rebuilt, found), where,
                              lambda rebuilt=rebuilt, player=player: describe(plain, rebuilt, player))
            reached(seen, plain, rebuilt, player, engine)
            state.apply(legal[rng.randrange(len(legal))])
            made += 1


class Lockstep:
    """The plain game's own code played beside the engine, decision by decision. Its decisions are the engine's
    (scripted, else random), found in its own legal set; before each, the two positions, players and legal sets
    must be the same; at the end of each hand, the two positions, who went out (concealed or not) and the hand's
    scores. Attached to a plain game, it makes its decisions and checks its hands' ends; it also stands in for
    the plain game's `random.Random` in a match, where `shuffle` lays the deck so that the plain game's own deal
    gives the engine's."""

    def __init__(self, plain: ModuleType, state: State, rng: random.Random, where: str,
                 script: tuple[str, ...] = ()) -> None:
        self.plain, self.state, self.rng, self.where = plain, state, rng, where
        self.script = list(script)
        self.hand_where = f"{where}, hand {state.values['hand_number']}"
        self.player = -1
        self.decisions = 0
        self.ended: dict[str, Any] | None = None  # the engine's position and outcome at the end of its hand
        self.seen: Counts = collections.Counter()  # how the hands were dealt and how they ended
        self.last: dict[str, Any] | None = None  # the end of the last hand
        state.hand_end_hook = self.hand_end

    def attach(self, game: Any) -> Any:
        """Make `game`'s decisions here, and check the end of each of its hands; `game`."""
        self.game = game
        game.choose = self.choose
        turn: Callable[[int], None] = game.play_turn
        score: Callable[[], None] = game.score_hand

        def play_turn(player: int) -> None:
            self.player = player
            turn(player)

        def score_hand() -> None:
            before = list(game.score)
            score()
            self.check_end([game.score[side] - before[side] for side in (0, 1)])

        game.play_turn = play_turn
        game.score_hand = score_hand
        return game

    def shuffle(self, deck: list[int]) -> None:
        """The deck, laid so that the plain game deals the engine's deal of its next hand: the hands eleven cards
        each from its start, the stock after them, the pile's cards last (its first card the deck's last). The
        engine's first player has laid out the red threes dealt to him (the plain game lays them in its turn): they
        go back into his hand, the cards that replaced them back onto the stock."""
        state = self.state
        assert not state.is_terminal, f"{self.where}: the engine's match is over, the plain game's goes on"
        while state.current_player == CHANCE:
            state.apply_chance()
        values = state.values
        self.hand_where = f"{self.where}, hand {values['hand_number']}"
        self.ended = None
        player = state.current_player
        hands = [list(cards) for cards in values["hand"]]
        laid = list(values["red_threes"][player % 2])
        assert not values["red_threes"][1 - player % 2], self.hand_where
        kept = len(hands[player]) - len(laid)
        drawn, hands[player] = hands[player][kept:], hands[player][:kept] + laid
        dealt = [card for cards in hands for card in cards]
        deck[:] = dealt + list(values["stock"]) + drawn[::-1] + list(values["discard"])[::-1]
        assert len(deck) == 108 and all(len(cards) == 11 for cards in hands), self.hand_where
        self.seen["upcard covered"] += len(values["discard"]) > 1
        self.seen["red threes dealt to the first player"] += bool(laid)

    def hand_end(self, state: State) -> None:
        values = state.values
        self.ended = {"position": engine_position(state), "hand_score": list(values["hand_score"]),
                      "went_out": values["went_out"], "concealed": values["concealed"], "red_last": values["red_last"]}

    def choose(self, legal: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        """The engine's decision, made in both games; first the positions, the players and the legal sets."""
        state, game, plain = self.state, self.game, self.plain
        where = f"{self.hand_where}, decision {self.decisions}"
        assert self.ended is None, f"{where}: the engine's hand is over, the plain game's goes on"
        assert state.current_player == self.player, \
            f"{where}: the engine's player in turn is p{state.current_player}, the plain game's p{self.player}"
        assert_same_position(engine_position(state), plain_position(game), where)
        actions = state.legal_actions()
        keys = engine_keys(state, actions)
        found = plain_keys(plain, game, legal)
        assert_same_legal(plain, keys, found, where, lambda: describe(plain, game, self.player))
        if self.script:
            key = engine_keys(state, [Action.parse(self.script[0], state.game.deck)])[0]
            assert key in keys, f"{where}: `{self.script[0]}` is not legal (the set-up position is not as meant)"
            index = keys.index(key)
            del self.script[0]
        else:
            index = self.rng.randrange(len(actions))
        state.apply(actions[index])
        self.decisions += 1
        return legal[found.index(keys[index])]

    def check_end(self, scores: list[int]) -> None:
        """The plain game's hand is over: so must the engine's be, as it is."""
        game, where, ended = self.game, self.hand_where, self.ended
        assert ended is not None, f"{where}: the plain game's hand is over, the engine's goes on"
        assert_same_position(ended["position"], plain_position(game), f"{where}, at its end")
        went_out = None if game.went_out < 0 else game.went_out
        assert (went_out, game.concealed) == (ended["went_out"], ended["concealed"]), (
            f"{where}: went out: p{went_out} (concealed: {game.concealed}) in the plain game, "
            f"p{ended['went_out']} (concealed: {ended['concealed']}) in the engine")
        assert scores == ended["hand_score"], \
            f"{where}: the plain game scores the hand {scores}, the engine {ended['hand_score']}"
        self.seen["went out" if went_out is not None else
                  "red three drawn last" if ended["red_last"] else "play stopped"] += 1
        self.last = ended
        self.ended = None


def check_matches(plain: ModuleType, game: Game, seed: int, matches: int, seen: Counts) -> None:
    """`matches` matches of engine random play, each played beside it by the plain game's own `play_match` (see
    `Lockstep`): its deals, turns and scores, and the end of the match with the same totals."""
    rng = random.Random(seed)
    for match in range(matches):
        state = game.new_initial_state(seed=seed * 1000 + match)
        lockstep = Lockstep(plain, state, rng, f"seed {seed}, match {match + 1}")
        played = lockstep.attach(plain.Canasta(lockstep, [], 1 << 62))
        played.play_match()
        where = f"seed {seed}, match {match + 1}"
        assert state.is_terminal, f"{where}: the plain game's match is over, the engine's goes on"
        assert played.score == list(state.values["score"]), \
            f"{where}: the plain game's totals are {played.score}, the engine's {state.values['score']}"
        seen.update(lockstep.seen)


@dataclass
class SetUp:
    """A position that random play almost never reaches: p1 (side 1, with p3) in turn, p0 the dealer; `stock`
    and `pile` list their top card last (the rest of the deck lies under the stock); melds by side. The hand is
    played from there by the script, then by random choices."""

    name: str
    hands: dict[int, str]
    pile: str
    stock: str
    script: tuple[str, ...]  # p1's first decisions
    went_out: tuple[int, bool] | None = None  # (who, concealed) when the script ends the hand
    melds: dict[int, list[str]] = field(default_factory=dict)
    variables: dict[str, dict[int, Any]] = field(default_factory=dict)  # per seat or side
    frozen: bool = False

    def start(self, game: Game) -> State:
        deck = game.deck

        def cards(text: str) -> list[int]:
            return [int(deck.parse_card(word)) for word in text.split()]

        zones: dict[tuple[str, int], list[Any]] = {("hand", seat): cards(text) for seat, text in self.hands.items()}
        zones[("discard", -1)] = cards(self.pile)
        zones[("stock", -1)] = cards(self.stock)
        laid = 0
        for side, melds in self.melds.items():
            zones[("melds", side)] = []
            for text in melds:
                held = cards(text)
                wild = tuple(deck.rank_name(deck.rank_of[card]) in ("2", "JK") for card in held)
                rank = next(deck.rank_of[card] for card, is_wild in zip(held, wild, strict=True) if not is_wild)
                kind = "black_threes" if deck.rank_name(rank) == "3" else "set"
                zones[("melds", side)].append(Meld.of(laid, kind, "set", side, tuple(held), wild, rank=rank))
                laid += 1
        state = State(game, 4, 0)
        state.match.start_at(state, "play", dealer=0, hand_number=1, zones=zones, face_up={},
                             variables={"frozen": self.frozen}, owned=self.variables)
        return state


def set_up_id(name: str) -> str:
    """A set-up's test id: the words of its name before the first comma or colon, joined by hyphens (an id that
    can be named on the command line)."""
    return "-".join(re.split(r"[,:]", name)[0].split())


SET_UPS = (
    SetUp("going out concealed: p1 melds every card in one turn, the side's canasta laid by the partner",
          hands={1: "QS QH QD 9S 9H 9D", 2: "5S 6C", 3: "6S 7C", 0: "7S 8C"}, pile="8H 3S", stock="4S",
          melds={1: ["KS KD KH KC KS KD KH"]}, variables={"opened": {1: True}, "has_melded": {3: True}},
          script=("p1 draw stock", "p1 meld QS QH QD", "p1 meld 9S 9H 9D", "p1 discard 4S"), went_out=(1, True)),
    SetUp("black threes in the initial meld, which goes out with a canasta",
          hands={1: "KS KS KH KH KD KD KC 3S 3C 3S", 2: "5S", 3: "6S", 0: "7S"}, pile="8C", stock="3C",
          script=("p1 draw stock", "p1 meld KS KS KH KH KD KD KC + 3S 3S 3C 3C"), went_out=(1, True)),
    SetUp("black threes laid by a take of the pile that empties the hand",
          hands={1: "KH KD KC KS KH KD 3S 3C 3S", 2: "5S 9D", 3: "6S 9H", 0: "7S 9C"}, pile="KS", stock="4C",
          script=("p1 take discard meld KS KS KH KH KD KD KC + 3S 3S 3C",), went_out=(1, True)),
    SetUp("black threes laid by an opened side to go out, after a meld",
          hands={1: "3S 3C 3S 9D 9H", 2: "5S 9S", 3: "6S 9H", 0: "7S 9C"}, pile="8C", stock="9S",
          melds={1: ["7S 7C 7H 7H 7C 2S JK"]}, variables={"opened": {1: True}, "has_melded": {1: True}},
          script=("p1 draw stock", "p1 meld 9S 9D 9H", "p1 meld 3S 3S 3C"), went_out=(1, False)),
    SetUp("an initial meld of three melds that would keep one card, without a canasta",
          hands={1: "KS KH KD KC QS QH QD QC 9S 9H 9D", 2: "5S", 3: "6S", 0: "7S"}, pile="8C", stock="4S",
          script=("p1 draw stock", "p1 meld KS KH KD + QS QH QD")),
    SetUp("a frozen pile holding a red three, taken with the initial meld",
          hands={1: "7S 7D AS AD AH 9C 9D 5H 6H 8S KH", 2: "5S", 3: "6S", 0: "7S"}, pile="3H 2S 7C", stock="4C",
          frozen=True, script=("p1 take discard meld 7S 7D 7C + AS AD AH",)),
)


# ---------------------------------------------------------------------------------------------- the tests


def test_the_plain_cards_are_numbered_as_the_engines(plain: ModuleType, game: Game) -> None:
    """Every check here compares the two games' cards as numbers, so each number must be the same card in both:
    every card of the engine's deck, by its text, is the plain game's card of that number, and the plain deck is
    the engine's 108 cards (two packs and four jokers, copies of a card the same number)."""
    deck = game.deck
    engine = [deck.text_of[card] for card in range(len(deck.text_of))]
    mine = [plain.card_name(card) for card in range(len(engine))]
    differ = [(card, text, name) for card, (text, name) in enumerate(zip(engine, mine, strict=True)) if text != name]
    assert not differ, f"(number, engine's card, plain game's card) that differ: {differ}"
    assert sorted(plain.DECK) == sorted(deck.cards(4))


def test_legal_sets_and_hand_scores_are_the_engines_at_every_decision(plain: ModuleType, game: Game) -> None:
    """At each decision of engine random play, the plain game's legal set at the same position is the engine's;
    at each hand's end, its scores of the same position are the engine's. The seeds reach the rules that matter."""
    seen: Counts = collections.Counter()
    for seed in SEEDS:
        check_legal_sets_and_scores(plain, game, seed, DECISIONS, seen)
    missing = [name for name in REACHED if not seen[name]]
    assert not missing, f"the seeds no longer reach {missing}: {dict(seen)}"


def test_the_plain_matches_play_the_engines(plain: ModuleType, game: Game) -> None:
    """Matches of engine random play played beside it by the plain game's own code, deals included: the same
    positions and legal sets at every decision, the same player going out (concealed or not), the same scores of
    each hand, the same end of the match. The seeds deal and end hands in each way."""
    seen: Counts = collections.Counter()
    for seed in SEEDS:
        check_matches(plain, game, seed, MATCHES, seen)
    wanted = ("upcard covered", "red threes dealt to the first player", "went out", "play stopped",
              "red three drawn last")
    missing = [name for name in wanted if not seen[name]]
    assert not missing, f"the seeds no longer reach {missing}: {dict(seen)}"


@pytest.mark.parametrize("set_up", SET_UPS, ids=lambda set_up: set_up_id(set_up.name))
def test_the_plain_game_plays_the_rare_rules_as_the_engine(plain: ModuleType, game: Game, set_up: SetUp) -> None:
    """From a set-up position, a turn that random play almost never makes, then the rest of the hand, played in
    both games (see `Lockstep`): the same legal sets and positions at each decision, the same end of the hand and
    the same scores."""
    state = set_up.start(game)
    lockstep = Lockstep(plain, state, random.Random(0), set_up.name, set_up.script)
    lockstep.attach(position(plain, state)).play_from(state.current_player)
    ended = lockstep.last
    assert ended is not None and not lockstep.script, f"{set_up.name}: the script was not played"
    if set_up.went_out is not None:
        assert (ended["went_out"], ended["concealed"]) == set_up.went_out, \
            f"{set_up.name}: the hand did not end as meant (went out: {ended['went_out']}, {ended['concealed']})"
