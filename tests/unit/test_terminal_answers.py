"""What a person types at the terminal, as the moves are not written: cards in lower case, a kind capitalised, a
choice without `choose`, a seat that is not theirs. The move meant is taken, or the rules' own reason given."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from interpreter import CHANCE, IllegalActionError, State, load_ruleset
from interpreter.actions import Action
from interpreter.runners.human import Quit, human_chooser
from tests.play_helpers import game_from_text, play_until, random_choices

ROOT = Path(__file__).resolve().parents[2]


def _answer(state: State, *answers: str) -> str | None:
    """The text of the move the answers pick (None when they end with `q`)."""
    given: Iterator[str] = iter(answers)
    try:
        return state.action_text(human_chooser(state.current_player, lambda _prompt: next(given))(state))
    except Quit:
        return None


def _to_decision(state: State, wanted: Callable[[State, list[str]], bool]) -> State:
    """Play the first legal action until `wanted(state, texts)` holds at a decision."""
    found = play_until(state, lambda s: s.current_player != CHANCE
                       and wanted(s, [s.action_text(action) for action in s.legal_actions()]),
                       lambda s: s.legal_actions()[0])
    assert found is not None
    return found


def test_a_choice_named_without_choose_that_the_rules_forbid_gets_their_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    # BR-15/BR-16: a dealer who may not pass (an ace turned, or every other seat passed) is told why.
    state = _to_decision(load_ruleset(ROOT / "rulesets" / "bourre.yaml").new_initial_state(seed=0, players=3),
                         lambda s, texts: texts[0].split()[1:3] == ["choose", "play"]
                         and not any(text.endswith(" choose pass") for text in texts))
    seat = state.current_player
    with pytest.raises(IllegalActionError) as refused:
        state.check(f"p{seat} choose pass")
    assert _answer(state, "pass", "Choose PASS", "q") is None
    assert capsys.readouterr().out.count(str(refused.value)) == 2


def test_cards_in_lower_case_and_a_capitalised_kind_are_read_as_the_moves_write_them() -> None:
    # BU-17 to BU-24: a meld with a wild card, typed in lower case and without what the wild card stands for.
    state = _to_decision(load_ruleset(ROOT / "rulesets" / "burraco.yaml").new_initial_state(seed=11, players=4),
                         lambda s, texts: any(" meld " in text and "=" in text for text in texts))
    meld = next(state.action_text(action) for action in state.legal_actions()
                if " meld " in state.action_text(action) and "=" in state.action_text(action))
    words = meld.split()[1:]
    plain = [word.split("=")[0] for word in words]  # (`2S=6` as `2S`: the meld's wild card stands where it can)
    chosen = _answer(state, " ".join([plain[0].capitalize(), *(word.lower() for word in plain[1:])]))
    assert chosen is not None and chosen.split()[1:] == plain
    state.check(chosen)
    discard = next(state.action_text(action) for action in state.legal_actions()
                   if state.action_text(action).split()[1] == "discard")
    assert _answer(state, discard.split(" ", 1)[1].upper()) == discard  # (`DISCARD 7H`)


def test_an_illegal_move_in_lower_case_gets_the_rules_reason(capsys: pytest.CaptureFixture[str]) -> None:
    # BU-17: a meld needs three cards; typed in lower case, the rules' reason is given, not "not a card".
    state = _to_decision(load_ruleset(ROOT / "rulesets" / "burraco.yaml").new_initial_state(seed=11, players=4),
                         lambda s, texts: any(" meld " in text for text in texts))
    seat = state.current_player
    two = " ".join(state.card_text(card) for card in state.values["hand"][seat][:2])
    with pytest.raises(IllegalActionError) as refused:
        state.check(f"p{seat} meld {two}")
    assert _answer(state, f"meld {two.lower()}", "q") is None
    out = capsys.readouterr().out
    assert str(refused.value) in out and "is not a card" not in out


def test_another_seats_name_is_answered_with_the_persons_own(capsys: pytest.CaptureFixture[str]) -> None:
    state = _to_decision(load_ruleset(ROOT / "rulesets" / "bourre.yaml").new_initial_state(seed=0, players=3),
                         lambda s, texts: True)
    seat = state.current_player
    other = (seat + 1) % 3
    assert _answer(state, f"p{other} choose pass", "q") is None
    assert f"you are p{seat}: leave the seat out, or name p{seat}" in capsys.readouterr().out


def _bidding(tmp_path: Path) -> Path:
    """tiny.yaml with a bid of 0 to 5 tricks before the play, the dealer's bid of 2 forbidden."""
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    text = text.replace("      next: play\n", """      next: bid
    - name: bid
      steps:
        - decide: dealer
          options:
            - id: bid
              choose: bid
              args:
                n: numbers(0, 5)
              legal:
                - id: not_two
                  rule: n != 2
                  reason: "the dealer may not bid two"
      next: play
""", 1)
    path = tmp_path / "bidding.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_number_at_a_choice_of_values_alone_is_the_value(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # (the list shows `choose bid n 0` as move 1: a person typing 1 means the bid of 1, as the moves read)
    state = _to_decision(load_ruleset(_bidding(tmp_path)).new_initial_state(seed=1, players=3),
                         lambda s, texts: " choose bid " in texts[0])
    seat = state.current_player
    assert _answer(state, "1") == f"p{seat} choose bid n 1"
    assert _answer(state, "#1") == f"p{seat} choose bid n 0"  # (move 1 of the list)
    assert _answer(state, "bid 3") == f"p{seat} choose bid n 3"  # (the argument's name left out)
    assert _answer(state, "2", "9", "bid 2", "q") is None  # (refused: the rule's reason, each time it applies)
    out = capsys.readouterr().out
    assert out.count("the dealer may not bid two") == 2
    assert "n must be one of 0, 1, 2, 3, 4, 5, not 9" in out  # (the choice's own values)


def test_a_meld_whose_cards_make_two_melds_is_refused_naming_both() -> None:
    # Rummy 500 (pagat: The Melds): a spare joker may stand at either end of a sequence; `meld 2C 3C JK` is
    # `JK=AC 2C 3C` or `2C 3C JK=4C`, and the refusal says so rather than "not allowed now".
    def two_melds(state: State) -> list[tuple[Action, Action]]:
        melds = [a for a in state.legal_actions() if a.kind == "meld" and any(a.roles)]
        return [(a, b) for a in melds for b in melds if a is not b and sorted(a.cards) == sorted(b.cards)]

    game = load_ruleset(ROOT / "tests" / "games" / "rummy500.yaml")
    choose = random_choices(2)  # (one generator for every seed's match)
    found: State | None = None
    for seed in range(40):
        found = play_until(game.new_initial_state(seed=seed), lambda s: s.current_player != CHANCE
                           and bool(two_melds(s)), choose, limit=400)
        if found is not None:
            break
    assert found is not None, "no decision offers two melds of the same cards"
    state = found
    first, second = two_melds(state)[0]
    shown = [f"`{state.action_text(meld).split(' ', 1)[1]}`" for meld in (first, second)]
    plain = " ".join(state.card_text(card) for card in first.cards)
    with pytest.raises(IllegalActionError) as refused:
        state.check(f"p{state.current_player} meld {plain}")
    message = str(refused.value)
    assert " fits 2 melds, " in message or " fits 3 melds, " in message, message
    assert all(text in message for text in shown) and "say what each wild card stands for" in message


def _trick_with_a_card_refused(seed: int) -> tuple[State, str]:
    """A Bourré trick where the seat holds a card the rules refuse (BR-21 to BR-23), and that card's text."""
    state = play_until(load_ruleset(ROOT / "rulesets" / "bourre.yaml").new_initial_state(seed=seed, players=3),
                       lambda s: s.current_player != CHANCE and bool(s.legal_actions())
                       and s.legal_actions()[0].kind == "play"
                       and len(s.legal_actions()) < len(s.values["hand"][s.current_player]),
                       random_choices(seed))
    assert state is not None
    offered = {action.card for action in state.legal_actions()}
    refused = next(card for card in state.values["hand"][state.current_player] if card not in offered)
    return state, state.card_text(refused)


def test_a_card_alone_that_the_rules_refuse_gets_their_reason(capsys: pytest.CaptureFixture[str]) -> None:
    # BR-21 to BR-23: a card typed alone (`kc`, as `ah` plays AH) that may not be played is refused with the
    # rule that forbids it, not as "not a move".
    state, card = _trick_with_a_card_refused(3)
    seat = state.current_player
    with pytest.raises(IllegalActionError) as refused:
        state.check(f"p{seat} play {card}")
    assert _answer(state, card.lower(), card, "q") is None
    out = capsys.readouterr().out
    assert out.count(str(refused.value)) == 2 and "is not a move" not in out


def test_a_choice_of_the_game_not_offered_now_is_said_so(capsys: pytest.CaptureFixture[str]) -> None:
    # A choice the game has (BR-16's pass) typed at a trick is not offered now: said so, not "unknown kind".
    state, _card = _trick_with_a_card_refused(3)
    seat = state.current_player
    with pytest.raises(IllegalActionError) as refused:
        state.check(f"p{seat} choose pass")
    assert _answer(state, "pass", "q") is None
    out = capsys.readouterr().out
    assert str(refused.value) in out and "is not a move" not in out


def test_a_rank_in_lower_case_at_a_choice_gets_the_rules_reason(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # A choice's value typed in lower case without `choose` (`around of j`, the choice not offering it) is
    # answered with why, as `choose around of J` is, not with "unknown action kind 'around'".
    game = game_from_text(tmp_path, """
format: 1
name: Name a rank
players: {min: 2, max: 2}
deck: {ranks: [9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
variables:
  - {name: named, type: rank, initial: null}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 3, from: stock, to: hand}
        - decide: next_seat(dealer)
          options:
            - choose: around
              args:
                of: distinct([c.rank for c in hand[player]])
              do:
                - {set: named, to: of}
      next: end
match:
  hands: 1
  result: 0
""")
    state = game.new_initial_state(seed=1)
    while state.current_player == CHANCE:
        state.apply_chance()
    deck, held = state.game.deck, {action.arguments[0][1] for action in state.legal_actions()}
    other = next(deck.rank_name(rank) for rank in range(len(deck.rank_names))
                 if rank not in held and deck.rank_name(rank).isalpha())
    with pytest.raises(IllegalActionError) as refused:
        state.check(f"p{state.current_player} choose around of {other}")
    assert _answer(state, f"around of {other.lower()}", "q") is None
    out = capsys.readouterr().out
    assert str(refused.value) in out and "unknown action kind" not in out


def test_a_word_value_that_reads_as_a_suit_is_taken_as_typed(tmp_path: Path) -> None:
    # (`call h`: the value `h` of a choice of words, not the suit H: the answer as typed is tried first)
    game = game_from_text(tmp_path, """
format: 1
name: Call a side
players: {min: 2, max: 2}
deck: {ranks: [9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
variables:
  - {name: side, type: str, initial: "''"}
hand:
  start: call
  phases:
    - name: call
      steps:
        - decide: next_seat(dealer)
          options:
            - choose: call
              args:
                which: "['h', 'l']"
              do:
                - {set: side, to: which}
      next: end
match:
  hands: 1
  result: 0
""")
    state = game.new_initial_state(seed=1)
    seat = state.current_player
    assert _answer(state, "call h") == f"p{seat} choose call which h"
    assert _answer(state, "call l") == f"p{seat} choose call which l"


def test_the_help_speaks_of_this_games_moves_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    # `?` showed the same text in every game: melds, jokers and `choose capture taken 3D+4C` in Bourré, whose
    # moves it never named.
    bourre = _to_decision(load_ruleset(ROOT / "rulesets" / "bourre.yaml").new_initial_state(seed=0, players=3),
                          lambda _state, texts: any(" choose play discard " in text for text in texts))
    assert _answer(bourre, "?", "q") is None
    shown = capsys.readouterr().out
    texts = [bourre.action_text(action).split(" ", 1)[1] for action in bourre.legal_actions()]
    assert f"`{texts[0]}`" in shown or any(f"`{text}`" in shown for text in texts)
    assert "meld" not in shown and "joker" not in shown and "capture" not in shown
    assert "to the trick" in shown
    burraco = _to_decision(load_ruleset(ROOT / "rulesets" / "burraco.yaml").new_initial_state(seed=1),
                           lambda _state, texts: any(" meld " in text for text in texts))
    assert _answer(burraco, "?", "q") is None
    shown = capsys.readouterr().out
    assert "A meld is named by its id" in shown and "`JK` is a joker" in shown and "to the trick" not in shown


def test_a_word_that_is_no_move_with_one_move_left_is_answered_with_that_move(
        capsys: pytest.CaptureFixture[str]) -> None:
    # "answer with a move's number, 1 to 1": with one move, the answer is 1, or that move.
    state = play_until(load_ruleset(ROOT / "rulesets" / "bourre.yaml").new_initial_state(seed=0, players=3),
                       lambda s: s.current_player != CHANCE and len(s.legal_actions()) == 1, random_choices(1))
    assert state is not None
    only = state.action_text(state.legal_actions()[0]).split(" ", 1)[1]
    assert _answer(state, "zz", "", "q") is None
    shown = capsys.readouterr().out
    assert f"'zz' is not a move: answer 1, or the move's text, `{only}`" in shown
    assert "answer 1, or the move's text (? for help)" in shown and "1 to 1" not in shown


def test_a_ten_written_t_is_read_as_the_deck_writes_it() -> None:
    # `ts` for 10S, as many players write a ten; in a deck whose tens are `10`.
    state = play_until(load_ruleset(ROOT / "rulesets" / "bourre.yaml").new_initial_state(seed=4, players=3),
                       lambda s: s.current_player != CHANCE and any(
                           " play 10" in s.action_text(action) for action in s.legal_actions()), random_choices(2))
    assert state is not None
    ten = next(state.action_text(action) for action in state.legal_actions()
               if state.action_text(action).split()[-1].startswith("10"))
    written = "t" + ten.split()[-1][2:].lower()
    assert _answer(state, written) == ten
    assert _answer(state, f"play {written.upper()}") == ten


def test_the_arguments_of_the_one_choice_offered_name_it() -> None:
    # Go Fish's `ask whom 1 wanted K`, typed `whom 1 wanted K`: with one choice offered, its arguments are that
    # choice (it was "unknown action kind 'whom'"). SC-05/SC-06: a capture in Scopa, typed without `capture`.
    state = play_until(load_ruleset(ROOT / "tests" / "games" / "scopa.yaml").new_initial_state(seed=3),
                       lambda s: s.current_player != CHANCE and any(
                           a.kind == "choose" and a.name == "capture" for a in s.legal_actions()), random_choices(4))
    assert state is not None
    capture = next(state.action_text(a) for a in state.legal_actions() if a.kind == "choose")
    typed = capture.split(" ", 3)[3].lower()  # (`with 7s taken 3d+4c`)
    assert typed.startswith("with ") and _answer(state, typed) == capture
