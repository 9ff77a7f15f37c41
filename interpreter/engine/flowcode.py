"""Straight-line code for the steps that never stop the game: set, change, transfer, move, deal, log,
form_team, seating, and if / for_each / repeat made only of those. The hand compiler (handcode.py) writes the steps
that may stop the game around them, in resumable segments.

The generated code calls the ruleset's compiled expressions as `E<n>(V, B)` (with a copy of `B` when the
expression keeps definitions' values in it) and a few helpers of the state for the card movements. Each
expression is evaluated on a line of its own, so a failure is located from the line it happened on.
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Mapping
from typing import Any

from interpreter.dsl.compiler import FILENAME as EXPRESSIONS_FILENAME
from interpreter.dsl.compiler import evaluate as run_expression
from interpreter.dsl.compiler import explain_failure, keep_source
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.program import Expr, Ref, Shown, Step
from interpreter.errors import EvaluationError

FILENAME = "<ruleset flow>"
_LOCAL = re.compile(r"\((_\w+)\)")  # an expression's code that reads a local the generated code holds
_PLAIN = re.compile(r"[A-Za-z_]\w*|-?\d+")  # code for a value that reading again costs nothing: a local or a number
_EXPRESSION_FILES = frozenset({FILENAME, EXPRESSIONS_FILENAME})
# The event a step that changes the dealer records (the log's `dealer` line): who deals from then on.
DEALER_EVENT = "S._events.items.append(('dealer', V['dealer']))"
_CALL = re.compile(r"\b(?:E\d+|q_\d+|d_\w+)\(")  # a call of an expression's or a definition's function


def is_simple(step: Step) -> bool:
    """Whether a step runs to its end without stopping the game (it needs no resumable segment)."""
    verb = step.verb
    if verb in ("set", "change", "transfer", "deal", "log", "form_team", "turn", "seating"):
        return True
    if verb == "move":
        return not step["when_empty"]
    if verb == "if":
        return all(map(is_simple, step["then"])) and all(map(is_simple, step["else"]))
    if verb in ("for_each", "repeat"):
        return all(map(is_simple, step["body"]))
    return False


class StepWriter:
    """Writes the code of the steps that never stop the game into one module's source (the hand compiler,
    handcode.py, writes the rest around it)."""

    def __init__(self, max_steps: int) -> None:
        self.max_steps = max_steps
        self.lines: list[str] = []
        self.places: dict[int, str] = {}  # line number (1-based) -> where in the ruleset
        self.namespace: dict[str, Any] = {"__builtins__": {"list": list, "dict": dict, "int": int, "range": range,
                                                           "len": len, "bool": bool, "enumerate": enumerate,
                                                           "min": min}}
        self.constants: dict[int, str] = {}  # id(object) -> its name in the namespace
        self.count = 0  # generated functions so far
        self.names = 0  # fresh local names so far
        self.step_where = ""  # the step being written
        self.adopted = False  # whether the expressions' namespace is in this one
        self.reseats = False  # a `seating` step may move the seats: the order round the table is read from `V`
        # Bindings (their code) whose names are also held in Python locals while they are bound, read from
        # there: the item of a loop, a card's receiver in a deal (name -> the local's code).
        self.bound_locals: dict[str, dict[str, str]] = {}
        # Bindings (their code) known to hold some names wherever they are read (a decision's hold `player`): an
        # owner named so is read from them without asking whether they hold it.
        self.known_names: dict[str, frozenset[str]] = {}
        # Bindings (their code) that always hold an empty dict, never changed (a phase's own scope): a copy of them
        # is a new empty dict.
        self.empty_scope: str | None = None
        # Bindings (their code) known to bind some names to a seat at the table (a round's `player`, a decision's
        # own): a decision by such a name needs no check that its seat is at the table.
        self.seated: dict[str, frozenset[str]] = {}
        # Within a run of steps that never stop the game (see `value`): bindings (their code) -> the local holding
        # a scratch copy of them that the expressions evaluated since the state last changed have shared; None
        # outside such a run (the hand compiler turns it on and off: segments.py).
        self.scratch: dict[str, str] | None = None
        self.fresh_lists: set[str] = set()  # the locals holding a list made for them alone (see `value`)
        # Within the same runs as `scratch`: the code of values worked out into a local since the variables they read
        # last changed (code -> the local), read again from the local (see `value`, `forget`); None outside them.
        self.known: dict[str, str] | None = None
        # The expressions with definitions written in place in them, written in place here (see `value`), by the
        # place of the line they are on: their code, and what works them out again where they fail, to name the
        # definition: their function, the code of their bindings and the names held in locals.
        self.rereads: dict[str, list[tuple[str, tuple[Any, str, dict[str, str]]]]] = {}

    def build(self) -> dict[str, Any]:
        self.namespace.update(FAILURES=_FAILURES, LOCATE=self.locate, RUNTIME=RulesetRuntimeError,
                              DEAL_SHORT=deal_short)
        code = compile("\n".join(self.lines) + "\n", FILENAME, "exec")
        exec(code, self.namespace)  # generated from the checked program, see the module docstring
        keep_source(self.namespace, code, list(self.lines))
        return self.namespace

    def locate(self, failure: BaseException) -> BaseException:
        """A failure of generated code as a ruleset error at the place it happened (an engine failure as is)."""
        trace = failure.__traceback__
        line = trace.tb_lineno if trace is not None else 0
        innermost = trace
        while innermost is not None and innermost.tb_next is not None:
            innermost = innermost.tb_next
        source = innermost.tb_frame.f_code.co_filename if innermost is not None else ""
        if not isinstance(failure, EvaluationError) and source not in _EXPRESSION_FILES:
            return failure  # a failure of the engine itself, not of the ruleset
        explained = explain_failure(failure)
        if explained is None:
            return failure
        written = self.rereads.get(self.places.get(line, "")) if trace is not None else None
        if written and 0 < line <= len(self.lines):  # (code with definitions written in place in it, at this place)
            text = self.lines[line - 1]
            # (the line's own expression: the longest code written there that the line holds, else, where the line
            # reads its names otherwise than the code did, each one in turn, the longest first)
            candidates = sorted(written, key=lambda entry: (entry[0] not in text, -len(entry[0])))
            for _code, reread in candidates:
                named = _named(reread, trace.tb_frame)  # type: ignore[union-attr]
                if named is not None and str(named).startswith(str(explained)):
                    explained = named
                    break
        return RulesetRuntimeError(str(explained), self.places.get(line, ""))

    # --- writing ------------------------------------------------------------------------------------------------

    def line(self, text: str, where: str | None = None) -> None:
        """One line of generated code; a failure on it is reported at `where` (by default, its step)."""
        self.lines.append(text)
        where = where if where is not None else self.step_where
        if where:
            self.places[len(self.lines)] = where

    def name_of(self, value: Any, prefix: str) -> str:
        key = id(value)
        name = self.constants.get(key)
        if name is None:
            name = self.constants[key] = f"{prefix}{len(self.constants)}"
            self.namespace[name] = value
        return name

    def copy_of(self, bindings: str) -> str:
        """Code for a new dict of the names `bindings` (code) hold."""
        return "{}" if bindings == self.empty_scope else f"dict({bindings})"

    def extended(self, bindings: str, pairs: str) -> str:
        """Code for a new dict of the names `bindings` (code) hold, with `pairs` (code: `'name': value, ...`)."""
        return f"{{{pairs}}}" if bindings == self.empty_scope else f"{{**{bindings}, {pairs}}}"

    def expr(self, expression: Expr, bindings: str, named: bool = False) -> str:
        """Code for an expression's value (to be put on a line of its own, located at the expression): a
        constant, the expression's own code written in place when it calls no definition, else a call. With
        `named`, also the code of one with definitions written in place in it (see `rereads`)."""
        compiled = expression.function
        constant = getattr(compiled, "constant", None)
        if constant is not None and constant[0].__class__ in (bool, int, str, type(None)):
            return repr(constant[0])
        code = getattr(compiled, "code", None)
        inlined = getattr(compiled, "inlined_code", None) if named and code is None else None
        if inlined is not None:
            held = self.bound_locals.get(bindings) or {}
            written = f"({in_place(inlined, bindings, held)})"
            self.adopt(compiled)
            self.rereads.setdefault(expression.where, []).append((written, (compiled, bindings, dict(held))))
            return written
        if code is not None:
            self.adopt(compiled)
            return f"({in_place(code, bindings, self.bound_locals.get(bindings))})"
        function = self.name_of(compiled, "E")
        return f"{function}(V, {self.copy_of(bindings)})" if expression.keeps else f"{function}(V, {bindings})"

    def adopt(self, compiled: Any) -> None:
        """The expressions' helpers (card attributes, builtins, their own functions) by their own names, for code
        written in place."""
        if not self.adopted:
            self.namespace.update((name, value) for name, value in compiled.__globals__.items()
                                  if name != "__builtins__" and name not in self.namespace)
            self.adopted = True

    def value(self, expression: Expr, bindings: str, indent: int) -> str:
        """Evaluate into a fresh local on a line of its own; returns the local's name.

        In a run of steps that never stop the game, the expressions that keep definitions' values in the
        bindings they are given share one scratch copy of the bindings for as long as no step changes the state
        (`scratch`): `if: size(top_players) == 1`, then `for_each: top_players`, work `top_players` out once.
        An expression changes nothing, so two of them on an unchanged state with the same names bound work out
        every definition alike; a step that changes anything, and the end of a branch or a loop, start anew."""
        constant = constant_of(expression)
        if constant is not None:  # (a literal cannot fail: written where it is used)
            return repr(constant[0])
        local = f"_v{self.fresh()}"
        scratch = self.scratch
        code = None
        if scratch is not None and expression.keeps and getattr(expression.function, "code", None) is None \
                and constant_of(expression) is None:
            shared = scratch.get(bindings)
            if shared is None:
                shared = scratch[bindings] = f"_k{self.fresh()}"
                self.line(f"{'    ' * indent}{shared} = {self.copy_of(bindings)}", expression.where)
            code = f"{self.name_of(expression.function, 'E')}(V, {shared})"
        code = code or self.expr(expression, bindings, named=True)
        plain = _LOCAL.fullmatch(code)
        if plain is not None:  # (a bound name held in a local: read where it is used)
            return plain[1]
        known = self.known if self.known is not None and _reusable(code) else None
        if known is not None and code in known:  # (the same value, worked out since nothing it reads changed)
            return known[code]
        self.line(f"{'    ' * indent}{local} = {code}", expression.where)
        if _fresh_list(code):
            self.fresh_lists.add(local)
        elif known is not None:
            known[code] = local
        return local

    def fresh(self) -> int:
        self.names += 1
        return self.names

    def test_line(self, local: str, template: str, pad: str) -> None:
        """A line testing a value (`template`: `if {}:` or `if not {}:`, with `pad` before it). When the value is
        the local that the line before it just worked out (`value`), that line becomes this one, the expression
        written in the test, at the expression's place: the local is read there alone."""
        before = f"{pad}{local} = "
        if local.startswith("_v") and self.lines and self.lines[-1].startswith(before):
            code = self.lines.pop()[len(before):]
            if self.known and self.known.get(code) == local:  # (the local is never set now)
                del self.known[code]
            self.line(f"{pad}{template.format(code)}", self.places.pop(len(self.lines) + 1, None) or "")
            return
        self.line(f"{pad}{template.format(local)}")

    def owner(self, ref: Ref, bindings: str, indent: int) -> str | None:
        """Code for the owner of a zone or variable (None for one on the table)."""
        held = self.bound_locals.get(bindings, {})
        if ref.owner_name is not None:
            if ref.owner_name in held:
                return held[ref.owner_name]
            name = repr(ref.owner_name)
            if ref.owner_name in self.known_names.get(bindings, ()):
                return f"{bindings}[{name}]"
            return f"({bindings}[{name}] if {name} in {bindings} else V[{name}])"
        if ref.owner is not None:
            return self.value(ref.owner, bindings, indent)
        if ref.implicit:
            return held.get("player", f"{bindings}['player']")
        return None

    def place(self, ref: Ref, bindings: str, indent: int) -> tuple[str, str]:
        """(code for the stored value, code for its key) of a zone or variable."""
        owner = self.owner(ref, bindings, indent)
        name = repr(ref.name)
        if owner is None:
            return self.keyed(ref, f"V[{name}]", bindings, indent), f"({name}, -1)"
        if _PLAIN.fullmatch(owner) is None:  # (worked out once, for the value and its key)
            local = f"_o{self.fresh()}"
            self.line(f"{'    ' * indent}{local} = {owner}", ref.where)
            owner = local
        return self.keyed(ref, f"V[{name}][{owner}]", bindings, indent), f"({name}, {owner})"

    def keyed(self, ref: Ref, stored: str, bindings: str, indent: int) -> str:
        """The value of a variable's second index (`by:`) at the key its reference names, which must be one of
        the variable's keys; `stored` as it is for a reference without a key."""
        if ref.key is None:
            return stored
        key = self.value(ref.key, bindings, indent)
        self.line(f"{'    ' * indent}if {key} not in {stored}: raise RUNTIME('`{ref.name}` has ' + "
                  f"MISSING_KEY({ref.name!r}, {stored}, {key}), {ref.where!r})", ref.where)
        return f"{stored}[{key}]"

    # --- steps ----------------------------------------------------------------------------------------------------

    def step(self, step: Step, bindings: str, indent: int) -> None:
        outer, self.step_where = self.step_where, step.where
        getattr(self, f"_{step.verb}")(step, bindings, indent)
        self.step_where = outer
        if self.scratch and step.verb != "log":  # (a step that may change the state: see `value`)
            self.scratch = {}
        if self.known:
            if step.verb in ("set", "change"):  # (what read the variable changed)
                self.forget(step["target"].name)
            elif step.verb == "transfer":
                self.forget(step["source"].name, step["destination"].name)
            elif step.verb != "log":
                self.known = {}

    def forget(self, *names: str) -> None:
        """The values known (see `known`) that read a variable of these names, or the values as a whole, forgotten:
        the variables changed."""
        assert self.known is not None
        reads = tuple(f"V[{name!r}]" for name in names)
        self.known = {code: local for code, local in self.known.items()
                      if not any(read in code for read in reads) and "(V," not in code and "(V)" not in code}

    def block(self, steps: tuple[Step, ...], bindings: str, indent: int) -> None:
        if not steps:
            self.line(f"{'    ' * indent}pass")
        for step in steps:
            self.step(step, bindings, indent)

    def _set(self, step: Step, bindings: str, indent: int) -> None:
        value = self.value(step["value"], bindings, indent)
        if step["copied"]:  # (a list variable keeps its own list: never a zone's, which changes as cards move)
            value = f"list({value})"
        target, _ = self.place(step["target"], bindings, indent)
        if step["target"].name == "dealer":  # (a change of dealer is an event)
            self.line(f"{'    ' * indent}_dealt_by = V['dealer']")
        self.line(f"{'    ' * indent}{target} = {value}", step.where)
        if step["target"].name == "dealer":
            self.line(f"{'    ' * indent}if V['dealer'] != _dealt_by: {DEALER_EVENT}")

    def _change(self, step: Step, bindings: str, indent: int) -> None:
        by = self.value(step["by"], bindings, indent)
        target, _ = self.place(step["target"], bindings, indent)
        self.line(f"{'    ' * indent}{target} += {by}", step.where)

    def _transfer(self, step: Step, bindings: str, indent: int) -> None:
        amount = self.value(step["amount"], bindings, indent)
        source, _ = self.place(step["source"], bindings, indent)
        pad = "    " * indent
        self.line(f"{pad}{source} -= {amount}", step.where)
        if self.scratch:  # (the source debited: what was worked out before is not shared with what follows)
            self.scratch = {}
        if self.known:
            self.forget(step["source"].name)
        destination, _ = self.place(step["destination"], bindings, indent)  # found after the source is debited
        self.line(f"{pad}{destination} += {amount}", step.where)

    def _move(self, step: Step, bindings: str, indent: int) -> None:
        pad = "    " * indent
        amount = step["amount"]
        count = None if amount is None else self.value(amount, bindings, indent)
        source, source_key = self.place(step["source"], bindings, indent)
        destination, destination_key = self.place(step["destination"], bindings, indent)
        face, bottom = repr(step["face"]), step["at"] == "bottom"
        where = self.name_of(step.where, "W")
        if count is None and not bottom and step["face"] != "up" and \
                step["source"].name != step["destination"].name:
            # (`Cards.move_all` written in place, for two zones of different names, so never the same list: every
            # card after the destination's, each keeping its face unless `face: down` turns it down)
            self.line(f"{pad}_moving = {source}", step.where)
            self.line(f"{pad}if _moving:", step.where)
            self.line(f"{pad}    {destination}.extend(_moving)", step.where)
            self.line(f"{pad}    _moving.clear()", step.where)
            self.line(f"{pad}    _moving = S.face_up.cards.pop({source_key}, None)", step.where)
            if step["face"] is None:  # (the face-up cards leave the source with them)
                self.line(f"{pad}    if _moving:", step.where)
                self.line(f"{pad}        S.face_up.cards.setdefault({destination_key}, []).extend(_moving)",
                          step.where)
        elif count is None:
            self.line(f"{pad}S.cards.move_all(S, {source_key}, {source}, {destination_key}, {destination}, {face}, "
                      f"{bottom})", step.where)
        else:
            self.line(f"{pad}S.cards.move_some(S, {source_key}, {source}, {destination_key}, {destination}, {face}, "
                      f"{bottom}, {count}, {where})", step.where)

    def _turn(self, step: Step, bindings: str, indent: int) -> None:
        chosen = "None" if step["cards"] is None else f"list({self.value(step['cards'], bindings, indent)})"
        zone, key = self.place(step["zone"], bindings, indent)
        where = self.name_of(step.where, "W")
        self.line(f"{'    ' * indent}S.cards.turn_over(S, {key}, {zone}, {step['face'] == 'up'}, {chosen}, {where})",
                  step.where)

    def _deal(self, step: Step, bindings: str, indent: int) -> None:
        pad = "    " * indent
        count = None if step["count"] is None else self.value(step["count"], bindings, indent)
        source, source_key = self.place(step["source"], bindings, indent)
        number = self.fresh()
        seats = f"_s{number}"
        if step["seats"] is None:  # (from the dealer's left, where the seats sit: a tuple the state keeps)
            self.line(f"{pad}{seats} = V['_clockwise'][V['_next'][V['dealer'] % S.player_count]]")
        else:
            self.line(f"{pad}{seats} = list({self.expr(step['seats'], bindings)})", step["seats"].where)
        where = self.name_of(step.where, "W")
        zone = repr(step["zone"])
        self.line(f"{pad}_from{number} = {source}")
        if step["count"] is None:  # `deal: all`: as many rounds as it takes; the first receivers get one more
            self.line(f"{pad}_n{number} = len(_from{number}) // (len({seats}) or 1)")
            self.line(f"{pad}_x{number} = len(_from{number}) % (len({seats}) or 1)")
        else:
            self.line(f"{pad}_n{number} = int({count})")
            self.line(f"{pad}_x{number} = 0")
            self.line(f"{pad}if len(_from{number}) < _n{number} * len({seats}):")
            self.line(f"{pad}    raise RUNTIME({source_key}[0] + DEAL_SHORT(_n{number}, len({seats}), "
                      f"len(_from{number})), {where})")
        # (a dealt card is face down unless `face_up` says otherwise)
        self.line(f"{pad}_up{number} = bool(S.face_up.of({source_key}))")
        self.line(f"{pad}_to{number} = V[{zone}]")
        inner = f"B{number}"
        face_up = step["face_up"]
        dealt, per_seat = f"_d{number}", f"_k{number}"
        # The cards dealt, the first dealt first, moved as slices (a card at a time is a loop of list operations for
        # every card of every hand): one at a time, seat j's cards are every k-th from the j-th (k seats), the
        # extra ones included; in packets, seat j's are a run of their own.
        self.line(f"{pad}if not _up{number}:")
        self.line(f"{pad}    {per_seat} = len({seats})")
        self.line(f"{pad}    _t{number} = _n{number} * {per_seat} + _x{number}")
        self.line(f"{pad}    {dealt} = _from{number}[len(_from{number}) - _t{number}:]")
        self.line(f"{pad}    del _from{number}[len(_from{number}) - _t{number}:]")
        self.line(f"{pad}    {dealt}.reverse()")
        if step["one_at_a_time"]:
            self.line(f"{pad}    for _j{number} in range({per_seat}):")
            self.line(f"{pad}        _to{number}[{seats}[_j{number}]].extend({dealt}[_j{number}::{per_seat}])")
        else:
            self.line(f"{pad}    _at{number} = 0")
            self.line(f"{pad}    for _j{number} in range({per_seat}):")
            self.line(f"{pad}        _e{number} = _at{number} + _n{number} + (_j{number} < _x{number})")
            self.line(f"{pad}        _to{number}[{seats}[_j{number}]].extend({dealt}[_at{number}:_e{number}])")
            self.line(f"{pad}        _at{number} = _e{number}")
        if face_up is not None:
            self.bound_locals[inner] = {**self.bound_locals.get(bindings, {}), "receiver": f"_p{number}",
                                        "round": f"_r{number}"}
            made = len(self.lines)
            self.line(f"{pad}{inner} = {self.copy_of(bindings)}")
        # Each card again, for its face: dealt one at a time from a source with face-up cards (each leaves its face
        # there), and, with a `face_up` test, each card dealt for the test (a card the test turns face up is found
        # again in the slice dealt, at its place in the deal's order, only then)
        inner_pad = pad
        if face_up is None:
            self.line(f"{pad}else:")
            inner_pad = pad + "    "
        test = self.expr(face_up, inner) if face_up is not None else ""
        split = _receiver_split(test, f"_p{number}", {f"_r{number}", f"_j{number}", f"_i{number}", inner})
        if split is not None:  # (the cards of other receivers are never tested: the general loop only for `_up`)
            self.line(f"{pad}if _up{number}:")
            inner_pad = pad + "    "
        if step["one_at_a_time"]:  # (seat j's card of round r is the ((r - 1) * k + j)-th dealt)
            self.line(f"{inner_pad}for _r{number} in range(1, _n{number} + 1 + (_x{number} > 0)):")
            self.line(f"{inner_pad}    for _j{number}, _p{number} in enumerate({seats} if _r{number} <= _n{number} "
                      f"else {seats}[:_x{number}]):")
            place = f"(_r{number} - 1) * {per_seat} + _j{number}"
        else:  # (seat i's cards are a run from the (i * n + min(i, x))-th dealt)
            self.line(f"{inner_pad}for _i{number} in range(len({seats})):")
            self.line(f"{inner_pad}    _p{number} = {seats}[_i{number}]")
            self.line(f"{inner_pad}    for _r{number} in range(1, _n{number} + 1 + (_i{number} < _x{number})):")
            place = f"_i{number} * _n{number} + min(_i{number}, _x{number}) + _r{number} - 1"
        body = inner_pad + "        "
        one_by_one = [f"_c{number} = _from{number}.pop()", f"S.face_up.take({source_key}, _c{number})",
                      f"_to{number}[_p{number}].append(_c{number})"]
        if face_up is None:
            for text in one_by_one:
                self.line(f"{body}{text}")
            return
        self.line(f"{body}if _up{number}:")
        for text in one_by_one:
            self.line(f"{body}    {text}")
        stored = len(self.lines)
        self.line(f"{body}{inner}['receiver'] = _p{number}")
        self.line(f"{body}{inner}['round'] = _r{number}")
        self.line(f"{body}if {test}:", face_up.where)
        self.line(f"{body}    S.face_up.add(({zone}, _p{number}), _c{number} if _up{number} else {dealt}[{place}])")
        self.unless_read(inner, made, [made, stored, stored + 1])
        if split is not None:
            self._receiver_faces(split, number, zone, pad, face_up.where, one_at_a_time=step["one_at_a_time"])

    def _receiver_faces(self, split: tuple[list[str], str, str], number: int, zone: str, pad: str, where: str, *,
                        one_at_a_time: bool) -> None:
        """A `face_up` test that starts `receiver == X` (after tests that read neither the receiver nor the
        round), for cards dealt from a zone with none face up: those tests and X worked out once, as the first
        card's test would (only when a card is dealt), and only X's cards tested further, in the deal's order."""
        before, receiver, rest = split
        seats, per_seat, dealt = f"_s{number}", f"_k{number}", f"_d{number}"
        dealing = f"{seats} and (_n{number} or _x{number})"
        self.line(f"{pad}elif {' and '.join([dealing, *before])}:", where)
        self.line(f"{pad}    _q{number} = {receiver}", where)
        if one_at_a_time:  # (rounds, then seats: X's places among the seats, in order, each round)
            self.line(f"{pad}    _js{number} = [_j{number} for _j{number}, _p{number} in enumerate({seats}) "
                      f"if _p{number} == _q{number}]")
            self.line(f"{pad}    _p{number} = _q{number}")
            self.line(f"{pad}    for _r{number} in range(1, _n{number} + 1 + (_x{number} > 0)):")
            self.line(f"{pad}        for _j{number} in _js{number}:")
            self.line(f"{pad}            if _r{number} > _n{number} and _j{number} >= _x{number}:")
            self.line(f"{pad}                break  # (the extra round deals to the first seats only)")
            self.line(f"{pad}            if {rest}:", where)
            self.line(f"{pad}                S.face_up.add(({zone}, _p{number}), "
                      f"{dealt}[(_r{number} - 1) * {per_seat} + _j{number}])")
        else:  # (seats, then rounds)
            self.line(f"{pad}    for _i{number} in range(len({seats})):")
            self.line(f"{pad}        _p{number} = {seats}[_i{number}]")
            self.line(f"{pad}        if _p{number} != _q{number}:")
            self.line(f"{pad}            continue")
            self.line(f"{pad}        for _r{number} in range(1, _n{number} + 1 + (_i{number} < _x{number})):")
            self.line(f"{pad}            if {rest}:", where)
            self.line(f"{pad}                S.face_up.add(({zone}, _p{number}), "
                      f"{dealt}[_i{number} * _n{number} + min(_i{number}, _x{number}) + _r{number} - 1])")

    def _log(self, step: Step, bindings: str, indent: int) -> None:
        parts: list[str] = []
        lists = False  # a list is copied as it is now (a zone changes after the line is written)
        for part in step["parts"]:
            if isinstance(part, Shown):
                value = self.value(part.expression, bindings, indent)
                parts.append(f"({value}, {self.name_of(part.type, 'T')})")
                lists = lists or getattr(part.type, "name", "") not in _UNCHANGING
            else:
                parts.append(repr(part))
        if lists:
            self.line(f"{'    ' * indent}S.note_parts(({', '.join(parts)},))", step.where)
        else:  # (the parts as they are, appended to the events without a call: State.note_parts)
            self.line(f"{'    ' * indent}S._events.items.append(('log_parts', ({', '.join(parts)},)))", step.where)

    def _form_team(self, step: Step, bindings: str, indent: int) -> None:
        seats = self.value(step["seats"], bindings, indent)
        self.line(f"{'    ' * indent}S.match.form_team(S, list({seats}))", step.where)

    def _seating(self, step: Step, bindings: str, indent: int) -> None:
        seats = self.value(step["seats"], bindings, indent)
        self.line(f"{'    ' * indent}S.match.seat_players(S, list({seats}), {step['seats'].where!r})", step.where)

    def _if(self, step: Step, bindings: str, indent: int) -> None:
        known = constant_of(step["condition"])
        if known is not None:  # (a condition made of parameters and literals: only its branch is written)
            self.block(step["then"] if known[0] else step["else"], bindings, indent)
            return
        condition = self.value(step["condition"], bindings, indent)
        pad = "    " * indent
        self.test_line(condition, "if {}:", pad)
        before = None if self.scratch is None else dict(self.scratch)  # (each branch starts from the test's)
        values_before = None if self.known is None else dict(self.known)
        self.block(step["then"], bindings, indent + 1)
        if step["else"]:
            self.line(f"{pad}else:")
            self.scratch = before
            self.known = values_before
            self.block(step["else"], bindings, indent + 1)
        if self.scratch is not None:  # (after the branches: a copy made in one is not made in the other)
            self.scratch = {}

    def _for_each(self, step: Step, bindings: str, indent: int) -> None:
        known = constant_of(step["where"])
        if known is not None and not known[0]:  # (`where` never holds: the loop does nothing)
            self.line(f"{'    ' * indent}pass")
            return
        pad = "    " * indent
        items = self.value(step["items"], bindings, indent)
        if self.scratch is not None:  # (the body runs again for each item, after what the last one changed)
            self.scratch = {}
        if self.known is not None:
            self.known = {}
        number = self.fresh()
        inner = f"B{number}"
        self.bound_locals[inner] = {**self.bound_locals.get(bindings, {}), step["name"]: f"_i{number}"}
        made = len(self.lines)
        self.line(f"{pad}{inner} = {self.copy_of(bindings)}")
        # (the items as they are when the loop starts: a list the loop alone holds is not copied)
        self.line(f"{pad}for _i{number} in {items if items in self.fresh_lists else f'list({items})'}:")
        self.line(f"{pad}    {inner}[{step['name']!r}] = _i{number}")
        if step["where"] is not None:
            condition = self.value(step["where"], inner, indent + 1)
            self.test_line(condition, "if not {}:", pad + "    ")
            self.line(f"{pad}        continue")
        self.block(step["body"], inner, indent + 1)
        self.unless_read(inner, made, [made, made + 2])

    def _repeat(self, step: Step, bindings: str, indent: int) -> None:
        pad = "    " * indent
        if self.scratch is not None:  # (the body, and a `while` test, run again after what the last turn changed)
            self.scratch = {}
        if self.known is not None:
            self.known = {}
        if step["times"] is not None:
            times = self.value(step["times"], bindings, indent)
            if self.known is not None:  # (the count is worked out once, before passes that may change what it read)
                self.known = {}
            self.line(f"{pad}for _ in range(int({times})):")
            self.count_step(step.where, indent + 1)
            self.block(step["body"], bindings, indent + 1)
            return
        self.line(f"{pad}while True:")
        condition = self.value(step["while"], bindings, indent + 1)
        self.line(f"{pad}    if not {condition}:")
        self.line(f"{pad}        break")
        self.count_step(step.where, indent + 1)
        self.block(step["body"], bindings, indent + 1)

    def binds(self, bindings: str, scope: str | None, *names: str, seated: tuple[str, ...] = ()) -> None:
        """`bindings` (code) hold `names` and what `scope` (code) is known to hold, wherever they are read; the
        names of `seated` (among `names`) and those of the scope not bound anew are seats at the table."""
        self.known_names[bindings] = frozenset(names) | self.known_names.get(scope or "", frozenset())
        self.seated[bindings] = (self.seated.get(scope or "", frozenset()) - frozenset(names)) | frozenset(seated)

    def unless_read(self, bindings: str, since: int, lines: list[int]) -> None:
        """The lines (indexes) that make and fill a dict of bindings become `pass` when no other line written
        since `since` reads the dict: every name it holds was read from its local."""
        name = re.compile(rf"\b{re.escape(bindings)}\b")
        if any(name.search(text) for index, text in enumerate(self.lines[since:], since) if index not in lines):
            return
        for index in lines:
            text = self.lines[index]
            self.lines[index] = text[:len(text) - len(text.lstrip())] + "pass"

    def count_step(self, where: str, indent: int) -> None:
        """One more turn of a loop since the last decision: a ruleset whose loop never ends is stopped here."""
        pad = "    " * indent
        self.line(f"{pad}S.steps += 1")
        self.line(f"{pad}if S.steps > {self.max_steps}:")
        self.line(f"{pad}    raise RUNTIME('more than {self.max_steps:,} steps without a decision or a chance event; "
                  f"does a loop never end?', {where!r})")


def _reusable(code: str) -> bool:
    """Whether the value of an expression's code, written in place, may be read again from its local while the
    variables it reads are unchanged: code that reads the game's values (`V`), constants and the generated code's
    own locals, and makes no list of its own (which its reader may keep)."""
    return "L[" not in code and "S." not in code and _CALL.search(code) is None and not _fresh_list(code)


def _named(reread: tuple[Any, str, dict[str, str]], frame: Any) -> EvaluationError | None:
    """The failure of an expression written in place with definitions in it, named as its own function names it:
    the expression worked out again with its function, its bindings (and the names held in locals) read from
    the frame of the generated code that failed. None when it does not fail so again."""
    function, bindings, held = reread
    scope = frame.f_locals
    try:  # (generated code: the bindings' dict, unless no line reads it but those held in locals, see unless_read)
        bound = dict(eval(bindings, frame.f_globals, scope))
    except Exception:
        bound = {}
    for name, local in held.items():  # (a local the code no longer holds: the name as the dict binds it)
        with contextlib.suppress(Exception):
            bound[name] = eval(local, frame.f_globals, scope)
    try:
        run_expression(function, scope["V"], bound)
    except EvaluationError as failure:
        return failure
    except Exception:  # (what it reads no longer there: the failure as the code in place names it)
        return None
    return None


def constant_of(expression: Expr | None) -> tuple[Any] | None:
    """`(value,)` when an expression's value is the same at every evaluation (see dsl/folding.py)."""
    if expression is None:
        return None
    constant = getattr(expression.function, "constant", None)
    return constant if constant is not None and constant[0].__class__ in (bool, int, str) else None


def _fresh_list(code: str) -> bool:
    """Whether an expression's code makes a new list each time (`list(...)`, a comprehension), which nothing else
    holds."""
    body = ast.parse(code, mode="eval").body
    return isinstance(body, ast.ListComp) or (isinstance(body, ast.Call) and isinstance(body.func, ast.Name)
                                              and body.func.id == "list" and len(body.args) == 1
                                              and not body.keywords)


def _receiver_split(test: str, receiver: str, others: set[str]) -> tuple[list[str], str, str] | None:
    """A deal's `face_up` test (its code) cut where it first asks `receiver == X` (`receiver`: the local that
    holds it): the tests before it, which read neither the receiver nor the `others` that change from card to
    card (the round, the loop's places, the bindings made per card), X, which reads none of them either, and the
    tests after it (`True` when none); None when the test does not start so. Expressions change nothing, so the
    tests before and X are the same for every card dealt."""
    if not test:
        return None
    body = ast.parse(test, mode="eval").body
    conjuncts = body.values if isinstance(body, ast.BoolOp) and isinstance(body.op, ast.And) else [body]
    varying = {receiver, *others}

    def reads_varying(node: ast.AST) -> bool:
        return any(isinstance(name, ast.Name) and name.id in varying for name in ast.walk(node))

    for index, conjunct in enumerate(conjuncts):
        if isinstance(conjunct, ast.Compare) and len(conjunct.ops) == 1 and isinstance(conjunct.ops[0], ast.Eq):
            sides = [conjunct.left, conjunct.comparators[0]]
            for side, other in (sides, sides[::-1]):
                if isinstance(side, ast.Name) and side.id == receiver and not reads_varying(other):
                    rest = conjuncts[index + 1:]
                    return ([f"({ast.unparse(c)})" for c in conjuncts[:index]], f"({ast.unparse(other)})",
                            " and ".join(f"({ast.unparse(c)})" for c in rest) if rest else "True")
        if reads_varying(conjunct):
            return None
    return None


def in_place(code: str, bindings: str, held: Mapping[str, str] | None = None) -> str:
    """An expression's code reading its bound names from `bindings` (code) instead of `B`, and those `held` in
    Python locals (name -> the local's code) from the locals."""
    if bindings == "B" and not held:
        return code
    tree = ast.parse(code, mode="eval")
    replacement = ast.parse(bindings, mode="eval").body
    locals_ = {name: ast.parse(local, mode="eval").body for name, local in (held or {}).items()}

    def is_bindings(node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == "B"

    class Rename(ast.NodeTransformer):
        def visit_Subscript(self, node: ast.Subscript) -> ast.AST:  # B['name'], for a name held in a local
            if is_bindings(node.value) and isinstance(node.slice, ast.Constant) and node.slice.value in locals_:
                return locals_[node.slice.value]
            return self.generic_visit(node)

        def visit_Compare(self, node: ast.Compare) -> ast.AST:  # 'name' in B, for a name held in a local
            if isinstance(node.left, ast.Constant) and node.left.value in locals_ and len(node.ops) == 1 and \
                    isinstance(node.ops[0], ast.In) and is_bindings(node.comparators[0]):
                return ast.Constant(True)
            return self.generic_visit(node)

        def visit_Name(self, node: ast.Name) -> ast.AST:
            return replacement if is_bindings(node) else node

    return ast.unparse(Rename().visit(tree))


_UNCHANGING = frozenset({"int", "bool", "str", "card", "rank", "suit", "seat", "team", "meld"})  # shown as they are

_FAILURES = (ZeroDivisionError, IndexError, KeyError, TypeError, EvaluationError)


def deal_short(count: int, receivers: int, held: int) -> str:
    """What a deal that the zone cannot fill lacked, after the zone's name."""
    each = "1 card" if count == 1 else f"{count} cards"
    seats = "1 seat" if receivers == 1 else f"{receivers} seats"
    return f" ran out while dealing: {each} to each of {seats} needs {count * receivers}, and it holds {held}"
