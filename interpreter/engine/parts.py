"""What the parts of State (its mixins) may use of each other: declarations for the type checker only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.engine.log import Log
    from interpreter.engine.meldsearch import MeldSearch
    from interpreter.engine.program import Expr
    from interpreter.engine.zones import FaceUp, ZoneKey

Bindings = dict[str, Any]


class StateParts:
    """The base of State's parts; State itself provides everything declared here."""

    if TYPE_CHECKING:
        game: Game
        values: dict[str, Any]
        face_up: FaceUp
        pc: int
        locals: list[Any]
        open_rounds: tuple[int, ...]
        first_leader: int | None
        melds_laid: int
        meld_search: MeldSearch | None
        player_count: int
        terminal: bool
        ended_by: str
        ending_match: bool
        phase: str
        hand_results: list[dict[str, Any]]
        _events: Log

        def evaluate(self, expression: Expr, bindings: Bindings, values: dict[str, Any] | None = None) -> Any: ...
        def evaluate_kept(self, expression: Expr, scratch: Bindings, values: dict[str, Any] | None = None) -> Any: ...
        def card_text(self, card: int) -> str: ...
        def returns(self) -> list[int]: ...
        def _advance(self) -> None: ...
        def _zone_list(self, key: ZoneKey) -> list[int]: ...
