"""ruledeck: a card-game interpreter. Games are YAML rulesets; this package loads, checks and runs them."""

from interpreter.actions import Action
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

__all__ = ["CHANCE", "TERMINAL", "Action", "Diagnostic", "EvaluationError", "ExpressionError", "Game",
           "IllegalActionError", "ParameterError", "RuledeckError", "Ruleset", "RulesetError", "RulesetRuntimeError",
           "State", "compile_ruleset", "load_ruleset", "validate_file"]
