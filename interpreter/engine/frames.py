"""The frames of the machine that runs a hand. A frame is one block in progress (a list of steps, a loop, a
round of seats, a decision, a trick); the state keeps them on a stack, so a game can stop at a decision or a
chance event and be copied there. Each frame's `run` does one unit of work: it may push a child, pop itself,
or leave a pending decision or chance event on the state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.program import Block, Option, Phase, Step

if TYPE_CHECKING:
    from interpreter.actions import Action
    from interpreter.engine.state import State

Bindings = dict[str, Any]


class Frame:
    __slots__ = ("bindings",)
    fields: tuple[str, ...] = ("bindings",)  # every slot of the class, for copies

    def __init_subclass__(cls) -> None:
        cls.fields = tuple(name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ()))

    def __init__(self, bindings: Bindings) -> None:
        self.bindings = bindings

    def run(self, state: State) -> None:
        raise NotImplementedError

    def copy(self) -> Frame:
        """A copy for a copied state: lists (seats to come, cards played) are copied; bindings are shared,
        since they are never changed once made."""
        clone = object.__new__(type(self))
        for name in self.fields:
            value = getattr(self, name)
            setattr(clone, name, list(value) if value.__class__ is list else value)
        return clone


class Steps(Frame):
    """A list of steps, run in order: the generated functions of its plan one after the other, and a step that
    may stop the game by the machine (see flowcode.py)."""

    __slots__ = ("index", "steps")

    def __init__(self, steps: Block, bindings: Bindings) -> None:
        self.bindings = bindings  # (Frame.__init__, without the call: frames are made on the hot path)
        self.steps: tuple[Any, ...] = steps.plan
        self.index = 0

    def run(self, state: State) -> None:
        plan = self.steps
        while self.index < len(plan):
            item = plan[self.index]
            self.index += 1
            if item.__class__ is Step:
                state.execute(item, self.bindings)
                return
            item(state, self.bindings)  # a generated run of steps that never stop the game
        self.done(state)

    def done(self, state: State) -> None:
        state.stack.pop()


class PhaseFrame(Steps):
    """A phase's steps; when they are done, its transitions choose the next phase or the end of the hand."""

    __slots__ = ("phase",)

    def __init__(self, phase: Phase, bindings: Bindings) -> None:
        Steps.__init__(self, phase.steps, bindings)
        self.phase = phase

    def done(self, state: State) -> None:
        state.stack.pop()
        state.enter_next_phase(self.phase, self.bindings)


class ForEach(Frame):
    __slots__ = ("index", "items", "step")

    def __init__(self, step: Step, items: list[Any], bindings: Bindings) -> None:
        self.bindings = bindings  # (Frame.__init__, without the call: frames are made on the hot path)
        self.step = step
        self.items = items
        self.index = 0

    def run(self, state: State) -> None:
        step = self.step
        name, where = step["name"], step["where"]
        while self.index < len(self.items):
            item = self.items[self.index]
            self.index += 1
            bindings = {**self.bindings, name: item}
            if where is not None and not state.evaluate(where, bindings):
                continue
            state.run_block(step["body"], bindings)
            return
        state.stack.pop()


class Repeat(Frame):
    __slots__ = ("done", "step", "times")

    def __init__(self, step: Step, times: int | None, bindings: Bindings) -> None:
        self.bindings = bindings  # (Frame.__init__, without the call: frames are made on the hot path)
        self.step = step
        self.times = times
        self.done = 0

    def run(self, state: State) -> None:
        more = self.done < self.times if self.times is not None else state.evaluate(self.step["while"], self.bindings)
        if not more:
            state.stack.pop()
            return
        self.done += 1
        state.run_block(self.step["body"], self.bindings)


class Round(Frame):
    """Each seat once, clockwise from the first; in a simultaneous round the decisions' effects wait until
    every seat has chosen, then happen in seat order."""

    __slots__ = ("deferred", "index", "seats", "step")

    def __init__(self, step: Step, seats: list[int], bindings: Bindings) -> None:
        self.bindings = bindings  # (Frame.__init__, without the call: frames are made on the hot path)
        self.step = step
        self.seats = seats
        self.index = 0
        self.deferred: list[Perform] = []

    def run(self, state: State) -> None:
        where = self.step["where"]
        while self.index < len(self.seats):
            seat = self.seats[self.index]
            self.index += 1
            bindings = {**self.bindings, "player": seat}
            if where is not None and not state.evaluate(where, bindings):
                continue
            state.run_block(self.step["body"], bindings)
            return
        state.stack.pop()
        if self.deferred:
            state.reveal(self.deferred)
            state.stack.extend(reversed(self.deferred))
            self.deferred = []


class Turns(Frame):
    """Turns round the table, each seat in turn from the first, until a condition holds."""

    __slots__ = ("seat", "started", "step")

    def __init__(self, step: Step, first: int, bindings: Bindings) -> None:
        self.bindings = bindings  # (Frame.__init__, without the call: frames are made on the hot path)
        self.step = step
        self.seat = first
        self.started = False

    def run(self, state: State) -> None:
        step = self.step
        if state.evaluate(step["until"], self.bindings):
            state.stack.pop()
            return
        count = state.player_count
        for _ in range(count):
            if self.started:
                self.seat = (self.seat + 1) % count
            self.started = True
            bindings = {**self.bindings, "player": self.seat}
            if step["where"] is None or state.evaluate(step["where"], bindings):
                state.run_block(step["body"], bindings)
                return
        raise RulesetRuntimeError("no seat may take a turn (`where` holds for none)", step.where)


class Decide(Frame):
    """A seat's decision: the state waits for an action; with `repeat`, until an option that `ends`."""

    __slots__ = ("seat", "step")

    def __init__(self, step: Step, seat: int, bindings: Bindings) -> None:
        self.bindings = {**bindings, "player": seat}
        self.step = step
        self.seat = seat

    def run(self, state: State) -> None:
        state.await_decision(self.seat, self.step["options"], self.bindings, self.step.where)

    def resolve(self, state: State, action: Action, option: Option, bindings: Bindings) -> None:
        if not (self.step["repeat"] and not option.ends):
            state.stack.pop()
        round_frame = state.simultaneous_round() if state.game.has_simultaneous_rounds else None
        if round_frame is not None:
            round_frame.deferred.append(Perform(option, action, bindings))
            return
        bindings = state.perform(option, action, bindings)
        if option.effects:
            state.run_block(option.effects, bindings)


class Perform(Frame):
    """An action taken: its own movement, then its option's steps."""

    __slots__ = ("action", "option")

    def __init__(self, option: Option, action: Action, bindings: Bindings) -> None:
        self.bindings = bindings  # (Frame.__init__, without the call: frames are made on the hot path)
        self.option = option
        self.action = action

    def run(self, state: State) -> None:
        state.stack.pop()
        bindings = state.perform(self.option, self.action, self.bindings)
        if self.option.effects:
            state.run_block(self.option.effects, bindings)


class Trick(Frame):
    """Tricks: each taking-part seat, clockwise from the leader, plays one card; the winner is bound in
    `then` and leads the next trick."""

    __slots__ = ("done", "leader", "order", "played", "position", "step", "total")

    def __init__(self, step: Step, leader: int, total: int | None, bindings: Bindings) -> None:
        self.bindings = bindings  # (Frame.__init__, without the call: frames are made on the hot path)
        self.step = step
        self.leader = leader
        self.total = total
        self.done = 0
        self.order: list[int] = []
        self.played: list[int] = []
        self.position = 0

    def run(self, state: State) -> None:
        if not self.order and not self._start(state):
            state.stack.pop()
            return
        if self.position < len(self.order):
            seat = self.order[self.position]
            bindings = {**self.bindings, "player": seat, "to_play": len(self.order) - self.position - 1}
            state.await_decision(seat, self.step["options"], bindings, self.step.where)
            return
        self._finish(state)

    def _start(self, state: State) -> bool:
        step = self.step
        if self.total is not None and self.done >= self.total:
            return False
        count = state.player_count
        seats = [(self.leader + offset) % count for offset in range(count)]
        players = step["players"]
        if players is not None:
            scratch = dict(self.bindings)
            values = state.values
            function = players.function
            keeps = players.keeps
            taking_part = []
            try:
                for seat in seats:
                    scratch["player"] = seat
                    if function(values, dict(scratch) if keeps else scratch):
                        taking_part.append(seat)
            except Exception:  # again, through evaluate, which names the failure in the ruleset's terms
                taking_part = [seat for seat in seats if state.evaluate(players, {**self.bindings, "player": seat})]
            seats = taking_part
        source = step["source"]
        if self.total is None and not any(state.values[source][seat] for seat in seats):
            return False
        if not seats:
            raise RulesetRuntimeError("no seat takes part in the trick", step.where)
        self.order = seats
        self.played = []
        self.position = 0
        return True

    def resolve(self, state: State, action: Action, option: Option, bindings: Bindings) -> None:
        state.perform(option, action, bindings)
        self.played.append(action.seat)
        self.position += 1
        if self.position < len(self.order):  # the next seat's card is awaited at once
            self.run(state)

    def _finish(self, state: State) -> None:
        step = self.step
        _key, cards = state.zone(step["zone"], self.bindings)
        winning = state.evaluate(step["winning_card"], self.bindings)
        played_cards = cards[len(cards) - len(self.played):]
        if winning not in played_cards:
            raise RulesetRuntimeError(f"the winning card {state.card_text(winning)} is not in the trick",
                                      step["winning_card"].where)
        winner = self.played[played_cards.index(winning)]
        self.done += 1
        self.leader = winner
        self.order = []
        state.note_parts(("p", (winner, None), " wins the trick"))
        if step["then"]:
            state.run_block(step["then"], {**self.bindings, "winner": winner})


class Move(Frame):
    """A move of a number of cards whose source may run out part way: `when_empty` refills it, each time it
    is empty while cards remain to be moved; if it is still empty after a refill, the move ends early."""

    __slots__ = ("refilled", "remaining", "step")

    def __init__(self, step: Step, remaining: int, bindings: Bindings) -> None:
        self.bindings = bindings  # (Frame.__init__, without the call: frames are made on the hot path)
        self.step = step
        self.remaining = remaining
        self.refilled = False

    def run(self, state: State) -> None:
        moved = state.move_from_top(self.step, self.remaining, self.bindings)
        self.remaining -= moved
        if self.remaining <= 0 or (moved == 0 and self.refilled):
            state.stack.pop()
            return
        self.refilled = True
        state.run_block(self.step["when_empty"], self.bindings)
