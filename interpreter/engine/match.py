"""The match loop: setting up a match (or a hand already in progress, for scenarios), starting each hand
with the deck in its zone, moving through the phases, and ending hands and the match."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any

from interpreter.dsl.types import SEAT
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.melds import Meld
from interpreter.engine.parts import StateParts

DEFAULT_HAND_CAP = 1000  # the most hands of a match whose ruleset sets no `hand_cap`

Bindings = dict[str, Any]


class MatchLoop(StateParts):
    """The part of State that runs the match over hands."""

    # Called with the state as each hand ends, before the next one starts (its zones and hand variables are still
    # as the hand left them): how a runner reads a hand's end, e.g. for statistics. A copy of the state keeps it.
    hand_end_hook: Callable[[Any], None] | None = None

    # --- hands and the match ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Set up the match and run to the first decision or chance event."""
        game = self.game
        self.values["player_count"] = self.player_count
        self._set_seating(tuple(range(self.player_count)))
        self.values["team_of"] = game.team_of(self.player_count)
        self.values["_formed"] = ()
        self.values["_meld_rules"] = game.meld_rules  # for builtins such as can_meld()
        self.values["hand_number"] = 1
        self.values["dealer"] = 0
        for name, zone in game.ruleset.zones.items():
            self.values[name] = self._empty_zone(zone.owner)
        for name, variable in game.ruleset.variables.items():
            self.values[name] = self._initial(name, variable.per, variable.type)
        if game.program.first_dealer_drawn:  # (`first_dealer: random`: a chance event before the first hand)
            self.values[game.ruleset.deck_zone] = list(game.fresh_decks[self.player_count])  # (the cards exist)
            self._clear_placements()
            self.chance = (None, "match.first_dealer", tuple(range(self.player_count)), None, SEAT)
            return
        first = game.program.first_dealer
        self._deal_first_hand(self.evaluate(first, {}) if first is not None else 0, game.hand_variables)

    def _deal_first_hand(self, dealer: int, variables: Any) -> None:
        """The first hand, with its dealer known: the variables given (those of a hand; every one, for a dealer
        drawn) start again with that dealer at the table."""
        self.values["dealer"] = dealer
        for name, variable in variables:
            self.values[name] = self._initial(name, variable.per, variable.type)
        self._start_hand()
        self._advance()

    def start_at(self, phase: str, *, dealer: int, hand_number: int, zones: dict[tuple[str, int], list[Any]],
                 face_up: dict[tuple[str, int], list[int]], variables: dict[str, Any],
                 rest_zone: tuple[str, int] | None = None, leader: int | None = None,
                 owned: dict[str, dict[int, Any]] | None = None, seating: tuple[int, ...] | None = None) -> None:
        """Set up a hand already in progress (for scenarios): cards (or melds) placed in zones, the rest of the
        deck in the deck's zone (or in `rest_zone`), variables set over their initial values (`owned`: some
        owners' values of a per-seat or per-team variable, the others keeping theirs); then run from the named
        phase; `leader` leads the first trick played, whatever its `leader` says; `seating`: where the seats sit
        (clockwise from place 0), as a `seating` step left them, with the teams that follow."""
        game = self.game
        self.values.update(player_count=self.player_count, hand_number=hand_number, dealer=dealer,
                           _meld_rules=game.meld_rules)
        self._set_seating(seating or tuple(range(self.player_count)))
        self.values["team_of"] = self.seated_teams()
        for name, zone in game.ruleset.zones.items():
            self.values[name] = self._empty_zone(zone.owner)
        self._clear_placements()
        for name, variable in game.ruleset.variables.items():
            self.values[name] = self._initial(name, variable.per, variable.type)
        remaining = Counter(game.deck.cards(self.player_count))
        self.melds_laid = 0
        for key, cards in zones.items():  # (in a zone of melds, melds: their cards count against the deck)
            for card in [c for item in cards for c in (item.cards if isinstance(item, Meld) else (item,))]:
                if remaining[card] == 0:
                    raise IllegalActionError(f"{self.card_text(card)} is placed more times than the deck holds it")
                remaining[card] -= 1
            self._zone_list(key).extend(cards)
            self.melds_laid += sum(1 for item in cards if isinstance(item, Meld))
        unplaced: list[int] = []
        for card in game.deck.cards(self.player_count):
            if remaining[card] > 0:
                remaining[card] -= 1
                unplaced.append(card)
        self._zone_list(rest_zone or (game.ruleset.deck_zone, -1))[:0] = reversed(unplaced)
        for key, cards in face_up.items():
            for card in cards:
                if card not in self._zone_list(key):
                    raise IllegalActionError(f"{self.card_text(card)} is face up in {key[0]} but not placed there")
                self.face_up.add(key, card)
        for name, value in variables.items():
            stored = self.values.get(name)  # (a value per key: the keys given over the initial values of the others)
            self.values[name] = {**stored, **value} if isinstance(stored, dict) and isinstance(value, dict) else value
        self.values["_formed"] = self._formed_in_play(self.values["team_of"])
        for name, owners in (owned or {}).items():
            merged = list(self.values[name])
            for owner, value in owners.items():
                # (a value per key: the keys given over the initial values of the others)
                merged[owner] = {**merged[owner], **value} if isinstance(merged[owner], dict) else value
            self.values[name] = merged
        self._events.append(("hand", hand_number, dealer))
        self.first_leader = leader
        self._enter(phase)
        self._advance()

    def _owners(self, per: str) -> int:
        return self.player_count if per == "seat" else len(self.game.teams(self.player_count))

    def _empty_zone(self, owner: str) -> Any:
        if owner == "table":
            return []
        return [[] for _ in range(self._owners(owner))]

    def _initial(self, name: str, per: str, type_name: str) -> Any:
        value = self._initial_value(name, per)
        variable = self.game.ruleset.variables[name]
        if variable.by is None:
            return value
        # A value per key (`by:`): each owner's value (or the one on the table) for every key.
        keys = [key for key, _ in variable.keys(self.game.deck, self.player_count, self._owners("team"))]
        if per == "table":
            return dict.fromkeys(keys, value)
        return [dict.fromkeys(keys, owned) for owned in value]

    def _initial_value(self, name: str, per: str) -> Any:
        expression = self.game.program.initial.get(name)
        if expression is None:
            return None if per == "table" else [None] * self._owners(per)
        constant = getattr(expression.function, "constant", None)  # (value,) for a constant (an immutable one)
        if constant is not None:
            return constant[0] if per == "table" else [constant[0]] * self._owners(per)
        if per == "table":
            return self.evaluate(expression, {})
        if per == "seat":
            return [self.evaluate(expression, {"player": seat}) for seat in range(self.player_count)]
        return [self.evaluate(expression, {}) for _ in range(self._owners(per))]

    def form_team(self, seats: list[int]) -> None:
        """The seats play as one team (the first seat's) until the hand ends; the other teams' per-team zones
        join its zones. Remembered for the hand (`_formed`), so that a `seating` step keeps the team formed."""
        if not seats:
            return
        self._join(seats)
        self.values["_formed"] = (*self.values["_formed"], tuple(seats))
        self._events.append(("log", "Team: " + " and ".join(f"p{seat}" for seat in seats)))

    def _join(self, seats: list[int] | tuple[int, ...]) -> None:
        """The teams of `seats` join the first seat's team, with their per-team zones."""
        team_of = list(self.values["team_of"])
        keeper = team_of[seats[0]]
        joining = {team_of[seat] for seat in seats} - {keeper}
        for name, zone in self.game.ruleset.zones.items():
            if zone.owner == "team":
                stored = self.values[name]
                for team in sorted(joining):
                    moved = stored[team]
                    if zone.kind == "melds":  # the melds now belong to the team they joined
                        moved = [dataclasses.replace(meld, owner=keeper) for meld in moved]
                    stored[keeper].extend(moved)
                    stored[team].clear()
        for seat, team in enumerate(team_of):
            if team in joining:
                team_of[seat] = keeper
        self.values["team_of"] = tuple(team_of)

    def _formed_in_play(self, given: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """The teams a hand set up in progress (a scenario's `teams`) has formed over the seated teams: for each
        team given that joins seats of several seated teams, a seat that keeps its team first, then the others."""
        seated = self.seated_teams()
        formed = []
        for team in sorted(set(given)):
            members = [seat for seat, joined in enumerate(given) if joined == team]
            if len({seated[seat] for seat in members}) > 1:
                keeper = next((seat for seat in members if seated[seat] == team), members[0])
                formed.append((keeper, *(seat for seat in members if seat != keeper)))
        return tuple(formed)

    # --- where the seats sit ------------------------------------------------------------------------------------

    def _set_seating(self, order: tuple[int, ...]) -> None:
        """The seats in their places, clockwise from place 0, and what is read from them: each seat's seats
        clockwise from it (`_clockwise`) and the seat on its left (`_next`). Tuples, never changed: a copy of the
        state shares them."""
        count = len(order)
        place = [0] * count
        for index, seat in enumerate(order):
            place[seat] = index
        clockwise = tuple(tuple(order[(place[seat] + k) % count] for k in range(count)) for seat in range(count))
        self.values["_seating"] = order
        self.values["_clockwise"] = clockwise
        self.values["_next"] = tuple(around[1 % count] for around in clockwise)

    def seat_players(self, order: list[int], where: str) -> None:
        """A `seating` step: the seats take the places `order` lists (every seat once, clockwise from place 0);
        the partnerships follow the places."""
        count = self.player_count
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
        self._set_seating(tuple(order))
        self.values["team_of"] = self.seated_teams()
        for seats in self.values["_formed"]:  # the teams formed in the hand stay formed, where the seats now sit
            self._join(seats)
        self._events.append(("log", "Seating, clockwise: " + ", ".join(f"p{seat}" for seat in order)))

    def seated_teams(self, order: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """The ruleset's teams where the seats sit (now, or in `order`): when a team has several seats, teams are
        places (the seat at place i plays for the team of seat i in the `teams` section); when every seat plays
        alone, each keeps its own team."""
        team_of = self.game.team_of(self.player_count)
        order = self.values["_seating"] if order is None else order
        if len(set(team_of)) == len(team_of) or order == tuple(range(self.player_count)):
            return team_of
        seated = [0] * len(team_of)
        for place, seat in enumerate(order):
            seated[seat] = team_of[place]
        return tuple(seated)

    def _start_hand(self) -> None:
        game = self.game
        values = self.values
        values["team_of"] = self.seated_teams()  # teams formed in a hand last until its end
        values["_formed"] = ()
        variables, zones = self._hand_plan()
        if values["hand_number"] > 1:
            for name, constant, owners, variable in variables:
                if constant is None:
                    values[name] = self._initial(name, variable.per, variable.type)
                else:
                    values[name] = constant[0] if owners < 0 else [constant[0]] * owners
        for name, owners in zones:
            values[name] = [] if owners < 0 else [[] for _ in range(owners)]
        self.face_up.clear()
        self._clear_placements()
        self.melds_laid = 0
        self.meld_search = None
        self.values[game.ruleset.deck_zone] = list(game.fresh_decks[self.player_count])
        self._events.append(("hand", self.values["hand_number"], self.values["dealer"]))
        self._enter(game.program.start)

    def _hand_plan(self) -> tuple[tuple[tuple[str, tuple[Any] | None, int, Any], ...], tuple[tuple[str, int], ...]]:
        """What a hand starts from, worked out once per number of players: each variable that lasts a hand with
        its initial value when it is a constant (`(value,)`, else None: worked out at each hand) and its number of
        owners (-1 on the table), and each zone with its number of owners (-1 on the table)."""
        plans = self.game.hand_plans
        plan = plans.get(self.player_count)
        if plan is None:
            initial = self.game.program.initial
            variables = tuple(
                (name, None if variable.by is not None else  # (a value per key: made anew each hand)
                 getattr(initial[name].function, "constant", None) if name in initial else (None,),
                 -1 if variable.per == "table" else self._owners(variable.per), variable)
                for name, variable in self.game.hand_variables)
            zones = tuple((name, -1 if owner == "table" else self._owners(owner))
                          for name, owner in self.game.zone_owners)
            plan = plans[self.player_count] = (variables, zones)
        return plan

    def _clear_placements(self) -> None:
        """At a hand's start no action has placed a card yet (`placed_by` is null for every card)."""
        if self.game.tracks_placement:
            self.values["_placed"] = [None] * len(self.game.deck.text_of)

    def _enter(self, name: str) -> None:
        """Start the hand's code at a phase (the phases' own transitions are compiled into it)."""
        locals_ = self.locals
        locals_[:] = [{}] + [None] * (len(locals_) - 1)  # (in place: the running code holds the list)
        self.open_rounds = ()
        self.phase = name
        self.pc = self.game.code.entries[name]

    def hand_over(self) -> int:
        """The hand's code has run to its end: record the hand, then start the next one; the label to run next
        (a stop, when the match is over)."""
        self._end_hand()
        return ~self.game.code.end if self.terminal else self.pc

    def _end_hand(self) -> None:
        program = self.game.program
        number = self.values["hand_number"]
        self.hand_results.append({"hand": number, "dealer": self.values["dealer"], "result": self.returns()})
        self._events.append(("hand_end", number, self.hand_results[-1]["result"]))
        if self.hand_end_hook is not None:
            self.hand_end_hook(self)
        hands = self._match_value(program.hands) if program.hands is not None else None
        # The default cap guards against a match that never ends; it never cuts a fixed number of hands short.
        cap = self._match_value(program.hand_cap) if program.hand_cap is not None else max(DEFAULT_HAND_CAP,
                                                                                          hands or 0)
        ended = program.ends_when is not None and self._match_value(program.ends_when)
        if self.ending_match or ended or (hands is not None and number >= hands) or number >= cap:
            self.terminal = True
            self.phase = ""
            self.ended_by = "end" if self.ending_match else "ends_when" if ended else \
                "hands" if hands is not None and number >= hands else "hand_cap"
            return
        nxt = program.next_dealer
        dealer = self.values["dealer"]
        self.values["dealer"] = self._match_value(nxt) if nxt is not None else self.values["_next"][dealer]
        self.values["hand_number"] = number + 1
        self._start_hand()

    def _match_value(self, expression: Any) -> Any:
        """The value of one of the match's expressions (`hands`, `ends_when`, ...): read once when constant."""
        constant = getattr(expression.function, "constant", None)
        return constant[0] if constant is not None else self.evaluate(expression, {})
