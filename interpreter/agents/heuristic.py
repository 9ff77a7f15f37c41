"""A simple generic heuristic bot, for any ruleset.

Card plays follow the habits of trick games, judged with the ruleset's own `winning_card` (or `beats`) rule: win
the trick as cheaply as possible, or else throw the lowest card. Discards shed the lowest cards. Named choices (pass or
play, bids) are decided by a few playouts to the end of the hand, each scored by the seat's gain in the ruleset's
own result, from positions where the cards this seat cannot see are dealt again at random consistently with what
it has seen (`State.resample`), so the bot never uses what it may not know; among many choices (a rank and a
number of cards, a set of cards) only some, drawn at random, are tried. In a rummy turn it melds
and adds whatever it can (natural cards before wild ones, the biggest meld first), takes a discard pile worth
taking (three cards or more, or a top card that makes a new meld with the hand), and discards the card least
likely to make a meld. Offered a card to play or a draw instead (a shedding game), it plays, the card worth
most first.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from interpreter.agents.base import Agent, lawful_actions
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.state import CHANCE

if TYPE_CHECKING:
    from interpreter.actions import Action
    from interpreter.engine.program import Option, Step
    from interpreter.engine.state import State

PLAYOUTS = 6  # playouts per candidate choice, when there are few
PLAYOUT_BUDGET = 48  # playouts per decision in all, at most (see _by_playouts): six for each of CANDIDATES.
# Fewer make the best of several noisy estimates look better than it is: with two playouts a candidate, the
# bots of a betting game stayed in against huge pots, which grew to tens of thousands of chips in ten hands.
CANDIDATES = 8  # a choice among more is decided by playouts of this many of them (see _candidates)
PLAYOUT_ACTIONS = 400
# A deal drawn again keeps what the seat has seen, not every fact the rules keep true by themselves (four of a
# rank laid down as soon as a seat holds them): a playout on it may reach a position the real game cannot, where the
# rules fail (no legal action). Such a deal is dropped, for every candidate alike, and another drawn, this many
# times a round at most (then the round is skipped: a choice no deal could weigh is made at random).
REDEALS = 4


class HeuristicAgent(Agent):
    name = "heuristic"

    def choose(self, state: State) -> Action:
        legal = lawful_actions(state)  # (it keeps the rules)
        if len(legal) == 1:
            return legal[0]
        kinds = {action.kind for action in legal}
        if "play" in kinds and kinds & {"draw", "take"} and not kinds & {"meld", "add"}:
            # A shedding game (play a card, or draw instead): play, since drawing only grows the hand; shed
            # the card worth most.
            plays = [action for action in legal if action.kind == "play"]
            return max(plays, key=lambda action: self._strength(state, action.card))
        if kinds & {"meld", "add", "draw", "take"}:
            return self._rummy(state, legal)
        if kinds == {"play"}:
            return self._play(state, legal)
        if kinds == {"discard"}:
            return min(legal, key=lambda action: self._strength(state, action.card))
        if "choose" in kinds:
            return self._by_playouts(state, legal)
        return self.rng.choice(legal)

    def _rummy(self, state: State, legal: list[Action]) -> Action:
        rules = state.game.meld_rules
        wild = rules.is_wild if rules is not None else {}
        adds = [a for a in legal if a.kind == "add"]
        natural_adds = [a for a in adds if not wild.get(a.card, False)]
        if natural_adds:
            return natural_adds[0]
        melds = [a for a in legal if a.kind == "meld"]
        if melds:
            return max(melds, key=lambda a: (len(a.cards) - 3 * sum(1 for r in a.roles if r), -len(a.roles)))
        if adds:
            return adds[0]
        takes = [a for a in legal if a.kind == "take"]
        draws = [a for a in legal if a.kind == "draw"]
        if takes or draws:
            pile = self._pile(state, takes[0]) if takes else []
            if takes and (len(pile) >= 3 or not draws or self._makes_a_meld(state, pile[-1:])):
                return takes[0]
            # (a draw from a pile all can see whose top card makes a meld, a rummy's discard pile; else the first)
            return next((draw for draw in draws if self._makes_a_meld(state, self._open_top(state, draw))),
                        draws[0] if draws else takes[0])
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return min(discards, key=lambda a: self._keep_value(state, a.card, wild))
        return self.rng.choice(legal)

    def _pile(self, state: State, action: Action) -> list[int]:
        """The cards of the pile a take would take from (its top card last)."""
        option = _option_of(state, action, "take")
        assert option is not None and option.source is not None
        return _cards_from(state, option)

    def _open_top(self, state: State, action: Action) -> list[int]:
        """The top card of the pile a draw draws from, when every seat sees that pile (else nothing: the bot
        never looks at a card it may not see)."""
        option = _option_of(state, action, "draw")
        if option is None or option.source is None:
            return []
        spec = state.game.ruleset.zones.get(option.source.name)
        if spec is None or spec.visibility != "public":
            return []
        return _cards_from(state, option)[-1:]

    def _makes_a_meld(self, state: State, cards: list[int]) -> bool:
        """Whether these cards (a pile's top card) would make a new meld with the hand that it cannot make alone."""
        rules = state.game.meld_rules
        if rules is None or not cards or "hand" not in state.values:
            return False
        assert state.pending is not None
        owner = state.pending.bindings.get("player", state.pending.seat)
        hand = list(state.values["hand"][owner])
        return rules.can_meld(hand + cards, []) and not rules.can_meld(hand, [])

    def _keep_value(self, state: State, card: int, wild: dict[int, bool]) -> tuple[int, int]:
        """How much a card in hand is worth keeping: wilds most, then cards with a partner for a meld."""
        if wild.get(card, False):
            return (100, 0)
        deck = state.game.deck
        assert state.pending is not None
        owner = state.pending.bindings.get("player", state.pending.seat)  # (whose cards: see `by`)
        hand = state.values["hand"][owner] if "hand" in state.values else []
        rank, suit = deck.rank_of[card], deck.suit_of[card]
        partners = sum(1 for other in hand if other != card and (
            deck.rank_of[other] == rank or (deck.suit_of[other] == suit and abs(deck.rank_of[other] - rank) <= 2)))
        return (partners, deck.value_of[card])

    def _strength(self, state: State, card: int) -> tuple[int, int]:
        deck = state.game.deck
        return deck.value_of[card], deck.rank_of[card]

    def _play(self, state: State, legal: list[Action]) -> Action:
        assert state.pending is not None
        trick = state.game.trick_steps.get(state.pending.where)
        if trick is None:
            return min(legal, key=lambda action: self._strength(state, action.card))
        bindings = state.pending.bindings
        _, cards = state.cards.zone(state, trick["zone"], bindings)
        # The cheapest card that wins the trick, else the cheapest card: the cards tried from the cheapest up (a
        # stable sort: of equal cards, the first offered), so that the first to win is the one played.
        by_strength = sorted(legal, key=lambda action: self._strength(state, action.card))
        for action in by_strength:
            if self._would_win(state, trick, bindings, cards, action):
                return action
        return by_strength[0]

    def _would_win(self, state: State, trick: Step, bindings: dict[str, Any], cards: list[int],
                   action: Action) -> bool:
        """Whether the card would win the trick as it stands (`cards`, its cards so far)."""
        trial = [*cards, action.card]
        # The trick as it would be, put in the state's values for the rule's evaluation and taken out again (a
        # copy of all the values for each card tried cost more than the rule itself)
        values, name = state.values, trick["zone"].name
        kept = values[name]
        values[name] = trial
        try:
            if trick["beats"] is None:
                winning = state.evaluate(trick["winning_card"], bindings)  # (which leaves them as they are)
            else:  # (each card against the one winning so far, in the order played)
                winning = trial[0]
                for card in trial[1:]:
                    if state.evaluate(trick["beats"], {**bindings, "card": card, "winning": winning}):
                        winning = card
        finally:
            values[name] = kept
        return bool(winning == action.card)

    def _by_playouts(self, state: State, legal: list[Action]) -> Action:
        """The choice with the best total gain over a few playouts. Every candidate is played out on the same
        deals, with the same random moves after it (so that the comparison is of the choices, not of the
        deals); the playouts per candidate shrink as the candidates grow, to PLAYOUT_BUDGET in all (never fewer
        than two each)."""
        seat = state.current_player
        legal = self._candidates(legal)
        rounds = max(2, min(PLAYOUTS, PLAYOUT_BUDGET // len(legal)))
        scores = [0.0] * len(legal)
        for _ in range(rounds):
            for _attempt in range(REDEALS):
                deal = state.resample(seat, self.rng)
                moves = self.rng.getrandbits(64)
                try:
                    gains = [self._playout(deal.clone() if index < len(legal) - 1 else deal, seat, action,
                                           random.Random(moves)) for index, action in enumerate(legal)]
                except RulesetRuntimeError:  # (a deal the rules cannot play on: see REDEALS)
                    continue
                scores = [score + gain for score, gain in zip(scores, gains, strict=True)]
                break
        best = max(scores)
        return self.rng.choice([action for action, score in zip(legal, scores, strict=True) if score == best])

    def _candidates(self, legal: list[Action]) -> list[Action]:
        """The choices worth playouts: all of them when they are few; else the plain ones (no arguments: pass,
        stay) and the rest drawn at random from the many combinations (a rank and a number of cards, a set of
        cards), up to CANDIDATES in all, so that a choice among many costs a bounded number of playouts."""
        if len(legal) <= CANDIDATES:
            return legal
        plain = [action for action in legal if not action.arguments][:CANDIDATES]
        rest = [action for action in legal if action.arguments]
        drawn = set(self.rng.sample(range(len(rest)), CANDIDATES - len(plain))) if len(plain) < CANDIDATES else set()
        return plain + [action for index, action in enumerate(rest) if index in drawn]

    @staticmethod
    def _playout(trial: State, seat: int, action: Action, moves: random.Random) -> float:
        """The seat's gain in its result from `action` to the end of the hand, every move after it random."""
        before = trial.returns()[seat]
        hand = trial.values["hand_number"]
        trial.apply(action)
        for _ in range(PLAYOUT_ACTIONS):
            if trial.is_terminal or trial.values["hand_number"] != hand:
                break
            if trial.current_player == CHANCE:
                trial.apply_chance()
            else:
                trial.apply(moves.choice(trial.legal_actions()))
        return float(trial.returns()[seat] - before)


def redeal_unseen(state: State, seat: int, rng: random.Random) -> State:
    """A copy of the state in which every card `seat` cannot see is dealt again at random, consistently with what
    it has seen, with a fresh random generator: what the seat knows, and nothing more (`State.resample`)."""
    return state.resample(seat, rng)


def _option_of(state: State, action: Action, kind: str) -> Option | None:
    """The pending decision's option of this kind that an action of that kind and name takes."""
    assert state.pending is not None
    return next((o for o in state.pending.options if o.kind == kind and o.name == action.name), None)


def _cards_from(state: State, option: Option) -> list[int]:
    """The cards of the zone an option takes its cards from (a pile's top card last)."""
    assert state.pending is not None and option.source is not None
    return list(state.cards.zone(state, option.source, state.pending.bindings)[1])
