"""The dynamic state of a match: zones, variables, where the hand's compiled code stands (its label and
locals), the pending decision or chance event, the state's own random generator, and the match loop over
hands."""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from interpreter.actions import Action, ActionSyntaxError, malformed
from interpreter.dsl.compiler import SEAT_RANGES, seat_list
from interpreter.dsl.compiler import evaluate as run_expression
from interpreter.engine import decisions
from interpreter.engine.cardmoves import Cards
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.log import Log
from interpreter.engine.match import MatchLoop
from interpreter.engine.meldsearch import MeldSearch
from interpreter.engine.program import Expr, Option
from interpreter.engine.shuffling import shuffle
from interpreter.engine.zones import FaceUp
from interpreter.errors import EvaluationError, shorten
from interpreter.numbers import number_text, plain_numbers, whole
from interpreter.procedures import calls_note, written_at
from interpreter.source import find, parse_yaml_path

if TYPE_CHECKING:
    from interpreter.engine.game import Game

CHANCE = -1
TERMINAL = -2
MAX_STEPS = 5_000_000

Bindings = dict[str, Any]


def _snapshot(value: list[Any]) -> list[Any]:
    """A list value as it is now, lists inside it included (zones change after a log line is written)."""
    return [_snapshot(item) if item.__class__ is list else item for item in value]


_NOT_PICKLED = ("a State cannot be pickled (its game's code is made when the ruleset is loaded): send the ruleset's "
                "path, its parameters, the number of players, the seed and `state.history`, and play them again "
                "where they are needed (docs: the Python API, \"In another process\")")


class State:
    """One match in progress. `current_player` is a seat, CHANCE or TERMINAL.

    The state holds the match's data (zones and variables in `values`, the face-up cards, where the hand's code
    stands, the pending decision or chance event, the logs) and two parts that work on it: `cards` (engine/
    cardmoves.py) finds zones and moves cards, `match` (engine/match.py) sets the match up and starts and ends
    its hands. The hand's generated code (engine/handcode.py) runs on the state and calls both."""

    # Called with the state as each hand ends, before the next one starts (its zones and hand variables are still
    # as the hand left them): how a runner reads a hand's end, e.g. for statistics. A copy of the state keeps it.
    hand_end_hook: Callable[[State], None] | None = None

    def __init__(self, game: Game, players: int, seed: int | None) -> None:
        self.game = game
        self.player_count = players
        self.seed = seed
        self._rng = random.Random(seed)
        self._rng_sharers = [1]  # how many states share `_rng` (a copy shares it until one of them draws: `rng`)
        self.values: dict[str, Any] = {}
        self.face_up = FaceUp()
        self.pc = 0  # the label of the hand's segment to run next (see handcode.py)
        self._segments = game.code.segments
        self.locals: list[Any] = list(game.code.fresh_locals)  # the segments' slots
        self.taken: tuple[Action, Option, Bindings] | None = None  # the action a resumed segment goes on with
        self.open_rounds: tuple[int, ...] = ()  # the slots of the simultaneous rounds in progress' choices
        self.first_leader: int | None = None  # who leads the next trick instead of its `leader` (scenarios)
        self.pending: decisions.Pending | None = None
        # A chance event waiting: (the zone to shuffle, where), or a value to pick: (None, where, the values,
        # their weights or None, their type); `apply_chance` puts a value picked in `picked` for the step.
        self.chance: tuple[Any, ...] | None = None
        self.picked: Any = None
        # Who acts next: a seat, CHANCE or TERMINAL (the contract's `current_player`), and whether the match is over
        # (`is_terminal`): plain attributes, worked out once the state stops (`note_stop`) rather than at each read,
        # since every caller's loop reads both at every decision.
        self.current_player = CHANCE
        self.is_terminal = False
        self.ended_by = ""  # when the match is over: `ends_when`, `end` (a step), `hands`, or `hand_cap` (stopped)
        self.ending_match = False  # an `end: match` step ran: the match ends with this hand
        self.phase = ""
        self.steps = 0
        self._events = Log()  # recorded cheaply as tuples; `events` gives them as dicts
        self._event_dicts = Log()
        self.hand_results: list[dict[str, Any]] = []
        self._legal: decisions.LegalSet | None = None  # the legal set, computed once per decision
        # For each legal group of melds, the melds it lays; for each addition, the meld it makes and the meld it is
        # added to; under `decisions.NEW_MELDS`, what each option of new melds offers (see `new_meld_plan`)
        self.meld_plans: dict[Action | str, Any] = {}
        self.breaking: dict[Action, tuple[Any, ...]] = {}  # each legal action that breaks clauses: those clauses
        self.melds_laid = 0  # melds are numbered m0, m1, ... in the order they are laid in the hand
        self.meld_search: MeldSearch | None = None  # the last search for new melds (see meldsearch.py)
        self.lineage: Any = None  # a copy dealt again: where it came from (engine/resample.py, `_Lineage`)
        self.cards: Cards = game.cards  # the engine's parts that act on the state (shared)
        self.match: MatchLoop = game.match

    def start(self) -> None:
        """Set up the match and run to the first decision or chance event."""
        try:
            self.match.start(self)
        except RulesetRuntimeError as error:  # (the match's own expressions: its length, its first dealer)
            self._locate(error)
            raise

    # --- the public contract --------------------------------------------------------------------------------

    @property
    def is_chance_node(self) -> bool:
        return self.chance is not None and not self.is_terminal

    @property
    def rng(self) -> random.Random:
        """The state's own generator. A copy shares its original's until either draws from it: the one that draws
        first takes a copy of its own (copying a generator's state costs more than the rest of a `clone()`)."""
        sharers = self._rng_sharers
        if sharers[0] > 1:
            sharers[0] -= 1
            own = random.Random.__new__(random.Random)
            own.setstate(self._rng.getstate())
            self._rng = own
            self._rng_sharers = [1]
        return self._rng

    @rng.setter
    def rng(self, generator: random.Random) -> None:
        if self._rng_sharers[0] > 1:  # (the others sharing the old one share it with one state fewer)
            self._rng_sharers[0] -= 1
        self._rng = generator
        self._rng_sharers = [1]

    def legal_actions(self) -> list[Action]:
        """The complete legal set, in a fixed order; empty at a chance node and when the match is over."""
        legal = self._legal  # (set only while a decision is pending: the common case first)
        if legal is not None:
            return list(legal[0])
        pending = self.pending
        if pending is None:  # (a chance event, or the match over: never with a decision pending)
            return []
        finder = pending.finder  # the decision's own generated code (see handcode.py), on the hot path
        if finder is not None:
            try:
                legal = finder(self, pending)
            except RulesetRuntimeError as error:
                self._locate(error)
                raise
            if legal[0]:
                self._legal = legal
                return list(legal[0])
        return list(self._legal_found()[0])

    def legal_set(self) -> dict[Action, Option]:
        """The legal actions with the option each takes (computed once per decision)."""
        legal = self._legal_found()
        options = legal[1]
        if isinstance(options, dict):
            return options
        kept = decisions.as_dict(legal)
        self._legal = (legal[0], kept)  # (asked again: kept as a dict)
        return kept

    def _legal_found(self) -> decisions.LegalSet:
        """The legal set, found once per decision (see decisions.LegalSet); the rule that leaves none names the
        failure."""
        pending = self.pending
        assert pending is not None
        legal = self._legal
        if legal is None:
            self.meld_plans = {}
            self.breaking = {}
            try:
                legal = (pending.finder or decisions.legal_actions)(self, pending)
            except RulesetRuntimeError as error:
                self._locate(error)
                raise
            if not legal[0]:
                stuck = decisions.no_legal_action(self, pending)
                self._locate(stuck)
                raise stuck
            self._legal = legal
        return legal

    def check(self, action: Action | str) -> None:
        """Raise IllegalActionError, quoting the ruleset's reason, unless the action is legal now."""
        self._checked(self._action(action))

    def is_legal(self, action: Action | str) -> bool:
        try:
            self.check(action)
        except (IllegalActionError, ActionSyntaxError, RulesetRuntimeError):  # (the last: no legal set to be in)
            return False
        return True

    def apply(self, action: Action | str) -> None:
        """Check an action, then apply it and run the game on to the next decision or chance event."""
        # The hot path: an action of the legal set just computed needs no check (speed, see DESIGN.md).
        legal = self._legal
        option: Any
        if legal is not None and action.__class__ is Action:  # (decisions.option_of, written out)
            option = legal[1]
            if option.__class__ is dict:
                option = option.get(action)
            elif action not in legal[0]:
                option = None
        else:
            option = None
        taken: Action
        if option is not None:  # (a decision is pending whenever a legal set is kept)
            taken = action  # type: ignore[assignment]  # an Action: it was found in the legal set
            # (a card's movement binds `card` for its option's steps itself: see Cards.perform)
            bindings = self.pending.bindings if option.binds_nothing else decisions.bindings_for(  # type: ignore[union-attr]
                self, self.pending, option, taken)  # type: ignore[arg-type]
        else:
            taken = self._action(action)
            option, bindings = self._checked(taken)
        self.pending = self._legal = None
        if self.breaking:  # (a ruleset whose clauses may be broken: record the ones this action breaks)
            self._record_breaking(taken, bindings)
        self._events.items.append(("action", taken, self._secret_from(option, taken, bindings)
                                   if option.hides_action or self.open_rounds else ()))
        self.taken = (taken, option, bindings)
        self.steps = 0
        # (advance, written out: this is the hot path of every decision; a decision's segment runs first, and most
        # stop at the next decision themselves)
        locals_ = self.locals
        try:
            label = self._segments[self.pc](self, locals_)
            while label >= 0:  # (see handcode.py: a segment returns the next label, or ~label to stop there)
                label = self._segments[label](self, locals_)
        except RulesetRuntimeError as error:
            self._locate(error)
            self.note_stop()
            raise
        self.pc = ~label
        stopped_at = self.pending  # (`note_stop`, written out)
        self.current_player = stopped_at.seat if stopped_at is not None else TERMINAL if self.is_terminal else CHANCE

    def apply_chance(self, outcome: Any = None) -> None:
        """At a chance node: shuffle with the state's own generator, or put the given order (a list of cards or
        their texts, the card dealt first, first: a stacked deck); at a `random` step, pick a value with the
        state's own generator, or the one given (see `chance_event`)."""
        if self.chance is None or self.is_terminal:
            raise IllegalActionError("this is not a chance node")
        key = self.chance[0]
        if key is None:
            self._pick(outcome)
            return
        cards = self.cards.zone_list(self, key)
        if outcome is None:
            shuffle(self.rng, cards)
        else:
            order = self._stacked_order(outcome)
            if Counter(order) != Counter(cards):
                raise IllegalActionError(f"the stacked order must hold exactly the {len(cards)} cards of "
                                         f"{key[0]}, each as many times as it holds them")
            cards[:] = reversed(order)
        self.face_up.clear(key)
        self.chance = None
        self._events.append(("chance", key[0], cards[::-1]))
        self.steps = 0
        self.advance()

    def _stacked_order(self, outcome: Any) -> list[int]:
        """A stacked deck's order as given to `apply_chance`: a list of cards or their texts; IllegalActionError
        for anything else (a text that is no card, a number that is none, `True` for a card that is 1)."""
        if isinstance(outcome, (str, bytes)) or not isinstance(outcome, (list, tuple)):
            raise IllegalActionError(f"a stacked order is a list of cards or their texts, not "
                                     f"{shorten(repr(outcome))}")
        deck = self.game.deck
        order = []
        for item in outcome:
            if isinstance(item, str):
                try:
                    order.append(deck.parse_card(item))
                except ValueError as error:
                    raise IllegalActionError(str(error)) from None
            elif item.__class__ is int and 0 <= item < len(deck.text_of):
                order.append(item)
            else:
                raise IllegalActionError(f"{shorten(repr(item))} is not a card of this deck, nor a card's text")
        return order

    def _pick(self, outcome: Any) -> None:
        """A value picked at random (a `random` step): by the state's own generator, or the one given (the
        value itself, or its text as the log writes it)."""
        assert self.chance is not None
        _, where, values, weights, kind = self.chance
        if outcome is None:
            index = self.rng.randrange(len(values)) if weights is None else \
                self.rng.choices(range(len(values)), weights)[0]
            value = values[index]
        else:
            seat = getattr(kind, "name", "") == "seat"  # (a seat is also named as actions name it: `p2`)
            found = [v for v in values if v == outcome and v.__class__ is outcome.__class__] or \
                [v for v in values if isinstance(outcome, str) and (self.shown(v, kind) == outcome
                                                                    or (seat and outcome == f"p{v}"))]
            allowed = [v for v in found if weights is None or weights[values.index(v)] > 0]
            if not allowed:
                shown = ", ".join(self.shown(v, kind) for index, v in enumerate(values)
                                  if weights is None or weights[index] > 0)
                raise IllegalActionError(f"{outcome!r} cannot be picked here; the values are: {shown}")
            value = allowed[0]
        self.picked = value
        self.chance = None
        self._events.append(("pick", where, value, kind))
        self.steps = 0
        if where == "match.first_dealer":  # (the draw for the first dealer, before the first hand)
            self.match.deal_first_hand(self, value, self.game.ruleset.variables.items())
            return
        self.advance()

    def chance_event(self) -> dict[str, Any] | None:
        """What the chance node waits for, as data (None elsewhere): `{"type": "shuffle", "zone": name,
        "owner": seat or team (-1 for a zone on the table), "cards": how many, "contents": their texts}` (the
        cards to be shuffled, in no promised order: every seat's secret for a search that knows all), or
        `{"type": "pick", "values": [...], "chances": [...]}` (each value's text and its probability).
        `apply_chance()` does it with the state's own generator; `apply_chance(outcome)` with the outcome
        given: the new order of the zone (the card on top, dealt first, first), or the value picked."""
        if self.chance is None or self.is_terminal:
            return None
        key = self.chance[0]
        if key is not None:
            cards = self.cards.zone_list(self, key)
            return {"type": "shuffle", "zone": key[0], "owner": key[1], "cards": len(cards),
                    "contents": [self.card_text(card) for card in cards]}
        _, _where, values, weights, kind = self.chance
        total = sum(weights) if weights is not None else len(values)
        return {"type": "pick", "values": [self.shown(value, kind) for value in values],
                "chances": [(weights[index] if weights is not None else 1) / total for index in range(len(values))]}

    def returns(self) -> list[Any]:
        """Each seat's match result, as the ruleset's `match.result` scores it: a whole number (int), or a
        Fraction where the ruleset's results are fractions (`num`)."""
        found = self.per_seat(self.game.program.result)
        if Fraction not in set(map(type, found)):  # (most results are ints: taken as they are)
            return found
        return [whole(value) if value.__class__ is Fraction else value for value in found]

    def per_seat(self, expression: Expr) -> list[Any]:
        """An expression's value with each seat bound as `player`, in seat order."""
        if not expression.keeps:  # (one dict for every seat: the expression keeps nothing in it)
            function = expression.function
            lists = self.game.seat_lists
            listed = lists.get(function)
            if listed is None and function not in lists:  # (made once: one call makes the whole list, seat_list)
                listed = lists[function] = seat_list(function)
            try:
                if listed is not None:
                    return listed(self.values, SEAT_RANGES[self.player_count])
                values, bound, found = self.values, {"player": 0}, []
                for seat in range(self.player_count):
                    bound["player"] = seat
                    found.append(function(values, bound))
                return found
            except Exception:  # a failure is located and named by the general path
                pass
        return [self.evaluate(expression, {"player": seat}) for seat in range(self.player_count)]

    def observation(self, seat: int, *, legal: bool = True) -> dict[str, Any]:
        """What one seat may see, as JSON-serialisable data. When the seat is to act, with its legal actions
        (`legal_actions()`, worked out once per decision: asking for both costs one search); `legal=False`
        leaves them out, and costs no search."""
        from interpreter.engine.observation import observe

        return observe(self, self._seat_of(seat), legal=legal)

    def _seat_of(self, seat: Any) -> int:
        """A seat of this table as a whole number (a numpy integer is one), or ValueError: `-1` would read as the
        last seat, and what a seat sees is not a guess."""
        try:
            index = operator.index(seat)
        except TypeError:
            index = -1
        if isinstance(seat, bool) or not 0 <= index < self.player_count:
            raise ValueError(f"the seats are 0 to {self.player_count - 1}, not {shorten(repr(seat))}")
        return index

    def __copy__(self) -> State:
        return self.clone()  # (a copy that shared the state's lists would change it when played on)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()  # (the game, which never changes, is shared: a deep copy of it is a second load)

    def __reduce__(self) -> Any:
        raise TypeError(_NOT_PICKLED)

    def clone(self) -> State:
        """An independent copy: zones and variables copied, the history and events shared with it (each side
        appends its own, so a copy costs the same early and late in a match)."""
        copy = object.__new__(State)
        copy.__dict__.update(self.__dict__)
        self._rng_sharers[0] += 1  # (the generator is copied only when one of the sharers draws from it)
        values = copy.values = dict(self.values)  # numbers, text and tuples are shared: they are never changed
        game = self.game
        for name in game.shallow_copied:
            values[name] = list(values[name])
        for name in game.deep_copied:
            values[name] = [list(owned) for owned in values[name]]
        for name in game.keyed_copied:  # (a value per key: a dict per owner, or one on the table)
            kept = values[name]
            values[name] = dict(kept) if isinstance(kept, dict) else [dict(owned) for owned in kept]
        copy.face_up = self.face_up.copy()
        copy.locals = list(self.locals)  # (slots are replaced, never changed in place: see handcode.py)
        copy._events = self._events.fork()
        copy._event_dicts = self._event_dicts.fork()
        copy.hand_results = list(self.hand_results)
        copy._legal = None  # worked out again: a caller may change the copy's cards before asking
        copy.meld_plans = {}
        copy.breaking = {}
        return copy

    def resample(self, seat: int, rng: random.Random) -> State:
        """A copy equal to this state in everything `seat` can observe, the cards it cannot see dealt again at
        random, consistently with what it has seen (see engine/resample.py); its own generator seeded from `rng`."""
        from interpreter.engine.resample import resample

        if not isinstance(rng, random.Random):
            raise TypeError(f"resample deals with a random.Random, not {shorten(repr(rng))}")
        return resample(self, self._seat_of(seat), rng)

    @property
    def events(self) -> list[dict[str, Any]]:
        """What has happened, in order, as JSON-serialisable dicts (the transcript and the log are made of
        them): `hand`, `dealer`, `chance` (the new order, top first), `action`, `reveal`, `log`, `hand_end`.
        A new list at each call, the caller's to change; the dicts in it are the state's own, to read."""
        return list(self._made_events())

    def events_since(self, start: int) -> list[dict[str, Any]]:
        """The events from position `start` on: `events[start:]`, without copying those before (a log written
        as the match goes, a replay checking each line)."""
        return self._made_events()[start:]

    @property
    def event_count(self) -> int:
        """How many events there are: `len(events)`, without copying them."""
        return len(self._made_events())

    def _made_events(self) -> list[dict[str, Any]]:
        """The events as dicts, each made once, when first read (bots' matches are never read)."""
        dicts = self._event_dicts
        for event in self._events.since(len(dicts)):
            dicts.append(self._event_dict(event))
        return dicts.as_list()

    @property
    def history(self) -> list[Action]:
        """The actions taken so far, in order (read from the events, which record each one)."""
        return [event[1] for event in self._events.as_list() if event[0] == "action"]

    def _event_dict(self, event: tuple[Any, ...]) -> dict[str, Any]:
        kind = event[0]
        if kind == "action":
            action, secret = event[1], event[2]
            found = {"type": "action", "action": self.action_text(action), "seat": action.seat}
            if secret:
                found["secret_from"] = list(secret)
            return found
        if kind == "chance":
            return {"type": "chance", "zone": event[1], "order": [self.card_text(c) for c in event[2]]}
        if kind == "breaks":
            return {"type": "breaks", "action": self.action_text(event[1]), "seat": event[1].seat,
                    "rules": list(event[2]), "secret_from": list(event[3])}
        if kind == "pick":
            return {"type": "pick", "at": event[1], "value": self.shown(event[2], event[3])}
        if kind == "reveal":
            return {"type": "reveal", "action": self.action_text(event[1])}
        if kind == "log":
            return {"type": "log", "text": event[1]}
        if kind == "log_parts":
            return {"type": "log", "text": "".join(part if part.__class__ is str else self.shown(*part)
                                                   for part in event[1])}
        if kind == "hand":
            return {"type": "hand", "hand": event[1], "dealer": event[2]}
        if kind == "dealer":
            return {"type": "dealer", "dealer": event[1]}
        return {"type": "hand_end", "hand": event[1], "result": plain_numbers(event[2])}

    # --- text forms --------------------------------------------------------------------------------------------

    def card_text(self, card: int) -> str:
        return self.game.deck.card_text(card)

    def action_text(self, action: Action) -> str:
        if action.__class__ is not Action:
            raise TypeError(f"action_text takes an Action (from legal_actions() or parse_action()), not "
                            f"{shorten(repr(action))}")
        try:
            if action.seat.__class__ is not int or action.kind.__class__ is not str:  # (would be written out as
                raise TypeError  # they are: `px play AH`)
            return self.game.action_text(action)
        except (IndexError, TypeError, ValueError):  # (an Action made by hand, or another game's: say what is wrong)
            problem = malformed(action, len(self.game.deck.text_of))
            if problem is None:
                raise
            raise ActionSyntaxError(f"{shorten(repr(action))} {_is_not_an_action(problem)}") from None

    def parse_action(self, text: str) -> Action:
        return Action.parse(text, self.game.deck, self.game.program.choice_kinds, self.game.program.action_kinds)

    def _action(self, action: Action | str) -> Action:
        if isinstance(action, str):
            return self.legal_form(self.parse_action(action))
        if not isinstance(action, Action):
            raise ActionSyntaxError(f"an action is an Action or its text (`p0 play AH`), not {shorten(repr(action))}")
        problem = malformed(action, len(self.game.deck.text_of))
        if problem is not None:  # (an Action made by hand, or another game's)
            raise ActionSyntaxError(f"{shorten(repr(action))} {_is_not_an_action(problem)}")
        return self.legal_form(action)

    def legal_form(self, action: Action) -> Action:
        """The action of the legal set that `action` names with its cards in another order (`taken 4C+3D` for
        `taken 3D+4C`; a meld's cards in any order, or without what its wild stands for when that is clear);
        else `action` itself."""
        if self.pending is None or self.chance is not None or self.is_terminal or not (
                action.kind == "meld" or (action.kind == "take" and action.cards) or (action.kind == "choose" and (
                    len(action.arguments) > 1 or any(value.__class__ is tuple for _, value in action.arguments)))):
            return action
        try:
            legal = self.legal_set()
        except RulesetRuntimeError:  # no legal action at all: the action is refused as it is
            return action
        if action in legal:
            return action
        found = decisions.match_meld(self, legal, action) if action.kind in ("meld", "take") else \
            decisions.same_choice(legal, action)
        return found or action

    def _checked(self, action: Action) -> tuple[Option, Bindings]:
        if self.is_terminal:
            raise IllegalActionError("the match is over")
        if self.chance is not None:
            raise IllegalActionError("this is a chance node: call apply_chance()")
        assert self.pending is not None
        # The legal set is the authority (an action that breaks a clause is legal only as it marks it); the rules
        # are asked again only to say why an action outside it is refused.
        failure: RulesetRuntimeError | None = None
        try:
            option = decisions.option_of(self._legal_found(), action)
        except RulesetRuntimeError as error:  # (no legal action at all: the rules say why this one is refused)
            option, failure = None, error
        if option is not None:
            return option, decisions.bindings_for(self, self.pending, option, action)
        decisions.check(self, self.pending, action)  # (raises the clause that refuses it)
        if failure is not None:  # (the rules allow it, but the legal set could not be made: that is the answer)
            raise failure
        raise IllegalActionError(f"{shorten(repr(action))} is not an action of the legal set: give one of "
                                 "legal_actions(), or an action's text")  # (allowed, but not as it is written)

    def broken(self, action: Action | str) -> list[str]:
        """The reasons of the clauses a legal action breaks (a renege, offered because the ruleset lets those
        clauses be broken); empty for an action that breaks none."""
        taken = self._action(action)
        if self.pending is not None and self._legal is None:
            self._legal_found()
        return [clause.reason for clause in self.breaking.get(taken, ())]

    def _record_breaking(self, action: Action, bindings: Bindings) -> None:
        """An action that breaks clauses: each clause's `record` is set (a bool) or counted (an int), and the
        event is kept for the record (hidden from the other seats)."""
        broken = self.breaking.get(action, ())
        self.breaking = {}
        if not broken:
            return
        scope = {**bindings, "card": action.card} if action.card >= 0 else bindings
        for clause in broken:
            ref = clause.record
            if ref is not None:
                owner = self.cards.owner(self, ref, scope)
                held: Any = self.values if owner < 0 else self.values[ref.name]
                place: Any = ref.name if owner < 0 else owner
                if ref.key is not None:  # (a value per key: `broken[player]['lead']`)
                    held, place = held[place], self.evaluate(ref.key, scope)
                    if place not in held:
                        raise RulesetRuntimeError(f"`{ref.name}` has {self.game.missing_key(ref.name, held, place)}",
                                                  ref.where)
                held[place] = self._marked(held[place])
        others = tuple(seat for seat in range(self.player_count) if seat != action.seat)
        self._events.append(("breaks", action, tuple(clause.reason for clause in broken), others))

    @staticmethod
    def _marked(value: Any) -> Any:
        return True if value is None or isinstance(value, bool) else value + 1

    # --- evaluation -----------------------------------------------------------------------------------------------

    def evaluate(self, expression: Expr, bindings: Bindings, values: dict[str, Any] | None = None) -> Any:
        """The value of an expression with `bindings` bound (left unchanged)."""
        try:
            return expression.function(self.values if values is None else values,
                                       dict(bindings) if expression.keeps else bindings)
        except Exception:  # any failure of generated code becomes a located ruleset error
            return self.evaluate_kept(expression, dict(bindings), values)

    def evaluate_kept(self, expression: Expr, scratch: Bindings, values: dict[str, Any] | None = None) -> Any:
        """The value of an expression; the parameterless definitions it computes are kept in `scratch`, so pass
        a fresh dict that lives no longer than the state stays as it is (one decision)."""
        try:
            return expression.function(self.values if values is None else values, scratch)
        except Exception:  # any failure of generated code becomes a located ruleset error
            try:  # again, to name the failure in the ruleset's terms
                run_expression(expression.function, self.values if values is None else values, dict(scratch))
            except EvaluationError as error:
                raise RulesetRuntimeError(str(error), expression.where) from None
            raise

    # --- the hand's code ---------------------------------------------------------------------------------------

    def shown(self, value: Any, kind: Any) -> str:
        """A value as a transcript shows it: cards, ranks and suits by name, seats by number."""
        name = getattr(kind, "name", "")
        if value is None:
            return "null"
        if name == "optional":
            return self.shown(value, kind.element)
        if name == "list":
            return " ".join(self.shown(item, kind.element) for item in value)
        if name in ("card", "suit", "rank"):
            return self.game.deck.value_text(name, value)
        if isinstance(value, bool):
            return "true" if value else "false"
        if value.__class__ is Fraction:
            return number_text(value)
        return str(value)

    def _secret_from(self, option: Option, action: Action, bindings: Bindings) -> tuple[int, ...]:
        """The seats that may not see what this action is: everyone else for a secret choice, and while a
        simultaneous round is open; for a discard (or a card played face down), the seats that cannot see where
        the card goes."""
        if self.open_rounds or option.secret:
            return tuple(seat for seat in range(self.player_count) if seat != action.seat)
        destination = option.destination
        if not option.hides_card or destination is None or option.face == "up":
            return ()
        named = destination.owner_name  # (an owner bound by name, as `discards[player]` names it: read at once)
        if named is not None and named in bindings:
            owner = bindings[named]
            if owner.__class__ is not int:
                owner = int(owner)
        else:
            if destination.owner is not None and named is None:
                bindings = {**bindings, "card": action.card}  # (an owner worked out by an expression may read it)
            owner = self.cards.owner(self, destination, bindings)
        # (kept by zone, owner and seat with the teams they were worked out for: the teams are the same tuple hand
        # after hand, told apart at once, where hashing them as part of the key took a third of the time)
        teams = self.values["team_of"]
        key = (destination.name, owner, action.seat)
        kept = self.game.secrets.get(key)
        if kept is not None and (kept[0] is teams or kept[0] == teams):
            return kept[1]
        from interpreter.engine.observation import sees_zone

        zone = self.game.ruleset.zones[destination.name]
        found = tuple(seat for seat in range(self.player_count)
                      if seat != action.seat and not sees_zone(self, zone, owner, seat))
        self.game.secrets[key] = (teams, found)
        return found

    def chosen(self) -> list[int]:
        """The seats that have chosen in the simultaneous round in progress (none when there is none)."""
        if not self.open_rounds:
            return []
        return sorted({entry[1].seat for entry in self.locals[self.open_rounds[-1]]})

    def reveal(self, deferred: tuple[decisions.Deferred, ...]) -> None:
        """The choices of a simultaneous round, shown to every seat once all are made (a secret one is not)."""
        for option, action, _bindings, _decision in deferred:
            if not option.secret:
                self._events.append(("reveal", action))

    def record(self, event: tuple[Any, ...]) -> None:
        """An event for the log, as a tuple (`events` makes each a dict when it is read)."""
        self._events.append(event)

    def note(self, text: str) -> None:
        self._events.append(("log", text))

    def note_parts(self, parts: tuple[Any, ...]) -> None:
        """A log line from its parts (text, or a value with its type), made into text only when the events are
        read: most games run by bots are never read."""
        self._events.append(("log_parts", tuple([  # (a list made and then frozen: fewer steps than a generator's)
            part if part.__class__ is str else (_snapshot(part[0]), part[1]) if part[0].__class__ is list else part
            for part in parts])))

    def advance(self) -> None:
        """Run until a decision, a chance event or the end of the match."""
        self._legal = None  # (the hand's code never clears it: see handcode.py)
        segments = self._segments
        locals_ = self.locals
        label = self.pc
        try:
            while label >= 0:  # (see handcode.py: a segment returns the next label, or ~label to stop there)
                label = segments[label](self, locals_)
        except RulesetRuntimeError as error:
            self._locate(error)
            self.note_stop()
            raise
        self.pc = ~label
        self.note_stop()

    def note_stop(self) -> None:
        """The hand's code has stopped (at a decision, a chance event or the match's end): who acts next."""
        pending = self.pending  # (a decision pending: never with a chance event, nor once the match is over)
        self.current_player = pending.seat if pending is not None else TERMINAL if self.is_terminal else CHANCE

    def located(self, error: RulesetRuntimeError) -> RulesetRuntimeError:
        """The error, given its place in the ruleset's file (for a failure found outside the hand's code)."""
        self._locate(error)
        return error

    def _locate(self, error: RulesetRuntimeError) -> None:
        """Give a ruleset's failure its place in the file (its YAML path is known)."""
        if error.location is None and error.where:
            ruleset = self.game.ruleset
            node = find(ruleset.tree, parse_yaml_path(error.where))
            if node is not None:
                error.location = node.location
            written = written_at(ruleset.tree, error.where, ruleset.procedure_paths)
            if written != error.where:
                error.shown_at(written)
                note = calls_note(ruleset.procedure_calls, error.where)
                if note and note not in error.notes:
                    error.notes = (*error.notes, note)


def _is_not_an_action(problem: str) -> str:
    """`malformed`'s words as the end of a sentence about the action."""
    return problem if problem.startswith("names ") else f"is no action: {problem}"
