"""ruledeck: a card-game interpreter. Games are YAML rulesets; this package loads, checks and runs them."""

from interpreter.errors import (
    Diagnostic,
    EvaluationError,
    ExpressionError,
    ParameterError,
    RuledeckError,
    RulesetError,
)
from interpreter.loader import load_ruleset, validate_file
from interpreter.model import Ruleset

__all__ = ["Diagnostic", "EvaluationError", "ExpressionError", "ParameterError", "RuledeckError", "Ruleset",
           "RulesetError", "load_ruleset", "validate_file"]
