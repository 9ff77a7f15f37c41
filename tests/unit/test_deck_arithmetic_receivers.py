"""Deck arithmetic over a deal whose receivers are known only as the game runs (`seats:` worked out from the
state): `validate` warns at the fewest players for whom a deal to every seat would not fit the deck, as a
variant that raises `players.max` past what the deal allows would find only by playing."""

from __future__ import annotations

from pathlib import Path

from interpreter import validate_file

ROOT = Path(__file__).resolve().parents[2]
DEAL = "        - deal: 15\n          from: stock\n"


def _game(tmp_path: Path, players: str) -> Path:
    text = (ROOT / "tests" / "bad_rulesets" / "deck_arithmetic_deal_15.yaml").read_text(encoding="utf-8")
    assert DEAL in text and "players: {min: 2, max: 4, default: 4}" in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(DEAL, DEAL + "          seats: \"[p for p in seats() if size(won[p]) == 0]\"\n")
                    .replace("players: {min: 2, max: 4, default: 4}", players), encoding="utf-8")
    return path


def test_a_deal_to_seats_known_only_in_play_warns_where_every_seat_would_not_fit(tmp_path: Path) -> None:
    (finding,) = validate_file(_game(tmp_path, "players: {min: 2, max: 5, default: 3}"))
    assert (finding.code, finding.severity) == ("deck-arithmetic", "warning")
    assert finding.message == ("with 4 players, if every deal of the opening goes to every seat, this needs 60 "
                               "cards from `stock`, but the deck has 52")  # (4 players: the fewest; once)
    assert finding.yaml_path == "hand.phases[0].steps[1]"


def test_no_warning_where_every_seat_fits(tmp_path: Path) -> None:
    assert validate_file(_game(tmp_path, "players: {min: 2, max: 3, default: 3}")) == []
