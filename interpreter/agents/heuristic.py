"""A simple generic heuristic bot, for any ruleset.

Card plays follow the habits of trick games, judged with the ruleset's own `winning_card` (or `beats`) rule: win
the trick as cheaply as possible, or else throw the lowest card. Discards shed the lowest cards. Named choices (pass or
play, bids) are decided by a few playouts to the end of the hand from positions where the cards this seat
cannot see are dealt again at random, so the bot never uses what it may not know. In a rummy turn it melds
and adds whatever it can (natural cards before wild ones, the biggest meld first), takes a discard pile worth
taking, and discards the card least likely to make a meld. Offered a card to play or a draw instead (a
shedding game), it plays, the card worth most first.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from interpreter.agents.base import Agent
from interpreter.engine.observation import sees_zone
from interpreter.engine.state import CHANCE

if TYPE_CHECKING:
    from interpreter.actions import Action
    from interpreter.engine.program import Step
    from interpreter.engine.state import State

PLAYOUTS = 6
PLAYOUT_ACTIONS = 400


class HeuristicAgent(Agent):
    name = "heuristic"

    def choose(self, state: State) -> Action:
        legal = state.legal_actions()
        if state.breaking:  # it keeps the rules: an action that breaks a clause only when nothing else is legal
            legal = [action for action in legal if action not in state.breaking] or legal
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
            frame_pile = self._pile_size(state, takes[0]) if takes else 0
            return takes[0] if takes and (frame_pile >= 3 or not draws) else draws[0] if draws else takes[0]
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return min(discards, key=lambda a: self._keep_value(state, a.card, wild))
        return self.rng.choice(legal)

    def _pile_size(self, state: State, action: Action) -> int:
        assert state.pending is not None
        option = next(o for o in state.pending.options if o.kind == "take" and o.name == action.name)
        assert option.source is not None
        return len(state.zone(option.source, state.pending.bindings)[1])

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
        winners = [action for action in legal if self._would_win(state, trick, state.pending.bindings, action)]
        if winners:
            return min(winners, key=lambda action: self._strength(state, action.card))
        return min(legal, key=lambda action: self._strength(state, action.card))

    def _would_win(self, state: State, trick: Step, bindings: dict[str, Any], action: Action) -> bool:
        _, cards = state.zone(trick["zone"], bindings)
        trial = [*cards, action.card]
        values = {**state.values, trick["zone"].name: trial}
        if trick["beats"] is None:
            winning = state.evaluate(trick["winning_card"], dict(bindings), values)
        else:  # (each card against the one winning so far, in the order played)
            winning = trial[0]
            for card in trial[1:]:
                if state.evaluate(trick["beats"], {**bindings, "card": card, "winning": winning}, values):
                    winning = card
        return bool(winning == action.card)

    def _by_playouts(self, state: State, legal: list[Action]) -> Action:
        seat = state.current_player
        scores = []
        for action in legal:
            total = 0.0
            for _ in range(PLAYOUTS):
                total += self._playout(state, seat, action)
            scores.append(total)
        best = max(scores)
        return self.rng.choice([action for action, score in zip(legal, scores, strict=True) if score == best])

    def _playout(self, state: State, seat: int, action: Action) -> float:
        trial = redeal_unseen(state, seat, self.rng)
        before = trial.returns()[seat]
        hand = trial.values["hand_number"]
        trial.apply(action)
        for _ in range(PLAYOUT_ACTIONS):
            if trial.is_terminal or trial.values["hand_number"] != hand:
                break
            if trial.current_player == CHANCE:
                trial.apply_chance()
            else:
                trial.apply(self.rng.choice(trial.legal_actions()))
        return float(trial.returns()[seat] - before)


def redeal_unseen(state: State, seat: int, rng: random.Random) -> State:
    """A copy of the state in which every card `seat` cannot see is dealt again at random (each zone keeps its
    size and its face-up cards), with a fresh random generator: what the seat knows, and nothing more."""
    trial = state.clone()
    trial.rng = random.Random(rng.random())
    places: list[tuple[list[int], int]] = []
    pool: list[int] = []
    for name, zone in state.game.ruleset.zones.items():
        stored = trial.values[name]
        instances = [(stored, -1)] if zone.owner == "table" else list(zip(stored, range(len(stored)), strict=True))
        for cards, owner in instances:
            if not cards or sees_zone(state, zone, owner, seat):
                continue
            face_up = list(trial.face_up.of((name, owner)))
            hidden = list(cards)
            for card in face_up:
                hidden.remove(card)
            pool.extend(hidden)
            places.append((cards, len(hidden)))
            cards[:] = face_up
    rng.shuffle(pool)
    for cards, count in places:
        cards[:0] = pool[:count]
        del pool[:count]
    _redraw_secret_choices(trial, seat, rng)
    return trial


def _redraw_secret_choices(trial: State, seat: int, rng: random.Random) -> None:
    """In a simultaneous round still open, the choices the other seats made in secret may name cards of theirs
    (a pair laid away); those cards were dealt again, so each such choice names instead as many cards drawn at
    random from the cards its seat now holds out of sight of `seat` (which knows only that it chose)."""
    kinds = trial.game.program.choice_kinds
    for slot in trial.open_rounds:
        redrawn = []
        for option, action, bindings in trial.locals[slot]:
            named = [name for name, _ in action.arguments if kinds.get((option.name, name)) in ("card", "list:card")]
            if action.seat == seat or option.kind != "choose" or not named:
                redrawn.append((option, action, bindings))
                continue
            held = [card for name, zone in trial.game.ruleset.zones.items() if zone.owner == "seat"
                    and not sees_zone(trial, zone, action.seat, seat) for card in trial.values[name][action.seat]]
            rng.shuffle(held)
            arguments = []
            for name, value in action.arguments:
                if name in named:
                    count = len(value) if isinstance(value, tuple) else 1
                    picked, held = held[:count], held[count:]
                    value = tuple(picked) if isinstance(value, tuple) else (picked[0] if picked else value)
                arguments.append((name, value))
            chosen = action._replace(arguments=tuple(arguments))
            redrawn.append((option, chosen, {**bindings, **{name: list(value) if isinstance(value, tuple) else value
                                                             for name, value in arguments if name in named}}))
        trial.locals[slot] = tuple(redrawn)
