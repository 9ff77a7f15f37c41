"""The public API over no rules at all, for the benchmarks' "API floor": a caller's policy driven through it
costs what the caller's loop and the API's shape cost by themselves, the least any engine decided through
`legal_actions()` and `apply()` can cost."""

from __future__ import annotations

from typing import Any


class RulelessState:
    """Replays the decisions of recorded engine play (their legal sets as the engine gave them, and what the
    policy reads of the state's values at each) whatever is chosen, for `decisions` decisions, going round the
    script."""

    def __init__(self, script: list[list[Any]], decisions: int, values: list[dict[str, Any]] | None = None) -> None:
        if values is not None and len(values) != len(script):
            raise ValueError(f"{len(values)} sets of values for {len(script)} decisions")
        self.script = script
        self.scripted_values = values
        self.remaining = decisions
        self.position = 0
        self.legal: dict[Any, int] | None = None
        self.current_player = 0  # (plain attributes, as the engine's)
        self.is_terminal = decisions <= 0
        self.values: dict[str, Any] = values[0] if values else {}

    def legal_actions(self) -> list[Any]:
        if self.legal is None:
            self.legal = dict.fromkeys(self.script[self.position], 0)
        return list(self.legal)

    def apply(self, action: Any) -> None:
        if self.legal is None or action not in self.legal:
            raise ValueError(f"{action} is not legal")
        self.legal = None
        self.position = (self.position + 1) % len(self.script)
        if self.scripted_values is not None:
            self.values = self.scripted_values[self.position]
        self.remaining -= 1
        self.is_terminal = self.remaining <= 0
