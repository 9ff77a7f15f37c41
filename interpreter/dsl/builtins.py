"""The registry of builtin functions: each declared once with its signature, docstring and a checked example.

The checker takes arities and types from the signatures; the compiler calls the implementations; the
language reference (docs/language.md) is generated from this registry. Implementations are written for the
runtime values: cards, ranks, suits, seats and teams are ints; lists are Python lists or tuples.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from interpreter.cards import NO_SUIT, Deck
from interpreter.dsl.types import Type, parse_type
from interpreter.errors import EvaluationError
from interpreter.numbers import ceil, floor

Context = Literal["none", "deck", "env"]

_SIGNATURE = re.compile(r"^(?P<name>[a-z_]+)\((?P<params>.*)\) -> (?P<returns>.+)$")


@dataclass(frozen=True)
class Parameter:
    name: str
    type: Type
    optional: bool = False


@dataclass(frozen=True)
class Builtin:
    """One function of the language. `context` says what the implementation receives first: nothing, the deck
    (bound at compile time) or the evaluation environment (the table: seats and teams)."""

    name: str
    signature: str
    category: str
    doc: str
    example: str
    implementation: Callable[..., Any]
    context: Context = "none"
    # For a deck builtin on the hot path of games: `specialised(deck)` gives the same function with the deck's
    # tables bound in (faster than binding the deck as an argument). It must agree with `implementation`.
    specialised: Callable[[Deck], Callable[..., Any]] | None = None

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        return _parse_signature(self.signature)[0]

    @property
    def returns(self) -> Type:
        return _parse_signature(self.signature)[1]

    @property
    def required_count(self) -> int:
        return sum(1 for parameter in self.parameters if not parameter.optional)


def _parse_signature(signature: str) -> tuple[tuple[Parameter, ...], Type]:
    match = _SIGNATURE.match(signature)
    if match is None:
        raise ValueError(f"bad builtin signature {signature!r}")
    parameters = []
    for part in filter(None, (p.strip() for p in match["params"].split(","))):
        name, _, type_text = part.partition(":")
        optional = type_text.strip().endswith("= null")
        type_text = type_text.replace("= null", "").strip()
        parameters.append(Parameter(name.strip(), parse_type(type_text), optional))
    return tuple(parameters), parse_type(match["returns"])


@dataclass(frozen=True)
class QuantifierForm:
    """A binding form such as `any(c in hand: P)`: documented here, compiled by the compiler."""

    name: str
    form: str
    doc: str
    example: str


QUANTIFIERS: dict[str, QuantifierForm] = {
    q.name: q
    for q in (
        QuantifierForm("any", "any(condition for x in items) -> bool",
                       "True when the condition holds for some item.", "any(c.suit == S for c in [AH, 2S])"),
        QuantifierForm("all", "all(condition for x in items) -> bool",
                       "True when the condition holds for every item (and for no items).",
                       "all(c.suit == H for c in [AH, KH])"),
        QuantifierForm("count", "count(condition for x in items) -> int",
                       "How many items satisfy the condition.", "count(c.suit == H for c in [AH, KH, 2S]) == 2"),
        QuantifierForm("sum", "sum(number for x in items) -> int or num", "The sum of a number over the items (0 for "
                       "none): an `int` when the numbers are, else a `num` (it may be a fraction).",
                       "sum(order(c.rank) for c in [AH, KH]) == 23"),
        QuantifierForm("max", "max(value for x in items) -> int, num or rank",
                       "The largest value over the items; an error when there are none.",
                       "max(c.rank for c in [4H, KH, 2S]) == K"),
        QuantifierForm("min", "min(value for x in items) -> int, num or rank",
                       "The smallest value over the items; an error when there are none.",
                       "min(c.rank for c in [4H, KH, 2S]) == 2"),
        QuantifierForm("highest", "highest(x in items by key) -> item",
                       "The item with the largest key (the first of equals); an error when there are none.",
                       "highest(c in [4H, KH, 2S] by c.rank) == KH"),
        QuantifierForm("lowest", "lowest(x in items by key) -> item",
                       "The item with the smallest key (the first of equals); an error when there are none.",
                       "lowest(c in [4H, KH, 2S] by c.rank) == 2S"),
    )
}


# --- implementations ---------------------------------------------------------------------------------------


def _known(value: Any) -> Any:
    if value is None:
        raise EvaluationError("known() of null: the value is not set here")
    return value


def _placed_by(env: Mapping[str, Any], card: int) -> int | None:
    placed = env.get("_placed")  # (followed in a ruleset that calls placed_by: see Game.tracks_placement)
    return None if placed is None else placed[card]


def _first(items: Sequence[Any]) -> Any:
    if not items:
        raise EvaluationError("first() of an empty list")
    return items[0]


def _last(items: Sequence[Any]) -> Any:
    if not items:
        raise EvaluationError("last() of an empty list")
    return items[-1]


def _numbers(low: int, high: int) -> list[int]:
    if high - low + 1 > 10_000:
        raise EvaluationError(f"numbers({low}, {high}) would hold more than 10,000 numbers")
    return list(range(low, high + 1))


def _distinct(items: Sequence[Any]) -> list[Any]:
    try:
        return list(dict.fromkeys(items))
    except TypeError:  # lists of lists
        kept: list[Any] = []
        for item in items:
            if item not in kept:
                kept.append(item)
        return kept


def _without(items: Sequence[Any], removed: Sequence[Any]) -> list[Any]:
    remaining = list(items)
    for item in removed:
        if item in remaining:
            remaining.remove(item)
    return remaining


MAX_SUBSETS = 100_000  # beyond this, a choice among subsets is no longer a decision a player can weigh


SEARCH_EFFORT = 20 * MAX_SUBSETS  # the choices `subsets_adding_to` may look at (most are left at once)
_FEW_ITEMS = MAX_SUBSETS.bit_length() - 1  # (2 ** 16 subsets at the most, no more than MAX_SUBSETS: not counted)


def _subsets(items: Sequence[Any], smallest: int | None = None, largest: int | None = None) -> list[list[Any]]:
    return list(map(list, subset_choices(items, smallest, largest)))


def subset_choices(items: Sequence[Any], smallest: int | None = None,
                   largest: int | None = None) -> Iterable[tuple[Any, ...]]:
    """`subsets`, each choice a tuple, made as they are gone over when no two items are equal (with equal items,
    each choice once: all are made first, to leave out repeats). The compiled code goes over these where a
    quantifier or comprehension only goes over, counts, indexes or looks in each choice (see the compiler's
    `_reads_as_items`), and makes a choice's actions of them when its argument's values are `subsets(...)`
    (`Program._subset_choices_code`). Too many subsets fail here, before any is made."""
    size_of = len(items)
    low = 0 if smallest is None or smallest < 0 else smallest  # (as `max(smallest, 0)`, with no call)
    high = size_of if largest is None or largest > size_of else largest
    if size_of > _FEW_ITEMS:
        count = sum(math.comb(size_of, size) for size in range(low, high + 1))
        if count > MAX_SUBSETS:
            raise EvaluationError(f"subsets() of {size_of} items makes {count:,} subsets, more than "
                                  f"{MAX_SUBSETS:,}: narrow the sizes, or choose one item at a time")
    try:
        distinct = len(set(items)) == size_of
    except TypeError:  # (items that are lists)
        distinct = False
    if distinct:  # (the common case: no two equal items, so no choice can repeat another; made in C)
        if low == high:  # (`subsets(cards, 3, 3)`: one size)
            return itertools.combinations(items, low)
        # (each size's combinations in turn, made in C with no loop of Python's, each of the same items: those
        # given, as they are now, whatever becomes of their list while the choices are gone over)
        pool = tuple(items)
        return itertools.chain.from_iterable(map(itertools.combinations, itertools.repeat(pool), range(low, high + 1)))
    # Each choice once: equal items (two packs) give no repeats. A choice is told by its items' texts, in order
    # (items that are lists, which do not hash, included)
    found: dict[tuple[str, ...], tuple[Any, ...]] = {}
    for size in range(low, high + 1):
        for chosen in itertools.combinations(items, size):
            found.setdefault(tuple(sorted(map(repr, chosen))), chosen)
    return found.values()


def _round_up(number: int, multiple: int) -> int:
    if multiple <= 0:
        raise EvaluationError(f"round_up needs a positive multiple, not {multiple}")
    return -(-number // multiple) * multiple


def _round_down(number: int, multiple: int) -> int:
    if multiple <= 0:
        raise EvaluationError(f"round_down needs a positive multiple, not {multiple}")
    return number // multiple * multiple


def _order(deck: Deck, rank: int, ranking: str | None = None) -> int:
    if ranking is None:
        return rank
    order = deck.ranking(ranking)
    if rank not in order:
        raise EvaluationError(f"rank {deck.rank_name(rank)} is not in the ranking {ranking!r}")
    return order[rank]


def _value(deck: Deck, card: int) -> int:
    return deck.value_of[card]


def _points(deck: Deck, cards: Sequence[int]) -> int:
    return sum(map(deck.value_of.__getitem__, cards))  # (summed in C)


def _subsets_adding_to(deck: Deck, cards: Sequence[int], totals: Sequence[int]) -> list[list[int]]:
    """`subsets_adding_to`: the choices of one or more of the cards whose points add up to one of the totals, as
    `[s for s in subsets(cards, 1) if points(s) in totals]` lists them (the smaller first, each in the cards' order,
    each choice once with two packs)."""
    wanted = set(totals)
    if not cards or not wanted:
        return []
    values = [deck.value_of[card] for card in cards]
    if len(values) > _FEW_ITEMS:
        found = searched_places(values, wanted)
    else:
        found = bounded_places(values, wanted) if min(values) >= 0 else enumerated_places(values, wanted)
    return _choices_once(cards, found)


def enumerated_places(values: Sequence[int], wanted: set[int]) -> list[tuple[int, ...]]:
    """The places of the values of each choice that adds up to a wanted total, every choice gone over in C, size
    by size (its values summed, kept when wanted): for few values, where this costs less than any search."""
    places = range(len(values))
    return [taken for size in range(1, len(values) + 1) for taken in itertools.compress(
        itertools.combinations(places, size), map(wanted.__contains__, map(sum, itertools.combinations(values, size))))]


def bounded_places(values: Sequence[int], wanted: set[int]) -> list[tuple[int, ...]]:
    """`enumerated_places` for values none of which is negative: the choices made place by place, each kept only
    while its total is no more than the largest wanted (adding to it can only make it larger), then put in the
    order `enumerated_places` gives (the smaller first, then by places). Most choices of a few cards worth a
    small total (the table cards a card in hand is worth) are left at their first card too many."""
    limit = max(wanted)
    partial: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for place, value in enumerate(values):
        if value <= limit:
            single = (place,)
            partial += [(chosen + single, total + value) for chosen, total in partial if total + value <= limit]
    found = [chosen for chosen, total in partial if total in wanted and chosen]
    if len(found) > 1:
        found.sort(key=_smaller_first)
    return found


def _smaller_first(places: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return len(places), places


def searched_places(values: Sequence[int], wanted: set[int]) -> list[tuple[int, ...]]:
    """`enumerated_places` found by a search that leaves a choice as soon as the values after it can no longer
    bring it to a wanted total: for many values, of which few choices add up to one."""
    count = len(values)
    lowest, highest = min(wanted), max(wanted)
    # What the values from each place on can still add, at the least and at the most (they may be negative)
    least = [0] * (count + 1)
    most = [0] * (count + 1)
    for place in range(count - 1, -1, -1):
        least[place] = least[place + 1] + min(values[place], 0)
        most[place] = most[place + 1] + max(values[place], 0)
    found: list[tuple[int, ...]] = []
    waiting: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]  # (the next place, the sum so far, the places)
    effort = 0  # the choices looked at, bounded as `subsets` bounds the choices it makes
    while waiting:
        start, added_so_far, chosen = waiting.pop()
        effort += count - start
        if effort > SEARCH_EFFORT:
            raise EvaluationError(f"subsets_adding_to() of {count} cards looks at more than {SEARCH_EFFORT:,} "
                                  "choices: narrow the cards")
        for place in range(start, count):
            if added_so_far + least[place] > highest or added_so_far + most[place] < lowest:
                break  # (the values from here on, and so from any later place, cannot reach a total)
            added = added_so_far + values[place]
            taken = (*chosen, place)
            if added in wanted:
                found.append(taken)
                if len(found) > MAX_SUBSETS:
                    raise EvaluationError(f"subsets_adding_to() of {count} cards finds more than {MAX_SUBSETS:,} "
                                          "choices: narrow the cards")
            if place + 1 < count:
                waiting.append((place + 1, added, taken))
    found.sort(key=_smaller_first)
    return found


def _choices_once(cards: Sequence[int], found: list[tuple[int, ...]]) -> list[list[int]]:
    """The cards at each tuple of places, in order; with two packs, a choice of the same cards once (the first)."""
    choices = [[cards[place] for place in places] for places in found]
    if len(set(cards)) == len(cards):
        return choices
    once: dict[tuple[int, ...], list[int]] = {}
    for choice in choices:
        once.setdefault(tuple(sorted(choice)), choice)
    return list(once.values())


def _card_of(deck: Deck, rank: int, suit: int) -> int:
    return deck.card_of(rank, suit)


def _rank_groups(deck: Deck, cards: Sequence[int], smallest: int | None = None,
                 largest: int | None = None) -> list[list[int]]:
    """One group of cards of one rank per rank and size: the first cards of that rank in the deck's order."""
    low = 1 if smallest is None else max(smallest, 1)
    groups: list[list[int]] = []
    # (card ids follow the deck's order, rank first, then suit as `deck.suits` lists them, the jokers last: sorted,
    # the cards of each rank come together, ranks low to high, and are grouped in C)
    for _, of_rank in itertools.groupby(sorted(cards), deck.rank_of.__getitem__):
        held = list(of_rank)
        for size in range(low, (len(held) if largest is None or largest > len(held) else largest) + 1):
            groups.append(held[:size])
    return groups


def _is_joker(deck: Deck, card: int) -> bool:
    return deck.suit_of[card] == NO_SUIT


def _beats(deck: Deck, card: int, other: int, trump: int | None = None) -> bool:
    suit, other_suit = deck.suit_of[card], deck.suit_of[other]
    if suit == other_suit:
        return deck.rank_of[card] > deck.rank_of[other]
    return trump is not None and suit == trump


def _trick_winner(deck: Deck, cards: Sequence[int], trump: int | None = None) -> int:
    if not cards:
        raise EvaluationError("trick_winner() of an empty trick")
    best = cards[0]
    for card in cards[1:]:
        if _beats(deck, card, best, trump):
            best = card
    return best


def _beats_for(deck: Deck) -> Callable[..., bool]:
    """`_beats` with the deck's tables bound in (see Builtin.specialised)."""
    suit_of, rank_of = deck.suit_of, deck.rank_of

    def beats(card: int, other: int, trump: int | None = None) -> bool:
        suit = suit_of[card]
        if suit == suit_of[other]:
            return rank_of[card] > rank_of[other]
        return trump is not None and suit == trump

    return beats


class Beaters:
    """For the compiled code: the cards that beat a card under a trump suit (or none), as `beats` decides (a
    higher card of its suit, and when it is no trump every trump): `card in beaters(winning, trump)` is
    `beats(card, winning, trump)` without a call, for a quantifier or a filter over many cards against one card
    winning. `by_trump` holds, for each trump asked, the sets by card, made when first asked (`row`): the code
    written in place reads `(by_trump.get(trump) or row(trump))[winning]`, two look-ups in C."""

    def __init__(self, deck: Deck) -> None:
        self.suit_of, self.rank_of = deck.suit_of, deck.rank_of
        self.of_suit: dict[int, list[int]] = {}
        for card in range(len(self.suit_of)):
            self.of_suit.setdefault(self.suit_of[card], []).append(card)
        self.by_trump: dict[int | None, tuple[frozenset[int], ...]] = {}

    def __call__(self, other: int, trump: int | None = None) -> frozenset[int]:
        return (self.by_trump.get(trump) or self.row(trump))[other]

    def row(self, trump: int | None) -> tuple[frozenset[int], ...]:
        suit_of, rank_of, of_suit = self.suit_of, self.rank_of, self.of_suit
        made = []
        for other in range(len(suit_of)):
            suit, rank = suit_of[other], rank_of[other]
            found = [card for card in of_suit[suit] if rank_of[card] > rank]
            if trump is not None and trump != suit:
                found += of_suit.get(trump, ())
            made.append(frozenset(found))
        row = self.by_trump[trump] = tuple(made)
        return row


NO_STRENGTHS: dict[int, Callable[[int], int]] = {}  # (no table made yet for a trump: `_trick_winner_for`)


def _trick_winner_for(deck: Deck) -> Callable[..., int]:
    """`_trick_winner` with the deck's tables bound in (see Builtin.specialised): the highest trump, else the
    highest card of the suit led, found in C as the card of greatest strength in a trick of that suit led and
    those trumps (a table per pair, made when first asked: a card of neither suit never wins; the first of equal
    cards wins, as in `_trick_winner`)."""
    suit_of, rank_of = deck.suit_of, deck.rank_of
    above = max(rank_of, default=0) + 1  # (a strength above every rank)
    strengths: dict[int | None, dict[int, Callable[[int], int]]] = {}  # by trump, then by suit led

    def strength(led: int, trump: int | None) -> Callable[[int], int]:
        table = [rank + 2 * above if suit == trump else rank + above if suit == led else -1
                 for suit, rank in zip(suit_of, rank_of, strict=True)]
        found = strengths.setdefault(trump, {})[led] = table.__getitem__
        return found

    def trick_winner(cards: Sequence[int], trump: int | None = None) -> int:
        if not cards:
            raise EvaluationError("trick_winner() of an empty trick")
        led = suit_of[cards[0]]
        return max(cards, key=strengths.get(trump, NO_STRENGTHS).get(led) or strength(led, trump))

    trick_winner.strengths = strengths  # type: ignore[attr-defined]  # (for code that does the same in place:
    trick_winner.strength = strength  # type: ignore[attr-defined]  # compiler.py, `_Emitter._emit_call`)
    return trick_winner


def _certain_winners(deck: Deck, own: Sequence[int], others: Sequence[int]) -> int:
    return _certain_winners_for(deck)(own, others)


def _certain_winners_for(deck: Deck) -> Callable[[Sequence[int], Sequence[int]], int]:
    """`_certain_winners` with the deck's ranks bound in (see Builtin.specialised): greedy matching, high to low,
    each of our cards that some unused higher card could beat is lost (the ranks read and sorted in C)."""
    rank = deck.rank_of.__getitem__

    def certain_winners(own: Sequence[int], others: Sequence[int]) -> int:
        mine = sorted(map(rank, own), reverse=True)
        theirs = sorted(map(rank, others), reverse=True)
        left = len(theirs)
        beaten = 0
        for card_rank in mine:
            if beaten < left and theirs[beaten] > card_rank:
                beaten += 1
        return len(mine) - beaten

    return certain_winners


def _seat_count(env: Mapping[str, Any]) -> int:
    count: int = env["player_count"]
    return count


def _seats(env: Mapping[str, Any]) -> list[int]:
    return list(range(env["player_count"]))


def _check_seat(env: Mapping[str, Any], seat: int) -> int:
    count: int = env["player_count"]  # (`_seat_count`, written out: on the path of every seat builtin)
    if not 0 <= seat < count:
        raise EvaluationError(f"there is no seat {seat} at a table of {count}")
    return count


def _seats_from(env: Mapping[str, Any], first: int) -> list[int]:
    clockwise = env.get("_clockwise")  # where the seats sit (a `seating` step moves them); absent: in number order
    if clockwise is not None and 0 <= first < len(clockwise):  # (one entry per seat: the seat checked with it)
        return list(clockwise[first])
    count = _check_seat(env, first)
    return [(first + offset) % count for offset in range(count)]


def _next_seat(env: Mapping[str, Any], seat: int) -> int:
    following = env.get("_next")  # (as `_seats_from`: on the path of every turn order, kept to one call)
    if following is not None and 0 <= seat < len(following):
        return following[seat]  # type: ignore[no-any-return]
    count = _check_seat(env, seat)
    return (seat + 1) % count


def _previous_seat(env: Mapping[str, Any], seat: int) -> int:
    count = _check_seat(env, seat)
    clockwise = env.get("_clockwise")
    return clockwise[seat][-1] if clockwise is not None else (seat - 1) % count


def _seat_position(env: Mapping[str, Any], seat: int, first: int) -> int:
    count = _check_seat(env, first)
    _check_seat(env, seat)
    clockwise = env.get("_clockwise")
    if clockwise is not None:
        return clockwise[first].index(seat)  # type: ignore[no-any-return]
    return (seat - first) % count


def _plays_before(env: Mapping[str, Any], seat: int, other: int, first: int) -> bool:
    return _seat_position(env, seat, first) < _seat_position(env, other, first)


def _plays_after(env: Mapping[str, Any], seat: int, other: int, first: int) -> bool:
    return _seat_position(env, seat, first) > _seat_position(env, other, first)


def _player_count(env: Mapping[str, Any]) -> int:
    return _seat_count(env)


def _team_of(env: Mapping[str, Any], seat: int) -> int:
    teams = env["team_of"]  # (one entry per seat)
    if not 0 <= seat < len(teams):
        _check_seat(env, seat)
    team: int = teams[seat]
    return team


def _team_seats(env: Mapping[str, Any], team: int) -> list[int]:
    return [seat for seat, owner in enumerate(env["team_of"]) if owner == team]


def _teams(env: Mapping[str, Any]) -> list[int]:
    return sorted(set(env["team_of"]))


def _partner(env: Mapping[str, Any], seat: int) -> int:
    team_of = env["team_of"]
    for candidate in _seats_from(env, seat)[1:]:
        if team_of[candidate] == team_of[seat]:
            return candidate
    raise EvaluationError(f"seat p{seat} has no partner")


def _can_meld(env: Mapping[str, Any], cards: Sequence[int], melds: Sequence[Any]) -> bool:
    rules = env.get("_meld_rules")
    if rules is None:
        raise EvaluationError("can_meld() needs a `melds:` section in the ruleset")
    return bool(rules.can_meld(cards, melds))


def _unmelded(env: Mapping[str, Any], cards: Sequence[int], onto: Sequence[Any] | None = None) -> list[int]:
    rules = env.get("_meld_rules")
    if rules is None:
        raise EvaluationError("unmelded() needs a `melds:` section in the ruleset")
    return list(rules.unmelded(list(cards), tuple(onto or ())))


def _builtin(name: str, signature: str, category: str, doc: str, example: str,
             implementation: Callable[..., Any], context: Context = "none",
             specialised: Callable[[Deck], Callable[..., Any]] | None = None) -> Builtin:
    return Builtin(name, f"{name}{signature}", category, doc, example, implementation, context, specialised)


BUILTINS: dict[str, Builtin] = {
    b.name: b
    for b in (
        # lists
        _builtin("size", "(items: list[T]) -> int", "lists", "The number of items.", "size([AH, KH]) == 2", len),
        _builtin("known", "(value: T?) -> T", "values", "A value that may be null (an optional variable or "
                 "parameter) where the rules say it is set: the value itself, and an error naming the place when it "
                 "is null. For a definition called only where a test has ruled null out (`if: declarer != null`), "
                 "which the test does not reach.", "known(3) == 3", _known),
        _builtin("first", "(items: list[T]) -> T", "lists", "The first item (the bottom of a zone); an error "
                 "when there is none. Of a list comprehension with a condition (`first([p for p in seats() if "
                 "...])`), the items after the first that meets it are not looked at.", "first([AH, KH]) == AH",
                 _first),
        _builtin("last", "(items: list[T]) -> T", "lists", "The last item (the top of a zone); an error when "
                 "there is none.", "last([AH, KH]) == KH", _last),
        _builtin("numbers", "(low: int, high: int) -> list[int]", "lists",
                 "The whole numbers from low to high, both included (at most 10,000 of them: more is an error "
                 "when the game runs).", "numbers(0, 3) == [0, 1, 2, 3]", _numbers),
        _builtin("reverse", "(items: list[T]) -> list[T]", "lists", "The items in reverse order.",
                 "reverse([1, 2]) == [2, 1]", lambda items: list(reversed(items))),
        _builtin("distinct", "(items: list[T]) -> list[T]", "lists", "The items without repeats, first "
                 "occurrences kept.", "distinct([AH, AH, KH]) == [AH, KH]", _distinct),
        _builtin("sort", "(items: list[T]) -> list[T]", "lists", "The items in increasing order (cards by rank, "
                 "then suit in deck order).", "sort([3, 1, 2]) == [1, 2, 3]", sorted),
        _builtin("without", "(items: list[T], removed: list[T]) -> list[T]", "lists",
                 "The items less one copy of each removed item.", "without([AH, AH, KH], [AH]) == [AH, KH]",
                 _without),
        _builtin("rank_groups", "(cards: list[card], smallest: int = null, largest: int = null) -> list[list[card]]",
                 "lists", "The groups of cards of one rank the cards hold, one per rank and size, from `smallest` "
                 "cards (default 1) to `largest` (default all of that rank): each the first cards of its rank in the "
                 "deck's order (suits as `deck.suits` lists them), ranks low to high, then the smaller first. The "
                 "copies and suits of a rank do not multiply the groups: as a choice's argument values, they let a "
                 "player play a pair or a triple of a rank in one action (a climbing game), the action naming its "
                 "cards (`p1 choose play group 3S+3H`).",
                 "rank_groups([3H, 4S, 3S]) == [[3S], [3S, 3H], [4S]]", _rank_groups, "deck"),
        _builtin("subsets", "(items: list[T], smallest: int = null, largest: int = null) -> list[list[T]]",
                 "lists", "Every choice of some of the items, each keeping their order: the smaller first, from "
                 "`smallest` items (default 0) to `largest` (default all); each choice once, even when items repeat "
                 "(two packs). More than 100,000 choices within the sizes asked is an error when it is worked out (n "
                 "items have 2^n subsets; 41 cards have 112,791 of 1 to 4 cards): the subsets of a zone that may "
                 "grow (a hand that takes a pile) are asked for at a size no play reaches in testing. As a choice's "
                 "argument values, it lets a player choose several cards in one action; for a choice of some cards "
                 "of a hand that may be large, let the player choose one card at a time (a decision that repeats, "
                 "with a choice to stop). Gone over by a quantifier or "
                 "comprehension that only counts, sums, indexes or looks in each choice (`count(points(s) == 15 for "
                 "s in subsets(cs, 2))`), the choices are made one at a time as the loop reaches them, which costs "
                 "less than the whole list.",
                 "subsets([1, 2, 3], 2) == [[1, 2], [1, 3], [2, 3], [1, 2, 3]] and size(subsets([1, 2])) == 4",
                 _subsets),
        _builtin("subsets_adding_to", "(cards: list[card], totals: list[int]) -> list[list[card]]", "cards",
                 "Every choice of one or more of the cards whose points (`deck.values`) add up to one of the "
                 "totals, as `[s for s in subsets(cards, 1) if points(s) in totals]` lists them (the smaller "
                 "first, each keeping the cards' order, each choice once with two packs), found without going "
                 "through every subset: the captures of a fishing game (the table cards a card in hand is worth: "
                 "`subsets_adding_to(table, [value(card)])`), the choices of a hand worth fifteen. More than 100,000 "
                 "choices is an error when it is worked out.",
                 "subsets_adding_to([AH, KH], [0]) == [[AH], [KH], [AH, KH]]", _subsets_adding_to, "deck"),
        # numbers
        _builtin("total", "(numbers: list[N]) -> N", "numbers", "The sum of a list of numbers (a `num` when any "
                 "of them is).", "total([1, 2, 3]) == 6 and total([1 / 2, 1]) == 3 / 2", sum),
        _builtin("min", "(a: N, b: N) -> N", "numbers", "The smaller of two numbers (see also the "
                 "quantifier form `min(value for x in items)`).", "min(3, 5) == 3 and min(1 / 2, 1) == 1 / 2", min),
        _builtin("max", "(a: N, b: N) -> N", "numbers", "The larger of two numbers.",
                 "max(3, 5) == 5 and max(7 / 2, 3) == 7 / 2", max),
        _builtin("abs", "(number: N) -> N", "numbers", "The absolute value.", "abs(-4) == 4 and abs(-1 / 2) == 1 / 2",
                 abs),
        _builtin("floor", "(number: num) -> int", "numbers", "The largest whole number not above a number that "
                 "may be a fraction (`7 / 2` is 3.5).", "floor(7 / 2) == 3 and floor(-7 / 2) == -4", floor),
        _builtin("ceil", "(number: num) -> int", "numbers", "The smallest whole number not below a number that "
                 "may be a fraction.", "ceil(7 / 2) == 4 and ceil(6 / 2) == 3", ceil),
        _builtin("round_up", "(number: int, multiple: int) -> int", "numbers",
                 "The number rounded up to a multiple.", "round_up(-65, 10) == -60 and round_up(65, 10) == 70",
                 _round_up),
        _builtin("round_down", "(number: int, multiple: int) -> int", "numbers",
                 "The number rounded down to a multiple.", "round_down(65, 10) == 60", _round_down),
        # cards
        _builtin("order", "(rank: rank, ranking: str = null) -> int", "cards",
                 "A rank's position from 0 in the deck's order (`deck.ranks`, low to high), or in a named "
                 "ranking of `deck.rankings`.", "order(A) == 12 and order(2) == 0", _order, "deck"),
        _builtin("value", "(card: card) -> int", "cards", "The card's points from `deck.values` (0 when not "
                 "listed).", "value(AH) == 0", _value, "deck"),
        _builtin("points", "(cards: list[card]) -> int", "cards", "The total points of some cards.",
                 "points([AH, KH]) == 0", _points, "deck"),
        _builtin("deck_cards", "() -> list[card]", "cards",
                 "Every distinct card of the deck, once each (for any number of players: with "
                 "`deck.by_players`, also the cards some tables add).",
                 "size(deck_cards()) == 52", lambda deck: list(deck.distinct_cards()), "deck"),
        _builtin("card_of", "(rank: rank, suit: suit) -> card", "cards", "The card of a rank and a suit.",
                 "card_of(Q, S) == QS", _card_of, "deck"),
        _builtin("is_joker", "(card: card) -> bool", "cards", "Whether the card is a joker.",
                 "not is_joker(AH)", _is_joker, "deck"),
        _builtin("placed_by", "(card: card) -> seat?", "cards", "The seat that put the card where it lies by "
                 "playing or discarding it this hand (the seat whose card it was, when another seat chose it), "
                 "wherever steps have moved it since (a trick gathered, a pile turned over); null when no seat "
                 "has played or discarded it this hand. With several packs, the last seat to play or discard a "
                 "copy.", "placed_by(AH) == null", _placed_by, "env"),
        # tricks
        _builtin("beats", "(card: card, other: card, trump: suit? = null) -> bool", "tricks",
                 "Whether `card` beats `other`, the card winning a trick so far: a higher card of the same "
                 "suit, or a trump when `other` is not a trump (no trump when `trump` is null or left out). A "
                 "joker is of a suit of its own, as `trick_winner` counts it.",
                 "beats(2S, AH, S) and beats(KH, 10H) and not beats(AD, 2H, S)", _beats, "deck", _beats_for),
        _builtin("trick_winner", "(cards: list[card], trump: suit? = null) -> card", "tricks",
                 "The card that wins a trick whose cards were played in this order: the highest trump, "
                 "else the highest card of the suit led (the first played of equal cards). A joker counts as a "
                 "card of a suit of its own, shared by the jokers, ranked above every rank: led, it wins unless a "
                 "trump or a higher joker is played; played to another suit, it never wins (a game whose jokers "
                 "do otherwise writes its own `winning_card`).",
                 "trick_winner([QD, 4S, AD], S) == 4S", _trick_winner, "deck", _trick_winner_for),
        _builtin("certain_winners", "(own: list[card], others: list[card]) -> int", "tricks",
                 "How many of `own` cards are sure to win against `others` however they are played: each of "
                 "ours that an unused higher card of theirs could beat is counted lost (greedy, high to low).",
                 "certain_winners([KS, QS, 10S, 9S, 8S], [AS, JS]) == 3", _certain_winners, "deck",
                 _certain_winners_for),
        # melds
        _builtin("can_meld", "(cards: list[card], melds: list[meld]) -> bool", "melds",
                 "Whether the cards can make a new meld of the ruleset's kinds, or give a card to one of `melds` "
                 "(with the ruleset's `melds:` rules; `melds` also decides which sets a side already has).",
                 "can_meld([7H, 7S, 7D], []) and not can_meld([7H, 9S], [])", _can_meld, "env"),
        _builtin("unmelded", "(cards: list[card], onto: list[meld] = null) -> list[card]", "melds",
                 "The cards left out when the cards are arranged into melds of the ruleset's kinds (none of them "
                 "shared) so as to leave the fewest points (`deck.values`), then the fewest cards: a knock "
                 "rummy's deadwood is `points(unmelded(hand))`. Melds are made as `meld` would make them, "
                 "ignoring `one_per_owner`. With `onto`, cards may also be laid off onto those melds, one at a "
                 "time as `add` takes them (a run grown by one card may take the next): a player who may lay "
                 "cards off onto another's melds keeps `points(unmelded(hand, melds[other]))`.",
                 "unmelded([]) == [] and unmelded([AH, KS], []) == [AH, KS]", _unmelded, "env"),
        # seats and teams
        _builtin("seats", "() -> list[seat]", "seats",
                 "Every seat, by number from seat 0, wherever the seats sit (after a `seating` step too: "
                 "`seats_from` lists them round the table).",
                 "size(seats()) == player_count()", _seats, "env"),
        _builtin("seats_from", "(first: seat) -> list[seat]", "seats",
                 "Every seat, clockwise where they sit, starting with `first`.", "first(seats_from(dealer)) == dealer",
                 _seats_from, "env"),
        _builtin("next_seat", "(seat: seat) -> seat", "seats", "The seat to the left (clockwise).",
                 "next_seat(dealer) == seats_from(dealer)[1]", _next_seat, "env"),
        _builtin("previous_seat", "(seat: seat) -> seat", "seats", "The seat to the right.",
                 "next_seat(previous_seat(dealer)) == dealer", _previous_seat, "env"),
        _builtin("seat_position", "(seat: seat, first: seat) -> int", "seats",
                 "The place of `seat` in the order of play that starts at `first`, clockwise: 0 for `first` "
                 "itself, 1 for the seat on its left, and so on (a seat's position from the dealer or the leader).",
                 "seat_position(next_seat(dealer), dealer) == 1", _seat_position, "env"),
        _builtin("plays_before", "(seat: seat, other: seat, first: seat) -> bool", "seats",
                 "Whether `seat` comes before `other` in the order of play that starts at `first` (clockwise).",
                 "plays_before(dealer, next_seat(dealer), dealer)", _plays_before, "env"),
        _builtin("plays_after", "(seat: seat, other: seat, first: seat) -> bool", "seats",
                 "Whether `seat` comes after `other` in the order of play that starts at `first` (clockwise).",
                 "plays_after(previous_seat(dealer), dealer, dealer)", _plays_after, "env"),
        _builtin("player_count", "() -> int", "seats", "The number of seats at the table.",
                 "player_count() == 4", _player_count, "env"),
        _builtin("team_of", "(seat: seat) -> team", "seats", "The team a seat plays for.",
                 "team_of(dealer) == team_of(partner(dealer))", _team_of, "env"),
        _builtin("team_seats", "(team: team) -> list[seat]", "seats", "The seats of a team, clockwise from 0.",
                 "dealer in team_seats(team_of(dealer))", _team_seats, "env"),
        _builtin("teams", "() -> list[team]", "seats", "Every team, in order of number.", "size(teams()) == 2",
                 _teams, "env"),
        _builtin("partner", "(seat: seat) -> seat", "seats", "The next seat clockwise of the same team; an "
                 "error for a seat that plays alone.", "partner(partner(dealer)) == dealer", _partner, "env"),
    )
}
