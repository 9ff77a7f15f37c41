"""load_ruleset(): a ruleset file, or a bundled ruleset's name, to a checked, compiled ruleset ready to play: the
one kept from an earlier load of the same files and parameters (ruleset_cache.py), else one loaded afresh
(checking.py: the whole pipeline, imported only then).
"""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import Any

from interpreter import ruleset_cache
from interpreter.bundled import resolve_ruleset
from interpreter.engine.game import Game
from interpreter.errors import Diagnostic, ParameterError, RulesetError, shorten
from interpreter.model import Ruleset
from interpreter.source import ScalarNode


def load_ruleset(path: str | Path, params: Mapping[str, Any] | None = None, *,
                 params_as_text: bool = False) -> Game:
    """Load a ruleset (or a variant) as a Game ready to play: `game.new_initial_state(seed=7, players=5)`.
    `path` is a file, or the name of a bundled ruleset (its file name without `.yaml`: `ruledeck list` shows them).
    Raises RulesetError with every finding, UnknownRulesetError for a name that is neither, or ParameterError
    for a parameter value the ruleset does not accept (`params_as_text` parses `--set` text)."""
    if isinstance(path, str):
        path = resolve_ruleset(path)
    return Game(compile_ruleset(path, params, params_as_text=params_as_text))


def compile_ruleset(path: str | Path, params: Mapping[str, Any] | None = None, *,
                    params_as_text: bool = False) -> Ruleset:
    """Load, check and compile a ruleset into its frozen specification (see load_ruleset)."""
    if not isinstance(path, (str, PathLike)):
        raise TypeError(f"a ruleset is a file's path or a bundled ruleset's name, not {shorten(repr(path))}")
    if params is not None and not (isinstance(params, Mapping) and all(isinstance(name, str) for name in params)):
        raise ParameterError(f"the parameters are a mapping of their names to values (`{{\"hands\": 5}}`), not "
                             f"{shorten(repr(params))}")
    try:
        return _compile(path, params, params_as_text=params_as_text)
    except RecursionError:  # the bounds on nesting should make this unreachable; if not, still a plain answer
        raise RulesetError([Diagnostic("nesting-limit", "the ruleset nests too deeply to be checked",
                                       path=str(path), hint="look for deeply nested lists, steps or expressions")]
                           ) from None


def _compile(path: str | Path, params: Mapping[str, Any] | None, *, params_as_text: bool) -> Ruleset:
    """The ruleset kept from an earlier load of the same files and parameters (ruleset_cache.py), else loaded,
    checked and compiled here (and kept, when it has no error)."""
    key = ruleset_cache.key_for(path, params, params_as_text)
    if key is not None:
        kept = ruleset_cache.load(key[0])
        if kept is not None:
            return kept
    from interpreter.checking import compile_afresh

    ruleset = compile_afresh(path, params, params_as_text=params_as_text)
    if key is not None:
        ruleset_cache.keep(key[0], key[1], ruleset)
    return ruleset


def validate_file(path: str | Path, params: Mapping[str, Any] | None = None, *,
                  params_as_text: bool = False) -> list[Diagnostic]:
    """Every finding about one ruleset file (errors and warnings); an empty list when it is clean."""
    return check_file(path, params, params_as_text=params_as_text)[0]


def check_file(path: str | Path, params: Mapping[str, Any] | None = None, *,
               params_as_text: bool = False) -> tuple[list[Diagnostic], Ruleset | None]:
    """Every finding about one ruleset file, and the ruleset when it has no error."""
    try:
        ruleset = compile_ruleset(path, params, params_as_text=params_as_text)
    except RulesetError as error:
        return error.diagnostics, None
    return list(ruleset.warnings), ruleset


__all__ = ["ScalarNode", "check_file", "load_ruleset", "validate_file"]
