"""The cards of a match in progress: finding a zone from a reference, moving cards (with
their faces), and the movement an action makes (a card played or discarded, a pile taken, a meld laid)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, cast

from interpreter.actions import Action
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.melds import Meld
from interpreter.engine.program import Option, Ref
from interpreter.engine.zones import ZoneKey

if TYPE_CHECKING:
    from interpreter.engine.state import State

Bindings = dict[str, Any]


class Cards:
    """The part of the engine that finds a state's zones and moves its cards: a state's zones are lists of cards
    in `State.values` (the last is the top), their face-up cards in `State.face_up`. One per Game (`Game.cards`,
    also `State.cards`), shared by its states: it keeps nothing of a match, and is given the state it acts on."""

    __slots__ = ()

    # --- zones -----------------------------------------------------------------------------------------------

    def owner(self, state: State, ref: Ref, bindings: Bindings, scratch: bool = False) -> int:
        """The seat or team owning the zone (or variable) a reference names; -1 for one on the table."""
        name = ref.owner_name
        if name is not None:
            found = bindings.get(name)
            return int(found if found is not None else state.values[name])
        if ref.owner is not None:
            owner: int = state.evaluate_kept(ref.owner, bindings) if scratch else state.evaluate(ref.owner, bindings)
            return owner
        if ref.implicit:
            return int(bindings["player"])
        return -1

    def zone(self, state: State, ref: Ref, bindings: Bindings, scratch: bool = False) -> tuple[ZoneKey, list[int]]:
        """A zone's key and cards. With `scratch`, `bindings` is a decision's scratch copy of its bound names:
        the definitions an owner computes are kept in it (see State.evaluate_kept)."""
        if ref.on_table:
            return ref.table_key, state.values[ref.name]
        owner = self.owner(state, ref, bindings, scratch)
        owned = state.values[ref.name]
        if not 0 <= owner < len(owned):  # (a seat or team that is not at this table; -1 would read the last)
            raise RulesetRuntimeError(f"`{ref.name}` has no owner {owner} at a table of {len(owned)}", ref.where)
        return (ref.name, owner), owned[owner]

    def table(self, state: State, ref: Ref, bindings: Bindings, scratch: bool = False) -> tuple[ZoneKey, list[Meld]]:
        """A zone of melds."""
        key, melds = self.zone(state, ref, bindings, scratch)
        return key, cast("list[Meld]", melds)

    def zone_list(self, state: State, key: ZoneKey) -> list[int]:
        """The cards of the zone a key names."""
        name, owner = key
        stored = state.values[name]
        cards: list[int] = stored if owner < 0 else stored[owner]
        return cards

    def _put(self, state: State, key: ZoneKey, cards: list[int], card: int, face_up: bool, at_bottom: bool) -> None:
        if at_bottom:
            cards.insert(0, card)
        else:
            cards.append(card)
        if face_up:
            state.face_up.add(key, card)

    def _take(self, state: State, key: ZoneKey, cards: list[int], index: int) -> tuple[int, bool]:
        card = cards.pop(index)
        return card, state.face_up.take(key, card)

    def move_from_top(self, state: State, source_key: ZoneKey, source: list[int], target_key: ZoneKey,
                      target: list[int], face: str | None, at_bottom: bool, count: int) -> int:
        """Up to `count` cards from the top of the source, one at a time, each keeping its face unless `face` says
        (a card on the bottom of the target goes under the ones before it); how many moved. (A move refilled by
        `when_empty` calls it with the zones the hand's code has found, as `move_some` is called.)"""
        # (cards face down, as most are, between two zones: moved in C)
        if face != "up" and source_key not in state.face_up.cards and source is not target:
            moved = min(count, len(source)) if count > 0 else 0
            if moved:
                cards = source[len(source) - moved:]
                del source[len(source) - moved:]
                cards.reverse()  # (the top card first, as they are taken one at a time)
                if at_bottom:
                    target[:0] = reversed(cards)
                else:
                    target.extend(cards)
            return moved
        moved = 0
        while moved < count and source:
            card, was_up = self._take(state, source_key, source, -1)
            self._put(state, target_key, target, card, face == "up" or (was_up and face != "down"), at_bottom)
            moved += 1
        return moved

    def take_back(self, state: State, trick_key: ZoneKey, trick: list[int], seat: int, source: str, card: int) -> None:
        """A `take_back` step: the card `seat` has just played to a trick goes back to its zone `source`, face up
        (every seat saw it), and the take-back is logged."""
        del trick[len(trick) - 1 - trick[::-1].index(card)]
        state.face_up.take(trick_key, card)
        state.values[source][seat].append(card)
        state.face_up.add((source, seat), card)
        state.note(f"p{seat} takes back {state.card_text(card)}")

    def move_all(self, state: State, source_key: ZoneKey, source: list[int], target_key: ZoneKey, target: list[int],
                 face: str | None, at_bottom: bool) -> None:
        """Every card of the source to the target, in order; each keeps its face unless `face` says."""
        if not source:
            return
        cards = list(source)
        source.clear()
        was_up = state.face_up.cards.pop(source_key, None)  # (the source's face-up cards leave it with them)
        if at_bottom:
            target[:0] = cards
        else:
            target.extend(cards)
        if face == "up":
            for card in cards:
                state.face_up.add(target_key, card)
        elif face != "down" and was_up:  # every card keeps its face: the face-up ones stay face up
            state.face_up.cards.setdefault(target_key, []).extend(was_up)

    def turn_over(self, state: State, key: ZoneKey, cards: list[int], up: bool, chosen: list[int] | None,
                  where: str) -> None:
        """Turn cards over where they lie: every card of the zone, or the cards listed (each must be there, as
        many times as listed), face up or face down."""
        if chosen is None:
            chosen = cards
        else:
            held = Counter(cards)
            for card in chosen:
                if held[card] <= 0:
                    raise RulesetRuntimeError(f"{state.card_text(card)} is not in {key[0]}: it cannot be turned "
                                              f"over there", where)
                held[card] -= 1
        if not up:
            for card in chosen:
                state.face_up.take(key, card)
            return
        face_up = Counter(state.face_up.of(key))
        for card in chosen:  # (a card already face up stays so; each copy counts once)
            if face_up[card] > 0:
                face_up[card] -= 1
            else:
                state.face_up.add(key, card)

    def move_some(self, state: State, source_key: ZoneKey, source: list[int], target_key: ZoneKey, target: list[int],
                  face: str | None, at_bottom: bool, amount: int | list[int], where: str) -> None:
        """The named cards (a list), or a number of cards from the top, which must all be there."""
        if isinstance(amount, list):
            face_up = state.face_up
            for card in amount:  # (as `_take` and `_put` would, written out: a capture moves several at once)
                if source and source[-1] == card:
                    source.pop()
                else:
                    try:
                        del source[len(source) - 1 - source[::-1].index(card)]
                    except ValueError:
                        raise RulesetRuntimeError(f"{state.card_text(card)} is not in {source_key[0]}",
                                                  where) from None
                was_up = face_up.take(source_key, card) if face_up.cards else False
                if at_bottom:
                    target.insert(0, card)
                else:
                    target.append(card)
                if face == "up" or (was_up and face != "down"):
                    face_up.add(target_key, card)
            return
        moved = self.move_from_top(state, source_key, source, target_key, target, face, at_bottom, int(amount))
        if moved < amount:
            raise RulesetRuntimeError(f"{source_key[0]} ran out: {moved} of {amount} cards moved "
                                      "(a `when_empty:` refill would handle it)", where)

    def perform(self, state: State, option: Option, action: Action, bindings: Bindings) -> Bindings:
        """An action's own movement (a card played or discarded, a card drawn, a pile taken); returns the
        bindings its option's steps see."""
        kind = option.kind
        if kind in ("meld", "add"):
            return self._lay(state, option, action, bindings)
        if option.meld_top is not None:
            return self._take_melding(state, option, action, bindings)
        if kind in ("play", "discard", "draw", "take"):
            assert option.source is not None and option.destination is not None
            source_key, source = self.zone(state, option.source, bindings)
            target_key, target = self.zone(state, option.destination, bindings)
            if kind in ("play", "discard"):  # (the hot path of trick games: kept flat)
                card = action.card
                if source[-1] == card:
                    source.pop()
                else:
                    del source[len(source) - 1 - source[::-1].index(card)]
                face_up = state.face_up
                was_up = face_up.take(source_key, card) if face_up.cards else False
                target.append(card)
                if state.game.tracks_placement:  # (who put the card there: the seat whose card it is)
                    state.values["_placed"][card] = bindings.get("player", action.seat)
                face = option.face
                if face == "up" or (face is None and (was_up or kind == "play")):
                    face_up.add(target_key, card)
                return {**bindings, "card": card} if option.effects else bindings
            count = 1 if kind == "draw" else action.target if action.target > 0 else len(source)
            taken = source[len(source) - count:]
            for _ in taken:  # the top card; or the top cards, deepest first, so that their order is kept
                card, was_up = self._take(state, source_key, source, len(source) - count)
                self._put(state, target_key, target, card, option.face == "up" or (was_up and option.face != "down"),
                          False)
                count -= 1
            return {**bindings, "cards": taken}
        return bindings

    def _lay(self, state: State, option: Option, action: Action, bindings: Bindings) -> Bindings:
        """A meld laid, or a card added to one: the cards leave the hand; the meld is put (or replaced)."""
        assert option.source is not None and option.destination is not None
        source_key, source = self.zone(state, option.source, bindings)
        for card in (action.cards if option.kind == "meld" else (action.card,)):
            self._take(state, source_key, source, len(source) - 1 - source[::-1].index(card))
        if option.at_once > 1:  # several melds at once, numbered in the order the action lays them
            _, table = self.table(state, option.destination, bindings)
            laid = []
            for meld in bindings["laid"]:
                laid.append(meld.replaced(id=state.melds_laid) if meld.id != state.melds_laid else meld)
                table.append(laid[-1])
                state.melds_laid += 1
            return {**bindings, "laid": laid}
        plan = bindings["after"]
        if option.kind == "meld":
            _, table = self.table(state, option.destination, bindings)
            if plan.id != state.melds_laid:  # (a meld found by an earlier search of the turn: see meldsearch.py)
                plan = plan.replaced(id=state.melds_laid)
                bindings = {**bindings, "after": plan}
            table.append(plan)
            state.melds_laid += 1
            return bindings
        tables = self.tables(state, option.destination) if option.every_table else \
            [self.table(state, option.destination, bindings)[1]]
        for table in tables:
            for index, meld in enumerate(table):
                if meld.id == plan.id:
                    table[index] = plan
        return bindings

    def _take_melding(self, state: State, option: Option, action: Action, bindings: Bindings) -> Bindings:
        """A pile taken by laying its top card at once: the top card, with the cards of `to` the new melds need,
        goes to the melds (or onto a meld); then the rest of the pile goes to `to`."""
        assert option.source is not None and option.destination is not None and option.meld_top is not None
        source_key, source = self.zone(state, option.source, bindings)
        target_key, target = self.zone(state, option.destination, bindings)
        taken = list(source)
        top, _ = self._take(state, source_key, source, len(source) - 1)
        after, laid = bindings["after"], bindings["laid"]
        _, table = self.table(state, option.meld_top, bindings)
        placed = []
        if laid:
            from_hand = list(action.cards)
            from_hand.remove(top)
            for card in from_hand:
                self._take(state, target_key, target, len(target) - 1 - target[::-1].index(card))
            for meld in laid:
                placed.append(meld.replaced(id=state.melds_laid))
                table.append(placed[-1])
                state.melds_laid += 1
            after = placed[next(index for index, meld in enumerate(laid) if meld is after)]
        else:
            table[next(index for index, meld in enumerate(table) if meld.id == after.id)] = after
        self.move_all(state, source_key, source, target_key, target, option.face, False)
        return {**bindings, "cards": taken, "after": after, "laid": placed}

    def tables(self, state: State, ref: Ref) -> list[list[Meld]]:
        """Every owner's table of a zone of melds."""
        return cast("list[list[Meld]]", state.values[ref.name])

    def all_melds(self, state: State, option: Option, bindings: Bindings) -> list[Meld]:
        """The melds an `add` option may go to: its zone's, or every owner's with `every_table`."""
        assert option.destination is not None
        if option.every_table:
            return [meld for table in self.tables(state, option.destination) for meld in table]
        return self.table(state, option.destination, bindings)[1]
