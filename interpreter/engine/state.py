"""The dynamic state of a match: zones, variables, the stack of frames in progress, the pending decision or
chance event, the state's own random generator, and the match loop over hands."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from interpreter.actions import Action, ActionSyntaxError
from interpreter.dsl.compiler import evaluate as run_expression
from interpreter.engine import decisions
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.executors import EXECUTORS
from interpreter.engine.frames import Decide, Frame, Move, Perform, PhaseFrame, Round, Trick
from interpreter.engine.melds import Meld
from interpreter.engine.program import Expr, Option, Phase, Ref, Step
from interpreter.engine.zones import FaceUp, ZoneKey, plain
from interpreter.errors import EvaluationError

if TYPE_CHECKING:
    from interpreter.engine.game import Game

CHANCE = -1
TERMINAL = -2
MAX_STEPS = 5_000_000

Bindings = dict[str, Any]


class State:
    """One match in progress. `current_player` is a seat, CHANCE or TERMINAL."""

    def __init__(self, game: Game, players: int, seed: int | None) -> None:
        self.game = game
        self.player_count = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.values: dict[str, Any] = {}
        self.face_up = FaceUp()
        self.stack: list[Frame] = []
        self.pending: decisions.Pending | None = None
        self.chance: tuple[ZoneKey, str] | None = None
        self.terminal = False
        self.phase = ""
        self.steps = 0
        self.history: list[Action] = []
        self._events: list[tuple[Any, ...]] = []  # recorded cheaply; `events` gives them as dicts
        self._event_dicts: list[dict[str, Any]] = []
        self.hand_results: list[dict[str, Any]] = []
        self._legal: dict[Action, Option] | None = None  # the legal set, computed once per decision
        self.meld_plans: dict[Action, Any] = {}  # for each legal meld or addition, the meld it makes
        self.melds_laid = 0  # melds are numbered m0, m1, ... in the order they are laid in the hand

    # --- the public contract --------------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.chance is not None:
            return CHANCE
        assert self.pending is not None
        return self.pending.seat

    @property
    def is_terminal(self) -> bool:
        return self.terminal

    @property
    def is_chance_node(self) -> bool:
        return self.chance is not None and not self.terminal

    def legal_actions(self) -> list[Action]:
        """The complete legal set, in a fixed order; empty at a chance node and when the match is over."""
        if self.terminal or self.chance is not None or self.pending is None:
            return []
        return list(self.legal_set())

    def legal_set(self) -> dict[Action, Option]:
        """The legal actions with the option each takes (computed once per decision)."""
        assert self.pending is not None
        if self._legal is None:
            self.meld_plans = {}
            self._legal = decisions.legal_actions(self, self.pending)
            if not self._legal:
                raise RulesetRuntimeError(f"p{self.pending.seat} has no legal action", self.pending.where)
        return self._legal

    def check(self, action: Action | str) -> None:
        """Raise IllegalActionError, quoting the ruleset's reason, unless the action is legal now."""
        self._checked(self._action(action))

    def is_legal(self, action: Action | str) -> bool:
        try:
            self.check(action)
        except (IllegalActionError, ActionSyntaxError):
            return False
        return True

    def apply(self, action: Action | str) -> None:
        """Check an action, then apply it and run the game on to the next decision or chance event."""
        action = self._action(action)
        option, bindings = self._checked(action)
        assert self.pending is not None
        self.pending = None
        self._legal = None
        self.history.append(action)
        self._events.append(("action", action, self._secret_from(option, action, bindings)))
        frame = self.stack[-1]
        assert isinstance(frame, (Decide, Trick))
        frame.resolve(self, action, option, bindings)
        self._advance()

    def apply_chance(self, outcome: Sequence[int] | Sequence[str] | None = None) -> None:
        """At a chance node: shuffle with the state's own generator, or put the given order (the card dealt
        first, first: a stacked deck)."""
        if self.chance is None or self.terminal:
            raise IllegalActionError("this is not a chance node")
        key, _where = self.chance
        cards = self._zone_list(key)
        if outcome is None:
            self.rng.shuffle(cards)
        else:
            order = [self.game.deck.parse_card(c) if isinstance(c, str) else c for c in outcome]
            if Counter(order) != Counter(cards):
                raise IllegalActionError(f"the stacked order must hold exactly the {len(cards)} cards of "
                                         f"{key[0]}, each as many times as it holds them")
            cards[:] = reversed(order)
        self.face_up.clear(key)
        self.chance = None
        self._events.append(("chance", key[0], cards[::-1]))
        self._advance()

    def returns(self) -> list[int]:
        """Each seat's match result, as the ruleset's `match.result` scores it."""
        result = self.game.program.result
        return [self.evaluate(result, {"player": seat}) for seat in range(self.player_count)]

    def observation(self, seat: int) -> dict[str, Any]:
        """What one seat may see, as JSON-serialisable data."""
        from interpreter.engine.observation import observe

        return observe(self, seat)

    def clone(self) -> State:
        copy = object.__new__(State)
        copy.__dict__.update(self.__dict__)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        copy.values = {name: plain(value) for name, value in self.values.items()}
        copy.face_up = self.face_up.copy()
        copy.stack = [frame.copy() for frame in self.stack]
        copy.history = list(self.history)
        copy._events = list(self._events)
        copy._event_dicts = list(self._event_dicts)
        copy.hand_results = list(self.hand_results)
        copy._legal = None
        copy.meld_plans = {}
        if self.pending is not None:
            copy.pending = decisions.Pending(self.pending.seat, self.pending.options, self.pending.bindings,
                                             self.pending.where)
        return copy

    @property
    def events(self) -> list[dict[str, Any]]:
        """What has happened, in order, as JSON-serialisable dicts (the transcript and the log are made of
        them): `hand`, `chance` (the new order, top first), `action`, `reveal`, `log`, `hand_end`."""
        dicts = self._event_dicts
        for event in self._events[len(dicts):]:
            dicts.append(self._event_dict(event))
        return dicts

    def _event_dict(self, event: tuple[Any, ...]) -> dict[str, Any]:
        kind = event[0]
        if kind == "action":
            action, secret = event[1], event[2]
            found = {"type": "action", "action": self.action_text(action), "seat": action.seat}
            if secret:
                found["secret_from"] = secret
            return found
        if kind == "chance":
            return {"type": "chance", "zone": event[1], "order": [self.card_text(c) for c in event[2]]}
        if kind == "reveal":
            return {"type": "reveal", "action": self.action_text(event[1])}
        if kind == "log":
            return {"type": "log", "text": event[1]}
        if kind == "hand":
            return {"type": "hand", "hand": event[1], "dealer": event[2]}
        return {"type": "hand_end", "hand": event[1], "result": event[2]}

    # --- text forms --------------------------------------------------------------------------------------------

    def card_text(self, card: int) -> str:
        return self.game.deck.card_text(card)

    def action_text(self, action: Action) -> str:
        return action.text(self.game.deck)

    def parse_action(self, text: str) -> Action:
        return Action.parse(text, self.game.deck)

    def _action(self, action: Action | str) -> Action:
        return self.parse_action(action) if isinstance(action, str) else action

    def _checked(self, action: Action) -> tuple[Option, Bindings]:
        if self.terminal:
            raise IllegalActionError("the match is over")
        if self.chance is not None:
            raise IllegalActionError("this is a chance node: call apply_chance()")
        assert self.pending is not None
        if self._legal is not None:
            option = self._legal.get(action)
            if option is not None:  # known legal: no need to test its clauses again
                return option, decisions.bindings_for(self, self.pending, option, action)
        return decisions.check(self, self.pending, action)

    # --- evaluation -----------------------------------------------------------------------------------------------

    def evaluate(self, expression: Expr, bindings: Bindings, values: dict[str, Any] | None = None) -> Any:
        """The value of an expression with `bindings` bound (left unchanged)."""
        return self.evaluate_kept(expression, dict(bindings) if expression.keeps else bindings, values)

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

    # --- zones and variables ---------------------------------------------------------------------------------

    def _owner(self, ref: Ref, bindings: Bindings) -> int:
        name = ref.owner_name
        if name is not None:
            found = bindings.get(name)
            return int(found if found is not None else self.values[name])
        if ref.owner is not None:
            owner: int = self.evaluate(ref.owner, bindings)
            return owner
        if ref.implicit:
            return int(bindings["player"])
        return -1

    def zone(self, ref: Ref, bindings: Bindings) -> tuple[ZoneKey, list[int]]:
        owner = self._owner(ref, bindings)
        key = (ref.name, owner)
        return key, self._zone_list(key)

    def table(self, ref: Ref, bindings: Bindings) -> tuple[ZoneKey, list[Meld]]:
        """A zone of melds."""
        key, melds = self.zone(ref, bindings)
        return key, cast("list[Meld]", melds)

    def _zone_list(self, key: ZoneKey) -> list[int]:
        name, owner = key
        stored = self.values[name]
        cards: list[int] = stored if owner < 0 else stored[owner]
        return cards

    def _assign(self, ref: Ref, bindings: Bindings, value: Any) -> None:
        owner = self._owner(ref, bindings)
        if owner < 0:
            self.values[ref.name] = value
        else:
            self.values[ref.name][owner] = value

    def _read(self, ref: Ref, bindings: Bindings) -> Any:
        owner = self._owner(ref, bindings)
        return self.values[ref.name] if owner < 0 else self.values[ref.name][owner]

    def _put(self, key: ZoneKey, cards: list[int], card: int, face_up: bool, at_bottom: bool) -> None:
        if at_bottom:
            cards.insert(0, card)
        else:
            cards.append(card)
        if face_up:
            self.face_up.add(key, card)

    def _take(self, key: ZoneKey, cards: list[int], index: int) -> tuple[int, bool]:
        card = cards.pop(index)
        return card, self.face_up.take(key, card)

    def move_from_top(self, step: Step, count: int, bindings: Bindings) -> int:
        """Move up to `count` cards from the top of the source; how many moved."""
        source_key, source = self.zone(step["source"], bindings)
        target_key, target = self.zone(step["destination"], bindings)
        face, at_bottom = step["face"], step["at"] == "bottom"
        moved = 0
        while moved < count and source:
            card, was_up = self._take(source_key, source, -1)
            self._put(target_key, target, card, face == "up" or (was_up and face != "down"), at_bottom)
            moved += 1
        return moved

    def _move(self, step: Step, bindings: Bindings) -> None:
        amount = step["amount"]
        if amount is None:  # all
            source_key, source = self.zone(step["source"], bindings)
            target_key, target = self.zone(step["destination"], bindings)
            face, at_bottom = step["face"], step["at"] == "bottom"
            cards = list(source)
            ups = self.face_up.of(source_key)
            was_up = list(ups)
            source.clear()
            self.face_up.clear(source_key)
            if at_bottom:
                target[:0] = cards
            else:
                target.extend(cards)
            for card in cards:
                if face == "up" or (face != "down" and card in was_up):
                    if card in was_up:
                        was_up.remove(card)
                    self.face_up.add(target_key, card)
            return
        value = self.evaluate(amount, bindings)
        if isinstance(value, list):
            source_key, source = self.zone(step["source"], bindings)
            target_key, target = self.zone(step["destination"], bindings)
            for card in value:
                if card not in source:
                    raise RulesetRuntimeError(f"{self.card_text(card)} is not in {source_key[0]}", step.where)
                _, card_was_up = self._take(source_key, source, len(source) - 1 - source[::-1].index(card))
                face = step["face"]
                self._put(target_key, target, card, face == "up" or (card_was_up and face != "down"),
                          step["at"] == "bottom")
            return
        if step["when_empty"]:
            self.stack.append(Move(step, int(value), bindings))
            return
        moved = self.move_from_top(step, int(value), bindings)
        if moved < value:
            raise RulesetRuntimeError(f"{step['source'].name} ran out: {moved} of {value} cards moved "
                                      "(a `when_empty:` refill would handle it)", step.where)

    # --- the machine --------------------------------------------------------------------------------------------

    def execute(self, step: Step, bindings: Bindings) -> None:
        """Run one step, or push the frame that runs it."""
        EXECUTORS[step.verb](self, step, bindings)

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
        return str(value)

    def _deal(self, step: Step, bindings: Bindings) -> None:
        count = int(self.evaluate(step["count"], bindings))
        source_key, source = self.zone(step["source"], bindings)
        seats_expression = step["seats"]
        if seats_expression is None:
            dealer = self.values["dealer"]
            seats = [(dealer + 1 + offset) % self.player_count for offset in range(self.player_count)]
        else:
            seats = list(self.evaluate(seats_expression, bindings))
        zone = step["zone"]
        face_up = step["face_up"]
        order = ([(r, s) for r in range(1, count + 1) for s in seats] if step["one_at_a_time"]
                 else [(r, s) for s in seats for r in range(1, count + 1)])
        for round_number, seat in order:
            if not source:
                raise RulesetRuntimeError(f"{source_key[0]} ran out while dealing", step.where)
            card, _ = self._take(source_key, source, -1)
            up = face_up is not None and self.evaluate(face_up, {**bindings, "receiver": seat, "round": round_number})
            self._put((zone, seat), self.values[zone][seat], card, bool(up), False)

    def perform(self, option: Option, action: Action, bindings: Bindings) -> Bindings:
        """An action's own movement (a card played or discarded, a card drawn, a pile taken); returns the
        bindings its option's steps see."""
        kind = option.kind
        if kind in ("meld", "add"):
            return self._lay(option, action, bindings)
        if kind in ("play", "discard", "draw", "take"):
            assert option.source is not None and option.destination is not None
            source_key, source = self.zone(option.source, bindings)
            target_key, target = self.zone(option.destination, bindings)
            if kind in ("play", "discard"):
                index = len(source) - 1 - source[::-1].index(action.card)
                card, was_up = self._take(source_key, source, index)
                self._put(target_key, target, card, was_up or kind == "play", False)
                return {**bindings, "card": card}
            taken = [source[-1]] if kind == "draw" else list(source)
            for _ in taken:  # the top card; or the whole pile, bottom first, so that its order is kept
                card, was_up = self._take(source_key, source, -1 if kind == "draw" else 0)
                self._put(target_key, target, card, was_up, False)
            return {**bindings, "cards": taken}
        return bindings

    def _lay(self, option: Option, action: Action, bindings: Bindings) -> Bindings:
        """A meld laid, or a card added to one: the cards leave the hand; the meld is put (or replaced)."""
        assert option.source is not None and option.destination is not None
        plan = bindings["meld"]
        source_key, source = self.zone(option.source, bindings)
        for card in (action.cards if option.kind == "meld" else (action.card,)):
            self._take(source_key, source, len(source) - 1 - source[::-1].index(card))
        _, table = self.table(option.destination, bindings)
        if option.kind == "meld":
            table.append(plan)
            self.melds_laid += 1
        else:
            table[next(i for i, meld in enumerate(table) if meld.id == plan.id)] = plan
        return bindings

    def await_decision(self, seat: int, options: tuple[Option, ...], bindings: Bindings, where: str) -> None:
        self.pending = decisions.Pending(seat, options, bindings, where)
        self._legal = None

    def _secret_from(self, option: Option, action: Action, bindings: Bindings) -> list[int]:
        """The seats that may not see what this action is: everyone else while a simultaneous round is open;
        for a discard, the seats that cannot see where the card goes."""
        if option.kind != "discard" and not self.game.has_simultaneous_rounds:
            return []
        others = [seat for seat in range(self.player_count) if seat != action.seat]
        if self.simultaneous_round() is not None:
            return others
        if option.kind != "discard" or option.destination is None:
            return []
        from interpreter.engine.observation import sees_zone

        key, _ = self.zone(option.destination, bindings)
        zone = self.game.ruleset.zones[key[0]]
        return [seat for seat in others if not sees_zone(self, zone, key[1], seat)]

    def simultaneous_round(self) -> Round | None:
        for frame in reversed(self.stack):
            if isinstance(frame, Round) and frame.step["simultaneous"]:
                return frame
        return None

    def reveal(self, deferred: list[Perform]) -> None:
        for perform in deferred:
            self._events.append(("reveal", perform.action))

    def note(self, text: str) -> None:
        self._events.append(("log", text))

    def _advance(self) -> None:
        """Run until a decision, a chance event or the end of the match."""
        stack = self.stack
        while self.pending is None and self.chance is None and not self.terminal:
            if not stack:
                self._end_hand()
                continue
            stack[-1].run(self)
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise RulesetRuntimeError(f"the match ran more than {MAX_STEPS:,} steps; does a loop never end?",
                                          getattr(getattr(stack[-1], "step", None), "where", ""))

    # --- hands and the match ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Set up the match and run to the first decision or chance event."""
        game = self.game
        self.values["player_count"] = self.player_count
        self.values["team_of"] = game.team_of(self.player_count)
        self.values["hand_number"] = 1
        self.values["dealer"] = 0
        for name, zone in game.ruleset.zones.items():
            self.values[name] = self._empty_zone(zone.owner)
        for name, variable in game.ruleset.variables.items():
            self.values[name] = self._initial(name, variable.per, variable.type)
        first = game.program.first_dealer
        self.values["dealer"] = self.evaluate(first, {}) if first is not None else 0
        self._start_hand()
        self._advance()

    def start_at(self, phase: str, *, dealer: int, hand_number: int, zones: dict[tuple[str, int], list[int]],
                 face_up: dict[tuple[str, int], list[int]], variables: dict[str, Any]) -> None:
        """Set up a hand already in progress (for scenarios): cards placed in zones, the rest of the deck in
        the deck's zone, variables set over their initial values; then run from the named phase."""
        game = self.game
        self.values.update(player_count=self.player_count, team_of=game.team_of(self.player_count),
                           hand_number=hand_number, dealer=dealer)
        for name, zone in game.ruleset.zones.items():
            self.values[name] = self._empty_zone(zone.owner)
        for name, variable in game.ruleset.variables.items():
            self.values[name] = self._initial(name, variable.per, variable.type)
        remaining = Counter(game.deck.cards())
        for key, cards in zones.items():
            for card in cards:
                if remaining[card] == 0:
                    raise IllegalActionError(f"{self.card_text(card)} is placed more times than the deck holds it")
                remaining[card] -= 1
            self._zone_list(key).extend(cards)
        rest: list[int] = []
        for card in game.deck.cards():
            if remaining[card] > 0:
                remaining[card] -= 1
                rest.append(card)
        self._zone_list((game.ruleset.deck_zone, -1))[:0] = reversed(rest)
        for key, cards in face_up.items():
            for card in cards:
                if card not in self._zone_list(key):
                    raise IllegalActionError(f"{self.card_text(card)} is face up in {key[0]} but not placed there")
                self.face_up.add(key, card)
        for name, value in variables.items():
            self.values[name] = value
        self._events.append(("hand", hand_number, dealer))
        self._enter(phase, {})
        self._advance()

    def _owners(self, per: str) -> int:
        return self.player_count if per == "seat" else len(self.game.teams(self.player_count))

    def _empty_zone(self, owner: str) -> Any:
        if owner == "table":
            return []
        return [[] for _ in range(self._owners(owner))]

    def _initial(self, name: str, per: str, type_name: str) -> Any:
        expression = self.game.program.initial.get(name)
        if per == "table":
            return None if expression is None else self.evaluate(expression, {})
        if expression is None:
            return [None] * self._owners(per)
        if per == "seat":
            return [self.evaluate(expression, {"player": seat}) for seat in range(self.player_count)]
        return [self.evaluate(expression, {}) for _ in range(self._owners(per))]

    def _start_hand(self) -> None:
        game = self.game
        for name, variable in game.ruleset.variables.items():
            if variable.lasts == "hand" and self.values["hand_number"] > 1:
                self.values[name] = self._initial(name, variable.per, variable.type)
        for name, zone in game.ruleset.zones.items():
            self.values[name] = self._empty_zone(zone.owner)
        self.face_up.clear()
        self.melds_laid = 0
        self.values[game.ruleset.deck_zone] = list(reversed(game.deck.cards()))
        self._events.append(("hand", self.values["hand_number"], self.values["dealer"]))
        self._enter(game.program.start, {})

    def _enter(self, name: str, bindings: Bindings) -> None:
        phase = self.game.program.phases[name]
        self.phase = name
        self.stack.append(PhaseFrame(phase, bindings))

    def enter_next_phase(self, phase: Phase, bindings: Bindings) -> None:
        for transition in phase.transitions:
            if transition.condition is None or self.evaluate(transition.condition, bindings):
                if transition.target != "end":
                    self._enter(transition.target, bindings)
                return
        raise RulesetRuntimeError(f"no transition out of phase `{phase.name}` applies", phase.name)

    def _end_hand(self) -> None:
        program = self.game.program
        number = self.values["hand_number"]
        self.hand_results.append({"hand": number, "dealer": self.values["dealer"], "result": self.returns()})
        self._events.append(("hand_end", number, self.hand_results[-1]["result"]))
        hands = self.evaluate(program.hands, {}) if program.hands is not None else None
        cap = self.evaluate(program.hand_cap, {}) if program.hand_cap is not None else 1000
        ended = program.ends_when is not None and self.evaluate(program.ends_when, {})
        if ended or (hands is not None and number >= hands) or number >= cap:
            self.terminal = True
            self.phase = ""
            return
        nxt = program.next_dealer
        dealer = self.values["dealer"]
        self.values["dealer"] = self.evaluate(nxt, {}) if nxt is not None else (dealer + 1) % self.player_count
        self.values["hand_number"] = number + 1
        self._start_hand()
