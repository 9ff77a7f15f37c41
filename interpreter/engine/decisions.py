"""Decisions: the complete, ordered set of legal actions for a pending decision, and the check of one
action that names the clause refusing it."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.actions import Action
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.program import Clause, Option

if TYPE_CHECKING:
    from interpreter.engine.state import State

Bindings = dict[str, Any]


@dataclass(slots=True)
class Pending:
    """A decision waiting for an action: who decides, between which options, with which names bound."""

    seat: int
    options: tuple[Option, ...]
    bindings: Bindings
    where: str


def legal_actions(state: State, pending: Pending) -> dict[Action, Option]:
    """Every legal action with the option it takes, in a fixed order: options as the ruleset lists them; cards
    in zone order; choices' arguments in the order their lists give."""
    found: dict[Action, Option] = {}
    seat = pending.seat
    for option in pending.options:
        kind = option.kind
        if kind == "choose":
            for arguments in _argument_combinations(state, option, pending.bindings):
                bindings = {**pending.bindings, **dict(arguments)}
                if _first_failure(state, option.clauses, bindings) is None:
                    found[Action(seat, "choose", name=option.name, arguments=arguments)] = option
        elif kind in ("play", "discard"):
            bindings = dict(pending.bindings)  # one dict for every card: what does not depend on it is kept
            assert option.source is not None
            _, cards = state.zone(option.source, pending.bindings)
            candidates = list(dict.fromkeys(cards))
            if option.card_filter is not None:
                try:
                    allowed = option.card_filter(state.values, bindings, candidates)
                except Exception:  # name the failure: test the clauses one by one, which locates it
                    allowed = [c for c in candidates if _passes(state, option, {**pending.bindings, "card": c})]
            else:
                allowed = [c for c in candidates if _passes(state, option, {**bindings, "card": c})]
            action_for = state.game.card_action
            for card in allowed:
                found[action_for(seat, kind, card)] = option
        elif kind in ("draw", "take"):
            assert option.source is not None
            _, cards = state.zone(option.source, pending.bindings)
            if not cards:
                continue
            bindings = {**pending.bindings, "cards": [cards[-1]] if kind == "draw" else list(cards)}
            if _first_failure(state, option.clauses, bindings) is None:
                found[Action(seat, kind, name=option.name)] = option
        else:
            raise RulesetRuntimeError(f"`{kind}` options are not supported by this engine yet", option.where)
    return found


def bindings_for(state: State, pending: Pending, option: Option, action: Action) -> Bindings:
    """The names an action of the legal set binds for its option's steps (no checks: it is known legal)."""
    if option.kind in ("play", "discard"):
        return {**pending.bindings, "card": action.card}
    if option.kind == "choose":
        return {**pending.bindings, **dict(action.arguments)}
    assert option.source is not None
    _, cards = state.zone(option.source, pending.bindings)
    return {**pending.bindings, "cards": [cards[-1]] if option.kind == "draw" else list(cards)}


def check(state: State, pending: Pending, action: Action) -> tuple[Option, Bindings]:
    """The option an action takes and the names it binds; IllegalActionError with the reason otherwise."""
    if action.seat != pending.seat:
        raise IllegalActionError(f"it is p{pending.seat}'s turn, not p{action.seat}'s")
    candidates = [o for o in pending.options if o.kind == action.kind and (action.kind in ("play", "discard")
                                                                          or o.name == action.name)]
    if not candidates:
        offered = ", ".join(sorted({_describe(o) for o in pending.options}))
        raise IllegalActionError(f"p{action.seat} cannot {action.kind}"
                                 f"{' ' + action.name if action.name else ''} now; the choices are: {offered}")
    refusal: IllegalActionError | None = None
    for option in candidates:
        try:
            return option, _check_option(state, pending, option, action)
        except IllegalActionError as error:
            refusal = refusal or error
    assert refusal is not None
    raise refusal


def _check_option(state: State, pending: Pending, option: Option, action: Action) -> Bindings:
    bindings = dict(pending.bindings)
    if option.kind == "choose":
        declared = dict(option.arguments)
        given = dict(action.arguments)
        if set(given) != set(declared):
            wanted = " ".join(f"{name} N" for name in declared) or "no arguments"
            raise IllegalActionError(f"`choose {option.name}` takes {wanted}")
        for name, expression in option.arguments:
            allowed = state.evaluate(expression, pending.bindings)
            if given[name] not in allowed:
                raise IllegalActionError(f"{name} must be one of {', '.join(map(str, allowed))}, not {given[name]}")
            bindings[name] = given[name]
    elif option.kind in ("play", "discard"):
        assert option.source is not None
        _, cards = state.zone(option.source, pending.bindings)
        if action.card not in cards:
            raise IllegalActionError(f"p{action.seat} has no {state.card_text(action.card)} in "
                                     f"{option.source.name}")
        bindings["card"] = action.card
    elif option.kind in ("draw", "take"):
        assert option.source is not None
        _, cards = state.zone(option.source, pending.bindings)
        if not cards:
            raise IllegalActionError(f"{option.source.name} is empty")
        bindings["cards"] = [cards[-1]] if option.kind == "draw" else list(cards)
    failure = _first_failure(state, option.clauses, dict(bindings))
    if failure is not None:
        raise IllegalActionError(f"{state.action_text(action)} is not allowed: {failure.reason}",
                                 reason=failure.reason)
    return bindings


def _passes(state: State, option: Option, bindings: Bindings) -> bool:
    return _first_failure(state, option.clauses, bindings) is None


def _first_failure(state: State, clauses: tuple[Clause, ...], bindings: Bindings) -> Clause | None:
    for clause in clauses:
        if not state.evaluate_kept(clause.rule, bindings):
            return clause
    return None


def _argument_combinations(state: State, option: Option, bindings: Bindings) -> list[tuple[tuple[str, Any], ...]]:
    if not option.arguments:
        return [()]
    names = [name for name, _ in option.arguments]
    lists = [state.evaluate(expression, bindings) for _, expression in option.arguments]
    return [tuple(zip(names, values, strict=True)) for values in itertools.product(*lists)]


def _describe(option: Option) -> str:
    if option.kind == "choose":
        return f"choose {option.name}"
    if option.kind in ("draw", "take"):
        return f"{option.kind} {option.name}"
    return option.kind
