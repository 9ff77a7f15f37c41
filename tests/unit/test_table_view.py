"""The table view (interpreter/view.py) and its terminal drawing: a seat sees what a player at a real table
sees and nothing more (DESIGN.md, non-negotiable 4), the hand sorted and grouped, the trick with who played
each card, the melds with the ids actions use, and only the values the ruleset's `show:` names."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from interpreter import CHANCE, load_ruleset
from interpreter.engine.observation import sees_zone
from interpreter.engine.state import State
from interpreter.errors import RulesetError
from interpreter.runners.table_text import view_text
from interpreter.view import TableView, arranged_hand, sort_hand, table_view
from tests.play_helpers import game_from_text, play_out, random_choices

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted([*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("rulesets/variants/*.yaml"),
                   *ROOT.glob("tests/games/*.yaml")])
CARD = re.compile(r"\b(?:10|[2-9JQKA])[SHDCB]\b|\bJK\b")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _visible_cards(state: State, seat: int) -> Counter[str]:
    """Every card the seat may see where it lies now: in zones it sees, face up anywhere, in melds."""
    seen: Counter[str] = Counter()
    for name, zone in state.game.ruleset.zones.items():
        stored = state.values[name]
        parts = [(-1, stored)] if zone.owner == "table" else list(enumerate(stored))
        for owner, cards in parts:
            if zone.kind == "melds":
                seen.update(state.card_text(card) for meld in cards for card in meld.cards)
            elif sees_zone(state, zone, owner, seat):
                seen.update(state.card_text(card) for card in cards)
            else:
                seen.update(state.card_text(card) for card in state.face_up.of((name, owner)))
    return seen


def _view_cards(view: TableView) -> Counter[str]:
    shown: Counter[str] = Counter(card for group in view.hand or () for card in group.cards)
    for zone in view.zones:
        shown.update(zone.cards or ())
        shown.update(zone.face_up)
        shown.update(card.card for meld in zone.melds or () for card in meld.cards)
    return shown


def _check_view(state: State, seat: int) -> None:
    view = table_view(state, seat)
    as_json = json.loads(json.dumps(view.to_dict()))  # JSON-serialisable
    assert as_json["seat"] == seat
    assert not _view_cards(view) - _visible_cards(state, seat), "a card the seat may not see is shown"
    for zone in as_json["zones"]:  # no card text hides anywhere else in a zone the seat does not see
        if zone["cards"] is None and zone["melds"] is None:
            assert not set(CARD.findall(json.dumps(zone))) - set(zone["face_up"])
    secret = {event["action"] for event in state.events
              if event["type"] == "action" and seat in event.get("secret_from", ())}
    assert not secret & set(view.recent), "an action hidden from the seat is shown"
    hand_zone = state.game.ruleset.show.hand
    if hand_zone is not None:
        own = sorted(state.card_text(card) for card in state.values[hand_zone][seat])
        assert sorted(card for group in view.hand or () for card in group.cards) == own


@pytest.mark.parametrize("path", RULESETS, ids=_name)
def test_no_seat_sees_another_seats_hidden_cards(path: Path) -> None:
    """Over seeded random matches of every shipped ruleset, variant and test game: a seat's view holds only
    cards it may see where they lie (BR-07: the hands are dealt face down; BU-09, BU-35: the hands and the
    pozzetti are unseen), and never the text of an action hidden from it (BR-11: discards are secret)."""
    game = load_ruleset(path)
    for seed in (1, 2):
        state = game.new_initial_state(seed=seed, players=game.ruleset.players.default)
        choose = random_choices(seed)
        for step in range(240):
            if state.is_terminal:
                break
            if step % 5 == 0:
                for seat in range(state.player_count):
                    _check_view(state, seat)
            play_out(state, choose, 1)
        for seat in range(state.player_count):
            _check_view(state, seat)


def test_every_shipped_ruleset_and_test_game_declares_what_it_shows() -> None:
    for path in RULESETS:
        if "variants" not in path.parts:
            assert "\nshow:" in path.read_text(encoding="utf-8"), path


def test_the_bookkeeping_of_a_turn_stays_out_of_sight() -> None:
    state = load_ruleset(ROOT / "rulesets" / "burraco.yaml").new_initial_state(seed=3, players=4)
    play_out(state, random_choices(3), 40)
    shown = {variable.name for variable in table_view(state, 0).variables}
    assert shown == {"score", "took_pozzetto"}
    assert not shown & {"hand_over", "drawn", "pile_before", "last_turn", "single_takes"}


def test_a_variant_shows_what_its_base_shows_and_what_it_adds() -> None:
    base = load_ruleset(ROOT / "rulesets" / "burraco.yaml").ruleset.show
    three = load_ruleset(ROOT / "rulesets" / "variants" / "burraco_three_players.yaml").ruleset.show
    assert base.variables is not None and three.variables is not None
    assert [item.name for item in three.variables] == [item.name for item in base.variables] + ["share"]
    assert load_ruleset(ROOT / "rulesets" / "variants" / "pot_limit.yaml").ruleset.show == \
        load_ruleset(ROOT / "rulesets" / "bourre.yaml").ruleset.show


def test_without_show_every_zone_and_variable_is_shown_under_its_name(tmp_path: Path) -> None:
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    bare = re.sub(r"\nshow:\n(  .*\n)+", "\n", text)
    assert "show:" not in bare
    state = game_from_text(tmp_path, bare).new_initial_state(seed=1, players=2)
    play_out(state, random_choices(1), 6)
    view = table_view(state, 0)
    assert [variable.label for variable in view.variables] == ["tricks", "score", "trump"]
    assert view.hand_zone == "hand"


def test_the_hand_is_sorted_by_the_decks_order_and_grouped_by_suit() -> None:
    """Suits in the deck's order (S H D C), ranks low to high as `deck.ranks` lists them, jokers last
    (BU-02: two packs and four jokers)."""
    deck = load_ruleset(ROOT / "rulesets" / "burraco.yaml").deck
    groups = sort_hand(deck, ["JK", "10C", "2H", "AS", "3S", "JK", "KH", "10C"])
    assert [(group.suit, group.cards) for group in groups] == [
        ("S", ("3S", "AS")), ("H", ("2H", "KH")), ("C", ("10C", "10C")), ("", ("JK", "JK"))]
    scopa = load_ruleset(ROOT / "tests" / "games" / "scopa.yaml").deck  # suits D C S B, ace low
    assert [group.cards for group in sort_hand(scopa, ["KB", "AB", "7D", "AD"])] == [("AD", "7D"), ("AB", "KB")]


def test_a_ruleset_orders_and_groups_the_hand_shown() -> None:
    """`show.hand_order` and `show.hand_group`: Skat shows the trumps together, the jacks first, then each other
    suit in the game's order (SK-12); in a null game the jacks sit in their suits, in the null order."""
    game = load_ruleset(ROOT / "tests" / "games" / "skat.yaml")
    state = game.new_initial_state(seed=1)
    while state.current_player == CHANCE:
        state.apply_chance()
    held = ["10D", "JC", "AH", "7D", "JD", "KS", "9H", "JH", "10S", "QC"]
    state.values["game"], state.values["trump"] = "hearts", game.deck.suit_index("H")
    groups = arranged_hand(state, 0, held)
    assert [group.cards for group in groups] == [
        ("JD", "JH", "JC", "9H", "AH"), ("7D", "10D"), ("KS", "10S"), ("QC",)]
    assert [group.suit for group in groups] == ["", "D", "S", "C"]  # (a group of several suits names none)
    state.values["game"], state.values["trump"] = "null", None
    assert [group.cards for group in arranged_hand(state, 0, held)] == [
        ("7D", "10D", "JD"), ("9H", "JH", "AH"), ("10S", "KS"), ("JC", "QC")]


def test_a_hand_order_that_cannot_be_worked_out_yet_shows_the_hand_sorted_by_suit() -> None:
    # (its order reads a suit chosen at the first decision: before, a person's view still shows the hand)
    game = load_ruleset(ROOT / "tests" / "unit" / "playout_files" / "hand_order_unset.yaml")
    state = game.new_initial_state(seed=1, players=2)
    while state.current_player == CHANCE:
        state.apply_chance()
    hand = [state.card_text(card) for card in state.values["hand"][0]]
    assert table_view(state, 0).hand == sort_hand(game.deck, hand)
    state.apply("p0 choose hearts")  # (now the hearts come last)
    assert [card for group in table_view(state, 0).hand or () for card in group.cards] == \
        sorted(hand, key=lambda card: (card.endswith("H"), game.deck.parse_card(card)))


def test_hand_group_needs_hand_order(tmp_path: Path) -> None:
    text = (ROOT / "tests" / "games" / "skat.yaml").read_text(encoding="utf-8")
    start = text.index("  hand_order: |")
    end = text.index("  hand_group:")
    with pytest.raises(RulesetError, match="give `hand_order` too"):
        game_from_text(tmp_path, text[:start] + text[end:])


def _to_trick(path: Path, cards: int, seed: int) -> State:
    """A state whose trick holds `cards` cards, with a seat to play."""
    game = load_ruleset(path)
    state = game.new_initial_state(seed=seed, players=game.ruleset.players.default)
    choose = random_choices(seed)
    while len(state.values["trick"]) < cards or state.current_player == CHANCE:
        play_out(state, choose, 1)
    return state


@pytest.mark.parametrize("path", [ROOT / "rulesets" / "bourre.yaml", ROOT / "tests" / "games" / "whist.yaml"],
                         ids=_name)
def test_the_trick_shows_who_played_each_card(path: Path) -> None:
    """BR-19/BR-20: the trick is led, then played in turn; the view says who played each card."""
    state = _to_trick(path, 3, seed=5)
    plays = [action for action in state.history if action.kind == "play"][-3:]
    trick = next(zone for zone in table_view(state, state.current_player).zones if zone.name == "trick")
    assert trick.is_trick
    assert trick.cards == tuple(state.card_text(action.card) for action in plays)
    assert trick.played_by == tuple(f"p{action.seat}" for action in plays)


def test_burraco_melds_are_shown_with_the_ids_that_actions_use_and_each_wilds_role() -> None:
    """BU-18: melds belong to the team and either partner adds to them, by the meld's id (`add 9H to m2`);
    BU-19: a meld holds at most one wild card, shown with the card it stands for."""
    state = load_ruleset(ROOT / "rulesets" / "burraco.yaml").new_initial_state(seed=3, players=4)
    choose = random_choices(3)
    while not any("to m" in state.action_text(action) for action in
                  (state.legal_actions() if state.current_player >= 0 else [])):
        play_out(state, choose, 1)
    view = table_view(state, state.current_player)
    melds = {meld.id: (zone.owner, meld) for zone in view.zones for meld in zone.melds or ()}
    targets = {re.search(r"to (m[0-9]+)", action).group(1)  # type: ignore[union-attr]
               for action in view.legal_actions if " to m" in action}
    assert targets and targets <= set(melds)
    team = next(number for number, seats in enumerate(view.teams) if view.seat in seats)
    assert all(melds[target][0] == f"t{team}" for target in targets)  # one's own team's melds
    laid = sum(len(state.values["melds"][owner]) for owner in range(2))
    assert len(melds) == laid
    for _owner, meld in melds.values():
        for card in meld.cards:
            assert not card.stands_for or (card.card in ("JK",) or card.card.startswith("2"))
    text = view_text(view, state.game.deck.suits, styled=False)
    for meld_id in melds:
        assert re.search(rf"^ +{meld_id} ", text, re.M), text


def test_plain_text_has_no_colour_codes_and_a_terminal_has_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _to_trick(ROOT / "rulesets" / "bourre.yaml", 1, seed=5)
    view = table_view(state, state.current_player)
    suits = state.game.deck.suits
    assert "\x1b[" not in view_text(view, suits, styled=False)
    assert "\x1b[" in view_text(view, suits, styled=True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in view_text(view, suits)
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[" in view_text(view, suits)


def test_the_moves_of_cards_are_put_in_the_order_the_hand_is_shown() -> None:
    # The rules list a hand's cards in the zone's order (as dealt); a person reads the hand sorted, and the
    # terminal numbers the moves: the card moves follow the hand as shown, the other moves stay where they are.
    import dataclasses

    from interpreter.view import SuitGroup, in_hand_order
    state = load_ruleset(ROOT / "rulesets" / "bourre.yaml").new_initial_state(seed=5, players=3)
    while state.current_player == CHANCE:
        state.apply_chance()
    view = dataclasses.replace(
        table_view(state, state.current_player),
        hand=(SuitGroup("S", ("9S", "AS")), SuitGroup("D", ("4D", "7D"))),
        legal_actions=("p0 choose stop", "p0 play 7D", "p0 play AS", "p0 discard 9S", "p0 play 4D", "p0 choose go"))
    order = in_hand_order(view)
    assert [view.legal_actions[index] for index in order] == [
        "p0 choose stop", "p0 discard 9S", "p0 play AS", "p0 play 4D", "p0 play 7D", "p0 choose go"]


def test_a_simultaneous_round_is_flagged_with_the_seats_that_have_chosen() -> None:
    """Bourré's simultaneous declaration (BR-V4): while the round is open every seat's view says so, with the
    seats that have chosen; outside it, neither."""
    game = load_ruleset(ROOT / "rulesets" / "variants" / "simultaneous_declaration.yaml")
    state = game.new_initial_state(seed=5, players=3)
    choose = random_choices(5)
    seen_open = 0
    for _ in range(60):
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        views = [table_view(state, seat) for seat in range(3)]
        open_round = bool(state.open_rounds)
        assert all(view.simultaneous == open_round for view in views)
        if open_round:
            seen_open += 1
            made = {action.seat for action in state.history[-3:]} if state.chosen() else set()
            assert all(set(view.chosen) == set(state.chosen()) <= made for view in views)
            assert state.current_player not in views[0].chosen
        else:
            assert all(view.chosen == () for view in views)
        state.apply(choose(state))
    assert seen_open >= 3


def test_a_seats_value_not_set_yet_reads_unset_not_hidden(tmp_path: Path) -> None:
    """A public per-seat variable whose values are null until each seat bids (a Spades bid) reads `-` for the
    seats that have not bid, not `?`, which means a value the seat may not see (docs/table-view.md)."""
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    text = text.replace("variables:\n", "variables:\n  - {name: bid, type: int, per: seat, initial: null}\n"
                        "  - {name: secret_bid, type: int, per: seat, initial: null, visibility: owner}\n", 1)
    text = text.replace("variables: [{name: trump, label: trumps},", "variables: [{name: bid}, {name: secret_bid}, "
                        "{name: trump, label: trumps},")
    state = game_from_text(tmp_path, text).new_initial_state(seed=1, players=2)
    while state.current_player == CHANCE:
        state.apply_chance()
    state.values["bid"][1] = 3
    state.values["secret_bid"][1] = 3
    view = table_view(state, 0)
    views = {variable.name: variable for variable in view.variables}
    assert views["bid"].text == ["-", "3"] and views["bid"].value == [None, 3]
    assert views["secret_bid"].text == ["-", None] and views["secret_bid"].value == [None, None]
    lines = view_text(view, state.game.deck.suits, styled=False).splitlines()
    assert "Bid: p0 (you) - · p1 3" in lines and "Secret bid: p0 (you) - · p1 ?" in lines, lines


def test_a_pile_shows_its_top_card_and_a_spread_shows_none() -> None:
    # (the top of a pile is the card a draw or a capture takes; cards laid side by side, as `show.zones` sorts a
    # zone, have no top: Scopa's table, Bridge's dummy)
    from interpreter.runners.table_text import CardPainter, _table_zone
    from interpreter.view import ZoneView
    painter = CardPainter(["S", "H", "D", "C"])
    pile = ZoneView("discards", "discards", cards=("8S", "4D", "5H"))
    spread = ZoneView("table", "table", cards=("4D", "5H", "8S"), spread=True)
    assert _table_zone(pile, painter).plain.endswith("(top: 5H, 3 cards)")
    assert _table_zone(spread, painter).plain.endswith("(3 cards)") and "top" not in _table_zone(spread, painter).plain
    game = load_ruleset(ROOT / "tests" / "games" / "bridge.yaml")
    state = game.new_initial_state(seed=1, players=4)
    shown = {zone.name: zone.spread for zone in table_view(state, 0).zones if zone.owner == ""}
    assert shown == {"trick": False, "dummy": True}  # (bridge.yaml shows the dummy `sorted`)


def test_the_last_moves_line_drops_older_moves_rather_than_cut_one_in_two() -> None:
    import dataclasses

    state = _to_trick(ROOT / "rulesets" / "bourre.yaml", 1, seed=5)
    view = dataclasses.replace(table_view(state, state.current_player),
                               recent=["p1 choose play discard 3", "p2 discard (hidden)", "p2 is served 2",
                                       "p0 choose play discard 0"])
    suits = state.game.deck.suits
    wide = [line for line in view_text(view, suits, styled=False, width=200).splitlines()
            if line.startswith("Last:")]
    assert wide == ["Last: " + " · ".join(view.recent)]
    narrow = view_text(view, suits, styled=False, width=60).splitlines()
    (last,) = [line for line in narrow if line.startswith("Last:")]
    assert last == "Last: p2 is served 2 · p0 choose play discard 0"  # (the latest that fit, whole)
    assert narrow[narrow.index(last) + 1].startswith("Your hand")


def test_the_dealers_turned_up_card_is_marked_in_their_own_hand() -> None:
    # BR-07/BR-08: the dealer's last card is turned face up and stays face up in their hand. Every other seat
    # sees it there; the dealer's own view says so (at the terminal and in the JSON the browser table draws),
    # and no other seat's hand is marked.
    game = load_ruleset(ROOT / "rulesets" / "bourre.yaml")
    state = game.new_initial_state(seed=3, players=3)
    while state.current_player == CHANCE:
        state.apply_chance()
    dealer = state.values["dealer"]
    turned = state.card_text(state.values["turned"])
    own = state.observation(dealer)["zones"]["hand"][dealer]
    assert own["face_up"] == [turned] and turned in own["cards"]
    assert "face_up" not in state.observation(dealer)["zones"]["trick"]  # (a zone every seat sees: none to mark)
    other = (dealer + 1) % 3
    assert state.observation(other)["zones"]["hand"][dealer]["face_up"] == [turned]
    assert "face_up" not in state.observation(other)["zones"]["hand"][other]
    view = table_view(state, dealer)
    assert view.hand_face_up == (turned,) and json.loads(json.dumps(view.to_dict()))["hand_face_up"] == [turned]
    hand_line = view_text(view, game.deck.suits, styled=False).splitlines()[-1]
    assert hand_line.startswith("Your hand") and hand_line.endswith(f"face up, seen by all: {turned}")
    assert table_view(state, other).hand_face_up == ()
    assert "face up, seen by all" not in view_text(table_view(state, other), game.deck.suits, styled=False)


def test_a_trick_gathered_without_face_down_is_warned_of_and_seen_by_every_seat(tmp_path: Path) -> None:
    """A card keeps its face when it moves (docs/ruleset-format.md, zones), and a played card lies face up: a
    trick moved into a pile of won tricks without `face: down` stays face up there, every old trick readable by
    every seat (in Spades, pagat: quitted tricks may not be looked through). `validate` warns of it, at the
    move; with `face: down` the pile shows its count alone."""
    from interpreter.loader import validate_file

    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    assert "              face: down\n" in text
    open_piles = tmp_path / "open.yaml"
    open_piles.write_text(text.replace("              to: won[winner]\n              face: down\n",
                                       "              to: won[winner]\n"), encoding="utf-8")
    findings = validate_file(str(open_piles))
    assert [(d.code, d.severity, d.yaml_path) for d in findings] == [
        ("face-up-trick", "warning", "hand.phases[1].steps[0].then[1].to")]
    for path, seen in ((open_piles, True), (ROOT / "tests" / "games" / "tiny.yaml", False)):
        state = load_ruleset(path).new_initial_state(seed=1, players=3)
        while not any(state.values["won"]):
            if state.current_player == CHANCE:
                state.apply_chance()
            else:
                state.apply(state.legal_actions()[0])
        owner = next(seat for seat in range(3) if state.values["won"][seat])
        other = (owner + 1) % 3
        assert bool(state.observation(other)["zones"]["won"][owner].get("face_up")) is seen
    assert validate_file(str(ROOT / "tests" / "games" / "tiny.yaml")) == []


def test_how_the_last_hand_ended_is_shown_until_the_seat_moves_in_the_next() -> None:
    # A person at the web table saw the closing discard, then the next hand at once: the last cards played and
    # the settlement's lines (BR-32: who takes the pot; BR-34: who is bourré and pays) were in the log alone.
    state = load_ruleset(ROOT / "rulesets" / "bourre.yaml", {"hands": 2}).new_initial_state(seed=3, players=4)
    choices = random_choices(1)
    seat = 2
    while state.values["hand_number"] == 1:
        assert table_view(state, seat).previous_hand == ()  # (no hand before the first)
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(choices(state))
    events = state.events
    started = max(index for index, event in enumerate(events) if event["type"] == "hand")  # (hand 2's start)
    ended = [event["text"] for event in events[:started] if event["type"] == "log"][-3:]
    while state.current_player != seat:
        view = table_view(state, seat, recent=12, since_own=200)
        assert view.hand_number == 2 and view.previous_hand[-3:] == tuple(ended)
        assert any(" wins the trick" in line for line in view.previous_hand)
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(choices(state))
    state.apply(choices(state))  # the seat's first move of the hand: the last one is behind it
    assert table_view(state, seat).previous_hand == ()


def test_the_stock_is_shown_when_it_has_run_out() -> None:
    # Go Fish (a seat with no cards draws, or is out when the stock is empty): the `stock` line disappeared when
    # the stock ran out, the one fact the players then needed. Other empty piles are still left off.
    import dataclasses

    state = _to_trick(ROOT / "rulesets" / "bourre.yaml", 1, seed=5)
    view = table_view(state, state.current_player)
    assert view.deck_zone == "stock"
    run_out = dataclasses.replace(view, zones=tuple(dataclasses.replace(zone, count=0) if zone.name == "stock"
                                                    else zone for zone in view.zones))
    lines = view_text(run_out, state.game.deck.suits, styled=False, width=200).splitlines()
    assert [line for line in lines if line.lower().startswith("stock")] == ["Stock: empty"]
    assert not any(line.lower().startswith("earlier tricks") for line in lines)  # (empty: left off)
