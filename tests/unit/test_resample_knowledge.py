"""What a seat knows of the cards it cannot see (engine/resample.py): the shortcut for events that teach it nothing
gives what the general reckoning gives, and the zones' differences are the cards each lost and gained."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import CHANCE, State, load_ruleset
from interpreter.engine import resample
from tests.play_helpers import game_from_text, play_out, play_until, random_choices

ROOT = Path(__file__).resolve().parent.parent.parent
RULESETS = [ROOT / "rulesets" / "bourre.yaml", ROOT / "rulesets" / "burraco.yaml",
            ROOT / "tests" / "games" / "hearts.yaml", ROOT / "tests" / "games" / "canasta.yaml",
            ROOT / "tests" / "games" / "skat.yaml"]


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_an_event_that_teaches_nothing_is_reckoned_alike_in_full(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event the shortcut answers (`_nothing_learned`: forget the zones it changed) is also reckoned in
    full, on a copy of what the seat knew: the two agree. Random play, every seat following the match."""
    shortcut = resample._nothing_learned
    answered, differing = [], []

    def checked(changed: Any, lost: Any, gained: Any, before: Any, after: Any, known: Any, named: Any) -> bool:
        if not shortcut(changed, lost, gained, before, after, known, named):
            return False
        reckoned = {key: Counter(cards) for key, cards in known.items()}
        resample._reckon(reckoned, changed, lost, gained, before, after, Counter(named))
        expected = {key: cards for key, cards in known.items() if key not in changed}
        if reckoned != expected:  # (kept, not raised here: the follower takes a failure for a match it cannot follow)
            differing.append((changed, reckoned, expected))
        answered.append(changed)
        return True

    monkeypatch.setattr(resample, "_nothing_learned", checked)
    game = load_ruleset(path)
    knowing = 0
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for step in range(240):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            if step % 4 == 0:
                knowing += sum(bool(resample.knowledge(state, seat)) for seat in range(state.player_count))
            state.apply(rng.choice(state.legal_actions()))
    assert not differing
    assert len(answered) > 50  # (the shortcut is taken)
    assert knowing > 0  # (and the seats know something of the cards they cannot see)


cards = st.lists(st.integers(0, 6), max_size=8)


@given(cards, cards, st.integers(0, 3))
def test_a_zones_difference_is_the_cards_it_lost_and_gained(before: list[int], after: list[int], shape: int) -> None:
    if shape == 1:
        after = before + after  # cards put on top
    elif shape == 2:
        after = before[:len(after)]  # cards taken off the top
    elif shape == 3 and before:
        after = before[:]
        del after[len(after) // 2]  # one card taken from the middle
    lost, gained = resample._difference(before, after)
    assert (lost, gained) == (Counter(before) - Counter(after), Counter(after) - Counter(before))


def test_the_zones_a_seat_sees_are_worked_out_again_when_the_teams_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands seen by a seat's team, and a team formed after the deal (as `form_team` forms Burraco's BU-52 pair):
    what p0 sees of p1's hand changes, so the snapshot kept per follower (`sight`) must be the snapshot made
    afresh after every event."""
    snapshot = resample._snapshot
    made, differing, sights = [0], [], set()

    def checked(state: Any, seat: int, sight: list[Any]) -> Any:
        kept, fresh = snapshot(state, seat, sight), snapshot(state, seat, [None, {}])
        made[0] += 1
        sights.add((seat, tuple(sorted(fresh[1].items()))))
        if kept != fresh:
            differing.append((seat, kept[1], fresh[1]))
        return kept

    monkeypatch.setattr(resample, "_snapshot", checked)
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    text = text.replace("{name: hand, owner: seat, visibility: owner}", "{name: hand, owner: seat, visibility: team}")
    text = text.replace("        - set: trump\n", "        - form_team: \"[0, 1]\"\n        - set: trump\n", 1)
    game = game_from_text(tmp_path, text)
    state = game.new_initial_state(seed=1, players=3)
    rng = random.Random(1)
    for _ in range(6):
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(rng.choice(state.legal_actions()))
        for seat in range(3):
            resample.knowledge(state, seat)
    assert not differing and made[0] > 10
    assert len({entry for entry in sights if entry[0] == 0}) > 1  # (p0 saw p1's hand only once the team formed)


def _public_cards(state: Any) -> Counter[int]:
    """The cards every seat has seen go where they are: those played so far (in the tricks taken, face down)."""
    played = [action.card for action in state.history if action.kind == "play"]
    return Counter(played) - Counter(card for card in state.values["trick"])


@pytest.mark.parametrize("name", ["whist", "hearts"])
def test_a_copy_dealt_again_for_one_seat_and_then_another_keeps_the_cards_played_where_they_went(name: str) -> None:
    """A multi-observer search deals a copy for one seat, then deals that copy for another. The second deal keeps
    what the second seat saw (the cards played, taken face down with their tricks) where it went: no card played
    comes back into a hand, no card is held twice, and the second seat's own hand is the copy's (it once dealt
    from the match's record, whose cards were not the copy's: played cards came back into hands)."""
    game = load_ruleset(ROOT / "tests" / "games" / f"{name}.yaml")
    choose = random_choices(0)  # (one generator for every match and every copy)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed=seed)

        def far_enough(s: State, plays: int = 8 + 2 * seed) -> bool:
            return len([a for a in s.history if a.kind == "play"]) >= plays

        assert play_until(state, far_enough, choose) is not None
        first = state.resample(0, random.Random(seed))
        for step in range(3):  # (the copy also after a few moves of its own)
            second = first.resample(1, random.Random(100 + seed))
            played = _public_cards(state if step == 0 else first)
            hands = [card for hand in second.values["hand"] for card in hand]
            assert not Counter(hands) & played, (name, seed, step)
            everywhere: Counter[int] = Counter()
            for zone_name, zone in game.ruleset.zones.items():
                held = second.values[zone_name]
                for cards in [held] if zone.owner == "table" else held:
                    everywhere.update(cards)
            assert max(everywhere.values()) == 1 and sum(everywhere.values()) == 52  # (each card once)
            assert second.values["hand"][1] == first.values["hand"][1]
            play_out(second.clone(), choose, 12)  # (a playout on the second copy plays by the rules)
            checked += 1
            if first.is_terminal or first.current_player == CHANCE:
                break
            first.apply(choose(first))
    assert checked >= 6


def test_other_seats_choices_in_an_open_simultaneous_round_are_drawn_again() -> None:
    """BR-V4 (Bourré's simultaneous declaration): each player chooses play or pass unseen until all have. A copy
    dealt again for the third player to choose knows only that the first two have chosen: their choices are drawn
    again among what each could choose (so a search over copies does not learn them), the third player's view
    of the copy is its view of the match, and the copy plays on by the rules."""
    game = load_ruleset(ROOT / "rulesets" / "variants" / "simultaneous_declaration.yaml")
    state = game.new_initial_state(seed=2, players=4)
    while state.current_player == CHANCE:
        state.apply_chance()
    first = state.current_player
    state.apply(next(a for a in state.legal_actions() if a.name == "play"))
    second = state.current_player
    state.apply(next(a for a in state.legal_actions() if a.name == "play"))
    seat = state.current_player
    assert state.open_rounds and len({first, second, seat}) == 3
    seen: Counter[tuple[int, str]] = Counter()
    for draw in range(40):
        copy = state.resample(seat, random.Random(draw))
        assert copy.observation(seat) == state.observation(seat)
        for _option, action, _bindings, _decision in copy.locals[copy.open_rounds[-1]]:
            seen[action.seat, action.name] += 1
        play_until(copy, lambda s, hand=copy.values["hand_number"]: s.values["hand_number"] != hand,
                   random_choices(draw))
    assert all(seen[other, name] for other in (first, second) for name in ("play", "pass")), seen
    assert [action.name for _o, action, _b, _d in state.locals[state.open_rounds[-1]]] == ["play", "play"]


@pytest.mark.parametrize("faces", ["kept", "down"])
def test_a_pile_taken_with_two_copies_of_a_card_keeps_both_in_the_takers_hand(faces: str, tmp_path: Path) -> None:
    """BU-14 (Burraco: the whole discard pile is taken into the hand). With two decks a pile may hold two copies
    of a card. Every other seat saw both go into the taker's hand, so a copy dealt again for one of them keeps
    both there: with the pile's faces kept (the first discard, turned up at the deal, face up in the hand beside
    a face-down copy: the copy kept only the face-up one), and as the ruleset takes the pile, face down."""
    text = (ROOT / "rulesets" / "burraco.yaml").read_text(encoding="utf-8")
    taken_face_down = "                  face: down\n                  legal:\n                    - id: take.BU-12\n"
    assert taken_face_down in text
    if faces == "kept":
        text = text.replace(taken_face_down, taken_face_down.replace("                  face: down\n", "", 1))
    path = tmp_path / "burraco.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_ruleset(path)
    choose = random_choices(0)
    checked = 0
    for seed in range(12):
        state = game.new_initial_state(seed=seed, players=4)
        while not state.is_terminal and checked < 2:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            pile = Counter(state.values["discard"])
            action = choose(state)
            state.apply(action)
            if action.kind != "take" or state.current_player == CHANCE:
                continue
            shown = state.face_up.of(("hand", action.seat))
            if faces == "kept" and not any(pile[card] > 1 for card in shown):
                continue
            if faces == "down" and (shown or not any(count > 1 for count in pile.values())):
                continue
            for draw in range(3):
                copy = state.resample((action.seat + 1) % 4, random.Random(draw))
                assert not pile - Counter(copy.values["hand"][action.seat]), [state.card_text(c) for c in pile]
            checked += 1
        if checked >= 2:
            break
    assert checked >= 2
