"""Preferences (`prefer:`, a clause of a card option's `legal`): of the cards the clauses before it allow, those
that meet its test, when any does, else all of them (docs/ruleset-format.md, legality clauses). Checked against
a plain Python reading of the same rules over random play, with the reason given for each card refused; then
the checker's errors, a located runtime failure, and a ruleset with no legal card (`why_none`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.engine import decisions
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.state import State
from interpreter.errors import RulesetError
from interpreter.loader import Game
from tests.play_helpers import game_from_text

# "Must follow suit if able; if unable, must trump if able; and must head the trick if able" (the order most trick
# games give), with a rule between the preferences: the ace of clubs is led only as the last card held. The last
# preference narrows what the ones before it and the rule left.
RULESET = """
format: 1
name: Preferences
players: {min: 2, max: 4, default: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: trick, visibility: public}
  - {name: won, owner: seat, visibility: hidden}
variables:
  - {name: tricks, type: int, per: seat, initial: 0}
  - {name: trump, type: suit}
define:
  leading: size(trick) == 0
  led: first(trick).suit
  winning: trick_winner(trick, trump)
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 8, from: stock, to: hand}
        - set: trump
          to: S
      next: play
    - name: play
      steps:
        - trick: trick
          leader: next_seat(dealer)
          legal:
            - prefer: not leading and card.suit == led
              reason: "follow suit when able"
            - prefer: not leading and card.suit == trump
              reason: "trump when unable to follow"
            - rule: not (leading and card == AC and size(hand) > 1)
              reason: "the ace of clubs is led last"
            - prefer: not leading and beats(card, winning, trump)
              reason: "head the trick when able"
          winning_card: winning
          then:
            - change: tricks[winner]
              by: 1
            - {move: all, from: trick, to: "won[winner]"}
      next: end
match:
  hands: 1
  ends_when: false
  result: tricks[player]
"""

FOLLOW, TRUMP, NEVER_LED, HEAD = ("follow suit when able", "trump when unable to follow",
                                  "the ace of clubs is led last", "head the trick when able")


def _expected(game: Game, hand: list[int], trick: list[int], trump: int) -> dict[int, str | None]:
    """Each card of the hand with the reason that refuses it (None: legal), the rules read in plain Python."""
    deck = game.deck
    suit, rank = deck.suit_of, deck.rank_of
    ace_of_clubs = int(deck.parse_card("AC"))

    def strength(card: int) -> int:  # (within the trick: a trump over the led suit over the rest; then the rank)
        return (2 if suit[card] == trump else 1 if suit[card] == suit[trick[0]] else 0) * 100 + rank[card]

    def beats(card: int) -> bool:
        return strength(card) > max(map(strength, trick))

    leading = not trick
    refused: dict[int, str | None] = {}
    allowed = list(hand)
    tests = [(FOLLOW, True, lambda c: not leading and suit[c] == suit[trick[0]]),
             (TRUMP, True, lambda c: not leading and suit[c] == trump),
             (NEVER_LED, False, lambda c: not (leading and c == ace_of_clubs and len(hand) > 1)),
             (HEAD, True, lambda c: not leading and beats(c))]
    for reason, preference, test in tests:
        meeting = [card for card in allowed if test(card)]
        if preference and not meeting:  # (no card still allowed meets it: it refuses none)
            continue
        for card in hand:  # (a card is refused by the first clause that refuses it)
            if card not in refused and not test(card):
                refused[card] = reason
        allowed = meeting
    for card in hand:
        refused.setdefault(card, None)
    assert sorted(card for card, reason in refused.items() if reason is None) == sorted(allowed)
    return refused


def test_the_legal_cards_and_each_refusal_are_the_rules_read_in_order(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    rng = random.Random(3)
    compared = refusals = narrowed = 0
    for seed in range(60):
        state = game.new_initial_state(seed=seed, players=rng.choice([2, 3, 4]))
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            seat = state.current_player
            hand, trick = list(state.values["hand"][seat]), list(state.values["trick"])
            expected = _expected(game, hand, trick, state.values["trump"])
            legal = state.legal_actions()
            assert sorted(action.card for action in legal) == sorted(c for c, why in expected.items() if why is None)
            narrowed += len(legal) < len(hand)
            for card, why in expected.items():
                if why is not None:
                    text = f"p{seat} play {game.deck.card_text(card)}"
                    with pytest.raises(IllegalActionError, match=why):
                        state.check(text)
                    refusals += 1
            # the clauses tested card by card, as the general search and the checks test them, agree
            pending = state.pending
            assert pending is not None
            option = pending.options[0]
            each = decisions.preferred(state, option, pending.bindings, hand)
            assert sorted(c for c in hand if decisions._passes(state, option, {**each, "card": c})) == \
                sorted(action.card for action in legal)
            state.apply(rng.choice(legal))
            compared += 1
    assert compared > 1000 and refusals > 500 and narrowed > 300


def test_the_decision_s_own_code_finds_the_legal_cards(tmp_path: Path) -> None:
    # (the card filter narrows by each preference in turn; the general search is never asked in play)
    game = game_from_text(tmp_path, RULESET)
    namespace = game.code.segments[0].__globals__
    general, asked = namespace["GENERIC_LEGAL"], []
    namespace["GENERIC_LEGAL"] = lambda state, pending: asked.append(pending.where) or general(state, pending)
    rng = random.Random(5)
    for seed in range(10):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            assert state.pending is not None and state.pending.finder is not None
            state.apply(rng.choice(state.legal_actions()))
    assert not asked


def _after_lead(game: Game, led: str, hand: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """A 2-player hand: p1 has led `led` (spades trumps); p0 holds `hand`."""
    deck = game.deck
    state = State(game, 2, 1)
    state.match.start_at(state, "play", dealer=0, hand_number=1,
                         zones={("hand", 1): [int(deck.parse_card(led))],
                                ("hand", 0): [int(deck.parse_card(text)) for text in hand]},
                         face_up={}, variables={"trump": deck.suit_index("S")})
    state.apply(f"p1 play {led}")
    return state


def test_each_preference_narrows_what_the_clauses_before_it_left(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    # p0 holds diamonds: no trump among them (the trump preference, met by none of them, leaves them all), and of
    # them the king heads the trick
    state = _after_lead(game, "QD", ("2H", "5H", "KD", "3C", "AC", "9D", "4D", "7S"))
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 play KD"]
    with pytest.raises(IllegalActionError, match=HEAD):
        state.apply("p0 play 9D")
    with pytest.raises(IllegalActionError, match=FOLLOW):
        state.apply("p0 play 7S")
    # none of p0's diamonds can head the trick: every diamond stays
    state = _after_lead(game, "AD", ("2H", "KD", "9D", "7S"))
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 play KD", "p0 play 9D"]
    # void in diamonds: the trumps, and any of them heads the trick
    state = _after_lead(game, "AD", ("2H", "3S", "7S", "AC"))
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 play 3S", "p0 play 7S"]
    with pytest.raises(IllegalActionError, match=TRUMP):
        state.apply("p0 play AC")
    # void in diamonds and in trumps: any card, none heading the trick
    state = _after_lead(game, "AD", ("2H", "AC"))
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 play 2H", "p0 play AC"]


def test_a_preference_is_checked(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="a preference tests each card: it reads `card`"):
        game_from_text(tmp_path, RULESET.replace("prefer: not leading and card.suit == trump", "prefer: not leading"))
    with pytest.raises(RulesetError, match="`prefer` narrows the cards of a `play` or `discard` option"):
        game_from_text(tmp_path, RULESET.replace("""        - set: trump
          to: S
""", """        - set: trump
          to: S
        - decide: dealer
          options:
            - choose: go
              legal:
                - prefer: true
                  reason: "no cards here"
""", 1))
    with pytest.raises(RulesetError, match="a legality clause is a `rule` or a `prefer`, not both") as caught:
        game_from_text(tmp_path, RULESET.replace("            - prefer: not leading and card.suit == led\n",
                                                 "            - prefer: not leading and card.suit == led\n"
                                                 "              rule: true\n"), name="preferences.yaml")
    assert "preferences.yaml:33:15" in str(caught.value)
    with pytest.raises(RulesetError, match="a legality clause needs a `rule` or a `prefer`; found reason"):
        game_from_text(tmp_path, RULESET.replace("            - prefer: not leading and card.suit == led\n",
                                                 "            -\n"))
    with pytest.raises(RulesetError, match="bool"):
        game_from_text(tmp_path, RULESET.replace("prefer: not leading and card.suit == led", "prefer: card.suit"))


def test_a_failing_preference_is_located_at_its_test(tmp_path: Path) -> None:
    # (unguarded: the led card of an empty trick does not exist)
    text = RULESET.replace("prefer: not leading and card.suit == led", "prefer: card.suit == led")
    game = game_from_text(tmp_path, text)
    state = game.new_initial_state(seed=1, players=2)
    state.apply_chance()
    with pytest.raises(RulesetRuntimeError, match="first\\(\\) of an empty list") as caught:
        state.legal_actions()
    location = caught.value.location
    assert location is not None and caught.value.where.endswith("legal[0].prefer")
    lines = text.split("\n")  # (line 1 of the file is the text's first line)
    line = next(number for number, written in enumerate(lines, start=1) if "prefer: card.suit == led" in written)
    assert (location.line, location.column) == (line, lines[line - 1].index("card.suit") + 1)


def test_no_legal_card_names_each_refusal(tmp_path: Path) -> None:
    # A rule after the preferences that refuses every card they kept: the decision has no legal action, and the
    # error says why for each card (the preferences' rules tested with what they prefer worked out).
    game = game_from_text(tmp_path, RULESET.replace("rule: not (leading and card == AC and size(hand) > 1)",
                                                    "rule: leading"))
    state = game.new_initial_state(seed=2, players=2)
    state.apply_chance()
    state.apply(state.legal_actions()[0])
    with pytest.raises(RulesetRuntimeError, match="no legal action") as caught:
        state.legal_actions()
    assert "the ace of clubs is led last" in str(caught.value)


def test_a_preference_that_never_holds_keeps_every_card(tmp_path: Path) -> None:
    # (its first tests, read from no card, fold to false: the pass is left out, and no card is narrowed by it)
    game = game_from_text(tmp_path, RULESET.replace("prefer: not leading and card.suit == led",
                                                    "prefer: 1 == 2 and not leading and card.suit == led"))
    state = _after_lead(game, "QD", ("2H", "KD", "9D", "3S", "7S"))
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 play 3S", "p0 play 7S"]
