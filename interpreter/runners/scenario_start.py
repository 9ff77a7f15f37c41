"""The parts of a scenario case's `start:` beyond cards and variables (docs/scenarios.md): where the cards not
placed go, melds placed on the table, teams formed; and the keys a scenario file, a case and a start may have."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.melds import Meld

FILE_KEYS = ("ruleset", "params", "players", "seed", "cases")
CASE_KEYS = ("name", "params", "players", "seed", "deals", "picks", "start", "steps")
START_KEYS = ("phase", "dealer", "hand", "zones", "face_up", "variables", "rest", "teams", "leader", "seating")


class CaseFailure(Exception):
    """A case that cannot run as written, or whose expectation does not hold: the message says which."""


def unknown_key(data: dict[str, Any], known: tuple[str, ...], where: str) -> str | None:
    """`unknown key `x` in ...`, with the closest known key, for the first key not known; None when all are."""
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else f" (the keys: {', '.join(known)})"
            return f"unknown key `{key}` in {where}{hint}"
    return None


def rest_zone(game: Game, name: Any) -> tuple[str, int] | None:
    """`rest: discard`: the table zone that takes the cards not placed (by default the deck's zone)."""
    if name is None:
        return None
    zone = game.ruleset.zones.get(str(name))
    if zone is None or zone.owner != "table" or zone.kind == "melds":
        raise CaseFailure(f"`rest` names a table zone of cards that takes the cards not placed, not {name!r}")
    return (str(name), -1)


def teams_formed(game: Game, players: int, groups: Any, seat: Callable[[Any], int],
                 seated: tuple[int, ...] | None = None) -> dict[str, tuple[int, ...]]:
    """`teams: [[p1, p2]]`: the seats of each group play as one team this hand, the first seat's, as the step
    `form_team` makes them (the hand's starting teams otherwise: `seated`, where the seats sit, else the
    ruleset's)."""
    if groups is None:
        return {}
    if not isinstance(groups, list) or not all(isinstance(group, list) and group for group in groups):
        raise CaseFailure("`teams` lists the teams formed, each a list of seats: teams: [[p1, p2]]")
    team_of = list(seated or game.team_of(players))
    for group in groups:
        seats = [seat(member) for member in group]
        joining = {team_of[member] for member in seats}
        team_of = [team_of[seats[0]] if team in joining else team for team in team_of]
    return {"team_of": tuple(team_of)}


def seating_given(players: int, given: Any, seat: Callable[[Any], int]) -> tuple[int, ...] | None:
    """`seating: [p0, p2, p1, p3]`: where the seats sit, clockwise from place 0, as a `seating` step sets it."""
    if given is None:
        return None
    if not isinstance(given, list):
        raise CaseFailure(f"`seating` lists every seat once, clockwise from place 0: seating: [p0, p2, p1, p3], "
                          f"not {given!r}")
    order = tuple(seat(member) for member in given)
    if sorted(order) != list(range(players)):
        raise CaseFailure(f"`seating` lists every seat of the table once, clockwise from place 0, not {given}")
    return order


def placed_melds(game: Game, name: str, owner: int, texts: Any, laid: int,
                 cards: Callable[[list[str]], list[int]]) -> list[Meld]:
    """`[7H 8H 9H, KS KH JK]`: each meld's cards as the ruleset's meld kinds accept them (the first arrangement
    found, for a wild that could stand for several cards), numbered from `laid`."""
    rules = game.meld_rules
    if not isinstance(texts, list) or rules is None:
        raise CaseFailure(f"`{name}` holds melds: give each owner's as a list, each meld its cards: [7H 8H 9H]")
    melds: list[Meld] = []
    for number, text in enumerate(texts):
        held = cards(str(text).split())
        found = [meld for meld in rules.candidates(held, owner, melds, laid + number)
                 if sorted(meld.cards) == sorted(held)]
        if not found:
            raise CaseFailure(f"{text} is not a meld of this ruleset")
        melds.append(found[0])
    return melds
