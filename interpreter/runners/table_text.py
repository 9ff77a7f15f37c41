"""A seat's view of the table (interpreter/view.py) drawn for the terminal with rich: suits in colour, one
line per part of the table; plain text, the same words, when the output is not a terminal or NO_COLOR is set."""

from __future__ import annotations

import io
import os
import shutil
import sys
from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.text import Text

from interpreter.view import MeldView, TableView, VariableView, ZoneView

# Suits by their place in the deck's `suits` list; with S H D C, the colours of a four-colour pack.
SUIT_STYLES = ("bold", "bold red", "bold yellow", "bold green", "bold cyan", "bold magenta")
JOKER_STYLE = "bold magenta"
DIM = "dim"
HEADING = "bold underline"
SEPARATOR = " · "


def is_styled() -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def view_text(view: TableView, suits: Sequence[str], *, styled: bool | None = None, width: int | None = None,
              new_cards: Sequence[str] = ()) -> str:
    """The view drawn as text for the terminal (with colour codes when `styled`); `new_cards` are the cards
    that came into the hand since the seat last looked."""
    styled = is_styled() if styled is None else styled
    width = width or min(shutil.get_terminal_size((100, 24)).columns, 120)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=styled, color_system="standard" if styled else None,
                      width=width, highlight=False, markup=False, emoji=False, soft_wrap=False)
    for line in view_lines(view, suits, new_cards, width):
        console.print(line)
    return buffer.getvalue()


def view_lines(view: TableView, suits: Sequence[str], new_cards: Sequence[str] = (),
               width: int | None = None) -> list[Text]:
    """The lines of the view, top to bottom: who is where, the scores, the table, the hand, whose turn (the
    last moves as many as fit in `width`, when given, the latest always)."""
    painter = CardPainter(suits)
    lines = [_title(view)]
    lines += [_variable_line(variable, view.seat) for variable in view.variables]
    lines += _zone_lines(view, painter)
    if view.recent:
        recent = view.recent[-4:]
        while width is not None and len(recent) > 1 and len("Last: " + SEPARATOR.join(recent)) > width:
            recent = recent[1:]  # (a move is never cut in two: the older ones give way)
        lines.append(_labelled("Last", Text(SEPARATOR.join(recent), style=DIM)))
    if view.hand is not None:
        lines.append(_hand_line(view, painter, new_cards))
    if view.chosen:
        lines.append(Text("Chosen so far (unseen): " + ", ".join(f"p{s}" for s in view.chosen)))
    return lines


class CardPainter:
    """Card text in its suit's colour (`10H` red); the card's text itself never changes."""

    def __init__(self, suits: Sequence[str]) -> None:
        self.styles = {suit: SUIT_STYLES[index % len(SUIT_STYLES)] for index, suit in enumerate(suits)}

    def style(self, card: str) -> str:
        for suit, style in self.styles.items():
            if card.endswith(suit) and len(card) > len(suit):
                return style
        return JOKER_STYLE

    def card(self, card: str) -> Text:
        return Text(card, style=self.style(card))

    def cards(self, cards: Iterable[str]) -> Text:
        return Text(" ").join(self.card(card) for card in cards)


def _title(view: TableView) -> Text:
    title = Text(f"\n{view.game}", style="bold")
    title.append(f"{SEPARATOR}hand {view.hand_number}{SEPARATOR}dealer p{view.dealer}{SEPARATOR}")
    title.append(f"You are p{view.seat}.", style="bold")
    partners = _partners(view)
    if partners:
        team = next(number for number, seats in enumerate(view.teams) if view.seat in seats)
        title.append(f" Your team is t{team}, with {partners}.")
    return title


def _partners(view: TableView) -> str:
    for seats in view.teams:
        if view.seat in seats and len(seats) > 1:
            return " and ".join(f"p{seat}" for seat in seats if seat != view.seat)
    return ""


def _labelled(label: str, body: Text) -> Text:
    line = Text(f"{label[:1].upper()}{label[1:]}: ", style="bold")
    line.append_text(body)
    return line


def _variable_line(variable: VariableView, seat: int) -> Text:
    if isinstance(variable.text, list):
        prefix = "p" if variable.per == "seat" else "t"
        parts = [f"{prefix}{owner}{' (you)' if variable.per == 'seat' and owner == seat else ''} "
                 f"{'?' if value is None else value}" for owner, value in enumerate(variable.text)]
        return _labelled(variable.label, Text(SEPARATOR.join(parts)))
    return _labelled(variable.label, Text(str(variable.text)))


def _zone_lines(view: TableView, painter: CardPainter) -> list[Text]:
    """Table zones one line each; a zone per seat or team on one line, or a block of melds per owner."""
    lines: list[Text] = []
    pending: list[ZoneView] = []
    for zone in (*view.zones, None):
        if pending and (zone is None or zone.name != pending[0].name or zone.melds is not None):
            lines.append(_owned_line(pending, painter))
            pending = []
        if zone is None:
            break
        if zone.melds is not None:
            lines += _meld_block(zone, view, painter)
        elif zone.owner:
            if zone.name == view.hand_zone or not _is_empty(zone):
                pending.append(zone)
        elif zone.is_trick or zone.name == view.deck_zone or not _is_empty(zone):  # (a stock run out is news)
            lines.append(_labelled(zone.label, _table_zone(zone, painter)))
    return lines


def _is_empty(zone: ZoneView) -> bool:
    """Nothing to see: no cards, or none counted and none face up (an empty pile is left off the view)."""
    return not zone.cards and not zone.count and not zone.face_up


def _table_zone(zone: ZoneView, painter: CardPainter) -> Text:
    if zone.cards is None:
        return Text("empty" if zone.count == 0 and not zone.face_up else _hidden(zone), style=DIM)
    if not zone.cards:
        return Text("empty", style=DIM)
    if zone.is_trick and any(zone.played_by):
        return Text(SEPARATOR).join(Text(f"{who or '?'} ").append_text(painter.card(card))
                                    for card, who in zip(zone.cards, zone.played_by, strict=True))
    text = painter.cards(zone.cards)
    if len(zone.cards) > 1:  # (a pile's top card is the one a draw or a capture takes; a spread has none)
        text.append(f"  ({len(zone.cards)} cards)" if zone.spread else
                    f"  (top: {zone.cards[-1]}, {len(zone.cards)} cards)", style=DIM)
    return text


def _hidden(zone: ZoneView) -> str:
    text = "face down" if zone.count is None else _cards_count(zone.count)
    if zone.face_up:
        text += f", face up: {' '.join(zone.face_up)}"
    return text


def _cards_count(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


def _owned_line(zones: list[ZoneView], painter: CardPainter) -> Text:
    parts = []
    for zone in zones:
        owner = Text(f"{zone.owner}{' (yours)' if zone.is_yours else ''} ", style="bold" if zone.is_yours else "")
        if zone.cards is not None:
            owner.append_text(painter.cards(zone.cards) if zone.cards else Text("empty", style=DIM))
            if zone.face_up:
                owner.append(f" (face up: {' '.join(zone.face_up)})", style=DIM)
        else:
            owner.append(_hidden(zone))
        parts.append(owner)
    return _labelled(zones[0].label, Text(SEPARATOR).join(parts))


def _meld_block(zone: ZoneView, view: TableView, painter: CardPainter) -> list[Text]:
    owner = zone.owner or "the table"
    team = int(zone.owner[1:]) if zone.owner.startswith("t") else -1
    if 0 <= team < len(view.teams) and view.teams[team]:
        owner = f"{zone.owner} ({' and '.join(f'p{seat}' for seat in view.teams[team])})"
    heading = Text(f"{zone.label[:1].upper()}{zone.label[1:]} of {owner}", style=HEADING)
    if zone.is_yours:
        heading.append(" (yours)", style="bold")
    melds = zone.melds or ()
    if not melds:
        heading.append(": none yet", style=DIM)
        return [heading]
    heading.append(":")
    width = max(len(meld.kind) for meld in melds)
    return [heading, *(_meld_line(meld, width, painter) for meld in melds)]


def _meld_line(meld: MeldView, width: int, painter: CardPainter) -> Text:
    line = Text(f"  {meld.id:>3} ", style="bold")
    line.append(f"{meld.kind:<{width}}  ")
    cards = []
    for card in meld.cards:
        text = painter.card(card.card)
        if card.stands_for:
            text.append(f"={card.stands_for}", style=DIM)
        cards.append(text)
    line.append_text(Text(" ").join(cards))
    line.append(f"  ({len(meld.cards)})", style=DIM)
    return line


def _hand_line(view: TableView, painter: CardPainter, new_cards: Sequence[str]) -> Text:
    groups = view.hand or ()
    count = sum(len(group.cards) for group in groups)
    line = Text(f"Your hand ({_cards_count(count)}): ", style="bold")
    if not groups:
        line.append("empty", style=DIM)
    line.append_text(Text("   ").join(painter.cards(group.cards) for group in groups))
    if view.hand_face_up:  # (cards every seat sees in the hand: a dealer's turned-up card)
        line.append("   face up, seen by all: ", style="bold")
        line.append_text(painter.cards(view.hand_face_up))
    if new_cards:
        line.append("   new: ", style="bold")
        line.append_text(painter.cards(new_cards))
    return line


def moves_text(moves: Sequence[str], seat: int, *, width: int | None = None) -> list[str]:
    """The moves, numbered, without the seat's own `pN ` in front of each; in columns (down, then across) when
    there are many, so that the table stays on the screen above them."""
    prefix = f"p{seat} "
    items = [f"{index:>2}. {move[len(prefix):] if move.startswith(prefix) else move}"
             for index, move in enumerate(moves, 1)]
    width = width or min(shutil.get_terminal_size((100, 24)).columns, 120)
    column = max((len(item) for item in items), default=0) + 3
    columns = max(1, min((width - 2) // column, len(items) // 8 + 1))
    rows = -(-len(items) // columns)
    return ["  " + "".join(items[row + rows * number].ljust(column)
                           for number in range(columns) if row + rows * number < len(items)).rstrip()
            for row in range(rows)]
