"""Actions: small values of a closed set of kinds, each with one canonical text form that parses back.

    p2 play AH               a card to a trick or a pile
    p2 choose pass           a named choice of the ruleset
    p2 choose play discard 3 a named choice with arguments
    p0 discard 7C            a card discarded
    p1 draw stock            the top card of a pile
    p1 take discard          a whole pile
    p1 take discard meld 9C 9H 9D   a whole pile, its top card laid at once in a new meld (or several: `+`)
    p1 take discard add 9C to m3    a whole pile, its top card added at once to a meld
    p1 meld 7H 8H 2S=9H      a new meld, its cards in table order, each wild with what it stands for
    p1 meld 7H 7S 7D + KH KS JK=K   several new melds laid as one action, joined by `+`
    p1 add 9H to m3          a card added to a meld (melds are numbered m0, m1, ... as laid in the hand)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any, NamedTuple

from interpreter.cards import Deck
from interpreter.errors import RuledeckError, shorten

KINDS = ("play", "choose", "discard", "draw", "take", "meld", "add")
CARD_KINDS = ("play", "discard")
PILE_KINDS = ("draw", "take")
MELD_SIZES = "melds"  # a meld action laying several melds holds the number of cards of each as this argument
MELD_JOIN = "+"  # the word between the melds of such an action's text


class ActionSyntaxError(RuledeckError):
    """Text that is not an action."""


class Action(NamedTuple):
    """One move of one seat. `card` for play and discard, `name` for choose (the choice) and for draw and take
    (the pile), `arguments` for a choice's named arguments. (A named tuple: hashed and compared at C speed,
    since legal sets are dicts of actions.)"""

    seat: int
    kind: str
    card: int = -1
    name: str = ""
    arguments: tuple[tuple[str, Any], ...] = ()
    cards: tuple[int, ...] = ()  # a meld's cards, in table order
    roles: tuple[str, ...] = ()  # for each of them: "" for a natural card, what a wild stands for ("9H", "7")
    target: int = -1  # the meld a card is added to

    def text(self, deck: Deck, kinds: Mapping[tuple[str, str], str] | None = None) -> str:
        """The canonical text form, e.g. `p2 play AH`. `kinds` gives the type of a choice's argument when it is
        a card, a rank or a suit ((choice, argument) -> `card`, `rank` or `suit`), shown by name."""
        head = f"p{self.seat} {self.kind}"
        if self.kind in CARD_KINDS:
            return f"{head} {deck.card_text(self.card)}"
        if self.kind == "meld":
            return f"{head} {self.melds_text(deck)}"
        if self.kind == "add":
            return f"{head} {deck.card_text(self.card)} to m{self.target}"
        if self.kind == "take" and self.cards:  # the pile taken by laying its top card in new melds
            return f"{head} {self.name} meld {self.melds_text(deck)}"
        if self.kind == "take" and self.card >= 0:  # ... or by adding it to a meld
            return f"{head} {self.name} add {deck.card_text(self.card)} to m{self.target}"
        if self.kind == "take" and self.target > 0:
            return f"{head} {self.name} {self.target}"
        if self.kind == "choose":
            parts = [head, self.name]
            for name, value in self.arguments:
                kind = kinds.get((self.name, name)) if kinds else None
                parts += [name, argument_text(deck, kind, value)]
            return " ".join(parts)
        return f"{head} {self.name}"

    def melds_text(self, deck: Deck) -> str:
        """The cards of the melds an action lays, each wild with what it stands for, the melds joined by `+`."""
        words = [f"{deck.card_text(card)}{'=' + role if role else ''}"
                 for card, role in zip(self.cards, self.roles, strict=True)]
        shown, start = [], 0
        for size in meld_sizes(self):
            shown.append(" ".join(words[start:start + size]))
            start += size
        return f" {MELD_JOIN} ".join(shown)

    @staticmethod
    def parse(text: str, deck: Deck, kinds: Mapping[tuple[str, str], str] | None = None,
              offered: Collection[str] = ()) -> Action:
        """The action a canonical text names (`kinds` as for `text`; `offered`: the kinds of action the game
        has, which a misspelt kind is told). Raises ActionSyntaxError saying what is wrong."""
        words = text.split()
        if len(words) < 3 or not words[0].startswith("p") or not words[0][1:].isdigit():
            raise ActionSyntaxError(f"{text!r} is not an action: expected e.g. `p2 play AH` or `p0 choose pass`")
        seat, kind = int(words[0][1:]), words[1]
        if kind not in KINDS:
            listed = [name for name in KINDS if name in offered] or list(KINDS)
            close = difflib.get_close_matches(kind, listed, n=1, cutoff=0.6)
            meant = f" (did you mean `{close[0]}`?)" if close else ""
            raise ActionSyntaxError(f"{text!r}: unknown action kind {kind!r}{meant}; "
                                    f"{'this game has' if offered else 'kinds:'} {', '.join(listed)}")
        if kind in CARD_KINDS:
            if len(words) != 3:
                raise ActionSyntaxError(f"{text!r}: `{kind}` takes one card, e.g. `p{seat} {kind} AH`")
            try:
                return Action(seat, kind, card=deck.parse_card(words[2]))
            except ValueError as error:
                raise ActionSyntaxError(f"{text!r}: {error}") from None
        if kind == "meld":
            return _parse_melds(text, seat, words[2:], deck)
        if kind == "add":
            if len(words) != 5 or words[3] != "to" or not words[4].startswith("m") or not words[4][1:].isdigit():
                raise ActionSyntaxError(f"{text!r}: write `p{seat} add 9H to m3`")
            try:
                return Action(seat, kind, card=deck.parse_card(words[2]), target=int(words[4][1:]))
            except ValueError as error:
                raise ActionSyntaxError(f"{text!r}: {error}") from None
        if kind == "choose":
            rest = words[3:]
            if len(rest) % 2:
                raise ActionSyntaxError(f"{text!r}: arguments come in pairs, e.g. `choose play discard 3`")
            values = []
            for index in range(0, len(rest), 2):
                if rest[index] in rest[:index:2]:
                    raise ActionSyntaxError(f"{text!r}: the argument `{rest[index]}` is given twice")
                argument_kind = kinds.get((words[2], rest[index])) if kinds else None
                try:
                    values.append((rest[index], _parse_argument(deck, argument_kind, rest[index + 1])))
                except ValueError as error:
                    raise ActionSyntaxError(f"{text!r}: {error}") from None
            return Action(seat, kind, name=words[2], arguments=tuple(values))
        if kind == "take" and len(words) == 4 and words[3].isdigit():
            return Action(seat, kind, name=words[2], target=int(words[3]))  # the top N cards of the pile
        if kind == "take" and len(words) > 4 and words[3] == "meld":  # the top card laid in new melds
            return _parse_melds(text, seat, words[4:], deck)._replace(kind=kind, name=words[2])
        if kind == "take" and len(words) > 3 and words[3] == "add":  # the top card added to a meld
            if len(words) != 7 or words[5] != "to" or not words[6].startswith("m") or not words[6][1:].isdigit():
                raise ActionSyntaxError(f"{text!r}: write `p{seat} take {words[2]} add 9C to m3`")
            try:
                return Action(seat, kind, card=deck.parse_card(words[4]), name=words[2], target=int(words[6][1:]))
            except ValueError as error:
                raise ActionSyntaxError(f"{text!r}: {error}") from None
        if len(words) != 3:
            raise ActionSyntaxError(f"{text!r}: `{kind}` names one pile, e.g. `p{seat} {kind} stock`")
        return Action(seat, kind, name=words[2])


def malformed(action: Action, deck_size: int) -> str | None:
    """What makes an Action made by hand, not by the engine, no action of a game whose deck holds `deck_size`
    cards (a field of another type or shape, a card the deck does not have), in words; None when it is well
    formed. (Whether it is legal is the rules' to say.)"""
    seat, kind, card, name, arguments, cards, roles, target = action
    if seat.__class__ is not int or seat < 0:
        return f"its seat is {_shown(seat)}, not a seat's number"
    if kind.__class__ is not str or kind not in KINDS:
        return f"its kind is {_shown(kind)}, not one of {', '.join(KINDS)}"
    if name.__class__ is not str:
        return f"its name is {_shown(name)}, not a text"
    if target.__class__ is not int:
        return f"its target is {_shown(target)}, not a meld's number"
    if card.__class__ is not int or cards.__class__ is not tuple or not -1 <= card < deck_size or \
            not all(item.__class__ is int and 0 <= item < deck_size for item in cards):
        return "names a card this deck does not have"
    if arguments.__class__ is not tuple or not all(
            pair.__class__ is tuple and len(pair) == 2 and pair[0].__class__ is str for pair in arguments):
        return f"its arguments are {_shown(arguments)}, not (name, value) pairs"
    if roles.__class__ is not tuple or len(roles) != len(cards) or not all(role.__class__ is str for role in roles):
        return "its roles are not one text per card (\"\" for a natural card, what a wild stands for)"
    sizes = next((value for argument, value in arguments if argument == MELD_SIZES), None)
    if sizes is not None and (sizes.__class__ is not tuple or not all(
            size.__class__ is int and size > 0 for size in sizes) or sum(sizes) != len(cards)):
        return f"its melds' sizes {_shown(sizes)} do not share out its {len(cards)} cards"
    return None


def _shown(value: Any) -> str:
    return shorten(repr(value), 40)


def meld_sizes(action: Action) -> tuple[int, ...]:
    """The number of cards of each meld a meld action lays (one meld: all its cards)."""
    for name, value in action.arguments:
        if name == MELD_SIZES:
            return tuple(value)
    return (len(action.cards),)


def _parse_melds(text: str, seat: int, words: list[str], deck: Deck) -> Action:
    """A meld action: one meld's cards, or several melds' joined by `+` (`p1 meld 7H 7S 7D + KH KS JK=K`)."""
    cards: list[int] = []
    roles: list[str] = []
    sizes = [0]
    for word in words:
        if word == MELD_JOIN:
            sizes.append(0)
            continue
        card, _, role = word.partition("=")
        try:
            cards.append(deck.parse_card(card))
        except ValueError as error:
            raise ActionSyntaxError(f"{text!r}: {error}") from None
        roles.append(role)
        sizes[-1] += 1
    if 0 in sizes:
        raise ActionSyntaxError(f"{text!r}: `{MELD_JOIN}` goes between two melds' cards, e.g. "
                                f"`p{seat} meld 7H 7S 7D {MELD_JOIN} KH KS JK=K`")
    arguments = ((MELD_SIZES, tuple(sizes)),) if len(sizes) > 1 else ()
    return Action(seat, "meld", arguments=arguments, cards=tuple(cards), roles=tuple(roles))


NO_ITEMS = "none"  # a list argument with no items, in an action's text (its items are joined with `+`)


def frozen(value: Any) -> Any:
    """A choice's argument value as an action holds it: lists (of cards, say) as tuples, so that it hashes."""
    if value.__class__ is not list and value.__class__ is not tuple:
        return value
    for item in value:  # (a list's items are of one type, the language's types say: the first tells)
        if item.__class__ is list or item.__class__ is tuple:
            for inner in item:  # a list of lists of values (subsets of a hand), or of lists again
                if inner.__class__ is not list and inner.__class__ is not tuple:
                    return tuple(map(tuple, value))
                break
            return tuple([frozen(inner) for inner in value])
        return tuple(value)  # (the common case: numbers, cards)
    return ()


def subset_actions(seat: int, name: str, argument: str, choices: Iterable[tuple[Any, ...]]) -> list[Action]:
    """The actions of a choice of one argument whose values are lists, each value once and a tuple (as
    `subset_choices` makes the choices of `subsets`): one action per value, in order, made each time (see
    Game.choice_action), from its fields, with no call of the named tuple's constructor."""
    return [_NEW(Action, (seat, "choose", -1, name, ((argument, choice),), (), (), -1)) for choice in choices]


_NEW = tuple.__new__  # (an Action made from its fields in order: it is a named tuple)


def thawed(value: Any) -> Any:
    """An action's argument value as the ruleset's expressions see it: tuples as lists."""
    return [thawed(item) for item in value] if value.__class__ is tuple else value  # (a meld is a named tuple)


def argument_text(deck: Deck, kind: str | None, value: Any) -> str:
    """A choice's argument value in an action's text (`kind` as for `Action.text`; `list:card` for a list of
    cards)."""
    if value.__class__ is list or value.__class__ is tuple:  # a list: its items joined with `+` (not a meld)
        element = kind.removeprefix("list:") if kind and kind.startswith("list:") else None
        return "+".join(argument_text(deck, element, item) for item in value) or NO_ITEMS
    return _named(deck, kind, value) if kind else _value_text(value)


_SEAT_TEXT = re.compile(r"p\d+")  # a seat as text names it


def _parse_argument(deck: Deck, kind: str | None, text: str) -> Any:
    if kind and kind.startswith("list:"):
        element = kind.removeprefix("list:") or None
        return () if text == NO_ITEMS else tuple(_parse_argument(deck, element, item) for item in text.split("+"))
    if kind == "seat":  # (written as its number; `p2`, as seats are written elsewhere, is read too)
        return _parse_value(text[1:] if _SEAT_TEXT.fullmatch(text) else text, deck)
    return deck.parse_value(kind, text) if kind else _parse_value(text, deck)


def _named(deck: Deck, kind: str, value: Any) -> str:
    """A card, rank or suit by name; a value that is none (of another type) as it is."""
    try:
        return deck.value_text(kind, value)
    except (IndexError, TypeError, ValueError):
        return _value_text(value)


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_value(text: str, deck: Deck) -> Any:
    if text.lstrip("-").isdigit():
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    return text
