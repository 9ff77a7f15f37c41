"""`max_added_per_end` on a kind of run: the cards added beyond each end of a run are counted from the run as it
was laid, whoever adds them and in whatever order; a kind without it is not limited (docs/ruleset-format.md,
melds)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from interpreter import load_ruleset
from interpreter.engine.melds import Meld, MeldRules

ROOT = Path(__file__).resolve().parents[2]


def rules(path: str) -> MeldRules:
    found = load_ruleset(ROOT / path).meld_rules
    assert found is not None
    return found


def laid(meld_rules: MeldRules, *texts: str) -> Meld:
    deck = meld_rules.deck
    cards = Counter(deck.parse_card(text) for text in texts)
    wanted = sorted(cards.elements())
    return next(meld for meld, _ in meld_rules.search(cards, 0, []) if sorted(meld.cards) == wanted)


def grown(meld_rules: MeldRules, meld: Meld | None, *texts: str) -> Meld | None:
    for text in texts:
        if meld is None:
            return None
        meld = meld_rules.add(meld, meld_rules.deck.parse_card(text))
    return meld


def test_two_cards_at_each_end_and_no_third() -> None:
    limited = rules("tests/games/variants/rummy500_short_runs.yaml")
    run = laid(limited, "5D", "6D", "7D")
    longest = grown(limited, run, "8D", "4D", "9D", "3D")
    assert longest is not None and len(longest.cards) == 7
    assert grown(limited, longest, "10D") is None and grown(limited, longest, "2D") is None


def test_the_ends_are_those_of_the_run_as_laid_not_of_the_last_addition() -> None:
    limited = rules("tests/games/variants/rummy500_short_runs.yaml")
    run = grown(limited, laid(limited, "5D", "6D", "7D"), "8D")
    assert run is not None and grown(limited, run, "9D") is not None
    assert grown(limited, run, "9D", "10D") is None  # (three above 7D, the top as laid)
    assert grown(limited, run, "4D", "3D") is not None  # (the other end is counted apart)


def test_a_kind_without_the_limit_grows_freely() -> None:
    free = rules("tests/games/rummy500.yaml")
    run = grown(free, laid(free, "5D", "6D", "7D"), "8D", "9D", "10D", "JD", "4D", "3D", "2D")
    assert run is not None and len(run.cards) == 10
