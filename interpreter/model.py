"""The frozen specification of a checked ruleset: what the engine reads. Built by the loader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.cards import Deck
from interpreter.dsl.compiler import Compiled, GeneratedModule
from interpreter.errors import Diagnostic
from interpreter.parameters import ParamSpec, ParamValue
from interpreter.procedures import Call
from interpreter.source import MappingNode


@dataclass(frozen=True)
class Players:
    minimum: int
    maximum: int
    default: int

    def counts(self) -> range:
        return range(self.minimum, self.maximum + 1)

    def described(self) -> str:
        """How many players, as a message says it: `4 players`, `2 to 4 players`."""
        if self.minimum == self.maximum:
            return f"{self.minimum} player{'s' if self.minimum != 1 else ''}"
        return f"{self.minimum} to {self.maximum} players"


@dataclass(frozen=True)
class ZoneSpec:
    name: str
    owner: str = "table"  # table | seat | team
    visibility: str = "hidden"  # public | owner | team | hidden | nobody
    kind: str = "cards"  # cards | melds
    shows_count: bool = True


@dataclass(frozen=True)
class VariableSpec:
    name: str
    type: str
    per: str = "table"  # table | seat | team
    lasts: str = "hand"  # hand | match
    visibility: str = "public"
    optional: bool = False  # declared `initial: null`: may be unset, and must be tested before use
    unset: bool = False  # declared without `initial`: unset until a step sets it, and an error to read before
    by: str | None = None  # a second index (`by:`): str (the words of `by_words`), suit, rank, seat or team
    by_words: tuple[str, ...] = ()

    def keys(self, deck: Deck, players: int, teams: int) -> tuple[tuple[Any, str], ...]:
        """The second index's keys, each as stored (a word, or a suit, rank, seat or team by number) with its text
        (`NT`, `H`, `p1`, `t0`), in order; none for a variable without `by`."""
        if self.by == "str":
            return tuple((word, word) for word in self.by_words)
        if self.by == "suit":
            return tuple(enumerate(deck.suits))
        if self.by == "rank":
            return tuple(enumerate(deck.rank_names))
        if self.by in ("seat", "team"):
            prefix = "p" if self.by == "seat" else "t"
            return tuple((owner, f"{prefix}{owner}") for owner in range(players if self.by == "seat" else teams))
        return ()


@dataclass(frozen=True)
class ShownItem:
    """A zone or variable a player's view shows, with the label it is shown under; or a definition without
    parameters shown as a variable, `where` the YAML path of its compiled expression (empty for the others)."""

    name: str
    label: str
    where: str = ""
    sorted: bool = False  # a zone whose cards are shown as a hand is (`sorted: true`), not in the zone's order


@dataclass(frozen=True)
class ShowSpec:
    """The ruleset's `show:` section: what a player's view of the table shows (see interpreter/view.py).
    `zones` or `variables` None: every one of them, under its own name."""

    hand: str | None = None  # the zone per seat shown as the seat's hand, sorted and grouped by suit
    zones: tuple[ShownItem, ...] | None = None
    variables: tuple[ShownItem, ...] | None = None


@dataclass(frozen=True)
class Ruleset:
    """A loaded, checked and compiled ruleset.

    `expressions` maps the YAML path of every expression (e.g. `hand.phases[2].steps[0].to`) to its compiled
    function; `tree` is the merged located tree the engine walks for the structure of phases and steps.
    """

    name: str
    path: str
    players: Players
    deck: Deck
    deck_zone: str
    zones: Mapping[str, ZoneSpec]
    variables: Mapping[str, VariableSpec]
    parameters: Mapping[str, ParamSpec]
    parameter_values: Mapping[str, ParamValue]
    teams: Mapping[int, tuple[tuple[int, ...], ...]]
    tree: MappingNode
    expressions: Mapping[str, Compiled]
    warnings: tuple[Diagnostic, ...] = ()
    shown_types: Mapping[str, Any] = field(default_factory=dict)  # type of each `{...}` of a log line, each metric
    # Each node written under `procedures:` (by identity) -> its path there, to name a place where it is written.
    procedure_paths: Mapping[int, tuple[str | int, ...]] = field(default_factory=dict)
    # Each step spliced from a procedure (its path in the hand, procedures spliced in) -> the calls that put it
    # there (procedures.Call), to name them where it fails.
    procedure_calls: Mapping[tuple[str | int, ...], tuple[Call, ...]] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    show: ShowSpec = field(default_factory=ShowSpec)
    # The module of generated code the expressions' functions come from (what a kept ruleset makes them again
    # from, see interpreter/ruleset_cache.py); None for a ruleset built by hand.
    generated: GeneratedModule | None = None
    # The variables no step changes with these parameters, read everywhere as their initial value: name -> (its
    # owner kind, the value) (see interpreter/unchanging.py)
    unchanging: Mapping[str, tuple[str, Any]] = field(default_factory=dict)


def preference_flag(index: int) -> str:
    """The name a preference's rule reads (`prefer:`, the clause at `index` of its option's `legal`): whether some
    card the clauses before it allow meets its test (no name a ruleset declares starts with `_`)."""
    return f"_prefer_{index}"
