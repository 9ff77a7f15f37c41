"""A state dealt again for one seat: the cards that seat cannot see are redrawn at random, consistently with
everything it has seen (`State.resample`), for bots that search without peeking.

What a seat knows of where the cards are is worked out from the match as that seat saw it. The match is played
again from its start on a copy (`Knowledge`, kept between calls and moved on as the match goes on), and after
every action and chance event the zones before and after are compared. A card the seat could see (in a zone it
sees, face up, or already known to be where it is) that moves into a zone it cannot see is known to be there: a
card it passed to another player, a pile taken into a hand from the table, a card it saw played into a face-down
pile. That knowledge stays until the seat can no longer tell: when a zone it cannot see loses a card it does not
see go (a face-down discard, a draw from a hidden stock), every card it knew to be there might be the one that
left, and is forgotten (the cards it sees arrive elsewhere are still followed). A zone emptied into one other zone
takes what was known with it (a hand gathered into the deck).

The engine's moves are public: which zone a step or an action moves cards to is the ruleset's, which every seat
knows; what a seat may not see is which cards they are. (A ruleset whose destination depended on a hidden card
would let a seat follow its own card there; the engine's rulesets do not.)

A decision of another seat is a fact every seat knows, which that seat's cards must allow: a deal in which the
seat to act has no legal action is drawn again (a seat that must lead a given card, so holds it; a seat asked
to play only when it holds a card that may be played). A card another seat played or discarded in sight shows
what its hand does not hold (`Knowledge._shown_by_play`): a card that, held beside the one played and the
cards known to be there, would have made that play illegal (a card of the suit led, when it did not follow; a
card that beats the trick, when it did not head it) is not there, until the hand takes in a card the seat does
not see; a deal puts none of those cards there (`absent`) when a deal can. Every card the seat cannot place is
asked, wherever it lies. Asked only of a card option whose rules read nothing the seat does not see but that
hand, as its own seat's (`_names_read`: no other hidden zone or variable, no other seat's hand, no name a step
bound around the decision), so that the seat learns nothing the rules do not show it. The test rests on the
rules forbidding a play with any hand that holds a card which forbids it in a small hand (the rules of play:
follow, trump, head the trick, the lowest first, "only when nothing else"); a rule that frees a play when the
hand holds more (`or AS in hand`) breaks that: each card found is tried again beside each other card the seat
cannot place, and in a few hands of the zone's size (`_stricter_with_more`), and a play any of those allow
shows nothing. Those are not every hand: a rule freed only by two or more other cards together may go
unnoticed, and a deal may then keep a card from a hand that holds it.

Nor are facts the rules keep true by themselves (four of a rank laid down as soon as a seat holds them): a deal
may give another seat four of a rank it would have laid down, and play on it may reach a position the real game
cannot, where the rules fail. The bots drop such a deal and draw another (agents/heuristic.py, REDEALS).

A copy dealt again for one seat may be dealt again for another (`_Lineage`): the copy keeps its match's record,
whose cards are the match's, not the copy's, so the other seat's knowledge is worked out from the record up to
the deal, kept where the copy's cards agree (a card it passed, which the first seat knew nothing of, may have
been dealt elsewhere), and followed on the copy's own events from the copy as it was dealt.

Not modelled: the order of cards in a zone the seat cannot see (only which cards, and how many), variables a seat
may not see that hold anything but cards (kept as they are: variables of cards follow the cards dealt again), and
a state that was not played from its match's start (a scenario started at a phase): for it, knowledge is
followed from the first time it is asked, starting from what the seat sees then.
"""

from __future__ import annotations

import contextlib
import random
import re
import weakref
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from interpreter.engine.decisions import Deferred, allows, bindings_for, legal_actions
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.observation import sees_variable, sees_zone
from interpreter.engine.shuffling import shuffle
from interpreter.engine.zones import ZoneKey
from interpreter.source import find, parse_yaml_path, scalar

if TYPE_CHECKING:
    from interpreter.actions import Action
    from interpreter.engine.game import Game
    from interpreter.engine.state import State

_INPUTS = ("action", "chance", "pick")  # the events that drive a match; the engine makes all the others
_KEPT = 128  # a game keeps this many followers (the seats of some thirty matches at once), the last used first


class Knowledge:
    """What one seat knows of the cards it cannot see: for each zone it cannot see, the cards (beyond the face-up
    ones) it knows are there. Moves on with the match by playing its inputs on a copy of its own."""

    def __init__(self, replica: State, seat: int, consumed: int, last: Any) -> None:
        self.replica = replica
        self.seat = seat
        self.seed = replica.seed
        self.consumed = consumed  # how many of the match's events the copy has been through
        self.last = last  # the last of them (to tell that a state is the same match, further on)
        self.known: dict[ZoneKey, Counter[int]] = {}
        # For zones the seat cannot see, the cards play has shown they do not hold (see `_shown_by_play`), and
        # the plays not yet asked what they show: worked out only when a deal needs them (`resolved`).
        self.absent: dict[ZoneKey, set[int]] = {}
        self.plays: list[_Play] = []
        # The copy's zones as the seat sees them after the last event played (`_snapshot`): the copy changes only
        # by the events it plays, so this is also what the next event starts from.
        self.snapshot: _Snapshot | None = None
        # Which zones the seat sees, for the teams as they stand (`_snapshot`): the same at almost every event.
        self.sight: list[Any] = [None, {}]

    @classmethod
    def from_start(cls, state: State, seat: int) -> Knowledge:
        replica = state.game.new_initial_state(seed=state.seed, players=state.player_count)
        replica.hand_end_hook = None
        return cls(replica, seat, 0, None)

    @classmethod
    def from_now(cls, state: State, seat: int) -> Knowledge:
        """For a state not played from its match's start: knowledge followed from here on."""
        replica = state.clone()
        replica.hand_end_hook = None
        events = state._events
        return cls(replica, seat, len(events), events.since(len(events) - 1)[0] if len(events) else None)

    def follows(self, state: State) -> bool:
        """Whether `state` is this match, at this point or further on."""
        events = state._events
        if len(events) < self.consumed:
            return False
        return self.consumed == 0 or events.since(self.consumed - 1)[0] is self.last

    def catch_up(self, state: State, until: int | None = None) -> bool:
        """Play the events `state` has had since, following the cards; whether the copy is then `state`. With
        `until`, only its events before that one, and whether they could be played (a copy dealt again holds other
        cards than those its record played: see `_Lineage`)."""
        events = state._events.since(self.consumed)
        if until is not None:
            events = events[:max(0, until - self.consumed)]
        if not events:
            return True
        replica = self.replica
        kinds = replica.game.program.choice_kinds
        try:
            for index, event in enumerate(events):
                kind = event[0]
                if kind not in _INPUTS:
                    continue
                before = self.snapshot if self.snapshot is not None else _snapshot(replica, self.seat, self.sight)
                self.snapshot = None  # (until the event is played and followed)
                if kind == "action":
                    if event[1].seat != self.seat and self.seat not in event[2]:
                        with contextlib.suppress(Exception):  # (a bonus: a failure loses only what it shows)
                            self._shown_by_play(replica, event[1], before)
                    replica.apply(event[1])
                else:  # (a shuffle's order, the card dealt first, first; or the value picked)
                    replica.apply_chance(event[2])
                # the cards the seat saw named: by the action, unless hidden from it, and by the choices it revealed
                named: Counter[int] = Counter()
                if kind == "action" and self.seat not in event[2]:
                    named.update(_named_cards(event[1], kinds))
                for position in range(index + 1, len(events)):  # (up to the next input only)
                    later = events[position]
                    if later[0] in _INPUTS:
                        break
                    if later[0] == "reveal":
                        named.update(_named_cards(later[1], kinds))
                after = _snapshot(replica, self.seat, self.sight)
                if self.absent or self.plays:
                    self._keep_absent(before, after, named)
                self._follow(before, after, named)
                self.snapshot = after
        except Exception:  # (a state that was not played from its start: see from_now)
            return False
        self.consumed += len(events)
        self.last = events[-1]
        return until is not None or _same_cards(replica, state)

    def _follow(self, before: _Snapshot, after: _Snapshot, named: Counter[int]) -> None:
        """One action or chance event: move what the seat knows with the cards it can follow (`named`: the cards
        the seat saw an action or a reveal name, which it follows wherever they go: a card played to a trick
        that then goes, face down, to the pile of the player who won it)."""
        cards_b, seen_b, up_b = before
        cards_a, seen_a, up_a = after
        changed = [key for key, held in cards_a.items() if held != cards_b.get(key)]
        if seen_a is not seen_b or up_a != up_b:  # (a zone seen or unseen since, a card turned: rare)
            other = {key for key in seen_a if seen_a[key] != seen_b.get(key)} if seen_a is not seen_b else set()
            other.update(key for key in {*up_a, *up_b} if up_a.get(key) != up_b.get(key))
            if other:
                other.update(changed)
                changed = [key for key in cards_a if key in other]
        if not changed:
            return
        known = self.known
        lost: dict[ZoneKey, Counter[int]] = {}
        gained: dict[ZoneKey, Counter[int]] = {}
        for key in changed:
            lost[key], gained[key] = _difference(cards_b.get(key, []), cards_a[key])
        if _nothing_learned(changed, lost, gained, before, after, known, named):
            for key in changed:
                known.pop(key, None)
            return
        _reckon(known, changed, lost, gained, before, after, named)

    def _shown_by_play(self, replica: State, action: Action, before: _Snapshot) -> None:
        """A card another seat plays or discards in sight, from a zone this seat cannot see: kept (with a copy of
        the state at the decision) to ask, when a deal needs it, which cards would have made it illegal."""
        pending = replica.pending
        if pending is None or action.card < 0 or action.kind not in ("play", "discard"):
            return
        options = [option for option in pending.options if option.kind == action.kind and option.source is not None]
        if len(options) != 1 or options[0].breakable or not options[0].clauses:
            return  # (a card that might come from two zones; a rule that may be broken; no rule at all)
        option = options[0]
        source = option.source
        assert source is not None
        try:
            owner = replica.cards.owner(replica, source, pending.bindings)
        except (RulesetRuntimeError, KeyError, TypeError, ValueError):
            return
        key = (source.name, owner)
        cards_b, seen_b, up_b = before
        if seen_b.get(key, True):
            return
        names = _names_read(replica.game, option, source.name)
        if names is None or names & (set(pending.bindings) - _PUBLIC_BINDINGS):
            return  # (its rules read what the seat may not see, or a name a step bound around the decision)
        shown = sorted([*up_b.get(key, ()), *self.known.get(key, Counter()).elements()])
        if action.card not in shown:
            shown.append(action.card)
        # (the cards it may hold: those of the zones the seat cannot see, its own among them, but the face-up ones
        # and those it knows to be elsewhere: what the seat cannot place, whichever zone holds them)
        elsewhere = {card for other, cards in up_b.items() for card in cards} | \
            {card for other, known in self.known.items() if other != key for card in known}
        candidates = sorted({card for other, cards in cards_b.items() if not seen_b[other] for card in cards}
                            - set(shown) - elsewhere)
        if candidates:
            self.plays.append(_Play(replica.clone(), action, option, key, shown, candidates, len(cards_b[key])))

    def resolved(self) -> Knowledge:
        """This knowledge with what the plays kept have shown worked out."""
        for play in self.plays:
            self._learn(play)
        self.plays = []
        return self

    def _learn(self, play: _Play) -> None:
        """The cards that, held beside the card played and those known to be in its zone, would have made the play
        illegal: not in that zone, when its rules forbid the play with those cards and more besides (see
        `_stricter_with_more`; a play that fails that shows nothing). (What a seat learns depends only on the
        plays since its zone last took in a card the seat did not see, each worked out in turn, whenever that is
        done.)"""
        absent = self.absent.get(play.key, set())
        candidates = [card for card in play.candidates if card not in absent]
        if not candidates or _allows(play, play.shown) is not True:
            return
        found = {card for card in candidates if _allows(play, [*play.shown, card]) is False}
        if not found:
            return
        if not _stricter_with_more(play, sorted(found)):
            return
        self.absent[play.key] = absent | found

    def _keep_absent(self, before: _Snapshot, after: _Snapshot, named: Counter[int]) -> None:
        """After an event: a zone that took in a card this seat did not see may now hold any card (what play had
        shown of it is forgotten); the cards it saw arrive there are no longer absent."""
        watched = {*self.absent, *(play.key for play in self.plays)}
        for key in watched:
            was, now = before[0].get(key, []), after[0].get(key, [])
            if was == now:
                continue
            gained = _difference(was, now)[1]
            if not gained:
                continue
            turned_up = Counter(after[2].get(key, ())) - Counter(before[2].get(key, ()))
            if after[1].get(key, True) or any(count > turned_up[card] + max(named[card], 0)
                                              for card, count in gained.items()):
                self.absent.pop(key, None)
                self.plays = [play for play in self.plays if play.key != key]
            else:
                for play in [play for play in self.plays if play.key == key]:
                    self._learn(play)
                self.plays = [play for play in self.plays if play.key != key]
                if key in self.absent:
                    self.absent[key] -= set(gained)


class _Play(NamedTuple):
    """A card played in sight of the seat from a zone it cannot see: the state at its decision (a copy), the
    action and its option, the zone, the cards known to be there beside it, and the cards that may be."""

    state: State
    action: Action
    option: Any
    key: ZoneKey
    shown: list[int]
    candidates: list[int]
    size: int  # the cards in the zone then


# The names the engine binds around a decision that every seat sees (the seat deciding, the seats still to play to
# the trick, the winner of the last trick, ...); a name a step binds (`for_each`'s `as:`) may hold anything.
_PUBLIC_BINDINGS = frozenset({"player", "to_play", "winner", "round", "receiver"})
_FILLS = 3  # the hands of the zone's size tried for each card found, in `_stricter_with_more`
_PAIRS = 600  # the most pairs (a card found, another card) tried there, each with the cards known


def _stricter_with_more(play: _Play, found: list[int]) -> bool:
    """Whether the rules, which forbid the play beside each card `found` (and the cards known to be in the
    zone), also forbid it beside those and other cards it might hold: the ground the inference stands on, that
    a card which forbids a play in a small hand forbids it in any hand holding it (the rules of play that forbid
    a card when the hand holds another). A rule that frees a play when the hand holds some card (`or AS in
    hand`; a duty that a run of trumps lifts) fails it on a hand that holds that card, and the play is then
    taken to show nothing. Tried beside each other card the seat cannot place, one at a time (at most
    `_PAIRS`), then on a few hands of the zone's size drawn from those cards, in an order fixed by them alone (so
    two states the seat cannot tell apart learn alike)."""
    spare = play.size - len(play.shown) - 1
    if spare <= 0:
        return True
    pairs = [(card, other) for card in found for other in play.candidates if other != card]
    if len(pairs) > _PAIRS:  # (beside each card found, each other card it might hold: at most _PAIRS of them)
        pairs = random.Random(len(play.candidates) * 7 + sum(found)).sample(pairs, _PAIRS)
    if any(_allows(play, [*play.shown, card, other]) is True for card, other in sorted(pairs)):
        return False
    draw = random.Random(len(play.candidates) * 1_000_003 + sum(play.candidates))
    for card in found:
        others = [other for other in play.candidates if other != card]
        for _ in range(_FILLS):
            fill = draw.sample(others, min(spare, len(others)))
            if _allows(play, [*play.shown, card, *fill]) is True:
                return False
    return True


def _allows(play: _Play, held: list[int]) -> bool | None:
    """Whether the rules allow the play with its zone holding `held` (its own cards given back after); None when
    they fail on it."""
    state, action, option = play.state, play.action, play.option
    name, owner = play.key
    values = state.values
    place: Any = values if owner < 0 else values[name]
    index: Any = name if owner < 0 else owner
    kept = place[index]
    place[index] = held
    pending = state.pending
    assert pending is not None
    try:
        if option.card_filter is not None:  # (the clauses at once, as the legal set tests them)
            return action.card in option.card_filter(values, dict(pending.bindings), list(dict.fromkeys(held)))
        return allows(state, pending, option, action)
    except Exception:  # (the rules fail on so few cards: nothing is learnt)
        return None
    finally:
        place[index] = kept


# Per game, each card option (by its place in the ruleset) -> the names its rules read, or None when they read
# what a seat may not see besides the zone its card comes from.
_RULES_READ: weakref.WeakKeyDictionary[Game, dict[str, frozenset[str] | None]] = weakref.WeakKeyDictionary()
_WORD = re.compile(r"[A-Za-z_]\w*")
_REBINDS_PLAYER = re.compile(r"\bfor\s+player\b")  # a comprehension whose items are named `player`


def _names_read(game: Game, option: Any, source: str) -> frozenset[str] | None:
    """The names the rules of a card option read (through the definitions they use), or None when they read a
    zone or variable that not every seat sees (`placed_by` too), but the zone the card comes from as its own
    seat's (`hand`, `hand[player]`; not `hand[partner(player)]`). Read from the rules' text: a name inside a
    quoted text counts too, so the answer errs towards None."""
    found = _RULES_READ.setdefault(game, {})
    if option.where not in found:
        found[option.where] = _rules_read(game, option, source)
    return found[option.where]


def _rules_read(game: Game, option: Any, source: str) -> frozenset[str] | None:
    ruleset = game.ruleset
    texts: list[str] = []
    for clause in option.clauses:
        for expression in (clause.rule, clause.prefers, clause.breakable):
            if expression is None:
                continue
            node = find(ruleset.tree, parse_yaml_path(expression.where.split("#")[0]))
            text = scalar(node) if node is not None else None
            if not isinstance(text, str):
                return None  # (a rule whose text is not found: no answer, so no)
            texts.append(text)
    definitions = _definition_texts(ruleset.tree)
    names: set[str] = set()
    pending = list(texts)
    while pending:
        text = pending.pop()
        if re.search(rf"\b{re.escape(source)}\s*\[(?!\s*player\s*\])", text) or _REBINDS_PLAYER.search(text):
            return None  # (another seat's zone, or one worked out; `player` bound anew, to any seat)
        for word in _WORD.findall(text):
            if word not in names:
                names.add(word)
                if word in definitions:
                    parameters, body = definitions[word]
                    if "player" in parameters:
                        return None  # (a definition's `player` is whatever seat its caller gives)
                    pending.append(body)
    if "placed_by" in names:
        return None
    for name in names:
        zone = ruleset.zones.get(name)
        if zone is not None and zone.visibility != "public" and name != source:
            return None
        variable = ruleset.variables.get(name)  # (as the checker tells a value not every seat sees)
        if variable is not None and variable.visibility != "public" and (
                variable.per != "table" or variable.visibility == "nobody"):
            return None
    return frozenset(names)


def _definition_texts(tree: Any) -> dict[str, tuple[list[str], str]]:
    """Each definition's name, its parameters and the text of its body."""
    define = find(tree, ("define",))
    found: dict[str, tuple[list[str], str]] = {}
    for name, body in getattr(define, "entries", {}).items():
        text = scalar(body)
        if isinstance(text, str):
            head, _, parameters = str(name).partition("(")
            found[head.strip()] = (_WORD.findall(parameters), text)
    return found


def _reckon(known: dict[ZoneKey, Counter[int]], changed: list[ZoneKey], lost: dict[ZoneKey, Counter[int]],
            gained: dict[ZoneKey, Counter[int]], before: _Snapshot, after: _Snapshot, named: Counter[int]) -> None:
    """`Knowledge._follow`'s general reckoning: what the seat knows of each zone changed, from the cards each lost
    and gained."""
    cards_b, seen_b, up_b = before
    cards_a, seen_a, up_a = after
    # (card, from, to, whether the seat sees it where it went), each card that changed zone
    flows = _seen_arriving(_flows(lost, gained), before, after)
    arriving: dict[ZoneKey, Counter[int]] = {}
    staying: dict[ZoneKey, Counter[int]] = {}
    for key in changed:
        face_up_before = Counter(up_b.get(key, ()))
        knew = Counter(cards_b.get(key, ())) if seen_b.get(key, True) else \
            face_up_before + known.get(key, Counter())
        out = [(card, to, seen) for card, source, to, seen in flows if source == key]
        if not seen_b.get(key, True) and out:
            shown = named & lost[key]
            named -= shown
            knew += shown
            seen_leaving = face_up_before - Counter(up_a.get(key, ())) + shown
            unseen_targets = set()
            for card, to, seen in out:
                if seen:
                    continue  # seen where it went
                if seen_leaving[card] > 0:
                    seen_leaving[card] -= 1  # face up, or named: seen leaving
                    continue
                unseen_targets.add(to)
            emptied = not (Counter(cards_a[key]) & Counter(cards_b.get(key, ())))
            if unseen_targets and not (emptied and len(unseen_targets) == 1):
                knew = face_up_before + shown  # a card left unseen: any card known to be here may be it
        staying[key] = knew - lost[key]
        remaining = Counter(knew)
        for card, to, seen in out:
            if remaining[card] > 0 and not seen:
                remaining[card] -= 1
                arriving.setdefault(to, Counter())[card] += 1
    for key in {*staying, *arriving}:
        if seen_a[key]:
            known.pop(key, None)
            continue
        found = staying.get(key, known.get(key, Counter())) + arriving.get(key, Counter())
        found &= Counter(cards_a[key]) - Counter(up_a.get(key, ()))
        if found:
            known[key] = found
        else:
            known.pop(key, None)


_Snapshot = tuple[dict[ZoneKey, list[int]], dict[ZoneKey, bool], dict[ZoneKey, list[int]]]


def _snapshot(state: State, seat: int, sight: list[Any]) -> _Snapshot:
    """Every zone's cards (a zone of melds: its melds' cards, which every seat sees), whether the seat sees
    them, and the face-up cards of those it does not. `sight` keeps, for the follower, the teams last seen and
    which zones the seat sees with them (the same dict while the teams stay: `_follow` tells a change by it)."""
    values = state.values
    cards: dict[ZoneKey, list[int]] = {}
    for name, zone in state.game.ruleset.zones.items():
        stored = values[name]
        if zone.kind == "melds":
            if zone.owner == "table":
                cards[(name, -1)] = [card for meld in stored for card in meld.cards]
            else:
                for owner, held in enumerate(stored):
                    cards[(name, owner)] = [card for meld in held for card in meld.cards]
        elif zone.owner == "table":
            cards[(name, -1)] = stored[:]
        else:
            for owner, held in enumerate(stored):
                cards[(name, owner)] = held[:]
    team_of = values["team_of"]
    seen: dict[ZoneKey, bool] = sight[1]
    if team_of != sight[0] or len(seen) != len(cards):
        seen = {}
        zones = state.game.ruleset.zones
        for key in cards:
            zone = zones[key[0]]
            seen[key] = zone.kind == "melds" or sees_zone(state, zone, key[1], seat)
        sight[0], sight[1] = team_of, seen
    up = {key: list(face_up) for key, face_up in state.face_up.cards.items()
          if face_up and not seen.get(key, True)}
    return cards, seen, up


def _difference(was: list[int], now: list[int]) -> tuple[Counter[int], Counter[int]]:
    """The cards a zone lost and the cards it gained (as many of each), from its cards before and after."""
    size, count = len(was), len(now)
    # (the common moves first: cards put on top, taken off the top, or one card taken from anywhere)
    if count >= size:
        if now[:size] == was:
            return Counter(), Counter(now[size:])
    elif was[:count] == now:
        return Counter(was[count:]), Counter()
    elif count == size - 1:
        index = 0
        while was[index] == now[index]:
            index += 1
        if was[index + 1:] == now[index:]:
            return Counter((was[index],)), Counter()
    before, after = Counter(was), Counter(now)
    return before - after, after - before


def _nothing_learned(changed: list[ZoneKey], lost: dict[ZoneKey, Counter[int]],
                     gained: dict[ZoneKey, Counter[int]], before: _Snapshot, after: _Snapshot,
                     known: dict[ZoneKey, Counter[int]], named: Counter[int]) -> bool:
    """Whether an event leaves the seat knowing nothing of the zones it changed (`Knowledge._follow` then forgets
    them, as its general reckoning would): every zone changed that the seat does not see after it, it did not
    see before either, with no card face up in it and none known to be there; and no card went into such a zone,
    or every zone a card left was such a zone (not seen, nothing face up or known) and lost no card the seat saw
    named. Then no card the seat could place stays in a zone it cannot see, nor arrives in one: a card played
    from a hidden hand to the table, a card drawn from a hidden stock into another's hand, the seat's own moves."""
    seen_b, up_b = before[1], before[2]
    seen_a = after[1]
    into_unseen = False
    for key in changed:
        if not seen_a[key]:
            if seen_b.get(key, True) or key in up_b or key in known:
                return False
            if gained[key]:
                into_unseen = True
    if into_unseen:
        for key in changed:
            left = lost[key]
            if left and (seen_b.get(key, True) or key in up_b or key in known
                         or (named and any(card in named for card in left))):
                return False
    return True


def _seen_arriving(flows: list[tuple[int, ZoneKey, ZoneKey]], before: _Snapshot,
                   after: _Snapshot) -> list[tuple[int, ZoneKey, ZoneKey, bool]]:
    """Each card that changed zone, and whether the seat sees it where it went: in a zone it sees, or face up
    there, as many copies of a card as have turned face up there (of two copies of a card taken into a hand,
    one face up, the other is not seen arriving)."""
    face_up: dict[ZoneKey, Counter[int]] = {}
    found = []
    for card, source, to in flows:
        seen = after[1][to]
        if not seen:
            up = face_up.get(to)
            if up is None:
                up = face_up[to] = Counter(after[2].get(to, ())) - Counter(before[2].get(to, ()))
            seen = up[card] > 0
            up[card] -= 1
        found.append((card, source, to, seen))
    return found


def _flows(lost: dict[ZoneKey, Counter[int]], gained: dict[ZoneKey, Counter[int]]) -> list[tuple[int, ZoneKey,
                                                                                                   ZoneKey]]:
    """Each card that changed zone, with where from and where to (copies of one card paired in zone order)."""
    sources: dict[int, list[ZoneKey]] = {}
    targets: dict[int, list[ZoneKey]] = {}
    for key in sorted(lost):
        for card, count in sorted(lost[key].items()):
            sources.setdefault(card, []).extend([key] * count)
        for card, count in sorted(gained[key].items()):
            targets.setdefault(card, []).extend([key] * count)
    return [(card, source, target) for card, found in sources.items()
            for source, target in zip(found, targets.get(card, ()), strict=False)]


def _named_cards(action: Any, kinds: Mapping[tuple[str, str], str]) -> list[int]:
    """The cards an action names: the card played, discarded or added, a meld's cards, a choice's cards."""
    found = [action.card] if action.card >= 0 else []
    found.extend(action.cards)
    for name, value in action.arguments:
        if kinds.get((action.name, name)) in ("card", "list:card"):
            found.extend(value if isinstance(value, tuple) else (value,))
    return found


def _same_cards(replica: State, state: State) -> bool:
    return all(replica.values[name] == state.values[name] for name in state.game.ruleset.zones)


_FOLLOWERS: weakref.WeakKeyDictionary[Game, list[Knowledge]] = weakref.WeakKeyDictionary()


def knowledge(state: State, seat: int) -> dict[ZoneKey, Counter[int]]:
    """For each zone `seat` cannot see, the cards it knows are there (beyond the face-up ones)."""
    return follower_of(state, seat).known


class _Lineage(NamedTuple):
    """What a copy dealt again (`resample`) keeps of where it came from: its cards as it was dealt, the number of
    its match's events then, the seat it was dealt for and the seats for which it is still the match as they
    saw it, and the followers of the others' knowledge in it (shared by its copies)."""

    dealt: dict[ZoneKey, tuple[int, ...]]  # the cards of the zones dealt again, as they were dealt
    fork: int
    true_for: frozenset[int]
    followers: list[Knowledge]


def follower_of(state: State, seat: int) -> Knowledge:
    """What `seat` knows of the cards it cannot see, followed up to `state`. In a copy dealt again for another
    seat (or a copy of one), whose cards are not those its record shows this seat, see `_lineage_follower`."""
    lineage: _Lineage | None = state.lineage
    if lineage is not None and seat not in lineage.true_for:
        return _lineage_follower(state, seat, lineage)
    kept = _FOLLOWERS.setdefault(state.game, [])
    found = _kept_follower(kept, state, seat)
    if found is not None:
        return found
    follower = Knowledge.from_start(state, seat)
    if not follower.catch_up(state):
        follower = Knowledge.from_now(state, seat)
    return _keep(kept, follower)


def _kept_follower(kept: list[Knowledge], state: State, seat: int) -> Knowledge | None:
    """A follower of `seat` kept from an earlier call that follows this match (same seed, the same events so
    far), caught up to `state` and put first; None when none is (one that cannot catch up is dropped)."""
    for index, follower in enumerate(kept):
        if follower.seat == seat and follower.seed == state.seed and follower.follows(state):
            kept.pop(index)
            if follower.catch_up(state):
                kept.insert(0, follower)
                return follower
            return None
    return None


def _keep(kept: list[Knowledge], follower: Knowledge) -> Knowledge:
    """Keep a new follower first, the least recently used past `_KEPT` dropped."""
    kept.insert(0, follower)
    del kept[_KEPT:]
    return follower


def _lineage_follower(state: State, seat: int, lineage: _Lineage) -> Knowledge:
    """What `seat` knows in a copy dealt again for another seat: what it knew in the match up to the deal (from
    the record, which the copy keeps), where the copy agrees (the cards it knew to be in a zone the copy holds
    there: a card it passed, which the other seat knew nothing of, may have been dealt elsewhere), then followed
    on the copy's own events since, from the copy as it was dealt."""
    found = _kept_follower(lineage.followers, state, seat)
    if found is not None:
        return found
    recorded = Knowledge.from_start(state, seat)
    if not recorded.catch_up(state, until=lineage.fork):  # (a record that cannot be played: see from_now)
        follower = Knowledge.from_now(state, seat)
    else:
        recorded.resolved()
        replica = recorded.replica  # (the match at the deal: its hidden zones as the copy was dealt)
        for (name, owner), cards in lineage.dealt.items():
            (replica.values[name] if owner == -1 else replica.values[name][owner])[:] = cards
        follower = Knowledge(replica, seat, lineage.fork, recorded.last)
        follower.known = {key: held for key, cards in recorded.known.items()
                          if (held := cards & Counter(_cards_in(replica, key)))}
        follower.absent = {key: {card for card in cards if card not in _cards_in(replica, key)}
                           for key, cards in recorded.absent.items()}
        if not follower.catch_up(state):
            follower = Knowledge.from_now(state, seat)
    return _keep(lineage.followers, follower)


def _cards_in(state: State, key: ZoneKey) -> list[int]:
    name, owner = key
    held = state.values[name]
    return list(held if owner == -1 else held[owner])


_REDEALS = 100  # the deals tried for a decision of another seat that must stay possible (see `resample`)


def resample(state: State, seat: int, rng: random.Random) -> State:
    """A copy of `state` equal to it in everything `seat` can observe, with the cards it cannot see dealt again
    at random: each zone keeps its size and its face-up cards (in their places), the cards the seat knows are
    in a zone stay in it, and the rest are shuffled among the places left. The copy's own generator is seeded
    from `rng`, so its future chance events differ; the other seats' choices in a simultaneous round still open,
    which `seat` has not seen, are drawn again from what their decisions offer in the copy. When another seat
    is to act, its decision is a fact every seat knows, which its cards must allow (the holder of a given card
    leads it): a deal that leaves it no legal action is drawn again (up to `_REDEALS` deals; the last is kept)."""
    follower = follower_of(state, seat).resolved()
    pending = state.pending
    for _ in range(_REDEALS):
        trial, dealt = _deal_again(state, seat, rng, follower.known, follower.absent)
        if pending is None or pending.seat == seat or _can_act(trial):
            break
    # (the copy is the match as `seat` saw it, and no longer as the others did: what they know in it is worked
    # out from it as it was dealt, see `follower_of`)
    before: _Lineage | None = state.lineage
    true_for = frozenset({seat}) if before is None else before.true_for & {seat}
    trial.lineage = _Lineage(dealt, len(trial._events), true_for, [])
    return trial


def _can_act(trial: State) -> bool:
    """Whether the seat to act has a legal action in a deal."""
    try:
        return bool(trial.legal_actions())
    except RulesetRuntimeError:  # (no legal action: the rules name why)
        return False


def _dealt_again(state: State, seat: int, rng: random.Random, known: dict[ZoneKey, Counter[int]],
                 absent: dict[ZoneKey, set[int]] | None = None) -> State:
    """One deal of `resample` (see `_deal_again`)."""
    return _deal_again(state, seat, rng, known, absent)[0]


def _deal_again(state: State, seat: int, rng: random.Random, known: dict[ZoneKey, Counter[int]],
                absent: dict[ZoneKey, set[int]] | None = None) -> tuple[State, dict[ZoneKey, tuple[int, ...]]]:
    """One deal of `resample`, and the cards of each zone it dealt again: the zones that play has shown lack some
    cards (`absent`) are dealt first, each from the cards it may hold (see `_barred_first`)."""
    trial = state.clone()
    trial.rng = random.Random(rng.getrandbits(64))
    trial.hand_end_hook = state.hand_end_hook
    places: list[tuple[list[int], list[int], list[int]]] = []
    keys: list[ZoneKey] = []  # (the zone of each place)
    barred: dict[int, set[int]] = {}  # a place's index -> the cards it may not be dealt
    pool: list[int] = []
    for name, zone in state.game.ruleset.zones.items():
        if zone.kind == "melds":
            continue
        stored = trial.values[name]
        instances = [(stored, -1)] if zone.owner == "table" else list(zip(stored, range(len(stored)), strict=True))
        for cards, owner in instances:
            if not cards or sees_zone(state, zone, owner, seat):
                continue
            banned = absent.get((name, owner)) if absent else None
            if banned:
                barred[len(places)] = banned  # (the place appended next)
            if not trial.face_up.cards.get((name, owner)) and not known.get((name, owner)):
                # (no card of it face up, none known to be in it, as with most zones: every place is dealt again)
                pool.extend(cards)
                places.append((cards, list(range(len(cards))), []))
                keys.append((name, owner))
                continue
            up = Counter(trial.face_up.of((name, owner)))
            free: list[int] = []
            for index, card in enumerate(cards):
                if up[card] > 0:
                    up[card] -= 1
                else:
                    free.append(index)
            if not free:
                barred.pop(len(places), None)
                continue
            loose = Counter(cards[index] for index in free)
            kept = known.get((name, owner), Counter()) & loose
            pool.extend((loose - kept).elements())
            places.append((cards, free, sorted(kept.elements())))
            keys.append((name, owner))
    pool.sort()  # (what the seat does not know, in an order that does not depend on where the cards are)
    shuffle(rng, pool)
    first = _barred_first(rng, pool, [len(free) - len(stays) for _, free, stays in places], barred) \
        if barred else {}
    exchanged: dict[int, list[int]] = {}  # each card dealt again -> the cards dealt in its places
    for number, (cards, free, stays) in enumerate(places):
        dealt = first.get(number)
        if dealt is None:
            dealt = pool[:len(free) - len(stays)]
            del pool[:len(free) - len(stays)]
        dealt = stays + dealt
        shuffle(rng, dealt)
        for index, card in zip(free, dealt, strict=True):
            exchanged.setdefault(cards[index], []).append(card)
            cards[index] = card
    _exchange_hidden_variables(trial, seat, exchanged)
    _redraw_secret_choices(trial, seat, rng)
    return trial, {key: tuple(place[0]) for key, place in zip(keys, places, strict=True)}


_BARRED_TRIES = 100  # the shuffles of the cards tried for a deal that keeps every zone from the cards it lacks


def _barred_first(rng: random.Random, pool: list[int], wanted: list[int],
                  barred: dict[int, set[int]]) -> dict[int, list[int]]:
    """The cards dealt first to the places that play has shown lack some cards (`barred`: a place's index -> the
    cards it lacks), taken out of `pool` (shuffled; `wanted`: how many cards each place takes from it): the place
    that may take the fewest of the pool's cards first, each the first cards of the pool it may take, so that a
    place alone is dealt as a deal conditioned on it would be. When a place cannot be filled so, the pool is
    shuffled again and the deal tried again (`_BARRED_TRIES` times); then each place takes what is left."""
    order = sorted(barred, key=lambda index: (sum(card not in barred[index] for card in pool), index))
    for _ in range(_BARRED_TRIES):
        left = list(pool)
        first: dict[int, list[int]] = {}
        for index in order:
            allowed = [card for card in left if card not in barred[index]][:wanted[index]]
            if len(allowed) < wanted[index]:
                break
            first[index] = allowed
            for card in allowed:
                left.remove(card)
        else:
            pool[:] = left
            return first
        shuffle(rng, pool)
    first = {}
    for index in order:  # (no deal found keeps them all: each place takes what it may, then what is left)
        places = [place for place, card in enumerate(pool) if card not in barred[index]][:wanted[index]]
        places += [place for place in range(len(pool)) if place not in places][:wanted[index] - len(places)]
        first[index] = [pool[place] for place in places]
        for place in sorted(places, reverse=True):
            del pool[place]
    return first


def _exchange_hidden_variables(trial: State, seat: int, exchanged: dict[int, list[int]]) -> None:
    """The variables of cards the seat does not see (seen by nobody, which holds cards; or by their owner or
    team alone, for the others' values): each card of such a value that was dealt again is replaced by the card
    now in its place, so the value follows the cards dealt and tells nothing of the real ones (the cards that
    stayed where they were stay in it). Hidden values of other types are kept as they are."""
    for name, variable in trial.game.ruleset.variables.items():
        if variable.visibility == "public" or variable.type not in _CARD_TYPES:
            continue
        stored = trial.values[name]
        keyed = variable.by is not None  # (a value per key, `by:`: a dict of them)
        if variable.per == "table":
            if variable.visibility == "nobody":
                trial.values[name] = _exchanged_keyed(stored, exchanged) if keyed else _exchanged(stored, exchanged)
        else:
            trial.values[name] = [value if sees_variable(trial, variable, owner, seat) else
                                  _exchanged_keyed(value, exchanged) if keyed else _exchanged(value, exchanged)
                                  for owner, value in enumerate(stored)]


_CARD_TYPES = ("card", "list[card]")  # (the types of the values `_exchanged` deals again)


def _exchanged_keyed(values: dict[Any, Any], exchanged: dict[int, list[int]]) -> dict[Any, Any]:
    """A value per key (`by:`), each key's card or cards exchanged as `_exchanged` does."""
    return {key: _exchanged(value, exchanged) for key, value in values.items()}


def _exchanged(value: Any, exchanged: dict[int, list[int]]) -> Any:
    """A card, or a list of cards, with each card dealt again replaced (copies of a card, in several decks,
    take in turn the cards dealt in that card's places; a copy beyond them was not dealt again and stays)."""
    if value is None:
        return None
    taken: dict[int, int] = {}

    def swap(card: int) -> int:
        places = exchanged.get(card, ())
        index = taken.get(card, 0)
        taken[card] = index + 1
        return places[index] if index < len(places) else card

    return [swap(card) for card in value] if isinstance(value, list) else swap(value)


def _redraw_secret_choices(trial: State, seat: int, rng: random.Random) -> None:
    """In a simultaneous round still open, `seat` knows only which seats have chosen, not what: each other seat's
    choice is drawn again, uniformly among those its decision offers in the copy (with the cards it holds there:
    a pair laid away names two of them). A decision the copy offers nothing for keeps its choice."""
    for slot in trial.open_rounds:
        trial.locals[slot] = tuple(entry if entry[1].seat == seat else _drawn_again(trial, entry, rng)
                                   for entry in trial.locals[slot])


def _drawn_again(trial: State, entry: Deferred, rng: random.Random) -> Deferred:
    """Another seat's choice in an open simultaneous round, drawn again from what its decision offers in `trial`."""
    decision = entry[3]
    plans, breaking = trial.meld_plans, trial.breaking  # (a legal set's search writes these: the copy's own stay)
    try:
        actions, options = (decision.finder or legal_actions)(trial, decision)
    except RulesetRuntimeError:  # (the copy offers nothing: the choice stays as it was)
        return entry
    finally:
        trial.meld_plans, trial.breaking = plans, breaking
    if not actions:
        return entry
    action = actions[rng.randrange(len(actions))]
    option = options.get(action) if isinstance(options, dict) else options
    if option is None:  # pragma: no cover - a legal set gives every action's option
        return entry
    bindings = decision.bindings if option.binds_nothing else bindings_for(trial, decision, option, action)
    return (option, action, bindings, decision)
