"""The match loop: setting up a match (or a hand already in progress, for scenarios), starting each hand
with the deck in its zone, moving through the phases, and ending hands and the match."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from interpreter.dsl.types import SEAT
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.melds import Meld

if TYPE_CHECKING:
    from interpreter.engine.state import State

DEFAULT_HAND_CAP = 1000  # the most hands of a match whose ruleset sets no `hand_cap`
MOST_HANDS = 1_000_000  # the most hands any match may be set to last (`hands`, `hand_cap`): more is a mistake

Bindings = dict[str, Any]


class HandPlan(NamedTuple):
    """What every hand of a match starts from, for one number of players (`MatchLoop._start_hand`): the
    variables that last a hand, with their initial values when those are constants (a value on the table, or a
    list of one per owner, made anew for each hand), the others worked out at each hand; and the zones, empty.
    `reset(values, later)` is that plan written out as code (see `_reset_code`): the zones emptied, the deck's
    zone filled, and with `later` (every hand after the first, whose variables the match's start sets) the
    constant variables set."""

    worked_out: tuple[tuple[str, Any], ...]  # (name, variable) of those worked out at each hand
    reset: Callable[[dict[str, Any], bool], None]
    per_seat: dict[str, Any]  # of those, a value per seat worked out by an expression: name -> the expression
    teams: tuple[int, ...] | None  # each seat's team wherever the seats sit (every seat a team), or None


def _reset_code(on_table: dict[str, Any], owned: dict[str, tuple[Any, int]], table_zones: tuple[str, ...],
                owned_zones: tuple[tuple[str, int], ...], deck_zone: str,
                deck: tuple[Any, ...]) -> Callable[[dict[str, Any], bool], None]:
    """A hand's start for one number of players as straight-line code, each value written in place as a
    display (`[[], [], []]`, `[C0, C0, C0]`) rather than made in a loop over the plan at every hand."""
    constants: dict[str, Any] = {"DECK": deck}
    lines = ["def reset(V, later):", "    if later:", "        pass"]
    for name, value in on_table.items():
        constants[f"C{len(constants)}"] = value
        lines.append(f"        V[{name!r}] = C{len(constants) - 1}")
    for name, (value, owners) in owned.items():
        constants[f"C{len(constants)}"] = value
        lines.append(f"        V[{name!r}] = [{', '.join([f'C{len(constants) - 1}'] * owners)}]")
    lines += [f"    V[{name!r}] = []" for name in table_zones]
    lines += [f"    V[{name!r}] = [{', '.join(['[]'] * owners)}]" for name, owners in owned_zones]
    lines.append(f"    V[{deck_zone!r}] = [*DECK]")
    namespace: dict[str, Any] = {"__builtins__": {}, **constants}
    exec("\n".join(lines), namespace)  # generated from the ruleset's names (repr) and the plan's values
    return namespace["reset"]  # type: ignore[no-any-return]


class MatchLoop:
    """The part of the engine that runs a state's match over hands: it sets the match up (or a hand in progress),
    starts and ends each hand, and keeps where the seats sit and the teams they form. One per Game (`Game.match`,
    also `State.match`), shared by its states: it keeps nothing of a match, and is given the state it acts on."""

    __slots__ = ()

    # --- hands and the match ----------------------------------------------------------------------------------

    def start(self, state: State) -> None:
        """Set up the match and run to the first decision or chance event."""
        game = state.game
        if game.match_lengths is None and self._lengths_constant(game.program):  # (a length too large for any
            self._match_lengths(state)  # match is refused before the first hand, not at its end)
        state.values["player_count"] = state.player_count
        self._set_seating(state, tuple(range(state.player_count)))
        state.values["team_of"] = game.team_of(state.player_count)
        state.values["_formed"] = ()
        state.values["_meld_rules"] = game.meld_rules  # for builtins such as can_meld()
        state.values["hand_number"] = 1
        state.values["dealer"] = 0
        for name, zone in game.ruleset.zones.items():
            state.values[name] = self._empty_zone(state, zone.owner)
        for name, variable in game.ruleset.variables.items():
            state.values[name] = self._initial(state, name, variable.per, variable.type)
        if game.program.first_dealer_drawn:  # (`first_dealer: random`: a chance event before the first hand)
            state.values[game.ruleset.deck_zone] = list(game.fresh_decks[state.player_count])  # (the cards exist)
            self._clear_placements(state)
            state.chance = (None, "match.first_dealer", tuple(range(state.player_count)), None, SEAT)
            state.note_stop()
            return
        first = game.program.first_dealer
        self.deal_first_hand(state, state.evaluate(first, {}) if first is not None else 0, game.hand_variables)

    @staticmethod
    def _zone_words(state: State, key: tuple[str, int]) -> str:
        """A zone as a scenario's messages name it: `blind`, `hand[p4]`, `won[t1]`."""
        name, owner = key
        kind = state.game.ruleset.zones[name].owner
        return name if kind == "table" else f"{name}[{'p' if kind == 'seat' else 't'}{owner}]"

    @staticmethod
    def _placed_too_often(state: State, card: int, zones: list[str]) -> IllegalActionError:
        text = state.card_text(card)
        held = Counter(state.game.deck.cards(state.player_count))[card]
        if held == 0:
            return IllegalActionError(f"{text} is placed in {zones[0]}, but the deck has no {text} with "
                                      f"{state.player_count} players")
        where = f"{len(zones)} times in {zones[0]}" if len(set(zones)) == 1 else \
            "in " + ", ".join(zones[:-1]) + f" and {zones[-1]}"
        copies = "once" if held == 1 else "twice" if held == 2 else f"{held} times"
        return IllegalActionError(f"{text} is placed {where}, but the deck holds it {copies}")

    def deal_first_hand(self, state: State, dealer: int, variables: Any) -> None:
        """The first hand, with its dealer known: the variables given (those of a hand; every one, for a dealer
        drawn) start again with that dealer at the table."""
        state.values["dealer"] = dealer
        for name, variable in variables:
            state.values[name] = self._initial(state, name, variable.per, variable.type)
        self._start_hand(state)
        state.advance()

    def start_at(self, state: State, phase: str, *, dealer: int, hand_number: int,
                 zones: dict[tuple[str, int], list[Any]],
                 face_up: dict[tuple[str, int], list[int]], variables: dict[str, Any],
                 rest_zone: tuple[str, int] | None = None, leader: int | None = None,
                 owned: dict[str, dict[int, Any]] | None = None, seating: tuple[int, ...] | None = None) -> None:
        """Set up a hand already in progress (for scenarios): cards (or melds) placed in zones, the rest of the
        deck in the deck's zone (or in `rest_zone`), variables set over their initial values (`owned`: some
        owners' values of a per-seat or per-team variable, the others keeping theirs); then run from the named
        phase; `leader` leads the first trick played, whatever its `leader` says; `seating`: where the seats sit
        (clockwise from place 0), as a `seating` step left them, with the teams that follow."""
        game = state.game
        state.values.update(player_count=state.player_count, hand_number=hand_number, dealer=dealer,
                           _meld_rules=game.meld_rules)
        self._set_seating(state, seating or tuple(range(state.player_count)))
        state.values["team_of"] = self.seated_teams(state)
        for name, zone in game.ruleset.zones.items():
            state.values[name] = self._empty_zone(state, zone.owner)
        self._clear_placements(state)
        for name, variable in game.ruleset.variables.items():
            state.values[name] = self._initial(state, name, variable.per, variable.type)
        remaining = Counter(game.deck.cards(state.player_count))
        placed: dict[int, list[str]] = {}  # (the zones each card is placed in, for the error below)
        state.melds_laid = 0
        for key, cards in zones.items():  # (in a zone of melds, melds: their cards count against the deck)
            for card in [c for item in cards for c in (item.cards if isinstance(item, Meld) else (item,))]:
                placed.setdefault(card, []).append(self._zone_words(state, key))
                if remaining[card] == 0:
                    raise self._placed_too_often(state, card, placed[card])
                remaining[card] -= 1
            state.cards.zone_list(state, key).extend(cards)
            state.melds_laid += sum(1 for item in cards if isinstance(item, Meld))
        unplaced: list[int] = []
        for card in game.deck.cards(state.player_count):
            if remaining[card] > 0:
                remaining[card] -= 1
                unplaced.append(card)
        state.cards.zone_list(state, rest_zone or (game.ruleset.deck_zone, -1))[:0] = reversed(unplaced)
        for key, cards in face_up.items():
            for card in cards:
                if card not in state.cards.zone_list(state, key):
                    raise IllegalActionError(f"{state.card_text(card)} is face up in {key[0]} but not placed there")
                state.face_up.add(key, card)
        for name, value in variables.items():
            stored = state.values.get(name)  # (a value per key: the keys given over the initial values of the others)
            state.values[name] = {**stored, **value} if isinstance(stored, dict) and isinstance(value, dict) else value
        state.values["_formed"] = self._formed_in_play(state, state.values["team_of"])
        for name, owners in (owned or {}).items():
            merged = list(state.values[name])
            for owner, value in owners.items():
                # (a value per key: the keys given over the initial values of the others)
                merged[owner] = {**merged[owner], **value} if isinstance(merged[owner], dict) else value
            state.values[name] = merged
        for name, (per, fixed) in game.ruleset.unchanging.items():  # (the rules read these as their constant)
            stored = state.values[name]
            if any(value != fixed or value.__class__ is not fixed.__class__
                   for value in ([stored] if per == "table" else stored)):
                raise IllegalActionError(
                    f"`{name}` cannot be set here: no step of this ruleset changes it with these parameters, so "
                    f"its rules read it as {state.shown(fixed, None)} (set the parameters that let it change)")
        state.record(("hand", hand_number, dealer))
        state.first_leader = leader
        self.enter(state, phase)
        state.advance()

    def _owners(self, state: State, per: str) -> int:
        return state.player_count if per == "seat" else len(state.game.teams(state.player_count))

    def _empty_zone(self, state: State, owner: str) -> Any:
        if owner == "table":
            return []
        return [[] for _ in range(self._owners(state, owner))]

    def _initial(self, state: State, name: str, per: str, type_name: str) -> Any:
        value = self._initial_value(state, name, per)
        variable = state.game.ruleset.variables[name]
        if variable.by is None:
            return value
        # A value per key (`by:`): each owner's value (or the one on the table) for every key.
        keys = [key for key, _ in variable.keys(state.game.deck, state.player_count, self._owners(state, "team"))]
        if per == "table":
            return dict.fromkeys(keys, value)
        return [dict.fromkeys(keys, owned) for owned in value]

    def _initial_value(self, state: State, name: str, per: str) -> Any:
        expression = state.game.program.initial.get(name)
        if expression is None:
            return None if per == "table" else [None] * self._owners(state, per)
        constant = getattr(expression.function, "constant", None)  # (value,) for a constant (an immutable one)
        if constant is not None:
            return constant[0] if per == "table" else [constant[0]] * self._owners(state, per)
        if per == "table":
            return state.evaluate(expression, {})
        if per == "seat":
            return state.per_seat(expression)
        return [state.evaluate(expression, {}) for _ in range(self._owners(state, per))]

    def form_team(self, state: State, seats: list[int]) -> None:
        """The seats play as one team (the first seat's) until the hand ends; the other teams' per-team zones
        join its zones. Remembered for the hand (`_formed`), so that a `seating` step keeps the team formed."""
        if not seats:
            return
        self._join(state, seats)
        state.values["_formed"] = (*state.values["_formed"], tuple(seats))
        state.record(("log", "Team: " + " and ".join(f"p{seat}" for seat in seats)))

    def _join(self, state: State, seats: list[int] | tuple[int, ...]) -> None:
        """The teams of `seats` join the first seat's team, with their per-team zones."""
        team_of = list(state.values["team_of"])
        keeper = team_of[seats[0]]
        joining = {team_of[seat] for seat in seats} - {keeper}
        for name, zone in state.game.ruleset.zones.items():
            if zone.owner == "team":
                stored = state.values[name]
                for team in sorted(joining):
                    moved = stored[team]
                    if zone.kind == "melds":  # the melds now belong to the team they joined
                        moved = [meld.replaced(owner=keeper) for meld in moved]
                    stored[keeper].extend(moved)
                    stored[team].clear()
        for seat, team in enumerate(team_of):
            if team in joining:
                team_of[seat] = keeper
        state.values["team_of"] = tuple(team_of)

    def _formed_in_play(self, state: State, given: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """The teams a hand set up in progress (a scenario's `teams`) has formed over the seated teams: for each
        team given that joins seats of several seated teams, a seat that keeps its team first, then the others."""
        seated = self.seated_teams(state)
        formed = []
        for team in sorted(set(given)):
            members = [seat for seat, joined in enumerate(given) if joined == team]
            if len({seated[seat] for seat in members}) > 1:
                keeper = next((seat for seat in members if seated[seat] == team), members[0])
                formed.append((keeper, *(seat for seat in members if seat != keeper)))
        return tuple(formed)

    # --- where the seats sit ------------------------------------------------------------------------------------

    def _set_seating(self, state: State, order: tuple[int, ...]) -> None:
        """The seats in their places, clockwise from place 0, and what is read from them: each seat's seats
        clockwise from it (`_clockwise`) and the seat on its left (`_next`). Tuples, never changed: a copy of the
        state shares them."""
        count = len(order)
        place = [0] * count
        for index, seat in enumerate(order):
            place[seat] = index
        clockwise = tuple(tuple(order[(place[seat] + k) % count] for k in range(count)) for seat in range(count))
        state.values["_seating"] = order
        state.values["_clockwise"] = clockwise
        state.values["_next"] = tuple(around[1 % count] for around in clockwise)

    def seat_players(self, state: State, order: list[int], where: str) -> None:
        """A `seating` step: the seats take the places `order` lists (every seat once, clockwise from place 0);
        the partnerships follow the places."""
        count = state.player_count
        if sorted(order) != list(range(count)):
            listed = ", ".join(f"p{seat}" for seat in order)
            twice = sorted({f"p{seat}" for seat in order if order.count(seat) > 1})
            missing = [f"p{seat}" for seat in range(count) if seat not in order]
            strange = sorted({str(seat) for seat in order if not 0 <= seat < count})
            faults = ([f"{', '.join(twice)} more than once"] if twice else []) + \
                ([f"no seat {', '.join(strange)} at a table of {count}"] if strange else []) + \
                ([f"{', '.join(missing)} missing"] if missing else [])
            raise RulesetRuntimeError(f"a seating lists every seat of the table once, clockwise; [{listed}] has "
                                      f"{' and '.join(faults)}", where)
        self._set_seating(state, tuple(order))
        state.values["team_of"] = self.seated_teams(state)
        for seats in state.values["_formed"]:  # the teams formed in the hand stay formed, where the seats now sit
            self._join(state, seats)
        state.record(("log", "Seating, clockwise: " + ", ".join(f"p{seat}" for seat in order)))

    def seated_teams(self, state: State, order: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """The ruleset's teams where the seats sit (now, or in `order`): when a team has several seats, teams are
        places (the seat at place i plays for the team of seat i in the `teams` section); when every seat plays
        alone, each keeps its own team."""
        team_of = state.game.team_of(state.player_count)
        order = state.values["_seating"] if order is None else order
        if len(set(team_of)) == len(team_of) or order == tuple(range(state.player_count)):
            return team_of
        seated = [0] * len(team_of)
        for place, seat in enumerate(order):
            seated[seat] = team_of[place]
        return tuple(seated)

    def _start_hand(self, state: State) -> None:
        game = state.game
        values = state.values
        plan = game.hand_plans.get(state.player_count) or self._hand_plan(state)
        values["team_of"] = plan.teams if plan.teams is not None else self.seated_teams(state)
        values["_formed"] = ()  # (teams formed in a hand last until its end)
        later = values["hand_number"] > 1
        plan.reset(values, later)
        if later and plan.worked_out:
            for name, variable in plan.worked_out:
                expression = plan.per_seat.get(name)
                values[name] = state.per_seat(expression) if expression is not None else \
                    self._initial(state, name, variable.per, variable.type)
        state.face_up.cards.clear()
        if game.tracks_placement:
            self._clear_placements(state)
        state.melds_laid = 0
        state.meld_search = None
        state._events.items.append(("hand", values["hand_number"], values["dealer"]))  # (`record`, written out)
        self.enter(state, game.program.start)

    def _hand_plan(self, state: State) -> HandPlan:
        """What a hand starts from, worked out once per number of players (see HandPlan)."""
        plans = state.game.hand_plans
        plan = plans.get(state.player_count)
        if plan is None:
            plan = plans[state.player_count] = self._new_hand_plan(state)
        return plan

    def _new_hand_plan(self, state: State) -> HandPlan:
        game = state.game
        initial = game.program.initial
        on_table: dict[str, Any] = {}
        owned: dict[str, tuple[Any, int]] = {}
        worked_out: list[tuple[str, Any]] = []
        for name, variable in game.hand_variables:
            constant = None if variable.by is not None else (  # (a value per key: made anew each hand)
                getattr(initial[name].function, "constant", None) if name in initial else (None,))
            if constant is None:
                worked_out.append((name, variable))
            elif variable.per == "table":
                on_table[name] = constant[0]
            else:
                owned[name] = (constant[0], self._owners(state, variable.per))
        zones = game.zone_owners
        reset = _reset_code(on_table, owned, tuple(name for name, owner in zones if owner == "table"),
                            tuple((name, self._owners(state, owner)) for name, owner in zones if owner != "table"),
                            game.ruleset.deck_zone, game.fresh_decks[state.player_count])
        team_of = game.team_of(state.player_count)
        per_seat = {name: initial[name] for name, variable in worked_out
                    if variable.per == "seat" and variable.by is None and name in initial}
        return HandPlan(tuple(worked_out), reset, per_seat, team_of if len(set(team_of)) == len(team_of) else None)

    def _clear_placements(self, state: State) -> None:
        """At a hand's start no action has placed a card yet (`placed_by` is null for every card)."""
        if state.game.tracks_placement:
            state.values["_placed"] = [None] * len(state.game.deck.text_of)

    def enter(self, state: State, name: str) -> None:
        """Start the hand's code at a phase (the phases' own transitions are compiled into it)."""
        code = state.game.code
        state.locals[:] = code.fresh_locals  # (in place: the running code holds the list)
        state.open_rounds = ()
        state.phase = name
        state.pc = code.entries[name]

    def hand_over(self, state: State) -> int:
        """The hand's code has run to its end: record the hand, then start the next one; the label to run next
        (a stop, when the match is over)."""
        self._end_hand(state)
        return ~state.game.code.end if state.is_terminal else state.pc

    def _end_hand(self, state: State) -> None:
        game = state.game
        program = game.program
        values = state.values
        number = values["hand_number"]
        result = state.returns()
        state.hand_results.append({"hand": number, "dealer": values["dealer"], "result": result})
        events = state._events.items  # (`record`, written out: a hand's end and start run once every few cards)
        events.append(("hand_end", number, result))
        if state.hand_end_hook is not None:
            state.hand_end_hook(state)
        lengths = game.match_lengths  # (the match's length, when it is constant: read once)
        if lengths is None:
            lengths = self._match_lengths(state)
        hands, cap = lengths
        ended = program.ends_when is not None and self._match_value(state, program.ends_when)
        if state.ending_match or ended or (hands is not None and number >= hands) or number >= cap:
            state.is_terminal = True
            state.phase = ""
            state.ended_by = "end" if state.ending_match else "ends_when" if ended else \
                "hands" if hands is not None and number >= hands else "hand_cap"
            return
        nxt = program.next_dealer
        values["dealer"] = self._match_value(state, nxt) if nxt is not None else values["_next"][values["dealer"]]
        values["hand_number"] = number + 1
        self._start_hand(state)

    def _match_lengths(self, state: State) -> tuple[int | None, int]:
        """The hands a match lasts (`hands`, None for no fixed number) and its cap; kept in the game when both are
        constant."""
        program = state.game.program
        hands = self._match_value(state, program.hands) if program.hands is not None else None
        # The default cap guards against a match that never ends; it never cuts a fixed number of hands short.
        cap = self._match_value(state, program.hand_cap) if program.hand_cap is not None else max(DEFAULT_HAND_CAP,
                                                                                          hands or 0)
        for length, where in ((hands, "match.hands"), (cap, "match.hand_cap")):
            if length is not None and length > MOST_HANDS:
                raise RulesetRuntimeError(f"a match of {length:,} hands is more than the {MOST_HANDS:,} a match may "
                                          "be set to last (a parameter given too large a number?)", where)
        if self._lengths_constant(program):
            state.game.match_lengths = (hands, cap)
        return hands, cap

    @staticmethod
    def _lengths_constant(program: Any) -> bool:
        return all(expression is None or getattr(expression.function, "constant", None) is not None
                   for expression in (program.hands, program.hand_cap))

    def _match_value(self, state: State, expression: Any) -> Any:
        """The value of one of the match's expressions (`hands`, `ends_when`, ...): read once when constant."""
        constant = getattr(expression.function, "constant", None)
        return constant[0] if constant is not None else state.evaluate(expression, {})
