"""The hand compiler: a ruleset's whole hand, every phase and every step, becomes generated Python once per
Game, resumable at each decision and chance event.

The code is cut into *segments*, one generated function each, `seg_<n>(S, L) -> int`, numbered by label. A
segment runs straight on until it must jump (to the head of a loop, into a branch, to the next phase) or stop:
it returns the label to run next, or `~label` (a negative number) to stop the game there, having left a
pending decision or chance event on the state. The state keeps only that label (`State.pc`) and the
segments' locals (`State.locals`, a flat list of slots: seats still to play, loop counters, the names bound
in each block); a slot is only ever replaced, never changed in place, so a copy of the state copies the list
and nothing else. Resuming after an action is a call of the segment the label names, which finds the action
taken in `S.taken`. `Game.code.source` is the generated module, for reading.

Runs of steps that never stop the game are written inline by the step writer (flowcode.py). Each line of
generated code is mapped to its place in the ruleset, so a failure is reported there. Names in the code:
`V` the state's values, `L` its locals, `E<n>` compiled expressions, `O<n>` options, `W<n>` steps.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.actions import Action, frozen, subset_actions
from interpreter.dsl.compiler import SEAT_RANGES
from interpreter.engine.decisions import Pending, legal_actions, melds_into
from interpreter.engine.flowcode import DEALER_EVENT, constant_of
from interpreter.engine.program import Option, Phase, Program, Step
from interpreter.engine.sitecode import SiteWriter

if TYPE_CHECKING:
    from interpreter.engine.state import State

Segment = Callable[["State", list[Any]], int]
WINNER_PAIR = "'winner': _winner"  # (the trick's winner, bound for its `then` steps)
PHASE_SCOPE = "L[0]"  # the names a phase's own steps see: none (slot 0 always holds an empty dict)


@dataclass
class HandCode:
    """A hand compiled: its segments, where each phase starts, how many slots its locals take."""

    segments: tuple[Segment, ...]
    entries: dict[str, int]
    slots: int
    end: int  # the label of the segment that ends the hand
    source: str  # the generated module, for reading
    tricks: dict[str, Step] = field(default_factory=dict)  # a trick's decisions (by `Pending.where`) -> its step
    # The slots as a hand's code starts: the phase's own scope, an empty dict that no code changes (every state of
    # the game shares it, as copies of a state share their slots), and nothing else set.
    fresh_locals: tuple[Any, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.fresh_locals = ({},) + (None,) * (self.slots - 1)


@dataclass
class _Round:
    """A simultaneous round being compiled: where its choices wait, and the steps of the options chosen in it,
    which run after every seat has chosen."""

    deferred: int  # the slot of the choices made so far: a tuple of (option, action, bindings, the decision)
    scope: int  # the slot of the names an option's steps see
    after: int  # the label its options' steps go back to
    effects: dict[int, int] = field(default_factory=dict)  # id(option) -> the label of its steps
    options: list[Option] = field(default_factory=list)


def compile_hand(program: Program, max_steps: int, *, card_actions: Callable[[int, str], list[Any]],
                 choice_action: Callable[..., Any], choice_actions: Callable[..., list[Any]],
                 unique_cards: bool, most_players: int, placing: bool = False,
                 missing_key: Callable[[str, Any, Any], str] | None = None,
                 names_read: frozenset[str] | None = None,
                 choice_lists: dict[Any, list[Any]] | None = None) -> HandCode:
    """The generated code of a program's hand (see the module docstring). The game's tables of actions, made
    once and shared: `card_actions(seat, kind)`, a seat's play or discard actions indexed by card;
    `choice_action(seat, name, arguments)`; `choice_actions(seat, option, values)`, a choice with every
    combination of its arguments' values (called here, for every seat, for a choice whose values never change:
    see SiteWriter.constant_choices). `unique_cards` says that no two cards are the same value;
    `most_players`, how many seats a table of the game may have; `placing`, that the seat placing each card
    played or discarded is kept (`placed_by`); `missing_key(variable, values, key)`, why a variable with a second
    index has no value at a key (for a step that sets one); `names_read`, the bound names some expression of the
    ruleset reads (None: any), so that a name none reads (a trick's `to_play`) is not bound; `choice_lists`, where
    `choice_actions` keeps the lists it made, by `(seat, the option's place, values)`, read in place first."""
    writer = _HandWriter(max_steps, unique_cards)
    writer.names_read = names_read
    writer.placing = placing
    writer.most_players = most_players
    seats = range(most_players)  # (each seat's card actions, made once: the hot path reads a list)
    # (each seat's play or discard action of a card, read by a bound look-up made once: `map(PLAY_OF[seat], cards)`)
    writer.namespace.update(PLAY_OF=[card_actions(seat, "play").__getitem__ for seat in seats],
                            DISCARD_OF=[card_actions(seat, "discard").__getitem__ for seat in seats],
                            CHOICE=choice_action, CHOICES=choice_actions,
                            CHOICE_LISTS=choice_lists if choice_lists is not None else {},
                            GENERIC_LEGAL=legal_actions, MELDS_INTO=melds_into, ACTION=Action, FROZEN=frozen,
                            PRODUCT=itertools.product, SUBSET_ACTIONS=subset_actions,
                            MISSING_KEY=missing_key, SEAT_RANGES=SEAT_RANGES,
                            SEAT_SCOPES=tuple({"player": seat} for seat in seats))
    return writer.program(program)


def _idle(steps: tuple[Step, ...]) -> bool:
    """Steps that never do anything: none, or `if` steps whose condition is fixed (by parameters) and whose branch
    taken does nothing (a house rule turned off costs a trick's cards nothing)."""
    for step in steps:
        known = constant_of(step["condition"]) if step.verb == "if" else None
        if known is None or not _idle(step["then"] if known[0] else step["else"]):
            return False
    return True


def _unused(state: State, locals_: list[Any]) -> int:  # pragma: no cover - a label no code jumps to
    raise AssertionError("a label with no segment was run")


class _HandWriter(SiteWriter):
    def __init__(self, max_steps: int, unique_cards: bool) -> None:
        super().__init__(max_steps, unique_cards)
        self.rounds: list[_Round] = []  # the simultaneous rounds a decision being compiled is in, innermost last
        self.retakes: list[list[int]] = []  # for each trick whose `after_card` is being compiled: the label a
        # `take_back` jumps to (and whether one does: a second item)
        self.tricks: dict[str, Step] = {}
        self.tables: list[str] = []  # lines that make tables of the code's own, written after the finders
        self.end = -1  # the label of the hand's end
        self.names_read: frozenset[str] | None = None  # the bound names some expression reads (None: any)
        self.empty_scope = PHASE_SCOPE
        self.namespace.update(PENDING=Pending, NEW=tuple.__new__, tuple=tuple, isinstance=isinstance, any=any, str=str,
                              Exception=Exception, min=min, sum=sum, map=map)

    # --- the program ----------------------------------------------------------------------------------------------

    def program(self, program: Program) -> HandCode:
        self.reseats = program.reseats
        entries = {name: self.label() for name in program.phases}
        end = self.end = self.label()
        for name, phase in program.phases.items():
            self.phase(phase, entries[name], entries, end)
        self.begin(end)
        self.finish("return S.match.hand_over(S)")
        self.join({*entries.values(), end})
        self.lines.extend(self.finders)
        self.lines.extend(self.tables)
        namespace = self.build()
        segments = tuple(namespace[self.segment_names[self.target(label)]] if label in self.segment_names
                         else _unused for label in range(self.labels))
        return HandCode(segments, entries, self.slot_count, end, "\n".join(self.lines), self.tricks)

    def phase(self, phase: Phase, entry: int, entries: dict[str, int], end: int) -> None:
        self.begin(entry)
        self.step_where = phase.where
        self.count_step(phase.where, 2)
        self.code(f"S.phase = {phase.name!r}")
        self.flow(phase.steps, PHASE_SCOPE)
        self.step_where = phase.where
        for transition in phase.transitions:
            target = end if transition.target == "end" else entries[transition.target]
            if transition.condition is None:
                self.jump(target)
                return
            condition = self.value(transition.condition, PHASE_SCOPE, 2)
            self.code(f"if {condition}:")
            self.code(f"return {target}", 1)
        self.finish(f"raise RUNTIME('no transition out of phase `{phase.name}` applies', {phase.where!r})")

    # --- the steps that may stop the game -----------------------------------------------------------------------

    def stopping(self, step: Step, scope: str) -> None:
        getattr(self, f"_stopping_{step.verb}")(step, scope)

    def _stopping_shuffle(self, step: Step, scope: str) -> None:
        _, key = self.place(step["zone"], scope, 2)
        self.code(f"S.chance = ({key}, {step.where!r})")
        after = self.label()
        self.stop_at(after)
        self.begin(after)

    def _stopping_random(self, step: Step, scope: str) -> None:
        """A value picked at random: a chance event (`S.chance` names no zone and holds the values and their
        weights); `apply_chance` puts the value picked in `S.picked`, which the step then sets."""
        values = self.value(step["values"], scope, 2)
        where = step["values"].where
        self.code(f"_values = tuple({values})")
        self.code("if not _values:")
        self.code(f"raise RUNTIME('nothing to pick from: the list of values is empty', {where!r})", 1)
        if step["weights"] is not None:
            weights = self.value(step["weights"], scope, 2)
            self.code(f"_weights = tuple({weights})")
            self.code("if len(_weights) != len(_values) or min(_weights) < 0 or not sum(_weights):")
            self.code(f"raise RUNTIME('the weights must be one whole number per value, none negative, not all 0 "
                      f"(' + str(len(_values)) + ' values, weights ' + str(list(_weights)) + ')', "
                      f"{step['weights'].where!r})", 1)
        else:
            self.code("_weights = None")
        kind = self.name_of(step["kind"], "K")
        self.code(f"S.chance = (None, {step.where!r}, _values, _weights, {kind})")
        after = self.label()
        self.stop_at(after)
        self.begin(after)
        target, _ = self.place(step["target"], scope, 2)
        if step["target"].name == "dealer":  # (a change of dealer is an event)
            self.code("_dealt_by = V['dealer']")
        self.code(f"{target} = S.picked")
        if step["target"].name == "dealer":
            self.code(f"if V['dealer'] != _dealt_by: {DEALER_EVENT}")

    def _stopping_end(self, step: Step, scope: str) -> None:
        """The hand ends here (and, with `end: match`, the match after it)."""
        if step["match"]:
            self.code("S.ending_match = True")
        self.jump(self.end)
        self.begin(self.label())  # (the steps written after it are never run)

    def _stopping_take_back(self, step: Step, scope: str) -> None:
        """The card just played goes back and its seat plays again: the trick's own code does it (see
        `_stopping_trick`); the steps written after it are never run."""
        retake = self.retakes[-1]
        retake[1] = 1
        self.jump(retake[0])
        self.begin(self.label())

    def _stopping_if(self, step: Step, scope: str) -> None:
        condition = self.value(step["condition"], scope, 2)
        then, otherwise, after = self.label(), self.label(), self.label()
        self.code(f"if {condition}:")
        self.code(f"return {then}", 1)
        self.jump(otherwise if step["else"] else after)
        self.block_then(then, step["then"], scope, after)
        if step["else"]:
            self.block_then(otherwise, step["else"], scope, after)
        self.begin(after)

    def _stopping_for_each(self, step: Step, scope: str) -> None:
        items, index, inner = self.slot(), self.slot(), self.slot()
        found = self.value(step["items"], scope, 2)
        self.code(f"L[{items}] = tuple({found})")
        self.code(f"L[{index}] = 0")
        head, body, after = self.label(), self.label(), self.label()
        self.jump(head)
        self.begin(head)
        self.each_item(items, index, inner, scope, step["name"], step, body)
        self.jump(after)
        self.block_then(body, step["body"], f"L[{inner}]", head)
        self.begin(after)

    def _stopping_repeat(self, step: Step, scope: str) -> None:
        head, body, after = self.label(), self.label(), self.label()
        if step["times"] is not None:
            times, done = self.slot(), self.slot()
            count = self.value(step["times"], scope, 2)
            self.code(f"L[{times}] = int({count})")
            self.code(f"L[{done}] = 0")
            self.jump(head)
            self.begin(head)
            self.code(f"if L[{done}] >= L[{times}]:")
            self.code(f"return {after}", 1)
            self.code(f"L[{done}] += 1")
        else:
            self.jump(head)
            self.begin(head)
            condition = self.value(step["while"], scope, 2)
            self.code(f"if not {condition}:")
            self.code(f"return {after}", 1)
        self.count_step(step.where, 2)
        self.jump(body)
        self.block_then(body, step["body"], scope, head)
        self.begin(after)

    def _stopping_move(self, step: Step, scope: str) -> None:
        """A move whose source is refilled by `when_empty` each time it runs out part way."""
        if step["amount"] is None:  # all the cards there are: the source cannot run out
            self.step(step, scope, 2)
            return
        remaining, refilled = self.slot(), self.slot()
        head, refill, after = self.label(), self.label(), self.label()
        amount = self.value(step["amount"], scope, 2)
        self.code(f"if not isinstance({amount}, int):")  # a list of named cards: they must all be there
        self.step(step, scope, 3)
        self.code(f"return {after}", 1)
        self.code(f"L[{remaining}] = {amount}")
        self.code(f"L[{refilled}] = False")
        self.jump(head)
        self.begin(head)
        self.count_step(step.where, 2)
        source, source_key = self.place(step["source"], scope, 2)  # (found again each time: a refill may change them)
        destination, destination_key = self.place(step["destination"], scope, 2)
        self.code(f"_moved = S.cards.move_from_top(S, {source_key}, {source}, {destination_key}, {destination}, "
                  f"{step['face']!r}, {step['at'] == 'bottom'}, L[{remaining}])")
        self.code(f"L[{remaining}] -= _moved")
        self.code(f"if L[{remaining}] <= 0 or (_moved == 0 and L[{refilled}]):")
        self.code(f"return {after}", 1)
        self.code(f"L[{refilled}] = True")
        self.jump(refill)
        self.block_then(refill, step["when_empty"], scope, head)
        self.begin(after)

    def _stopping_round(self, step: Step, scope: str) -> None:
        """Each seat once, clockwise from the first; in a simultaneous round the choices' effects wait until
        every seat has chosen, then happen in the order the seats chose (round the table, where they sit)."""
        seats, index, inner = self.slot(), self.slot(), self.slot()
        head, body, after = self.label(), self.label(), self.label()
        first = self.value(step["first"], scope, 2)
        # (clockwise where the seats sit: a tuple the state keeps, see MatchLoop._set_seating)
        self.code(f"L[{seats}] = V['_clockwise'][{first} % S.player_count]")
        self.code(f"L[{index}] = 0")
        simultaneous = step["simultaneous"]
        gathered = _Round(self.slot(), self.slot(), self.label()) if simultaneous else None
        if gathered is not None:
            self.code(f"L[{gathered.deferred}] = ()")
            self.code(f"S.open_rounds = S.open_rounds + ({gathered.deferred},)")
        self.jump(head)
        self.begin(head)
        self.each_item(seats, index, inner, scope, "player", step, body, seats=True)
        if gathered is None:
            self.jump(after)
        else:
            self.code("S.open_rounds = S.open_rounds[:-1]")
            self.code(f"S.reveal(L[{gathered.deferred}])")
            self.jump(gathered.after)
        if gathered is not None:
            self.rounds.append(gathered)
        self.block_then(body, step["body"], f"L[{inner}]", head)
        if gathered is not None:
            self.rounds.pop()
            self.perform_deferred(gathered, after)
        self.begin(after)

    def perform_deferred(self, gathered: _Round, after: int) -> None:
        """After a simultaneous round: each choice's movement and steps, in the order they were made."""
        deferred = gathered.deferred
        self.begin(gathered.after)
        self.code(f"if not L[{deferred}]:")
        self.code(f"return {after}", 1)
        self.code(f"_o, _a, _b, _p = L[{deferred}][0]")
        self.code(f"L[{deferred}] = L[{deferred}][1:]")
        self.code(f"L[{gathered.scope}] = S.cards.perform(S, _o, _a, _b)")
        for option in gathered.options:
            self.code(f"if _o is {self.name_of(option, 'O')}:")
            self.code(f"return {gathered.effects[id(option)]}", 1)
        self.jump(gathered.after)

    def _stopping_turns(self, step: Step, scope: str) -> None:
        """Turns round the table from the first seat until a condition holds."""
        seat, started, inner = self.slot(), self.slot(), self.slot()
        head, body, after = self.label(), self.label(), self.label()
        first = self.value(step["first"], scope, 2)
        self.code(f"L[{seat}] = {first}")
        self.code(f"L[{started}] = False")
        self.jump(head)
        self.begin(head)
        self.count_step(step.where, 2)
        until = self.value(step["until"], scope, 2)
        self.code(f"if {until}:")
        self.code(f"return {after}", 1)
        self.code("for _k in SEAT_RANGES[S.player_count]:")  # (made once per size of table)
        self.code(f"if L[{started}]:", 1)
        if self.reseats:
            self.code(f"L[{seat}] = V['_next'][L[{seat}] % S.player_count]", 2)
        else:
            self.code(f"L[{seat}] = (L[{seat}] + 1) % S.player_count", 2)
        # (the first seat as it was given: checked once, at the first turn, so that every turn's `player` is a seat
        # at the table)
        self.code(f"elif not 0 <= L[{seat}] < S.player_count:", 1)
        self.code(f"raise RUNTIME('p' + str(L[{seat}]) + ' is not at the table: no seat takes the first turn', "
                  f"{step['first'].where!r})", 2)
        self.code(f"L[{started}] = True", 1)
        pairs = f"'player': L[{seat}]"
        self.code(f"L[{inner}] = {self.extended(scope, pairs)}", 1)
        self.binds(f"L[{inner}]", scope, "player", seated=("player",))
        held = self.bound_locals.get(f"L[{inner}]")  # (the test reads the seat from its slot, where it is)
        self.bound_locals[f"L[{inner}]"] = {**(held or {}), "player": f"L[{seat}]"}
        self.skip_unless(step["where"], f"L[{inner}]")
        if held is None:
            del self.bound_locals[f"L[{inner}]"]
        else:
            self.bound_locals[f"L[{inner}]"] = held
        self.code(f"return {body}", 1)
        self.finish(f"raise RUNTIME('no seat may take a turn (`where` holds for none)', {step.where!r})")
        self.block_then(body, step["body"], f"L[{inner}]", head)
        self.begin(after)

    def _stopping_decide(self, step: Step, scope: str) -> None:
        """A seat's decision: wait for an action, then its movement and its option's steps; with `repeat`, wait
        again until an option that `ends`."""
        bound = self.slot()
        wait, resume, after = self.label(), self.label(), self.label()
        gathered = self.rounds[-1] if self.rounds else None
        # (`decide: player`: the scope as it is, when its `player` is known to be a seat at the table, as a round's
        # is: nothing to work out or check)
        deciding = self.expr(step["seat"], scope)
        shared = deciding in (f"({scope}['player'])", f"({self.bound_locals.get(scope, {}).get('player')})")
        if not (shared and gathered is None and "player" in self.seated.get(scope, ())):
            seat = self.value(step["seat"], scope, 2)
            if gathered is not None:
                self.code(f"if any(_e[1].seat == {seat} for _e in L[{gathered.deferred}]):")
                self.code(f"raise RUNTIME('p' + str({seat}) + ' would decide twice in a simultaneous round, before "
                          "the effects of its first choice (each seat decides once in such a round)', "
                          f"{step.where!r})", 1)
            self.code(f"if not 0 <= {seat} < S.player_count:")
            self.code(f"raise RUNTIME('p' + str({seat}) + ' is not at the table: no seat decides', {step.where!r})", 1)
        if shared:
            self.code(f"L[{bound}] = {scope}")  # (a scope is never changed in place, so it is shared)
        else:
            pairs = f"'player': {seat}"
            self.code(f"L[{bound}] = {self.extended(scope, pairs)}")
        self.binds(f"L[{bound}]", scope, "player", seated=("player",))
        self.jump(wait)
        self.begin(wait)
        options = self.name_of(step["options"], "O")
        finder = self.finder(step["options"])
        # (no legal set is kept while the hand's code runs: `State.apply` and `advance` clear it)
        if shared and scope in self.seat_scopes and gathered is None and step["by"] is None:
            # (the seat alone bound, in its scope made once per seat: the decision too, made once per seat)
            table = self.awaited_tables(options, finder, step.where, "SEAT_SCOPES[_s]")
            self.code(f"S.pending = {table}[L[{bound}]['player']]")
        else:
            actor = self.actor(step, f"L[{bound}]", 2)
            self.code(f"S.pending = NEW(PENDING, ({actor}, {options}, L[{bound}], {step.where!r}, {finder}))")
        self.stop_at(resume)
        self.begin(resume)
        self.code("_a, _o, _b = S.taken")
        repeat = step["repeat"]
        if gathered is not None:
            # (with the decision it answered: what the seat could have chosen, for a copy that draws the choice
            # again where another seat cannot see it, engine/resample.py)
            self.code(f"L[{gathered.deferred}] = L[{gathered.deferred}] + ((_o, _a, _b, NEW(PENDING, (_a.seat, "
                      f"{options}, L[{bound}], {step.where!r}, {finder}))),)")
            if repeat:  # (an `ends` expression is worked out when the choice is made: its steps come later)
                for option in step["options"]:
                    if option.ends_when is not None:
                        self.code(f"if _o is {self.name_of(option, 'O')}:")
                        ends = self.value(option.ends_when, "_b", 3)
                        self.code(f"return {after} if {ends} else {wait}", 1)
                self.code("if not _o.ends:")
                self.code(f"return {wait}", 1)
            self.jump(after)
            self.rounds.pop()  # (its options' steps run after the round, in the rounds around it)
            for option in step["options"]:
                if option.effects:
                    gathered.options.append(option)
                    gathered.effects[id(option)] = label = self.label()
                    self.block_then(label, option.effects, f"L[{gathered.scope}]", gathered.after)
            self.rounds.append(gathered)
            self.begin(after)
            return
        scope_slot = self.slot()
        if self.moves_one_card(step["options"]):
            moving = step["options"][0]
            self.move_card(moving)
            self.code(f"L[{scope_slot}] = {{**_b, 'cards': _taken}}" if moving.kind == "draw" else
                      f"L[{scope_slot}] = {{**_b, 'card': _card}}" if moving.effects else f"L[{scope_slot}] = _b")
        elif all(option.kind == "choose" for option in step["options"]):
            self.code(f"L[{scope_slot}] = _b")  # (a choice moves no card)
        else:  # (among options of several kinds, a card played, discarded or drawn is moved in place too: the
            # draw that starts a turn and the discard that ends it, beside the melds)
            written = 0
            for option in step["options"]:
                if self.moves_its_card(option):
                    self.code(f"{'elif' if written else 'if'} _o is {self.name_of(option, 'O')}:")
                    self.move_card(option, 1)
                    self.code(f"L[{scope_slot}] = {{**_b, 'cards': _taken}}" if option.kind == "draw" else
                              f"L[{scope_slot}] = {{**_b, 'card': _card}}" if option.effects else
                              f"L[{scope_slot}] = _b", 1)
                    written += 1
            choices = " or ".join(f"_o is {self.name_of(option, 'O')}" for option in step["options"]
                                  if option.kind == "choose")
            if choices:  # (a choice moves no card: a capture chosen beside a card played)
                self.code(f"{'elif' if written else 'if'} {choices}:")
                self.code(f"L[{scope_slot}] = _b", 1)
                written += 1
            if written:
                self.code("else:")
            self.code(f"L[{scope_slot}] = S.cards.perform(S, _o, _a, _b)", 1 if written else 0)
        # (a decision's bindings hold `player`, a seat at the table: checked when the decision was awaited)
        self.binds(f"L[{scope_slot}]", None, "player", seated=("player",))
        chained: list[tuple[Option, int, int]] = []  # an option with steps: their label, and where they lead
        checks: list[tuple[Option, int]] = []  # an option whose `ends` is an expression: where it is worked out
        for option in step["options"]:
            following = wait if repeat and not option.ends else after
            if repeat and option.ends_when is not None:
                following = self.label()
                checks.append((option, following))
            if option.effects:
                chained.append((option, self.label(), following))
                self.code(f"if _o is {self.name_of(option, 'O')}:")
                self.code(f"return {chained[-1][1]}", 1)
            elif following != after:
                self.code(f"if _o is {self.name_of(option, 'O')}:")
                self.code(f"return {following}", 1)
        self.jump(after)
        for option, label, following in chained:
            self.block_then(label, option.effects, f"L[{scope_slot}]", following)
        for option, label in checks:  # after the option's steps: the decision ends when the expression holds
            assert option.ends_when is not None
            self.begin(label)
            ends = self.value(option.ends_when, f"L[{scope_slot}]", 2)
            self.finish(f"return {after} if {ends} else {wait}")
        self.begin(after)

    def awaited_tables(self, options: str, finder: str, where: str, bindings: str) -> str:
        """The name of a table of the decisions a step awaits, made once when the code is built (after the
        legal-set functions, which they name): by seat `_s`, and when `bindings` (code) reads `_n`, by the number
        of seats still to play after it (a trick's `to_play`). Each binds the seat alone (and that number), in a
        dict no code changes in place, so every state of the game shares them, as it shares the actions."""
        name = f"AWAITED_{len(self.tables)}"
        seats = f"range({self.most_players})"
        made = f"NEW(PENDING, (_s, {options}, {bindings}, {where!r}, {finder}))"
        self.tables.append(f"{name} = tuple(tuple({made} for _n in {seats}) for _s in {seats})" if "_n" in bindings
                           else f"{name} = tuple({made} for _s in {seats})")
        return name

    def actor(self, step: Step, bindings: str, indent: int) -> str:
        """Code for the seat that makes a decision: the step's `by`, with `player` bound to the seat whose decision
        it is (checked to be at the table), else that seat itself. `indent` as for `value`."""
        if step["by"] is None:
            return f"{bindings}['player']"
        seat = self.value(step["by"], bindings, indent)
        self.code(f"if not 0 <= {seat} < S.player_count:", indent - 2)
        self.code(f"raise RUNTIME('p' + str({seat}) + ' is not at the table: no seat decides for p' + "
                  f"str({bindings}['player']), {step['by'].where!r})", indent - 1)
        return seat

    def _stopping_trick(self, step: Step, scope: str) -> None:
        """Tricks: each taking-part seat, clockwise from the leader, plays one card; the winner is bound in
        `then` and leads the next trick."""
        total, leader, done, order, position, won, card_scope = (self.slot() for _ in range(7))
        start, wait, resume, then, after, after_card, next_card = (self.label() for _ in range(7))
        self.tricks[step.where] = step
        count = step["count"]
        if count is not None:
            found = self.value(count, scope, 2)
            self.code(f"L[{total}] = int({found})")
        self.code("if S.first_leader is not None:")  # (a scenario that starts at a trick names its leader)
        self.code(f"L[{leader}] = S.first_leader", 1)
        self.code("S.first_leader = None", 1)
        self.code("else:")
        first = self.value(step["leader"], scope, 3)
        self.code(f"L[{leader}] = {first}", 1)
        self.code(f"L[{done}] = 0")
        self.jump(start)

        self.begin(start)
        self.count_step(step.where, 2)
        if count is not None:
            self.code(f"if L[{done}] >= L[{total}]:")
            self.code(f"return {after}", 1)
        # (the seats clockwise from the leader, where they sit: a tuple the state keeps, see MatchLoop._set_seating)
        self.code(f"_seats = V['_clockwise'][L[{leader}] % S.player_count]")
        if step["players"] is not None:
            self.code("_taking = []")
            made = len(self.lines)
            # (each seat in turn under `player`; a copy for expressions that keep)
            self.code(f"_asked = {self.copy_of(scope)}")
            self.code("for _seat in _seats:")
            self.code("_asked['player'] = _seat", 1)
            self.bound_locals["_asked"] = {**self.bound_locals.get(scope, {}), "player": "_seat"}
            condition = self.value(step["players"], "_asked", 3)
            del self.bound_locals["_asked"]
            self.test_line(condition, "if {}:", self.pad(1))
            self.code("_taking.append(_seat)", 2)
            self.unless_read("_asked", made, [made, made + 2])
            self.code("_seats = _taking")
        if step["until"] is not None:
            done_playing = self.value(step["until"], scope, 2)
            self.code(f"if {done_playing}:")
            self.code(f"return {after}", 1)
        if count is None:
            self.code(f"if not any(V[{step['source']!r}][_seat] for _seat in _seats):")
            self.code(f"return {after}", 1)
        self.code("if not _seats:")
        self.code(f"raise RUNTIME('no seat takes part in the trick', {step.where!r})", 1)
        self.code(f"L[{order}] = tuple(_seats)")  # (the seats that have played are the first L[position] + 1)
        self.code(f"L[{position}] = 0")
        self.jump(wait)

        options = self.name_of(step["options"], "O")
        finder = self.finder(step["options"])
        # (how many seats play after this one: bound when an expression reads it)
        to_play = f", 'to_play': len(L[{order}]) - L[{position}] - 1" if self.names_read is None or \
            "to_play" in self.names_read else ""
        # A trick of the phase's own steps awaits each seat's card with the same decision every time (for each
        # number still to play, when that is bound): made once per seat, when the code is built (`shared`).
        shared = None
        if scope == self.empty_scope and step["by"] is None:
            shared = self.awaited_tables(options, finder, step.where,
                                         "{'player': _s, 'to_play': _n}" if to_play else "{'player': _s}")

        def await_card(indent: int) -> None:
            pairs = f"'player': _seat{to_play}"
            self.code(f"_seat = L[{order}][L[{position}]]", indent)
            if shared is not None:
                counted = f"[len(L[{order}]) - L[{position}] - 1]" if to_play else ""
                self.code(f"S.pending = {shared}[_seat]{counted}", indent)
            elif step["by"] is None:
                self.code(f"S.pending = NEW(PENDING, (_seat, {options}, {self.extended(scope, pairs)}, "
                          f"{step.where!r}, {finder}))", indent)
            else:  # (another seat chooses the card `player` plays)
                self.code(f"_asked = {self.extended(scope, pairs)}", indent)
                actor = self.actor(step, "_asked", indent + 2)
                self.code(f"S.pending = NEW(PENDING, ({actor}, {options}, _asked, {step.where!r}, {finder}))", indent)

        self.begin(wait)
        await_card(0)
        self.stop_at(resume)

        self.begin(resume)
        self.code("_a, _o, _b = S.taken")
        self.move_card(step["option"])
        if not _idle(step["after_card"]):  # steps after each card, which may stop the game: then the next card or
            # the end
            self.code(f"L[{card_scope}] = {{**_b, 'card': _card}}")
            self.binds(f"L[{card_scope}]", None, "player", "card", seated=("player",))
            self.jump(after_card)
            retake = [self.label(), 0]
            self.retakes.append(retake)
            self.block_then(after_card, step["after_card"], f"L[{card_scope}]", next_card)
            self.retakes.pop()
            if retake[1]:  # a `take_back` in `after_card`: the card goes back, and the same seat plays again
                self.begin(retake[0])
                cards, key = self.place(step["zone"], scope, 2)
                self.code(f"S.cards.take_back(S, {key}, {cards}, L[{order}][L[{position}]], {step['source']!r}, "
                          f"L[{card_scope}]['card'])")
                await_card(0)
                self.stop_at(resume)
            self.begin(next_card)
        self.code(f"L[{position}] += 1")
        self.code(f"if L[{position}] < len(L[{order}]):")  # the next seat's card is awaited at once
        await_card(1)
        self.code(f"return {~resume}", 1)
        cards, _ = self.place(step["zone"], scope, 2)
        self.code(f"_played = {cards}[len({cards}) - len(L[{order}]):]")  # (every seat of the order has played)
        if step["beats"] is not None:  # each card against the one winning so far, in the order played
            self.code("_best = 0")
            self.code(f"_pair = {self.copy_of(scope)}")
            self.code("for _i in range(1, len(_played)):")
            self.code("_pair['card'] = _played[_i]", 1)
            self.code("_pair['winning'] = _played[_best]", 1)
            takes = self.value(step["beats"], "_pair", 3)
            self.code(f"if {takes}:", 1)
            self.code("_best = _i", 2)
            self.code(f"_winner = L[{order}][_best]")
        else:
            winning = self.value(step["winning_card"], scope, 2)
            self.code(f"if {winning} not in _played:")
            self.code(f"raise RUNTIME('the winning card ' + S.card_text({winning}) + ' is not in the trick', "
                      f"{step['winning_card'].where!r})", 1)
            self.code(f"_winner = L[{order}][_played.index({winning})]")
        self.code(f"L[{done}] += 1")
        self.code(f"L[{leader}] = _winner")
        self.code("S._events.items.append(('log_parts', ('p', (_winner, None), ' wins the trick')))")
        if step["then"]:
            self.code(f"L[{won}] = {self.extended(scope, WINNER_PAIR)}")
            self.binds(f"L[{won}]", scope, "winner")
            self.jump(then)
            self.block_then(then, step["then"], f"L[{won}]", start)
        else:
            self.jump(start)
        self.begin(after)
