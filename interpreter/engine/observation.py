"""A seat's view of a state: only what that seat may see (DESIGN.md, non-negotiable 4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model import VariableSpec, ZoneSpec
from interpreter.numbers import plain_number

if TYPE_CHECKING:
    from interpreter.engine.state import State


def sees_zone(state: State, zone: ZoneSpec, owner: int, seat: int) -> bool:
    """Whether `seat` sees the cards of a zone (face-up cards are seen by everyone anyway)."""
    visibility = zone.visibility
    if visibility == "public":
        return True
    if visibility in ("hidden", "nobody"):
        return False
    team_of: tuple[int, ...] = state.values["team_of"]
    if zone.owner == "seat":
        return owner == seat if visibility == "owner" else team_of[owner] == team_of[seat]
    if zone.owner == "team":
        return team_of[seat] == owner
    return False


def sees_variable(state: State, variable: VariableSpec, owner: int, seat: int) -> bool:
    if variable.visibility == "nobody":
        return False
    if variable.visibility == "public" or variable.per == "table":
        return True
    team_of: tuple[int, ...] = state.values["team_of"]
    if variable.per == "seat":
        return owner == seat if variable.visibility == "owner" else team_of[owner] == team_of[seat]
    return team_of[seat] == owner


def _zone_view(state: State, zone: ZoneSpec, owner: int, cards: list[Any], seat: int) -> dict[str, Any]:
    text = state.card_text
    if zone.kind == "melds":
        rules = state.game.meld_rules
        return {"melds": [{"id": f"m{meld.id}", "kind": meld.kind, "cards": [text(card) for card in meld.cards],
                           "roles": list(rules.roles(meld)) if rules else []} for meld in cards]}
    view: dict[str, Any] = {}
    if sees_zone(state, zone, owner, seat):
        view["cards"] = [text(card) for card in cards]
        if zone.visibility == "public":  # (every card of it seen by every seat: none is face up for them)
            return view
    elif zone.shows_count:
        view["count"] = len(cards)
    # (those every seat sees: in a zone the seat sees, as in its own hand, the cards the others see too)
    face_up = state.face_up.of((zone.name, owner))
    if face_up:
        view["face_up"] = [text(card) for card in face_up]
    return view


def observed_value(state: State, type_name: str, value: Any) -> Any:
    """A value as an observation holds it: cards, ranks and suits by name, a fraction as its exact text."""
    if type_name.startswith("list[") and value is not None:  # (a list variable: each item as its type shows it)
        return [observed_value(state, type_name[5:-1], item) for item in value]
    if type_name == "num":
        return plain_number(value)  # (a fraction as its exact text: JSON has no fractions)
    if value is None or type_name not in ("card", "suit", "rank"):
        return value
    return state.game.deck.value_text(type_name, value)


def _shown(state: State, variable: VariableSpec, value: Any) -> Any:
    """One owner's value (or the table's) as an observation shows it; a value per key (`by:`) as a mapping from
    each key's text (`NT`, `H`, `p1`) to its value, in the keys' order."""
    if variable.by is None:
        return observed_value(state, variable.type, value)
    texts = dict(variable.keys(state.game.deck, state.player_count, len(state.game.teams(state.player_count))))
    return {texts[key]: observed_value(state, variable.type, item) for key, item in value.items()}


def observe(state: State, seat: int, *, legal: bool = True) -> dict[str, Any]:
    ruleset = state.game.ruleset
    zones: dict[str, Any] = {}
    for name, zone in ruleset.zones.items():
        stored = state.values[name]
        if zone.owner == "table":
            zones[name] = _zone_view(state, zone, -1, stored, seat)
        else:
            zones[name] = [_zone_view(state, zone, owner, cards, seat) for owner, cards in enumerate(stored)]
    variables: dict[str, Any] = {}
    for name, variable in ruleset.variables.items():
        stored = state.values[name]
        if variable.visibility == "nobody":  # (its value hidden from every seat, as a `nobody` zone's cards)
            variables[name] = None if variable.per == "table" else [None] * len(stored)
        elif variable.per == "table":
            variables[name] = _shown(state, variable, stored)
        else:
            variables[name] = [_shown(state, variable, value) if sees_variable(state, variable, owner, seat)
                               else None for owner, value in enumerate(stored)]
    view: dict[str, Any] = {
        "seat": seat,
        "players": state.player_count,
        "hand": state.values["hand_number"],
        "dealer": state.values["dealer"],
        "phase": state.phase,
        "current_player": state.current_player,
        "zones": zones,
        "variables": variables,
    }
    if state.game.program.reseats:  # where the seats sit, clockwise from place 0 (a `seating` step moves them)
        view["seating"] = list(state.values["_seating"])
    if legal and not state.is_terminal and not state.is_chance_node and state.current_player == seat:
        view["legal_actions"] = [state.action_text(action) for action in state.legal_actions()]
        if state.breaking:  # the actions that break a rule the ruleset lets be broken, with its reasons
            view["breaking"] = {state.action_text(action): [clause.reason for clause in clauses]
                                for action, clauses in state.breaking.items()}
    if state.open_rounds:
        view["chosen"] = state.chosen()
    return view
