"""Decisions: the complete, ordered set of legal actions for a pending decision, and the check of one
action that names the clause refusing it."""

from __future__ import annotations

import difflib
import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from interpreter.actions import Action, argument_text, frozen, meld_sizes, thawed
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.melds import Meld, counted
from interpreter.engine.meldsearch import groups, meld_groups, new_melds
from interpreter.engine.program import Clause, Option

if TYPE_CHECKING:
    from interpreter.engine.state import State

Bindings = dict[str, Any]


LegalSet = tuple[list[Action], "Option | dict[Action, Option]"]
"""A decision's legal set: its actions in their order, with the option every one of them takes (a decision of
one option, the common case: no action is hashed) or a dict giving each one's (`option_of`, `as_dict`). The
list is never changed: it may be the game's own list of a choice's actions (`Game.choice_actions`)."""


def option_of(legal: LegalSet, action: Action) -> Option | None:
    """The option a legal action takes; None for an action the legal set does not hold."""
    options = legal[1]
    if isinstance(options, dict):
        return options.get(action)
    return options if action in legal[0] else None


def as_dict(legal: LegalSet) -> dict[Action, Option]:
    """The legal set as a dict: each action with its option, in order."""
    options = legal[1]
    return options if isinstance(options, dict) else dict.fromkeys(legal[0], options)


class Pending(NamedTuple):
    """A decision waiting for an action: who decides, between which options, with which names bound. (A tuple:
    the hand's code makes one per decision with `tuple.__new__`, the cheapest way Python has.)"""

    seat: int
    options: tuple[Option, ...]
    bindings: Bindings
    where: str
    finder: Callable[[State, Pending], LegalSet] | None = None  # the decision's own legal-set code


# A choice made in a simultaneous round, waiting for the round's end: its option, the action, its bindings and the
# decision it answered (engine/handcode.py keeps them; a copy dealt again draws another seat's again from it).
Deferred = tuple[Option, Action, Bindings, Pending]


def legal_actions(state: State, pending: Pending) -> LegalSet:
    """Every legal action with the option it takes, in a fixed order: options as the ruleset lists them; cards
    in zone order; choices' arguments in the order their lists give."""
    found: dict[Action, Option] = {}
    seat = pending.seat
    # One scratch copy of the bindings for the whole decision: the definitions that read nothing that differs
    # between actions (VOLATILE_NAMES, choices' arguments) are worked out once in it; each candidate's own names
    # (arguments, `cards`, `meld`, `after`) are bound in it in turn.
    shared: Bindings | None = None
    choice = state.game.choice_action
    for option in pending.options:
        kind = option.kind
        if kind == "choose":
            if shared is None:
                shared = dict(pending.bindings)
            if not option.arguments:
                if option.breakable:
                    _offer_breaking(state, found, option, choice(seat, option.name, ()), shared)
                elif _first_failure(state, option.clauses, shared) is None:
                    found[choice(seat, option.name, ())] = option
                continue
            lists = tuple(frozen(state.evaluate_kept(expression, shared)) for _, expression in option.arguments)
            if not option.clauses:  # every combination of the arguments' values: the same actions each time
                found.update(dict.fromkeys(state.game.choice_actions(seat, option, lists), option))
                continue
            names = [name for name, _ in option.arguments]
            # The arguments are bound in a copy of their own: a name such as `player` keeps its value for the
            # options that follow (what reads no argument is worked out once in it, for every combination).
            scratch = dict(shared)
            if option.choice_filter is not None and not option.breakable:
                try:  # every combination at once
                    allowed = option.choice_filter(state.values, scratch, list(itertools.product(*lists)))
                except Exception:  # name the failure: the combinations one by one locate it
                    allowed = None
                if allowed is not None:
                    for values in allowed:
                        found[choice(seat, option.name, tuple(zip(names, values, strict=True)))] = option
                    continue
                scratch = dict(shared)
            for values in itertools.product(*lists):
                for name, value in zip(names, values, strict=True):
                    scratch[name] = thawed(value)
                if option.breakable:
                    _offer_breaking(state, found, option, choice(seat, option.name, tuple(zip(names, values,
                                                                                                strict=True))), scratch)
                elif _first_failure(state, option.clauses, scratch) is None:
                    found[choice(seat, option.name, tuple(zip(names, values, strict=True)))] = option
        elif kind in ("play", "discard"):
            assert option.source is not None
            _, cards = state.cards.zone(state, option.source, pending.bindings)
            candidates = cards if state.game.unique_cards else list(dict.fromkeys(cards))
            if option.card_filter is not None:
                if shared is None:
                    shared = dict(pending.bindings)
                try:  # the decision's scratch copy: what does not depend on the card is kept in it, for every option
                    allowed = option.card_filter(state.values, shared, candidates)
                except Exception:  # name the failure: test the clauses one by one, which locates it
                    each = preferred(state, option, pending.bindings, candidates)
                    allowed = [c for c in candidates if _passes(state, option, {**each, "card": c})]
                restore(shared, pending.bindings, ("card",))
            elif option.clauses:
                each = preferred(state, option, pending.bindings, candidates)
                allowed = [c for c in candidates if _passes(state, option, {**each, "card": c})]
            else:
                allowed = candidates
            actions = state.game.card_actions(seat, kind)
            if option.breakable:  # each card in turn: a legal one, or one that breaks only what may be broken
                kept = set(allowed)
                each = preferred(state, option, pending.bindings, candidates)
                for card in candidates:
                    if card in kept:
                        found[actions[card]] = option
                    else:
                        _offer_breaking(state, found, option, actions[card], {**each, "card": card})
                continue
            if len(pending.options) == 1:
                return [actions[card] for card in allowed], option
            for card in allowed:
                found[actions[card]] = option
        elif option.meld_top is not None:
            if shared is None:
                shared = dict(pending.bindings)
            _take_melding_actions(state, pending, option, found, shared)
        elif kind in ("draw", "take"):
            assert option.source is not None
            _, cards = state.cards.zone(state, option.source, pending.bindings)
            if not cards:
                continue
            if option.any_depth:  # the top N cards, for every N
                for count in range(1, len(cards) + 1):
                    if _passes(state, option, {**pending.bindings, "cards": cards[len(cards) - count:]}):
                        found[Action(seat, kind, name=option.name, target=count)] = option
                continue
            if shared is None:
                shared = dict(pending.bindings)
            shared["cards"] = [cards[-1]] if kind == "draw" else list(cards)
            if _first_failure(state, option.clauses, shared) is None:
                found[Action(seat, kind, name=option.name)] = option
            restore(shared, pending.bindings, ("cards",))
        else:
            if shared is None:
                shared = dict(pending.bindings)
            _meld_actions(state, pending, option, found, shared)
    return list(found), found


def broken_clauses(state: State, clauses: tuple[Clause, ...], bindings: Bindings) -> tuple[Clause, ...] | None:
    """The clauses an action breaks when each clause that fails may be broken now (`breakable` holds): () when
    none fails; None when a clause that may not be broken fails."""
    broken = []
    for clause in clauses:
        if state.evaluate_kept(clause.rule, bindings):
            continue
        if clause.breakable is None or not state.evaluate_kept(clause.breakable, bindings):
            return None
        broken.append(clause)
    return tuple(broken)


def _offer_breaking(state: State, found: dict[Action, Option], option: Option, action: Action,
                    bindings: Bindings) -> None:
    """Offer an action of an option some of whose clauses may be broken: when it is legal, or breaks only clauses
    that may be broken now (those are kept in `state.breaking`: the action is marked, and recorded when taken)."""
    broken = broken_clauses(state, option.clauses, bindings)
    if broken is None:
        return
    found[action] = option
    if broken:
        state.breaking[action] = broken


def _meld_actions(state: State, pending: Pending, option: Option, found: dict[Action, Option],
                  shared: Bindings) -> None:
    """The valid new melds (`meld`) or additions (`add`) the rules allow, each with the meld it makes.

    `shared` is the decision's scratch copy of its bindings: the definitions kept in it read no name that
    differs between actions (see VOLATILE_NAMES), so one copy serves every meld; each candidate's `cards`,
    `after` (and `meld`) are bound in turn in a copy of it (`_allowed`)."""
    rules = state.game.meld_rules
    if rules is None:  # pragma: no cover - the loader refuses meld options without a `melds:` section
        raise RulesetRuntimeError("a `meld` or `add` option needs a `melds:` section", option.where)
    assert option.source is not None and option.destination is not None
    if any(not clause.per_action and not state.evaluate_kept(clause.rule, shared) for clause in option.clauses):
        return  # a clause that no meld can satisfy (`drawn` is false): no need to look for melds
    _, hand = state.cards.zone(state, option.source, shared, scratch=True)
    key, table = state.cards.table(state, option.destination, shared, scratch=True)
    melds_into(state, pending, option, found, shared, hand, table, key)


def melds_into(state: State, pending: Pending, option: Option, found: dict[Action, Option], shared: Bindings,
               hand: list[int], table: list[Meld], key: tuple[str, int]) -> None:
    """`_meld_actions` once its clauses that read no meld hold, with the option's zones found: the hand, and the
    zone of melds with its key. A decision's own legal-set code calls it (see sitecode.py)."""
    rules = state.game.meld_rules
    if rules is None:  # pragma: no cover - the loader refuses meld options without a `melds:` section
        raise RulesetRuntimeError("a `meld` or `add` option needs a `melds:` section", option.where)
    assert option.destination is not None
    seat = pending.seat
    # The clauses that read the meld are tested for each one; the others hold for all (tested by the caller).
    per_meld = option.per_action_clauses
    plans = state.meld_plans
    if option.kind == "meld" and option.at_once > 1:  # one to `at_once` melds laid as one action
        laid: Sequence[tuple[tuple[Meld, ...], Action]] = meld_groups(state, rules, seat, hand, key[1], table,
                                                                      option.at_once, option.where)
        if per_meld:
            laid = _allowed(state, option, per_meld, shared, laid, _bind_group)
        for group, action in laid:
            if found.setdefault(action, option) is option:  # (a meld two options offer is the first's)
                plans[action] = group
        return
    if option.kind == "meld":
        melds: Sequence[Meld]
        actions: Sequence[Action]
        melds, actions = new_melds(state, rules, seat, hand, key[1], table)
        if per_meld and melds:
            allowed = _allowed(state, option, per_meld, shared, melds, _bind_meld)
            if len(allowed) < len(melds):  # (the melds kept, in order: their actions are those at their places)
                kept = iter(allowed)
                wanted = next(kept, None)
                kept_actions = []
                for index, meld in enumerate(melds):
                    if meld is wanted:
                        kept_actions.append(actions[index])
                        wanted = next(kept, None)
                melds, actions = allowed, kept_actions
        if melds:
            for action in actions:
                found.setdefault(action, option)
            # (each meld's plan, the meld itself, is looked up in what the option offers when its action is taken:
            # `new_meld_plan`; one entry here rather than one per meld, most of which are never taken)
            plans.setdefault(NEW_MELDS, []).append((melds, actions))
        return
    tables = state.cards.tables(state, option.destination) if option.every_table else [table]
    distinct = list(dict.fromkeys(hand))
    additions: Sequence[tuple[Meld, int, Meld]] = rules.additions(tables[0], distinct) if len(tables) == 1 else \
        [addition for owned in tables for addition in rules.additions(owned, distinct)]
    if per_meld:
        additions = _allowed(state, option, per_meld, shared, additions, _bind_addition)
    for meld, card, grown in additions:
        action = _ACTION(Action, (seat, "add", card, "", (), (), (), meld.id))
        found[action] = option
        plans[action] = (grown, meld)  # (the meld it makes, and the meld it is added to)


NEW_MELDS = "new melds"  # the key in `State.meld_plans` of what each option of new melds offers, in order
"""(No action is a string: every other key of `State.meld_plans` is a legal action.)"""


def new_meld_plan(state: State, action: Action) -> Meld:
    """The meld a new meld's action makes: the first option's that offers the action (`melds_into` keeps what
    each option offers, in the order of the options, as the legal set gives an action to the first of them)."""
    offered: list[tuple[Sequence[Meld], Sequence[Action]]] = state.meld_plans[NEW_MELDS]
    for melds, actions in offered:  # (the action the legal set handed out, the common case: found by identity)
        for index, candidate in enumerate(actions):
            if candidate is action:
                return melds[index]
    for melds, actions in offered:  # (an equal action made elsewhere, e.g. parsed from its text)
        for index, candidate in enumerate(actions):
            if candidate == action:
                return melds[index]
    raise KeyError(action)


def _take_melding_actions(state: State, pending: Pending, option: Option, found: dict[Action, Option],
                          shared: Bindings) -> None:
    """A pile taken by laying its top card at once (`meld_top`): each way the clauses allow, with its plan."""
    assert option.source is not None
    _, pile = state.cards.zone(state, option.source, shared, scratch=True)
    if not pile or any(not clause.per_action and not state.evaluate_kept(clause.rule, shared)
                       for clause in option.clauses):
        return
    shared["cards"] = list(pile)
    per_plan = option.per_action_clauses  # (the others hold for every plan: tested above)
    for action, plan in top_melds(state, pending.seat, option, shared):
        shared["after"], shared["laid"] = plan[0], list(plan[1])
        if _first_failure(state, per_plan, shared) is None and found.setdefault(action, option) is option:
            state.meld_plans[action] = plan
    restore(shared, pending.bindings, MELD_NAMES)


def top_melds(state: State, seat: int, option: Option,
              bindings: Bindings) -> list[tuple[Action, tuple[Meld, tuple[Meld, ...]]]]:
    """The ways to lay a pile's top card at once, each with (the meld holding it, the new melds): added to a
    meld of `meld_top`, or in one to `at_once` new melds made with cards of `to` (one of them holding it)."""
    rules = state.game.meld_rules
    if rules is None:  # pragma: no cover - the loader refuses `meld_top` without a `melds:` section
        raise RulesetRuntimeError("`meld_top` needs a `melds:` section", option.where)
    assert option.source is not None and option.destination is not None and option.meld_top is not None
    _, pile = state.cards.zone(state, option.source, bindings)
    top = pile[-1]
    _, hand = state.cards.zone(state, option.destination, bindings)
    key, table = state.cards.table(state, option.meld_top, bindings)
    found: list[tuple[Action, tuple[Meld, tuple[Meld, ...]]]] = []
    for meld in table:
        grown = rules.add(meld, top)
        if grown is not None:
            found.append((Action(seat, "take", card=top, name=option.name, target=meld.id), (grown, ())))
    counts = counted(hand)
    counts[top] = counts.get(top, 0) + 1  # (a copy of the top card in the hand is the same card: either may be laid)
    # (one meld at a time: only the melds that can hold the top card are searched; more, and the others may go
    # with one that holds it)
    searched = rules.search(counts, key[1], table, top if option.at_once == 1 else None)
    melds = [meld for meld, _ in searched]
    actions = [_ACTION(Action, (seat, "meld", -1, "", (), meld.cards, roles, -1)) for meld, roles in searched]
    for laid, action in groups(rules, seat, melds, actions, counts, option.at_once, option.where, top):
        after = next(meld for meld in laid if top in meld.cards)
        found.append((_ACTION(Action, (seat, "take", -1, option.name, action.arguments, action.cards, action.roles,
                                    -1)), (after, laid)))
    return found


def _allowed(state: State, option: Option, clauses: tuple[Clause, ...], shared: Bindings,
             candidates: Sequence[Any], bind: Callable[[Bindings, Any], None]) -> Sequence[Any]:
    """The candidate melds or additions the clauses allow: the option's filter tests them all at once (see
    steps.py); the clauses one by one name a failure, or serve a ruleset whose filter could not be made. Either
    way each candidate is bound in a copy of the decision's scratch bindings, so that the options after this one
    see the decision's own `cards` (and `after`, ...), whichever way the candidates were tested."""
    if not candidates:  # (nothing to test, nothing bound: the common case of a hand with no meld to make)
        return candidates
    scratch = dict(shared)
    if option.meld_filter is not None:
        try:
            return option.meld_filter(state.values, scratch, candidates)
        except Exception:  # name the failure: the clauses one by one locate it
            scratch = dict(shared)
    allowed = []
    for candidate in candidates:
        bind(scratch, candidate)
        if _first_failure(state, clauses, scratch) is None:
            allowed.append(candidate)
    return allowed


def restore(shared: Bindings, decided: Bindings, names: tuple[str, ...]) -> None:
    """The names an option bound in a decision's scratch bindings for its own candidates (`card`, a pile's
    `cards`, a meld's `after`, ...) given back the values the decision binds (or none), so that the options
    after it see the decision's own, whichever way its candidates were tested (a filter, or the clauses one by
    one)."""
    for name in names:
        if name in decided:
            shared[name] = decided[name]
        else:
            shared.pop(name, None)


MELD_NAMES = ("after", "cards", "meld", "laid")  # the names bound for each candidate meld, group or addition


def _bind_meld(bindings: Bindings, candidate: Meld) -> None:
    bindings["cards"] = list(candidate.cards)
    bindings["after"] = candidate


def _bind_group(bindings: Bindings, candidate: tuple[Any, ...]) -> None:
    bindings["laid"] = list(candidate[0])
    bindings["cards"] = [card for meld in candidate[0] for card in meld.cards]


def _bind_addition(bindings: Bindings, candidate: tuple[Any, ...]) -> None:
    bindings["cards"] = [candidate[1]]
    bindings["meld"] = candidate[0]
    bindings["after"] = candidate[2]


_ACTION = tuple.__new__  # an action made from its fields in order, the cheapest way (Action is a named tuple)


def _meld_refusal(state: State, pending: Pending, action: Action) -> IllegalActionError:
    """Why a meld or an addition is refused: the rules of melds, or the clause of the ruleset that fails."""
    rules = state.game.meld_rules
    options = [o for o in pending.options if o.kind == action.kind]
    if rules is None or not options:
        return IllegalActionError(f"p{action.seat} cannot {action.kind} now")
    text = state.action_text(action)
    sizes = meld_sizes(action) if action.kind == "meld" else (1,)
    if len(sizes) > 1:
        options = [o for o in options if o.at_once >= len(sizes)]
        if not options:
            most = max(o.at_once for o in pending.options if o.kind == "meld")
            return IllegalActionError(f"{text}: {'one meld' if most == 1 else f'at most {most} melds'} may be "
                                      f"laid at once here")
    option = _option_in_force(state, options, pending.bindings)
    assert option.source is not None and option.destination is not None
    _, hand = state.cards.zone(state, option.source, pending.bindings)
    key, table = state.cards.table(state, option.destination, pending.bindings)
    wanted = list(action.cards) if action.kind == "meld" else [action.card]
    missing = [card for card in wanted if wanted.count(card) > hand.count(card)]
    if missing:
        return IllegalActionError(f"{text}: p{action.seat} does not hold {state.card_text(missing[0])}")
    if action.kind == "meld":
        laid: list[Meld] = []
        start = 0
        for size in sizes:
            part = Action(action.seat, "meld", cards=action.cards[start:start + size],
                          roles=action.roles[start:start + size])
            start += size
            meld = _meld_named(state, part, hand, key[1], table + laid)
            if isinstance(meld, IllegalActionError):
                return meld if len(sizes) == 1 else IllegalActionError(f"{text}: {meld}")
            laid.append(meld)
        failure = _first_failure(state, option.clauses, {**pending.bindings, "cards": list(action.cards),
                                                          **({"laid": laid} if option.at_once > 1
                                                             else {"after": laid[0]})})
    else:
        melds = state.cards.all_melds(state, option, pending.bindings)
        target = next((m for m in melds if m.id == action.target), None)
        if target is None:
            return IllegalActionError(f"{text}: your side has no meld m{action.target}")
        grown = rules.add(target, action.card)
        if grown is None:  # (why, in the words of the rules: the meld and the card as one meld)
            why = rules.explain([*target.cards, action.card], [meld for meld in melds if meld is not target])
            return IllegalActionError(f"{text}: {state.card_text(action.card)} does not fit m{action.target}: "
                                      f"{why}")
        failure = _first_failure(state, option.clauses, {**pending.bindings, "cards": [action.card],
                                                          "meld": target, "after": grown})
    if failure is None and action.kind == "meld":  # (the cards make more than one meld: which is not said)
        same = sorted(action.cards)
        fitting = [state.action_text(other).split(" ", 1)[1] for other in state.legal_set()
                   if other.kind == "meld" and sorted(other.cards) == same]
        if len(fitting) > 1:
            return IllegalActionError(f"{text} fits {len(fitting)} melds, {' or '.join(f'`{f}`' for f in fitting[:4])}"
                                      f": say what each wild card stands for (`2S=9H`)")
    reason = failure.reason if failure is not None else "not allowed now"
    return IllegalActionError(f"{text} is not allowed: {reason}", reason=reason)


def _take_refusal(state: State, pending: Pending, options: list[Option], action: Action) -> IllegalActionError:
    """Why a pile taken by melding its top card is refused: it is empty, the action lays no top card, the melds
    are not what the cards make, or the clause of the ruleset that fails."""
    option = _option_in_force(state, options, pending.bindings)
    assert option.source is not None
    _, pile = state.cards.zone(state, option.source, pending.bindings)
    text = state.action_text(action)
    if not pile:
        return IllegalActionError(f"{option.source.name} is empty")
    bindings = {**pending.bindings, "cards": list(pile)}
    fixed = _first_failure(state, tuple(clause for clause in option.clauses if not clause.per_action), bindings)
    if fixed is not None:
        return IllegalActionError(f"{text} is not allowed: {fixed.reason}", reason=fixed.reason)
    ways = top_melds(state, pending.seat, option, pending.bindings)
    if not action.cards and action.card < 0:
        if not ways:
            return IllegalActionError(f"{text}: {option.name} is taken by melding its top card at once, and "
                                      f"{state.card_text(pile[-1])} makes no meld")
        return IllegalActionError(f"{text}: {option.name} is taken by melding its top card at once, e.g. "
                                  f"`{state.action_text(ways[0][0])}`")
    plan = next((plan for way, plan in ways if way == action or (action.cards and way.cards and
                                                                  _same_melds(action, way))), None)
    if plan is None:
        if action.card >= 0 and action.card != pile[-1]:
            return IllegalActionError(f"{text}: the top card of {option.source.name} is {state.card_text(pile[-1])}")
        assert option.meld_top is not None
        _, meld_table = state.cards.table(state, option.meld_top, pending.bindings)
        if action.card >= 0 and all(m.id != action.target for m in meld_table):
            return IllegalActionError(f"{text}: there is no meld m{action.target} in {option.meld_top.name}")
        source = option.destination.name if option.destination is not None else "the hand"
        return IllegalActionError(f"{text}: these are not melds that the top card {state.card_text(pile[-1])} and "
                                  f"cards of {source} make (at most {option.at_once} at once, one holding the top "
                                  f"card)")
    failure = _first_failure(state, option.clauses, {**bindings, "after": plan[0], "laid": list(plan[1])})
    reason = failure.reason if failure is not None else "not allowed now"
    return IllegalActionError(f"{text} is not allowed: {reason}", reason=reason)


def _option_in_force(state: State, options: list[Option], bindings: Bindings) -> Option:
    """Of the options an action may take, the one whose clauses say why it is refused: the first whose clauses
    that read no action all hold, else the one whose first such clause to fail comes latest."""
    def holding(option: Option) -> int:  # how many of its clauses that read no action hold before one fails
        fixed = [clause for clause in option.clauses if not clause.per_action]
        return next((index for index, clause in enumerate(fixed) if not state.evaluate(clause.rule, bindings)),
                    len(option.clauses) + 1)

    return max(options, key=holding)  # (the first of the best)


def _meld_named(state: State, action: Action, hand: list[int], owner: int,
                table: list[Meld]) -> Meld | IllegalActionError:
    """The new meld one meld action names (its cards in any order), or why its cards make none."""
    rules = state.game.meld_rules
    assert rules is not None
    text = state.action_text(action)
    wanted = sorted(action.cards)
    same = [m for m in rules.candidates(hand, owner, table, state.melds_laid) if sorted(m.cards) == wanted]
    if not same:
        return IllegalActionError(f"{text} is not a meld: {rules.explain(list(action.cards), table)}")
    if all(rules.roles(m) != action.roles for m in same) and any(action.roles):
        ways = " or ".join(state.action_text(Action(action.seat, "meld", cards=m.cards, roles=rules.roles(m)))
                           for m in same)
        return IllegalActionError(f"{text}: with these cards a wild stands elsewhere (a wild with no gap to "
                                  f"fill goes to the lower end): {ways}")
    return same[0]


def same_choice(legal: dict[Action, Option], action: Action) -> Action | None:
    """The legal choice an action names with its arguments, or the items of its list arguments, in another order
    (`strain C level 1` for `level 1 strain C`)."""
    def unordered(choice: Action) -> tuple[tuple[str, type, Any], ...]:  # (a list as the multiset of its items)
        return tuple(sorted(((name, value.__class__, frozenset(Counter(value).items()) if value.__class__ is tuple
                              else value) for name, value in choice.arguments), key=lambda named: named[0]))

    wanted = unordered(action)
    found = [a for a in legal if a.kind == "choose" and a.seat == action.seat and a.name == action.name
             and unordered(a) == wanted]
    return found[0] if found else None


def match_meld(state: State, legal: dict[Action, Option], action: Action) -> Action | None:
    """The legal meld action a text names, when it leaves out what a wild stands for (`p1 meld 6S 7S JK`)."""
    if action.kind not in ("meld", "take") or not action.cards:
        return None
    found = [a for a in legal if a.kind == action.kind and a.seat == action.seat and a.name == action.name
             and sorted(a.cards) == sorted(action.cards) and _same_melds(action, a)]
    return found[0] if len(found) == 1 else None


def _same_melds(given: Action, legal: Action) -> bool:
    """Whether an action names the melds of a legal one: the same melds in any order, each one's cards in any
    order, each wild standing for what the legal one says where the action says it."""
    def parts(action: Action) -> list[Action]:
        found, start = [], 0
        for size in meld_sizes(action):
            found.append(Action(action.seat, "meld", cards=action.cards[start:start + size],
                                roles=action.roles[start:start + size]))
            start += size
        return found

    remaining = parts(legal)
    for part in parts(given):
        match = next((index for index, other in enumerate(remaining) if sorted(other.cards) == sorted(part.cards)
                      and all(not wanted or wanted == role for wanted, role in _roles_by_card(part, other))), None)
        if match is None:
            return False
        del remaining[match]
    return not remaining


def _roles_by_card(given: Action, legal: Action) -> list[tuple[str, str]]:
    """Each card given with its role (what it stands for, or none said) against the legal action's card it is:
    the cards given a role first, so that a card the meld holds twice, once wild (`2D=AD 2D 3D`), is matched
    copy for copy in whatever order it is written."""
    remaining = list(zip(legal.cards, legal.roles, strict=True))
    pairs = []
    for card, role in sorted(zip(given.cards, given.roles, strict=True), key=lambda pair: not pair[1]):
        match = next((i for i, (c, r) in enumerate(remaining) if c == card and (not role or r == role)), None)
        if match is None:
            return [("?", "")]
        pairs.append((role, remaining.pop(match)[1]))
    return pairs


def bindings_for(state: State, pending: Pending, option: Option, action: Action) -> Bindings:
    """The names an action of the legal set binds for its option's steps (no checks: it is known legal)."""
    if option.kind in ("play", "discard"):
        return {**pending.bindings, "card": action.card}
    if option.kind == "choose":  # (bindings are never changed once made: one without arguments is shared)
        return {**pending.bindings, **_bound(action.arguments)} if action.arguments else pending.bindings
    if option.kind == "meld" and option.at_once > 1:
        return {**pending.bindings, "cards": list(action.cards), "laid": list(state.meld_plans[action])}
    if option.meld_top is not None:
        assert option.source is not None
        after, laid = state.meld_plans[action]
        _, cards = state.cards.zone(state, option.source, pending.bindings)
        return {**pending.bindings, "cards": list(cards), "after": after, "laid": list(laid)}
    if option.kind == "meld":
        return {**pending.bindings, "cards": list(action.cards), "after": new_meld_plan(state, action)}
    if option.kind == "add":
        after, target = state.meld_plans[action]
        return {**pending.bindings, "cards": [action.card], "meld": target, "after": after}
    assert option.source is not None
    _, cards = state.cards.zone(state, option.source, pending.bindings)
    if option.kind == "take" and action.target > 0:
        return {**pending.bindings, "cards": cards[len(cards) - action.target:]}
    return {**pending.bindings, "cards": [cards[-1]] if option.kind == "draw" else list(cards)}


def check(state: State, pending: Pending, action: Action) -> tuple[Option, Bindings]:
    """The option an action takes and the names it binds; IllegalActionError with the reason otherwise."""
    if action.seat != pending.seat:
        raise IllegalActionError(f"it is p{pending.seat}'s turn, not p{action.seat}'s")
    if action.kind in ("meld", "add") and any(o.kind == action.kind for o in pending.options):
        legal = state.legal_set()  # (a meld named with its cards in another order: see State.legal_form)
        if action not in legal:
            raise _meld_refusal(state, pending, action)
        option = legal[action]
        return option, bindings_for(state, pending, option, action)
    melding = [o for o in pending.options if o.meld_top is not None and o.name == action.name]
    if action.kind == "take" and melding:
        legal = state.legal_set()
        if action not in legal:
            raise _take_refusal(state, pending, melding, action)
        option = legal[action]
        return option, bindings_for(state, pending, option, action)
    candidates = [o for o in pending.options if o.kind == action.kind and (action.kind in ("play", "discard")
                                                                          or o.name == action.name)]
    if not candidates:  # (the options that have a legal action now: a choice whose rules forbid it is none)
        allowed = {id(option) for option in state.legal_set().values()}
        offered = ", ".join(sorted({_describe(o) for o in pending.options if id(o) in allowed}
                                   or {_describe(o) for o in pending.options}))
        named = [o.name for o in pending.options if o.kind == action.kind and o.name]
        close = difflib.get_close_matches(action.name, named, n=1, cutoff=0.6) if action.name else []
        meant = f" (did you mean `{action.kind} {close[0]}`?)" if close else ""
        raise IllegalActionError(f"p{action.seat} cannot {action.kind}"
                                 f"{' ' + action.name if action.name else ''} now{meant}; the choices are: {offered}")
    refusal: IllegalActionError | None = None
    for option in candidates:
        try:
            return option, _check_option(state, pending, option, action)
        except IllegalActionError as error:
            refusal = refusal or error
    assert refusal is not None
    raise refusal


def _arguments_wanted(state: State, option: Option, given: list[str]) -> str:
    """Why a choice's arguments are refused: the names it takes, a legal action of it as an example, and the
    names given that it does not take (with the closest one it does)."""
    declared = [name for name, _ in option.arguments]
    if not declared:
        return f"`choose {option.name}` takes no arguments"
    try:
        example = next((state.action_text(legal) for legal in state.legal_actions()
                        if legal.kind == "choose" and legal.name == option.name), "")
    except RulesetRuntimeError:  # (no legal set to take an example from)
        example = ""
    names = declared[0] if len(declared) == 1 else f"{', '.join(declared[:-1])} and {declared[-1]}"
    wanted = f"`choose {option.name}` takes {names}" + (f", e.g. `{example}`" if example else "")
    for name in given:
        if name not in declared:
            close = difflib.get_close_matches(name, declared, n=1, cutoff=0.6)
            wanted += f"; it takes no `{name}`" + (f" (did you mean `{close[0]}`?)" if close else "")
    missing = [name for name in declared if name not in given]
    return wanted + (f"; `{'`, `'.join(missing)}` not given" if missing else "")


def _same_items(value: tuple[Any, ...], allowed: Any) -> tuple[Any, ...]:
    """The value among those allowed with the same items as `value` in another order (`4D+3H` for `3H+4D`), so that
    the rules judge the list that was meant; else `value` itself."""
    wanted = Counter(value)
    return next((other for other in allowed if other.__class__ is tuple and len(other) == len(value)
                 and Counter(other) == wanted), value)


def allows(state: State, pending: Pending, option: Option, action: Action) -> bool:
    """Whether the clauses of `option` allow `action` as the state stands (RulesetRuntimeError where they fail)."""
    try:
        _check_option(state, pending, option, action)
    except IllegalActionError:
        return False
    return True


def _check_option(state: State, pending: Pending, option: Option, action: Action) -> Bindings:
    bindings = dict(pending.bindings)
    if option.kind == "choose":
        declared = dict(option.arguments)
        given = dict(action.arguments)
        if set(given) != set(declared):
            raise IllegalActionError(_arguments_wanted(state, option, list(given)))
        for name, expression in option.arguments:
            allowed = frozen(state.evaluate(expression, pending.bindings))
            if given[name] not in allowed and given[name].__class__ is tuple:  # (a list written in another order)
                given[name] = _same_items(given[name], allowed)
            if given[name] not in allowed:
                kind = state.game.program.choice_kinds.get((option.name, name))
                shown = [argument_text(state.game.deck, kind, value) for value in allowed]
                listed = ", ".join(shown[:12]) + (f", ... ({len(shown)} in all)" if len(shown) > 12 else "")
                raise IllegalActionError(f"{name} must be one of {listed}, not "
                                         f"{argument_text(state.game.deck, kind, given[name])}")
            bindings[name] = thawed(given[name])
    elif option.kind in ("play", "discard"):
        assert option.source is not None
        _, cards = state.cards.zone(state, option.source, pending.bindings)
        if action.card not in cards:
            raise IllegalActionError(f"p{action.seat} has no {state.card_text(action.card)} in "
                                     f"{option.source.name}")
        bindings["card"] = action.card
        if option.prefers:  # (its preferences' rules read whether some card the clauses before them allow meets them)
            failure = _first_failure(state, option.clauses, {**preferred(state, option, pending.bindings, cards),
                                                             "card": action.card})
            if failure is not None:
                raise IllegalActionError(f"{state.action_text(action)} is not allowed: {failure.reason}",
                                         reason=failure.reason)
            return bindings
    elif option.kind in ("draw", "take"):
        assert option.source is not None
        _, cards = state.cards.zone(state, option.source, pending.bindings)
        if not cards:
            raise IllegalActionError(f"{option.source.name} is empty")
        if option.any_depth:
            if not 1 <= action.target <= len(cards):
                raise IllegalActionError(f"say how many cards to take from the top of {option.source.name}: "
                                         f"1 to {len(cards)}, e.g. `p{action.seat} take {option.name} 2`")
            bindings["cards"] = cards[len(cards) - action.target:]
        else:
            if action.target > 0:
                raise IllegalActionError(f"{option.source.name} is taken whole: `p{action.seat} take {option.name}`")
            bindings["cards"] = [cards[-1]] if option.kind == "draw" else list(cards)
    failure = _first_failure(state, option.clauses, dict(bindings))
    if failure is not None:
        raise IllegalActionError(f"{state.action_text(action)} is not allowed: {failure.reason}",
                                 reason=failure.reason)
    return bindings


def preferred(state: State, option: Option, bindings: Bindings, cards: list[int]) -> Bindings:
    """The bindings a card option's clauses are tested with card by card: with, for each preference
    (Clause.prefers), whether some card the clauses before it allow meets its test, under its flag's name,
    worked out over the option's cards clause by clause. The decision's own bindings when there is none."""
    if not option.prefers:
        return bindings
    found = dict(bindings)
    allowed = list(cards)
    for clause in option.clauses:
        if clause.prefers is None:
            allowed = [card for card in allowed if state.evaluate_kept(clause.rule, {**found, "card": card})]
            continue
        meeting = [card for card in allowed if state.evaluate_kept(clause.prefers, {**found, "card": card})]
        found[clause.flag] = bool(meeting)
        if meeting:
            allowed = meeting
    return found


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
    lists = [frozen(state.evaluate(expression, bindings)) for _, expression in option.arguments]
    return [tuple(zip(names, values, strict=True)) for values in itertools.product(*lists)]


def _bound(arguments: tuple[tuple[str, Any], ...]) -> Bindings:
    """A choice's arguments as the expressions of its option see them (lists as lists)."""
    return {name: thawed(value) for name, value in arguments}


def no_legal_action(state: State, pending: Pending) -> RulesetRuntimeError:
    """The error of a decision with no legal action: the seat, then why each option was refused (`why_none`),
    which the error also keeps apart (`refusals`, for a report that lists them a line each)."""
    refused = refusals(state, pending)
    headline = f"p{pending.seat} has no legal action"
    error = RulesetRuntimeError(headline + _listed(refused), pending.where)
    error.headline, error.refusals = headline, tuple(refused)
    return error


def why_none(state: State, pending: Pending) -> str:
    """`refusals` as the end of a sentence: `; 7H: you must follow suit; ...` (nothing when there are none)."""
    return _listed(refusals(state, pending))


def _listed(refused: list[str]) -> str:
    return "".join(f"; {reason}" for reason in refused)


def refusals(state: State, pending: Pending) -> list[str]:
    """Why a decision has no legal action, for its error: each card refused with the clause that refuses it
    (or what else each option lacks)."""
    reasons: list[str] = []
    for option in pending.options:
        if option.kind in ("play", "discard") and option.source is not None:
            _, cards = state.cards.zone(state, option.source, pending.bindings)
            if not cards:
                reasons.append(f"{option.source.name} is empty")
            each = preferred(state, option, pending.bindings, cards)
            for card in dict.fromkeys(cards):
                failure = _first_failure(state, option.clauses, {**each, "card": card})
                if failure is not None:
                    reasons.append(f"{state.card_text(card)}: {failure.reason}")
        elif option.kind == "choose" and not option.arguments:
            failure = _first_failure(state, option.clauses, dict(pending.bindings))
            if failure is not None:
                reasons.append(f"choose {option.name}: {failure.reason}")
        elif option.kind == "choose":
            combinations = _argument_combinations(state, option, pending.bindings)
            if not combinations:
                reasons.append(f"choose {option.name}: an argument has no values")
            for arguments in combinations[:_REFUSALS_SHOWN]:
                failure = _first_failure(state, option.clauses, {**pending.bindings, **_bound(arguments)})
                if failure is not None:
                    text = state.action_text(state.game.choice_action(pending.seat, option.name, arguments))
                    reasons.append(f"{text.split(' ', 2)[2]}: {failure.reason}")
            if len(combinations) > _REFUSALS_SHOWN:
                reasons.append(f"... ({len(combinations)} choices in all)")
        elif option.kind in ("draw", "take"):
            reasons.append(_why_no_pile(state, pending, option))
        else:
            reasons.extend(_why_no_meld(state, pending, option))
    return reasons


def _why_no_pile(state: State, pending: Pending, option: Option) -> str:
    """Why a draw or a take is refused: its pile is empty, or the clause that refuses its cards."""
    assert option.source is not None
    _, cards = state.cards.zone(state, option.source, pending.bindings)
    if not cards:
        return f"{_describe(option)}: {option.source.name} is empty"
    if option.meld_top is not None:
        ways = top_melds(state, pending.seat, option, pending.bindings)
        if not ways:
            return f"{_describe(option)}: its top card {state.card_text(cards[-1])} makes no meld"
        failure = _first_failure(state, option.clauses, {**pending.bindings, "cards": list(cards),
                                                          "after": ways[0][1][0], "laid": list(ways[0][1][1])})
        return f"{_describe(option)}: {failure.reason if failure is not None else 'not allowed now'}"
    taken = [cards[-1]] if option.kind == "draw" or option.any_depth else list(cards)
    failure = _first_failure(state, option.clauses, {**pending.bindings, "cards": taken})
    return f"{_describe(option)}: {failure.reason if failure is not None else 'not allowed now'}"


def _why_no_meld(state: State, pending: Pending, option: Option) -> list[str]:
    """Why no meld or addition is allowed: a clause that holds for none, no meld the hand can make (or no card
    that fits a meld), or each of the first few with the clause that refuses it."""
    rules = state.game.meld_rules
    if rules is None or option.source is None or option.destination is None:
        return [f"no {_describe(option)} is possible"]
    shared = dict(pending.bindings)
    for clause in option.clauses:
        if not clause.per_action and not state.evaluate_kept(clause.rule, shared):
            return [f"{option.kind}: {clause.reason}"]
    _, hand = state.cards.zone(state, option.source, pending.bindings)
    key, table = state.cards.table(state, option.destination, pending.bindings)
    tried: list[tuple[str, Bindings]] = []
    if option.kind == "meld" and option.at_once > 1:
        held = counted(hand)
        searched = rules.search(held, key[1], table)
        for laid, action in groups(rules, pending.seat, [meld for meld, _ in searched],
                                   [Action(pending.seat, "meld", cards=meld.cards, roles=roles)
                                    for meld, roles in searched], held, option.at_once, option.where):
            tried.append((state.action_text(action).split(" ", 2)[2],
                          {**pending.bindings, "cards": list(action.cards), "laid": list(laid)}))
        if not tried:
            return [f"meld: no meld of the ruleset's kinds can be made from {option.source.name}"]
    elif option.kind == "meld":
        for meld in rules.candidates(hand, key[1], table, state.melds_laid):
            tried.append((" ".join(state.card_text(card) for card in meld.cards),
                          {**pending.bindings, "cards": list(meld.cards), "after": meld}))
        if not tried:
            return [f"meld: no meld of the ruleset's kinds can be made from {option.source.name}"]
    else:
        for meld in state.cards.all_melds(state, option, pending.bindings):
            for card in dict.fromkeys(hand):
                grown = rules.add(meld, card)
                if grown is not None:
                    tried.append((f"{state.card_text(card)} to m{meld.id}",
                                  {**pending.bindings, "cards": [card], "meld": meld, "after": grown}))
        if not tried:
            return [f"add: no card of {option.source.name} fits a meld on the table"]
    per_meld = option.per_action_clauses
    refused = [(text, failure.reason) for text, bindings in tried
               if (failure := _first_failure(state, per_meld, bindings)) is not None]
    reasons = [f"{option.kind} {text}: {reason}" for text, reason in refused[:_REFUSALS_SHOWN]]
    if len(refused) > _REFUSALS_SHOWN:
        reasons.append(f"... ({len(refused)} refused in all)")
    return reasons


_REFUSALS_SHOWN = 6  # the refused choices a "no legal action" error lists


def _describe(option: Option) -> str:
    if option.kind == "choose":
        return f"choose {option.name}"
    if option.kind in ("draw", "take"):
        return f"{option.kind} {option.name}"
    return option.kind
