"""The machinery of resumable generated code: segments, their labels and jumps, the slots of their locals, and
the flow of a block of steps through them (see handcode.py, which writes a hand's steps with it)."""

from __future__ import annotations

import re
from typing import Any

from interpreter.engine.flowcode import StepWriter, is_simple
from interpreter.engine.program import Step

_HEADER = re.compile(r"def seg_(\d+)\(S, L\):")
_JUMP = re.compile(r"( +)return (\d+)")  # a jump, alone on its line
_RETURN = re.compile(r" *return (-?\d+)(?: if .* else (-?\d+))?")
_SLOT = re.compile(r"L\[\d+\]")  # the code of a slot's value
_BODY = "        "  # the indentation of a segment's own code
_COPIED_LINES = 30  # a segment this short is copied in place of a jump to it (see SegmentWriter._copy_short)


def _labels_in(text: str) -> list[int]:
    """The labels a line of a segment returns (`~label` for a stop)."""
    found = _RETURN.fullmatch(text)
    if found is None:
        return []
    return [int(group) for group in found.groups() if group is not None]


class SegmentWriter(StepWriter):
    """Writes segments: `seg_<label>(S, L) -> int`, each returning the next label or `~label` to stop there."""

    def __init__(self, max_steps: int) -> None:
        super().__init__(max_steps)
        self.labels = 0
        self.slot_count = 1  # slot 0: the phases' empty scope
        self.segment_names: dict[int, str] = {}
        self.open = False
        self.opened_at = 0  # the line the open segment's own code starts at
        self.current = 0  # the open segment's label
        self.aliases: dict[int, int] = {}  # a segment that only jumps -> where it jumps
        self.seat_scopes: set[str] = set()  # the slots (code) of scopes that bind a seat alone, made once per seat
        # Bindings (their code) whose `player` the open segment holds in a local (see `hold_player`), with what
        # `bound_locals` held for them before, and the line that sets the local
        self.held: list[tuple[str, dict[str, str] | None, int]] = []

    # --- labels, slots and segments ----------------------------------------------------------------------------

    def label(self) -> int:
        self.labels += 1
        return self.labels - 1

    def slot(self) -> int:
        self.slot_count += 1
        return self.slot_count - 1

    def begin(self, label: int) -> None:
        assert not self.open, "a segment is already open"
        name = self.segment_names[label] = f"seg_{label}"
        self.current = label
        self.line(f"def {name}(S, L):", "")
        self.line("    V = S.values", "")
        self.line("    try:", "")
        self.names = 0
        self.open = True
        self.opened_at = len(self.lines)

    def finish(self, code: str) -> None:
        """End the open segment with `code` (a return)."""
        self.code(code)
        for bindings, before, line in reversed(self.held):  # (a later segment reads the bindings again)
            local = re.compile(rf"\b{self.bound_locals[bindings]['player']}\b")
            reads = [index for index in range(line + 1, len(self.lines)) for _ in local.finditer(self.lines[index])]
            if len(reads) < 2:  # (read once: where it is read, as it was held)
                for index in reads:
                    self.lines[index] = local.sub(f"{bindings}['player']", self.lines[index])
                self.lines[line] = self.lines[line][:-len(self.lines[line].lstrip())] + "pass"
            if before is None:
                del self.bound_locals[bindings]
            else:
                self.bound_locals[bindings] = before
        self.held = []
        self.line("    except FAILURES as failure:", "")
        self.line("        raise LOCATE(failure) from None", "")
        self.line("", "")
        self.open = False

    def jump(self, label: int) -> None:
        if len(self.lines) == self.opened_at:  # nothing but the jump: the label runs its target's code itself
            self.aliases[self.current] = label
        self.finish(f"return {label}")

    def stop_at(self, label: int) -> None:
        """Stop the game (a decision or chance event is pending); resume at `label`."""
        self.finish(f"return {~label}")

    def code(self, text: str, indent: int = 0) -> None:
        self.line(self.pad(indent) + text)

    def pad(self, indent: int) -> str:
        """What starts a line of a segment's own code `indent` levels in."""
        return _BODY + "    " * indent

    def target(self, label: int) -> int:
        """The segment whose code a label runs: itself, or where a chain of bare jumps leads."""
        seen = {label}
        while label in self.aliases and self.aliases[label] not in seen:
            label = self.aliases[label]
            seen.add(label)
        return label

    # --- joining segments -------------------------------------------------------------------------------------

    def join(self, entered: set[int]) -> None:
        """Write each segment that only one jump leads to in place of that jump (`return N` becomes N's code),
        so that running on from one decision to the next calls fewer functions. `entered`: the labels run from
        outside (phase entries, the hand's end); a label the game stops at (`~label`) is also kept as it is.

        A segment's code ends in a return or a raise on every path, and binds every local it reads but `V`:
        written in place of `return N`, inside a loop or a branch too, it does just what the call of N would have
        done (`V`, the state's values, is the same dict for as long as the state lives)."""
        segments, order, others = self._segments()
        references: dict[int, int] = {}
        for body in segments.values():
            for text, _ in body:
                for label in _labels_in(text):
                    target = self.target(label if label >= 0 else ~label)
                    references[target] = references.get(target, 0) + (1 if label >= 0 else 2)
        kept = {self.target(label) for label in entered}
        joined: set[int] = set()
        for label in order:
            if label in joined:
                continue
            body = segments[label]
            index = 0
            while index < len(body):  # (a body grows as segments are written into it: they are read in turn)
                text, where = body[index]
                jumped = _JUMP.fullmatch(text)
                if jumped is not None:
                    target = self.target(int(jumped[2]))
                    if target != label and target not in kept and target not in joined and \
                            references.get(target) == 1 and target in segments:
                        indent = jumped[1]
                        extra = indent[len(_BODY):]
                        body[index:index + 1] = [
                            (extra + line if line else line, place) for line, place in segments[target]]
                        joined.add(target)
                index += 1
        self._copy_short(segments, order, joined)
        self.lines, self.places = [], {}
        for text, where in others[0]:
            self.line(text, where or "")
        for label in order:
            if label in joined:
                del self.segment_names[label]
                continue
            name = self.segment_names[label]
            self.line(f"def {name}(S, L):", "")
            self.line("    V = S.values", "")
            self.line("    try:", "")
            for text, where in segments[label]:
                self.line(text, where or "")
            self.line("    except FAILURES as failure:", "")
            self.line("        raise LOCATE(failure) from None", "")
            self.line("", "")
        for text, where in others[1]:
            self.line(text, where or "")

    def _copy_short(self, segments: dict[int, list[tuple[str, str | None]]], order: list[int],
                    joined: set[int]) -> None:
        """Then a jump to a short segment (`_COPIED_LINES`) runs a copy of its code in its place, the segment kept
        for the other jumps to it: a loop's step back to its head (the next discard of several), the next trick's
        start after a trick's last card, run on without going back to `State.apply`'s loop. Copies are made of
        the segments as joined, and nothing is copied into a copy, so each jump grows by one short segment."""
        originals = {label: list(body) for label, body in segments.items() if label not in joined}
        for label in order:
            if label in joined:
                continue
            written: list[tuple[str, str | None]] = []
            for text, where in originals[label]:
                jumped = _JUMP.fullmatch(text)
                target = self.target(int(jumped[2])) if jumped is not None else label
                copied = originals.get(target) if target != label else None
                if jumped is None or copied is None or len(copied) > _COPIED_LINES:
                    written.append((text, where))
                    continue
                extra = jumped[1][len(_BODY):]
                written += [(extra + line if line else line, place) for line, place in copied]
            segments[label] = written

    def _segments(self) -> tuple[dict[int, list[tuple[str, str | None]]], list[int],
                                 tuple[list[tuple[str, str | None]], list[tuple[str, str | None]]]]:
        """The written lines cut into segments' bodies (each line with its place in the ruleset), in order, and
        the lines before the first segment and after the last."""
        bodies: dict[int, list[tuple[str, str | None]]] = {}
        order: list[int] = []
        before: list[tuple[str, str | None]] = []
        after: list[tuple[str, str | None]] = []
        index = 0
        lines = self.lines
        while index < len(lines):
            header = _HEADER.fullmatch(lines[index])
            if header is None:
                (after if order else before).append((lines[index], self.places.get(index + 1)))
                index += 1
                continue
            label = int(header[1])
            index += 3  # the header, `V = S.values` and `try:`
            body = []
            while lines[index] != "    except FAILURES as failure:":
                body.append((lines[index], self.places.get(index + 1)))
                index += 1
            index += 3  # the handler's two lines and the blank line
            bodies[label] = body
            order.append(label)
        return bodies, order, (before, after)

    # --- blocks of steps ---------------------------------------------------------------------------------------

    def flow(self, steps: tuple[Step, ...], scope: str) -> None:
        """The steps of a block, into the open segment; steps that may stop the game end it and open others, and
        a segment is open again at the end."""
        for step in steps:
            outer, self.step_where = self.step_where, step.where
            if is_simple(step):
                if self.scratch is None:  # (a run of such steps: their expressions may share a scratch copy of
                    self.scratch = {}     # the bindings while the state is unchanged, see StepWriter.value)
                    self.known = {}
                self.step(step, scope, 2)
            else:
                self.scratch = self.known = None  # (the step may stop the game, and its code runs in other segments)
                self.stopping(step, scope)
            self.step_where = outer
        self.scratch = self.known = None

    def block_then(self, label: int, steps: tuple[Step, ...], scope: str, then: int) -> None:
        """A segment at `label` running a block, then jumping to `then`."""
        self.begin(label)
        self.hold_player(scope)
        self.flow(steps, scope)
        self.jump(then)

    def hold_player(self, scope: str) -> None:
        """In the open segment, the `player` that bindings known to hold one hold (a decision's, a round's: a
        slot's dict, never changed in place) is read once into a local, which the code written in place reads
        until the segment ends (the line is `pass` when nothing reads it)."""
        if "player" not in self.known_names.get(scope, ()) or not _SLOT.fullmatch(scope) or \
                "player" in self.bound_locals.get(scope, {}):
            return
        local = f"_who{self.fresh()}"
        self.held.append((scope, self.bound_locals.get(scope), len(self.lines)))
        self.code(f"{local} = {scope}['player']")
        self.bound_locals[scope] = {**self.bound_locals.get(scope, {}), "player": local}

    def each_item(self, items: int, index: int, inner: int, scope: str, name: str, step: Step, body: int,
                  seats: bool = False) -> None:
        """In the open segment: go on over the items in slot `items` from the one slot `index` points at, binding
        each under `name` in slot `inner` and going to `body` for one that the step's `where` admits; when none is
        left, the code that follows runs. `seats`: the items are seats at the table. (No turn is counted against
        a loop that never ends: the items are a list made when the loop starts, and every loop in the body counts
        its own.)"""
        self.code(f"while L[{index}] < len(L[{items}]):")
        if seats and name == "player" and scope == self.empty_scope:
            # (a seat alone bound: its scope made once per seat when the code is built, and shared, as no code
            # changes a scope in place)
            self.code(f"L[{inner}] = SEAT_SCOPES[L[{items}][L[{index}]]]", 1)
            self.seat_scopes.add(f"L[{inner}]")
        else:
            self.code(f"L[{inner}] = {self.extended(scope, f'{name!r}: L[{items}][L[{index}]]')}", 1)
        self.binds(f"L[{inner}]", scope, name, seated=(name,) if seats else ())
        self.code(f"L[{index}] += 1", 1)
        self.skip_unless(step["where"], f"L[{inner}]")
        self.code(f"return {body}", 1)

    def skip_unless(self, where: Any, scope: str) -> None:
        """Inside a loop: go on to the next item unless the step's `where` holds."""
        if where is not None:
            condition = self.value(where, scope, 3)
            self.test_line(condition, "if not {}:", self.pad(1))
            self.code("continue", 2)

    def stopping(self, step: Step, scope: str) -> None:  # pragma: no cover - the hand writer writes them
        raise NotImplementedError(step.verb)
