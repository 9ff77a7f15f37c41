"""ruledeck: a card-game interpreter. Games are YAML rulesets; this package loads, checks and runs them.

Names are imported when first used (PEP 562), so that a command that needs little (a `validate` answered
from the cache) starts fast."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.actions import Action, ActionSyntaxError
    from interpreter.agents import make_agent
    from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
    from interpreter.engine.game import Game
    from interpreter.engine.state import CHANCE, TERMINAL, State
    from interpreter.errors import (
        Diagnostic,
        EvaluationError,
        ExpressionError,
        ParameterError,
        RuledeckError,
        RulesetError,
    )
    from interpreter.loader import compile_ruleset, load_ruleset, validate_file
    from interpreter.model import Ruleset

_WHERE = {
    **dict.fromkeys(["Action", "ActionSyntaxError"], "interpreter.actions"),
    **dict.fromkeys(["make_agent"], "interpreter.agents"),
    **dict.fromkeys(["IllegalActionError", "RulesetRuntimeError"], "interpreter.engine.errors"),
    **dict.fromkeys(["Game"], "interpreter.engine.game"),
    **dict.fromkeys(["CHANCE", "TERMINAL", "State"], "interpreter.engine.state"),
    **dict.fromkeys(["Diagnostic", "EvaluationError", "ExpressionError", "ParameterError", "RuledeckError",
                     "RulesetError"], "interpreter.errors"),
    **dict.fromkeys(["compile_ruleset", "load_ruleset", "validate_file"], "interpreter.loader"),
    **dict.fromkeys(["Ruleset"], "interpreter.model"),
}

__all__ = ["CHANCE", "TERMINAL", "Action", "ActionSyntaxError", "Diagnostic", "EvaluationError", "ExpressionError",
           "Game", "IllegalActionError", "ParameterError", "RuledeckError", "Ruleset", "RulesetError",
           "RulesetRuntimeError", "State", "compile_ruleset", "load_ruleset", "make_agent", "validate_file"]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
