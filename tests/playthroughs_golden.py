"""Golden playthroughs: one seeded match per playable ruleset, variant and test game, written as text (every
decision with its legal actions and the action taken, every chance outcome, the transcript and the result).
A change in behaviour shows as a line-by-line diff. Regenerate all of them, then review the diff:

    python tests/playthroughs_golden.py
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

from interpreter.engine.state import CHANCE
from interpreter.loader import load_ruleset
from interpreter.runners.transcript import describe

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "playthroughs"
SEED = 20261130
MAX_ACTIONS = 3000

# Parameters for a playthrough of reasonable length (a rummy's random bots rarely reach the target).
PARAMS = {path: {"hand_cap": 1} for path in (
    "rulesets/burraco.yaml", "rulesets/variants/burraco_bonuses.yaml", "rulesets/variants/burraco_internazionale.yaml",
    "rulesets/variants/burraco_target.yaml", "rulesets/variants/burraco_two_players.yaml",
    "rulesets/variants/burraco_three_players.yaml")}
SHOWN_LEGAL = 12


def ruleset_files() -> list[Path]:
    return sorted([*ROOT.glob("rulesets/**/*.yaml"), *ROOT.glob("tests/games/*.yaml")])


def golden_path(ruleset: Path) -> Path:
    relative = ruleset.relative_to(ROOT).with_suffix("")
    return GOLDEN / ("__".join(relative.parts) + ".txt")


def playthrough(ruleset: Path) -> str:
    """The text of one seeded match with random bots (a player count in the middle of the allowed range)."""
    game = load_ruleset(ruleset, PARAMS.get(ruleset.relative_to(ROOT).as_posix(), {}))
    players = game.ruleset.players.default
    state = game.new_initial_state(seed=SEED, players=players)
    bot = random.Random(SEED)
    lines = [f"ruleset: {ruleset.relative_to(ROOT).as_posix()}", f"players: {players}", f"seed: {SEED}", ""]
    shown = 0
    actions = 0
    while True:
        for event in state.events[shown:]:
            if event["type"] == "chance":
                lines.append(f"chance: {event['zone']} -> {' '.join(event['order'])}")
            else:
                line = describe(event)
                if line is not None:
                    lines.append(line.strip("\n") if event["type"] != "action" else f"action: {line}")
        shown = len(state.events)
        if state.is_terminal or actions >= MAX_ACTIONS:
            break
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        legal = state.legal_actions()
        texts = [state.action_text(a) for a in legal]
        if len(texts) > SHOWN_LEGAL:  # a long legal set: its size, a digest of all of it, and its first few
            digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:12]
            texts = [*texts[:SHOWN_LEGAL], f"... {len(legal)} in all, digest {digest}"]
        lines.append(f"p{state.current_player} to play, legal: {' | '.join(texts)}")
        state.apply(bot.choice(legal))
        actions += 1
    lines.append("")
    lines.append(f"terminal: {state.is_terminal}")
    lines.append(f"returns: {state.returns()}")
    return "\n".join(lines) + "\n"


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    written = 0
    for ruleset in ruleset_files():
        golden_path(ruleset).write_text(playthrough(ruleset), encoding="utf-8")
        written += 1
    print(f"wrote {written} playthroughs to {GOLDEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
