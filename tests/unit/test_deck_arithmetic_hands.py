"""Deck arithmetic in every hand of a match whose number of hands is known before play: a deal that grows hand by
hand (`deal: hand_size`, a definition of `hand_number`, as Oh Hell deals one card more each hand) is counted in
each hand, and the first that does not fit the deck is named."""

from __future__ import annotations

from pathlib import Path

from interpreter import validate_file

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")


def _game(tmp_path: Path, deal: str, hands: str) -> Path:
    assert "        - deal: 5\n" in TINY and "  hands: params.hands\n" in TINY
    path = tmp_path / "game.yaml"
    path.write_text(TINY.replace("        - deal: 5\n", f"        - deal: {deal}\n")
                    .replace("  hands: params.hands\n", f"  hands: {hands}\n"), encoding="utf-8")
    return path


def test_a_deal_growing_past_the_deck_in_a_later_hand_is_an_error_naming_the_hand(tmp_path: Path) -> None:
    # 5, 10, 15 cards to each of 4 players: the third hand needs 60 of 52 (2 and 3 players fit)
    (finding,) = validate_file(_game(tmp_path, "hand_number * 5", "3"))
    assert (finding.code, finding.severity) == ("deck-arithmetic", "error")
    assert finding.message == "with 4 players in hand 3 this needs 60 cards from `stock`, but the deck has 52"
    assert "a match of 4 players has 3 hands or more" in (finding.hint or "")


def test_a_deal_growing_within_the_deck_for_every_hand_is_no_finding(tmp_path: Path) -> None:
    assert validate_file(_game(tmp_path, "hand_number * 5", "2")) == []


def test_the_hands_may_be_worked_out_from_the_players(tmp_path: Path) -> None:
    # (up to the most that fit, one more a hand: 52 // player_count hands; then down again would not fit)
    assert validate_file(_game(tmp_path, "hand_number", "52 // player_count()")) == []
    (finding,) = validate_file(_game(tmp_path, "hand_number", "52 // player_count() + 1"))
    assert finding.message == "with 2 players in hand 27 this needs 54 cards from `stock`, but the deck has 52"


def test_a_match_whose_length_play_decides_is_counted_in_its_first_hand(tmp_path: Path) -> None:
    # (`hands` not given: the match ends when its rules say; only the first hand is known)
    path = _game(tmp_path, "hand_number * 5", "3")
    path.write_text(path.read_text(encoding="utf-8").replace("  hands: 3\n", "").replace(
        "  ends_when: false\n", "  ends_when: hand_number >= 3\n"), encoding="utf-8")
    assert validate_file(path) == []
