"""A seat's view of the table, for people: what a player at a real table sees, and nothing more.

Built only from what the seat may see: the state's observation for that seat (which already hides the cards
and values the seat may not see), the events of the match as the seat's transcript shows them (a hidden
action reads `p1 discard (hidden)`; a shuffle's order is never part of it), and the ruleset's `show:` section
(labels; which variables and zones are shown; which zone is the hand). Generic: it names no game.
`TableView.to_dict()` is the JSON form a terminal or a browser table draws (docs/table-view.md).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine.errors import RulesetRuntimeError
from interpreter.model import ShownItem, ShowSpec
from interpreter.runners.transcript import describe
from interpreter.steps import trick_zones

if TYPE_CHECKING:
    from interpreter.cards import Deck
    from interpreter.engine.state import State

RECENT_ACTIONS = 8
PLACING_VERBS = ("play", "discard")  # the actions that put one card on a pile or a trick, `p2 play AH`


@dataclass(frozen=True)
class SuitGroup:
    """The cards of one suit in a hand, low to high (`suit` is "" for jokers), or of one group of the ruleset's
    `show.hand_group` (`suit` is then the suit they share, or "")."""

    suit: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class MeldCard:
    card: str
    stands_for: str = ""  # for a wild card, the card or rank it stands for in the meld


@dataclass(frozen=True)
class MeldView:
    id: str  # as actions name it: `p1 add 9H to m2`
    kind: str
    cards: tuple[MeldCard, ...]


@dataclass(frozen=True)
class ZoneView:
    """One zone as the seat sees it: its cards, or only how many there are (and any face-up ones)."""

    name: str
    label: str
    owner: str = ""  # "" for a table zone; `p1` for a zone per seat, `t0` for a zone per team
    is_yours: bool = False  # the seat's own zone, or its team's
    cards: tuple[str, ...] | None = None  # None: the seat may not see them
    count: int | None = None  # how many cards, when the cards are not seen (None: not even that)
    face_up: tuple[str, ...] = ()  # its cards that lie face up, seen by every seat (in a zone others may not see)
    played_by: tuple[str, ...] = ()  # with `cards`, who put each card there (`p2`, or "" when not known)
    is_trick: bool = False  # a zone that tricks are played into
    melds: tuple[MeldView, ...] | None = None  # for a zone of melds
    spread: bool = False  # cards laid out side by side (`show.zones` sorts them), not a pile with a top card


@dataclass(frozen=True)
class VariableView:
    """A variable the ruleset shows: one value, or one per seat or team (None where the seat may not see)."""

    name: str
    label: str
    per: str  # table | seat | team
    value: Any  # the value, or a list of values per seat or team; cards, suits and ranks by name
    text: str | list[str | None] | None = None  # the value as written for people (`p1` for a seat)


@dataclass(frozen=True)
class TableView:
    game: str
    seat: int
    players: int
    hand_number: int
    dealer: int
    phase: str
    current_player: int | None  # None at a chance node or when the match is over
    is_over: bool
    teams: tuple[tuple[int, ...], ...]  # the seats of each team, in team order (one seat each without teams)
    hand: tuple[SuitGroup, ...] | None  # the seat's hand, sorted and grouped by suit (None: no hand zone)
    hand_zone: str | None
    zones: tuple[ZoneView, ...]
    variables: tuple[VariableView, ...]
    recent: tuple[str, ...]  # the last few actions and log lines of this hand, as the seat's transcript shows them
    standings: tuple[Any, ...] | None = None  # each seat's match result after the last finished hand (a fraction
    # as its exact text)
    legal_actions: tuple[str, ...] = ()  # the seat's legal actions when it is its turn, in their text form
    chosen: tuple[int, ...] = ()  # in a simultaneous round, the seats that have chosen (their choices hidden)
    simultaneous: bool = False  # whether a simultaneous round is in progress (its seats choose unseen)
    seating: tuple[int, ...] = ()  # where the seats sit, clockwise from place 0, in a game whose seats move
    hand_face_up: tuple[str, ...] = ()  # the cards of the seat's hand that lie face up: every seat sees them
    # how the last hand ended, until the seat makes its first move in this one: its lines since the seat's own
    # last move in it (the last moves, the ruleset's settlement), as `recent` gives them
    previous_hand: tuple[str, ...] = ()
    deck_zone: str = ""  # the zone the deck is gathered in at each hand (the stock): shown even when empty

    @property
    def is_your_turn(self) -> bool:
        return self.current_player == self.seat

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-serialisable data (lists for tuples)."""
        found = asdict(self)
        found["is_your_turn"] = self.is_your_turn
        return found


def table_view(state: State, seat: int, *, recent: int = RECENT_ACTIONS, since_own: int = 0) -> TableView:
    """What `seat` sees of the table now: the last `recent` lines of the hand, or with `since_own` every line
    since the seat's own last move in it (at least `recent`, at most `since_own`)."""
    observation = state.observation(seat)
    ruleset = state.game.ruleset
    show = ruleset.show
    team_of: tuple[int, ...] = tuple(state.values["team_of"])
    every_event = state.events
    events = _hand_events(every_event)
    current = observation["current_player"]
    hand_cards = _own_hand(observation, show.hand, seat)
    return TableView(
        game=ruleset.name, seat=seat, players=observation["players"], hand_number=observation["hand"],
        dealer=observation["dealer"], phase=observation["phase"],
        current_player=current if current >= 0 else None, is_over=state.is_terminal,
        teams=_teams(team_of),
        hand=None if hand_cards is None else arranged_hand(state, seat, hand_cards),
        hand_zone=show.hand,
        zones=tuple(_zones(state, observation, show, seat, team_of, events)),
        variables=tuple(_variables(state, observation, show, seat)),
        recent=tuple(_recent(events, seat, recent, since_own)),
        standings=_standings(every_event),
        legal_actions=tuple(observation.get("legal_actions", ())),
        chosen=tuple(observation.get("chosen", ())),
        simultaneous="chosen" in observation,
        seating=tuple(observation.get("seating", ())),
        hand_face_up=tuple(_own_hand(observation, show.hand, seat, "face_up") or ()),
        previous_hand=tuple(_previous_hand(every_event, len(events), seat, recent, since_own)),
        deck_zone=ruleset.deck_zone,
    )


# --- the hand ---------------------------------------------------------------------------------------------------


def arranged_hand(state: State, seat: int, cards: list[str]) -> tuple[SuitGroup, ...]:
    """A seat's hand as its view shows it: in the ruleset's `show.hand_order`, grouped by `show.hand_group` (by
    printed suit without it), or else sorted by suit (`sort_hand`). Where the ruleset's order cannot be worked
    out (it reads a variable no step has set yet), the hand is sorted by suit: a way of showing the cards never
    stops the match (`validate --playouts` reports it: `hand_order_failure`)."""
    try:
        return _in_ruleset_order(state, seat, cards)
    except RulesetRuntimeError:
        return sort_hand(state.game.deck, cards)


def hand_order_failure(state: State, seat: int) -> RulesetRuntimeError | None:
    """Why the ruleset's `show.hand_order` or `show.hand_group` cannot arrange `seat`'s hand now, or None."""
    hand = state.game.ruleset.show.hand
    if hand is None or "show.hand_order" not in state.game.ruleset.expressions:
        return None
    held = state.values.get(hand)
    cards = held[seat] if isinstance(held, list) and seat < len(held) and isinstance(held[seat], list) else []
    try:
        _in_ruleset_order(state, seat, [state.game.deck.card_text(card) for card in cards])
    except RulesetRuntimeError as error:
        return state.located(error)
    return None


def _in_ruleset_order(state: State, seat: int, cards: list[str]) -> tuple[SuitGroup, ...]:
    from interpreter.engine.program import Expr

    deck = state.game.deck
    expressions = state.game.ruleset.expressions
    order = expressions.get("show.hand_order")
    if order is None:
        return sort_hand(deck, cards)
    group = expressions.get("show.hand_group")

    def value(function: Any, where: str, card: int) -> Any:
        return state.evaluate(Expr(function, where, getattr(function, "keeps", True)), {"card": card, "player": seat})

    ids = [deck.parse_card(text) for text in cards]
    places = {card: (value(order, "show.hand_order", card), _deck_order(deck, card)) for card in set(ids)}
    ids.sort(key=places.__getitem__)
    groups: list[tuple[Any, list[int]]] = []
    for card in ids:
        key = value(group, "show.hand_group", card) if group is not None else deck.suit_of[card]
        if groups and groups[-1][0] == key:
            groups[-1][1].append(card)
        else:
            groups.append((key, [card]))
    found = []
    for _, members in groups:
        suits = {deck.suit_of[card] for card in members}
        suit = deck.suit_name(suits.pop()) if len(suits) == 1 and deck.suit_of[members[0]] >= 0 else ""
        found.append(SuitGroup(suit, tuple(deck.card_text(card) for card in members)))
    return tuple(found)


def _deck_order(deck: Deck, card: int) -> tuple[int, int]:
    return deck.suit_of[card] if deck.suit_of[card] >= 0 else len(deck.suits), deck.rank_of[card]


def sort_hand(deck: Deck, cards: list[str]) -> tuple[SuitGroup, ...]:
    """Cards grouped by suit in the deck's suit order, each group low to high in the deck's rank order; jokers
    last, in a group of their own."""
    ids = sorted((deck.parse_card(text) for text in cards), key=lambda card: _deck_order(deck, card))
    groups: list[SuitGroup] = []
    for card in ids:
        suit = deck.suit_name(deck.suit_of[card])  # ("" for a joker)
        if groups and groups[-1].suit == suit:
            groups[-1] = SuitGroup(suit, (*groups[-1].cards, deck.card_text(card)))
        else:
            groups.append(SuitGroup(suit, (deck.card_text(card),)))
    return tuple(groups)


def _own_hand(observation: dict[str, Any], zone: str | None, seat: int, key: str = "cards") -> list[str] | None:
    """The seat's own hand's cards as its observation gives them (or another key of it: `face_up`)."""
    if zone is None:
        return None
    cards: list[str] | None = observation["zones"][zone][seat].get(key)
    return cards


# --- zones ------------------------------------------------------------------------------------------------------


def _zones(state: State, observation: dict[str, Any], show: ShowSpec, seat: int, team_of: tuple[int, ...],
           events: list[dict[str, Any]]) -> list[ZoneView]:
    ruleset = state.game.ruleset
    tricks = trick_zones(ruleset.tree)
    placements = _placements(events, seat)
    views: list[ZoneView] = []
    for item in _shown(show.zones, ruleset.zones):
        zone = ruleset.zones[item.name]
        seen = observation["zones"][item.name]
        if zone.owner == "table":
            views.append(_zone(item, "", False, _arranged(state, seat, item, seen), item.name in tricks,
                               placements))
            continue
        for owner, part in enumerate(seen):
            if zone.owner == "seat" and owner == seat and item.name == show.hand:
                continue  # shown as the hand
            is_yours = owner == seat if zone.owner == "seat" else owner == team_of[seat]
            name = f"p{owner}" if zone.owner == "seat" else f"t{owner}"
            views.append(_zone(item, name, is_yours, _arranged(state, seat, item, part), False, ()))
    return views


def _arranged(state: State, seat: int, item: ShownItem, seen: dict[str, Any]) -> dict[str, Any]:
    """A zone's view with the cards the seat sees in it (or face up in it) in the hand's order, for a zone
    `show.zones` sorts (a hand spread face up on the table); as it is otherwise."""
    if not item.sorted:
        return seen
    arranged = dict(seen)
    for key in ("cards", "face_up"):
        if seen.get(key):
            arranged[key] = [card for group in arranged_hand(state, seat, seen[key]) for card in group.cards]
    return arranged


def _zone(item: ShownItem, owner: str, is_yours: bool, seen: dict[str, Any], is_trick: bool,
          placements: tuple[tuple[str, str], ...]) -> ZoneView:
    if "melds" in seen:
        return ZoneView(item.name, item.label, owner, is_yours, melds=tuple(_meld(meld) for meld in seen["melds"]))
    if "cards" in seen:
        cards = tuple(seen["cards"])
        return ZoneView(item.name, item.label, owner, is_yours, cards=cards, is_trick=is_trick,
                        played_by=_played_by(cards, placements) if placements else (), spread=item.sorted,
                        face_up=tuple(seen.get("face_up", ())))
    return ZoneView(item.name, item.label, owner, is_yours, count=seen.get("count"),
                    face_up=tuple(seen.get("face_up", ())))


def _meld(meld: dict[str, Any]) -> MeldView:
    roles = meld["roles"] or [""] * len(meld["cards"])
    cards = zip(meld["cards"], roles, strict=True)
    return MeldView(meld["id"], meld["kind"], tuple(MeldCard(card, role) for card, role in cards))


def _placements(events: list[dict[str, Any]], seat: int) -> tuple[tuple[str, str], ...]:
    """(seat, card) for each card put on a pile or a trick this hand in an action the seat saw, in order."""
    found: list[tuple[str, str]] = []
    for event in events:
        if event["type"] != "action" or seat in event.get("secret_from", ()):
            continue
        words = str(event["action"]).split()
        if len(words) == 3 and words[1] in PLACING_VERBS:
            found.append((words[0], words[2]))
    return tuple(found)


def _played_by(cards: tuple[str, ...], placements: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """Who put each card there: from the top card down, the latest placement of that card not yet used."""
    used: set[int] = set()
    who: list[str] = []
    for card in reversed(cards):
        index = next((i for i in range(len(placements) - 1, -1, -1)
                      if i not in used and placements[i][1] == card), None)
        if index is None:
            who.append("")
            continue
        used.add(index)
        who.append(placements[index][0])
    return tuple(reversed(who))


# --- variables, teams, events -----------------------------------------------------------------------------------


def _variables(state: State, observation: dict[str, Any], show: ShowSpec, seat: int) -> list[VariableView]:
    """The variables shown (by default every one that some seat may see), each as this seat sees it, and the
    definitions shown with them. A value the seat may see that is not set yet reads `-`; one it may not see has
    no text (`?` at the terminal)."""
    from interpreter.engine.observation import sees_variable

    ruleset = state.game.ruleset
    views = []
    seen = {name: variable for name, variable in ruleset.variables.items() if variable.visibility != "nobody"}
    for item in _shown(show.variables, seen):
        if item.where:
            views.append(_definition(state, item))
            continue
        variable = ruleset.variables[item.name]
        value = observation["variables"][item.name]
        text: str | list[str | None] | None
        if variable.per == "table":
            text = value_text(value, variable.type)
        else:
            text = [value_text(part, variable.type) if part is not None or sees_variable(state, variable, owner, seat)
                    else None for owner, part in enumerate(value)]
        views.append(VariableView(item.name, item.label, variable.per, value, text))
    return views


def _definition(state: State, item: ShownItem) -> VariableView:
    """A definition `show.variables` names, a value of the table; unset (`-`) when it cannot be worked out now
    (it reads a variable not yet set, or a null)."""
    from interpreter.engine.errors import RulesetRuntimeError
    from interpreter.engine.observation import observed_value
    from interpreter.engine.program import Expr

    function = state.game.ruleset.expressions[item.where]
    kind = state.game.ruleset.shown_types.get(item.where)
    type_name = str(kind.element if kind is not None and kind.name == "optional" else kind)
    try:
        value = state.evaluate(Expr(function, item.where, getattr(function, "keeps", True)), {})
    except RulesetRuntimeError:
        value = None
    shown = observed_value(state, type_name, value)
    return VariableView(item.name, item.label, "table", shown, value_text(shown, type_name))


def in_hand_order(view: TableView) -> list[int]:
    """The places of the view's legal actions in the order a person reads them: the moves of a card of the hand
    (`play`, `discard`) in the order the hand is shown (by suit and rank, or the ruleset's groups), where the
    rules list them in the zone's own order (the order dealt); the other moves where the rules list them."""
    position: dict[str, int] = {}
    for group in view.hand or ():
        for card in group.cards:
            position.setdefault(card, len(position))
    texts = view.legal_actions
    cards = {index: words[2] for index, words in enumerate(text.split() for text in texts)
             if len(words) == 3 and words[1] in ("play", "discard") and words[2] in position}
    by_hand = iter(sorted(cards, key=lambda index: position[cards[index]]))
    return [next(by_hand) if index in cards else index for index in range(len(texts))]


def value_text(value: Any, type_name: str) -> str:
    """A value as people read it: a seat as `p1`, a team as `t0`, a truth as yes or no; unset as `-`."""
    if value is None:
        return "-"
    if isinstance(value, dict):  # (a value per key, `by:`: each key's text then its value)
        return ", ".join(f"{key} {value_text(item, type_name)}" for key, item in value.items())
    if isinstance(value, list):  # (a list variable, its items as the observation gives them: cards as text)
        return " ".join(value_text(item, type_name[5:-1]) for item in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if type_name in ("seat", "team") and isinstance(value, int):
        return f"{'p' if type_name == 'seat' else 't'}{value}"
    return str(value)


def _shown(items: tuple[ShownItem, ...] | None, declared: Any) -> tuple[ShownItem, ...]:
    if items is not None:
        return items
    return tuple(ShownItem(name, name.replace("_", " ")) for name in declared)


def _teams(team_of: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    count = max(team_of, default=-1) + 1
    return tuple(tuple(seat for seat, team in enumerate(team_of) if team == number) for number in range(count))


def _hand_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the hand in progress (or of the last hand, once the match is over)."""
    for index in range(len(events) - 1, -1, -1):
        if events[index]["type"] == "hand":
            return events[index:]
    return events


def _recent(events: list[dict[str, Any]], seat: int, count: int, since_own: int) -> list[str]:
    lines = []
    own = -1  # the line of the seat's own last move
    for event in events:
        if event["type"] in ("action", "reveal", "log"):
            line = describe(event, seat)
            if line is not None:
                lines.append(line.strip())
                if event["type"] == "action" and event.get("seat") == seat:
                    own = len(lines) - 1
    if since_own:
        count = min(since_own, max(count, len(lines) - own - 1 if own >= 0 else len(lines)))
    return lines[-count:] if count else []


def _previous_hand(events: list[dict[str, Any]], in_this_hand: int, seat: int, count: int,
                   since_own: int) -> list[str]:
    """The last lines of the hand before this one (its last `in_this_hand` events), as `_recent` picks them,
    while the seat has made no move in this one; none once it has, or in the first hand."""
    current, before = events[len(events) - in_this_hand:], events[:len(events) - in_this_hand]
    if not current or current[0]["type"] != "hand" or not any(event["type"] == "hand" for event in before) or any(
            event["type"] == "action" and event.get("seat") == seat for event in current):
        return []
    return _recent(_hand_events(before), seat, count, since_own)


def _standings(events: list[dict[str, Any]]) -> tuple[Any, ...] | None:
    for event in reversed(events):
        if event["type"] == "hand_end":
            return tuple(event["result"])
    return None
