"""A person at the terminal plays a seat: they see their own view and pick from the legal actions."""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Callable, Collection, Sequence

import click

from interpreter.actions import CARD_KINDS, KINDS, Action, ActionSyntaxError
from interpreter.cards import Deck
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State
from interpreter.errors import MAX_MESSAGE, shorten
from interpreter.runners.table_text import moves_text, view_text
from interpreter.view import in_hand_order, table_view


class Quit(Exception):
    """The person asked to stop."""


def help_text(state: State, seat: int, legal: list[Action]) -> str:
    """What `?` shows: how to answer, with this game's own moves as the examples, and only the parts of the
    table this game has (tricks, melds, jokers)."""
    view = table_view(state, seat)
    texts = [state.action_text(action).split(" ", 1)[1] for action in legal]
    examples = ", ".join(f"`{text}`" for text in texts[:2])
    joined = next((text for text in texts if "+" in text), None)
    has_melds = any(zone.melds is not None for zone in view.zones)
    lines = [f"Answer with the number of a move, or its text ({examples}; the seat may be left out)."]
    if joined is not None or has_melds:
        lines.append("Several cards as one argument are joined with `+`, in any order" +
                     (f" (`{joined}`)." if joined is not None else "."))
    lines += ["The text may be in any case, and its kind left out when only one move fits (`ah` for `play AH`).",
              "Where every move is a value of one choice (`choose bid n 0` to `13`), a number is that value (`1` "
              "bids 1); a number that is both a move's number and another move's value is asked about; `#3` is "
              "always move 3 of the list.",
              "Cards are written rank then suit (`10H`, `AS`" +
              ("; `JK` is a joker)." if state.game.deck.has_joker else ").")]
    if any(zone.is_trick for zone in view.zones):
        lines.append("On the table, `p1 AH` is the card p1 played to the trick.")
    if has_melds:
        lines.append("A meld is named by its id (`m2`), as `add 9H to m2` names it, and `2S=9H` is a wild card "
                     "standing for 9H.")
    lines += ["`(yours)` marks your own zones; `?` stands for a value you may not see.",
              "`?` shows this again, `q` stops the match: it is kept in its log, and the command printed then "
              "(`play --resume FILE`) goes on with it."]
    return "\n".join(textwrap.fill(line, width=110, initial_indent="  ", subsequent_indent="  ") for line in lines)


_SEAT = re.compile(r"p[0-9]+\s")  # an answer that names its seat (`play AH` does not: it starts with a verb)


def _is_number(answer: str) -> bool:
    """Whether an answer is written in the digits 0-9 alone (`²` and other digits of Unicode are not)."""
    return answer.isascii() and answer.isdigit()


def human_chooser(seat: int, prompt: Callable[[str], str] = click.prompt) -> Callable[[State], Action]:
    """Ask at the terminal; a number or an action's text picks it, `?` explains, `q` (or the end of input)
    stops (the log keeps the match)."""

    last_hand: list[tuple[int, Counter[str]]] = [(0, Counter())]  # (hand number, cards) when the seat last chose

    def choose(state: State) -> Action:
        last_hand[0] = show(state, seat, last_hand[0])
        legal = state.legal_actions()
        legal = [legal[index] for index in in_hand_order(table_view(state, seat))]  # (numbered as shown)
        while True:
            try:
                answer = prompt("Your move (number or text, ? for help, q to stop)").strip()
            except click.Abort:  # the end of input, or Ctrl-C at the prompt
                click.echo()  # (the prompt's line ended)
                raise Quit() from None
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit()
            if answer.lower() in ("?", "h", "help"):
                click.echo(help_text(state, seat, legal))
                continue
            if not answer:
                click.echo("  answer 1, or the move's text (? for help)" if len(legal) == 1 else
                           f"  answer with a move's number, 1 to {len(legal)}, or its text (? for help)")
                continue
            reply = _read(state, seat, legal, answer)
            if isinstance(reply, Action):
                return reply
            for line in reply:
                click.echo(f"  {line}")

    return choose


def _read(state: State, seat: int, legal: list[Action], answer: str) -> Action | list[str]:
    """What a typed answer picks from the legal moves (numbered as shown), or the lines saying why it picks none
    (and, where it helps, what it may have meant)."""
    listed = answer.startswith("#") and _is_number(answer[1:])  # (`#3`: move 3 of the list, always)
    if listed or _is_number(answer.removeprefix("-")):
        return _read_number(state, seat, legal, answer, listed)
    return _read_text(state, seat, legal, answer)


def _read_number(state: State, seat: int, legal: list[Action], answer: str, listed: bool) -> Action | list[str]:
    """A number: the move so numbered, or the choice of that value (`3` for `choose bid n 3` where every move is
    a value of one choice); asked about when it could be either; `#N` is always move N."""
    number = answer.removeprefix("#")
    on_list = len(number) <= len(str(len(legal))) and 1 <= int(number) <= len(legal)
    valued = [] if listed or len(answer) > 20 else _valued(legal, int(answer))  # (digits enough)
    values = None if listed or len(answer) > 20 else _values_of(legal)
    if values is not None:  # (every move a value of one choice, `choose bid n 0` to `13`: the value)
        if valued:
            return legal[valued[0] - 1]
        refused = _attempt(state, f"p{seat} choose {values[0]} {values[1]} {int(answer)}")
        if isinstance(refused, IllegalActionError) and not _not_offered(refused, seat):
            return [str(refused)]
        return [f"there is no `{values[0]} {values[1]} {answer}` now: the values are {_listed_values(legal)} "
                "(#N is move N of the list)"]
    if on_list and not _of_same_choice(legal[int(number) - 1], legal, valued):
        return legal[int(number) - 1]
    if not on_list and len(valued) == 1:  # (no move has that number: the one choice of that value)
        return legal[valued[0] - 1]
    if valued:  # (both a move's number and a choice's value: which was meant is asked)
        others = " or ".join(f"#{shown}" for shown in _numbered(state, legal, valued))
        return [f"{number} is move {number} on the list, and a value of other moves: answer #{number} for "
                f"`{_short(state, legal[int(number) - 1])}`, or {others}" if on_list else
                f"{number} is a value of several moves: answer {others}"]
    within = "1" if len(legal) == 1 else f"1 to {len(legal)}"
    return [f"there is no move {shorten(answer, 20)}: answer {within}, or a move's text"]


def _read_text(state: State, seat: int, legal: list[Action], answer: str) -> Action | list[str]:
    """A move's text: as the engine writes it, or in another case or order, or without its kind or `choose`;
    else the rules' reason against it, or what is wrong with it as written."""
    tried = _attempt(state, answer if _SEAT.match(answer) else f"p{seat} {answer}")
    if isinstance(tried, Action):
        return tried
    fitting = _fitting(state, legal, answer)
    if len(fitting) == 1:  # (the move's words in another case or order, `+`-joined, or its kind left out)
        return legal[fitting[0] - 1]
    if fitting:
        return [f"{shorten(answer, 40)!r} fits several moves: {', '.join(_numbered(state, legal, fitting))}: "
                "answer with its number"]
    # (the move as the engine writes it, `meld 6d 6c jk` as `meld 6D 6C JK`; or a choice named without
    # `choose`: whichever the rules then refuse, their reason is the one to give)
    reason = tried
    not_offered: IllegalActionError | None = None  # (a choice of the game that is not offered now)
    for meant in _as_written(state, seat, answer, legal):
        attempt = _attempt(state, meant)
        if isinstance(attempt, Action):
            return attempt
        if isinstance(attempt, IllegalActionError):
            if not _not_offered(attempt, seat):  # (a move of a kind offered, or a choice offered: its rule)
                reason = attempt
                break
            not_offered = not_offered or attempt
    words = answer.split()
    named = words[1] if len(words) > 1 and _SEAT.match(answer) else words[0] if words else ""
    if not_offered is not None and isinstance(reason, ActionSyntaxError) and named.lower() not in KINDS and \
            named.lower() in state.game.program.choice_names:
        reason = not_offered  # (`name of j`: a choice of the game, not offered now; not "unknown action kind")
    if isinstance(reason, IllegalActionError) and str(reason).startswith(f"it is p{seat}'s turn, not "):
        return [f"you are p{seat}: leave the seat out, or name p{seat}"]
    message = str(reason)
    if isinstance(reason, ActionSyntaxError) and "is not an action: expected e.g." in message:
        example = state.action_text(legal[0]).split(" ", 1)[1]
        message = f"{shorten(answer, 40)!r} is not a move: answer " + (
            f"1, or the move's text, `{example}`" if len(legal) == 1 else
            f"with a move's number, 1 to {len(legal)}, or its text, e.g. `{example}`")
    lines = [shorten(message, MAX_MESSAGE)]
    meant = _meant(state, legal, seat, answer)
    if meant:
        lines.append(f"(did you mean {meant}?)")
    return lines


def _attempt(state: State, text: str) -> Action | ActionSyntaxError | IllegalActionError:
    """The move a text writes, when the rules allow it now; else why not (it is no move, or the rules refuse it)."""
    try:
        action = state.parse_action(text)
        state.check(action)
    except (ActionSyntaxError, IllegalActionError) as error:
        return error
    return action


def _not_offered(refused: IllegalActionError, seat: int) -> bool:
    """Whether a refusal says only that no such choice is offered now (no rule of the game's own refused it)."""
    return str(refused).startswith(f"p{seat} cannot choose ")


def _card_named(deck: Deck, word: str) -> str | None:
    """The card a word names in any case (`kc`), a ten also as `T` where the deck writes it `10` (`ts` for
    `10S`, as many players write it); None for a word that names no card."""
    upper = word.upper()
    if upper in deck.card_ids:
        return upper
    ten = "10" + upper[1:]
    if upper.startswith("T") and ten in deck.card_ids and "T" not in deck.rank_names:
        return ten
    return None


def _as_written(state: State, seat: int, answer: str, legal: Sequence[Action] = ()) -> list[str]:
    """The texts an answer may stand for as the engine writes moves: its seat first (`p0`), a card alone played
    or discarded as the moves offered are (`kc` for `play KC`), its kind in lower case (`Play 2C`), its cards in
    upper case (`jk=6`, `7s+8s`), its other words as typed (a rank or suit in upper case, `of a` for `of A`) and
    then in lower case (a choice's name, `PASS`); each also as a choice (`pass` for `choose pass`), and a choice
    of one argument with that argument's name put in (`bid 0` for `choose bid n 0`, the name as the legal moves
    give it). Those that differ from the answer as typed, in that order."""
    words = answer.split()
    if words and _SEAT.match(words[0] + " "):
        if words[0].casefold() != f"p{seat}":  # (another seat's move is not this seat's, whatever its words)
            return []
        words = words[1:]
    if not words:
        return []
    deck = state.game.deck
    found: list[str] = []
    alone = _card_named(deck, words[0])
    if len(words) == 1 and alone is not None:  # (a card alone, `kc`: played or discarded)
        found += [f"p{seat} {kind} {alone}" for kind in CARD_KINDS if any(action.kind == kind for action in legal)]
    # The other words as typed; then a rank or suit in upper case (`of a` for `of A`); then in lower case (names
    # are, values may not be). Cards are in upper case in all three (a ten also as `T`, `ts` for `10S`).
    cased = {*deck.card_ids, *deck.rank_names, *deck.suits}
    offered = {action.name for action in legal if action.kind == "choose"}
    said = {word.lower() for action in legal for word in state.action_text(action).split()}  # (`to`, `of`: words
    # of the moves offered, never read as cards written another way)
    for upper, lower in ((deck.card_ids, False), (cased, False), (deck.card_ids, True)):
        written = [words[0].lower()]
        for word in words[1:]:
            written.append("".join(_written_part(deck, part, upper, said, lower) for part in re.split(r"([+=])", word)))
        found.append(f"p{seat} {' '.join(written)}")
        chosen = written if written[0] == "choose" else ["choose", *written]
        if written[0] != "choose":
            found.append(f"p{seat} {' '.join(chosen)}")
        if len(offered) == 1 and written[0] not in offered and written[0] not in KINDS:  # (`whom 1 wanted K`: the
            found.append(f"p{seat} choose {next(iter(offered))} {' '.join(written)}")  # one choice offered, named)
        if len(chosen) == 3:  # (`choose bid 0`: the argument's name left out)
            named = {action.arguments[0][0] for action in legal
                     if action.kind == "choose" and action.name == chosen[1] and len(action.arguments) == 1}
            if len(named) == 1:
                found.append(f"p{seat} choose {chosen[1]} {named.pop()} {chosen[2]}")
    typed = answer if _SEAT.match(answer) else f"p{seat} {answer}"
    return [text for text in dict.fromkeys(found) if text != typed]


def _written_part(deck: Deck, part: str, upper: Collection[str], said: set[str], lower: bool) -> str:
    """One part of an answer's word (a card of `7s+8s`, a word) as the engine would write it: in upper case where
    that is one of `upper`; a card written another way (`ts` for 10S) unless the word is one of the moves offered
    (`said`: `to`, `of`); else as typed, or in lower case with `lower`."""
    if part.upper() in upper:
        return part.upper()
    card = None if part.lower() in said else _card_named(deck, part)
    if card is not None:
        return card
    return part.lower() if lower else part


def _words(text: str) -> Counter[str]:
    """A move's words as a person may type them: in any case and order, cards joined by `+` or apart."""
    return Counter(text.casefold().replace("+", " ").split())


def _fitting(state: State, legal: list[Action], answer: str) -> list[int]:
    """The numbers of the legal moves an answer names with their words in another case or order (`play as`,
    `meld 10s+10h+10d`), or without their kind when that leaves one move (`AS` for `play AS`)."""
    if _SEAT.match(answer + " "):  # (the seat named: its own moves only)
        named, _, answer = answer.partition(" ")
        if legal and named.casefold() != f"p{legal[0].seat}":
            return []
    words = _words(answer)
    found, without_kind = [], []
    for number, action in enumerate(legal, 1):
        text = _words(state.action_text(action).split(" ", 1)[1])
        if text == words:
            found.append(number)
        elif text - Counter([state.action_text(action).split()[1].casefold()]) == words:
            without_kind.append(number)
    return found or without_kind


def _valued(legal: list[Action], value: int) -> list[int]:
    """The numbers of the legal moves that are choices of one value, that number (`choose bid 3` for 3): a
    person may type the value meaning the choice, not the move numbered so on the list."""
    return [number for number, action in enumerate(legal, 1)
            if action.kind == "choose" and len(action.arguments) == 1
            and type(action.arguments[0][1]) is int and action.arguments[0][1] == value]


def _values_of(legal: list[Action]) -> tuple[str, str] | None:
    """The choice and its argument when every legal move is a value of one choice of one number (`choose bid n
    0` to `choose bid n 13`): a number typed then is the value, as the moves read. None for any other list."""
    first = legal[0] if legal else None
    if first is None or first.kind != "choose" or len(first.arguments) != 1:
        return None
    name, argument = first.name, first.arguments[0][0]
    if all(action.kind == "choose" and action.name == name and len(action.arguments) == 1
           and action.arguments[0][0] == argument and type(action.arguments[0][1]) is int for action in legal):
        return name, argument
    return None


def _listed_values(legal: list[Action]) -> str:
    values = sorted(action.arguments[0][1] for action in legal)
    if values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
        return f"{values[0]} to {values[-1]}"
    return ", ".join(map(str, values))


def _of_same_choice(listed: Action, legal: list[Action], valued: list[int]) -> bool:
    """Whether the move a number lists is another value of the choice that number is a value of (`choose bid 2`
    listed as 3, beside `choose bid 3`): then which was meant is asked. A move of another kind listed so (`pass`
    as 1, beside `choose play discard 1`) is the move the number picks, as the list shows it."""
    if listed.kind != "choose" or len(listed.arguments) != 1 or type(listed.arguments[0][1]) is not int:
        return False
    return any(legal[number - 1] is not listed and legal[number - 1].name == listed.name
               and legal[number - 1].arguments[0][0] == listed.arguments[0][0] for number in valued)


def _short(state: State, action: Action) -> str:
    """An action's text without its seat, as the list of moves shows it."""
    return state.action_text(action).split(" ", 1)[1]


def _numbered(state: State, legal: list[Action], numbers: list[int]) -> list[str]:
    shown = [f"{number} `{_short(state, legal[number - 1])}`" for number in numbers[:4]]
    return shown + (["..."] if len(numbers) > 4 else [])


def _meant(state: State, legal: list[Action], seat: int, answer: str) -> str:
    """The legal moves an answer that is no move may have meant: those whose text, the seat left out, starts
    with its words once `choose` is put before them (`take` for `choose take`), numbered as listed."""
    words = answer.split()
    if not words or words[0] == "choose":
        return ""
    wanted = " ".join(["choose", *words])
    found = [f"{number} `{text}`" for number, text in
             ((number, state.action_text(action).split(" ", 1)[1]) for number, action in enumerate(legal, 1))
             if text == wanted or text.startswith(wanted + " ")]
    return " or ".join(found[:3]) + (" ..." if len(found) > 3 else "")


def show(state: State, seat: int, before: tuple[int, Counter[str]] = (0, Counter())) -> tuple[int, Counter[str]]:
    """The table as the seat sees it, then its moves, numbered. Returns the hand shown (with the hand's number),
    so that the next showing in the same hand can say which cards are new (`before`: the one shown last)."""
    view = table_view(state, seat)
    hand = Counter(card for group in view.hand or () for card in group.cards)
    new_cards: list[str] = []
    if before[0] == view.hand_number:
        new_cards = sorted((hand - before[1]).elements(), key=list(hand).index)
    click.echo(view_text(view, state.game.deck.suits, new_cards=new_cards), nl=False)
    click.echo(f"Your turn (p{seat}), phase {state.phase}. You may:")
    breaking = {state.action_text(action) for action in state.breaking}
    moves = [f"{move} (breaks a rule!)" if move in breaking else move
             for move in (view.legal_actions[index] for index in in_hand_order(view))]
    for line in moves_text(moves, seat):
        click.echo(line)
    for move, clauses in state.breaking.items():
        click.echo(f"  {state.action_text(move)} breaks: {'; '.join(clause.reason for clause in clauses)}")
    return view.hand_number, hand
