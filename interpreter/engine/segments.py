"""The machinery of resumable generated code: segments, their labels and jumps, the slots of their locals, and
the flow of a block of steps through them (see handcode.py, which writes a hand's steps with it)."""

from __future__ import annotations

from typing import Any

from interpreter.engine.flowcode import StepWriter, is_simple
from interpreter.engine.program import Step


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
        self.line("        " + "    " * indent + text)

    def target(self, label: int) -> int:
        """The segment whose code a label runs: itself, or where a chain of bare jumps leads."""
        seen = {label}
        while label in self.aliases and self.aliases[label] not in seen:
            label = self.aliases[label]
            seen.add(label)
        return label

    # --- blocks of steps ---------------------------------------------------------------------------------------

    def flow(self, steps: tuple[Step, ...], scope: str) -> None:
        """The steps of a block, into the open segment; steps that may stop the game end it and open others, and
        a segment is open again at the end."""
        for step in steps:
            outer, self.step_where = self.step_where, step.where
            if is_simple(step):
                self.step(step, scope, 2)
            else:
                self.stopping(step, scope)
            self.step_where = outer

    def block_then(self, label: int, steps: tuple[Step, ...], scope: str, then: int) -> None:
        """A segment at `label` running a block, then jumping to `then`."""
        self.begin(label)
        self.flow(steps, scope)
        self.jump(then)

    def each_item(self, items: int, index: int, inner: int, scope: str, name: str, step: Step, body: int) -> None:
        """In the open segment: go on over the items in slot `items` from the one slot `index` points at, binding
        each under `name` in slot `inner` and going to `body` for one that the step's `where` admits; when none is
        left, the code that follows runs."""
        self.code(f"while L[{index}] < len(L[{items}]):")
        self.count_step(step.where, 3)
        self.code(f"L[{inner}] = {{**{scope}, {name!r}: L[{items}][L[{index}]]}}", 1)
        self.code(f"L[{index}] += 1", 1)
        self.skip_unless(step["where"], f"L[{inner}]")
        self.code(f"return {body}", 1)

    def skip_unless(self, where: Any, scope: str) -> None:
        """Inside a loop: go on to the next item unless the step's `where` holds."""
        if where is not None:
            condition = self.value(where, scope, 3)
            self.code(f"if not {condition}:", 1)
            self.code("continue", 2)

    def stopping(self, step: Step, scope: str) -> None:  # pragma: no cover - the hand writer writes them
        raise NotImplementedError(step.verb)
