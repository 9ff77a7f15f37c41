"""Seeded mutations of the shipped rulesets, for the fuzz layer (tests/test_fuzz_rulesets.py).

A mutant is made from one seed: the seed picks a ruleset (a game, a variant or a test game), then one to three
mutations of its text, of its YAML tree or of its bytes. The same seed always makes the same mutant. To look at
one that a test reported, write it out and check it:

    python tests/fuzz_mutations.py SEED [FOLDER]      # writes FOLDER/<its place>/mutant_SEED.yaml and says where
    .venv/bin/ruledeck validate FOLDER/rulesets/variants/mutant_SEED.yaml

The folder holds copies of the shipped rulesets in their places, so that a variant's `extends: ../bourre.yaml`
finds its base.
"""

from __future__ import annotations

import random
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(path.relative_to(ROOT) for path in
                 [*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("rulesets/variants/*.yaml"),
                  *ROOT.glob("tests/games/*.yaml")])

EXTREME_NUMBERS = [0, -1, 1, 2, -(10**6), 10**6, 2**31, 2**63, 10**18 - 1, -(10**18) + 1, 10**18, 10**40]
ODD_SCALARS: list[Any] = [None, True, False, "", " ", "null", "~", "é", "\u202e", "a" * 300, 0.5, "1e9", "-0",
                          "[", "{x}", "'", "# comment", "p0 play AH", "10H", "JK", "end"]
# Tokens an expression may hold: an expression token is replaced by one of these or by another of the file's.
EXPRESSION_TOKENS = ["and", "or", "not", "if", "then", "else", "in", "for", "==", "!=", "<", ">=", "+", "-", "*",
                     "//", "%", "(", ")", "[", "]", ",", ":", ".", "null", "true", "false", "player", "card",
                     "hand", "params", "seats()", "size", "count", "any", "all", "max", "first", "999999999999999999",
                     "-1", "0", "'x'", '"', "AS", "10H", "JK", "S", "Q"]
JUNK_TEXT = ["(", ")", "[", "]", "{", "}", '"', "'", ":", ": ", "\t", "- ", "&a ", "*a", "!tag ", "!!python/object ",
             "<<: ", "|", ">", "? ", "#", "%", "@", "`", "\\", "---\n", "...\n", "\u00a0", "\u2028", "\ufeff"]
JUNK_BYTES = [b"\xff", b"\xfe", b"\x80", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x07", b"\x1b", b"\r", b"\x85",
              b"\xef\xbb\xbf"]
TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(?:\(\))?|\d+|==|!=|<=|>=|//|[-+*/%()\[\]{}<>:,.\"']")
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


@dataclass(frozen=True)
class Mutant:
    """A mutated ruleset: the file it was made from (relative to the repository), its seed, what was done to
    it (one line per mutation) and its bytes."""

    source: Path
    seed: int
    mutations: tuple[str, ...]
    data: bytes

    def describe(self) -> str:
        return f"seed {self.seed}: {self.source.as_posix()}, " + "; ".join(self.mutations)

    def write(self, folder: Path) -> Path:
        """The mutant written at its source's place under `folder` (a copy of the shipped rulesets)."""
        path = folder / self.source.parent / f"mutant_{self.seed}.yaml"
        path.write_bytes(self.data)
        return path


def copy_sources(folder: Path) -> None:
    """Copy every shipped ruleset to its place under `folder`, for the mutants' `extends` to find."""
    for source in SOURCES:
        (folder / source.parent).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / source, folder / source)


def make_mutant(seed: int) -> Mutant:
    """The mutant of one seed."""
    rng = random.Random(seed)
    source = rng.choice(SOURCES)
    text = (ROOT / source).read_text(encoding="utf-8")
    done: list[str] = []
    data: bytes | None = None
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        layer = rng.random()
        if layer < 0.45:
            text = _mutate_tree(text, rng, done)
        elif layer < 0.9 or data is not None:
            text = _mutate_text(text, rng, done)
        else:
            data = _mutate_bytes(text.encode("utf-8"), rng, done)
            break  # bytes last: the text may no longer be UTF-8
    return Mutant(source, seed, tuple(done), data if data is not None else text.encode("utf-8"))


# --- the YAML tree ------------------------------------------------------------------------------------------

Path_ = tuple[str | int, ...]


def _nodes(tree: Any, path: Path_ = ()) -> list[tuple[Path_, Any]]:
    found = [(path, tree)]
    if isinstance(tree, dict):
        for key, value in tree.items():
            found.extend(_nodes(value, (*path, key)))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            found.extend(_nodes(value, (*path, index)))
    return found


def _set(tree: Any, path: Path_, value: Any) -> Any:
    if not path:
        return value
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return tree


def _shown(path: Path_) -> str:
    return ".".join(str(step) for step in path) or "(root)"


def _mutate_tree(text: str, rng: random.Random, done: list[str]) -> str:
    try:
        tree = yaml.safe_load(text)
    except yaml.YAMLError:
        return _mutate_text(text, rng, done)  # an earlier mutation broke the YAML: go on with the text
    nodes = _nodes(tree)
    scalars = [value for _, value in nodes if not isinstance(value, (dict, list))]
    mappings = [(path, value) for path, value in nodes if isinstance(value, dict) and value]
    lists = [(path, value) for path, value in nodes if isinstance(value, list) and value]
    keys = sorted({str(key) for _, mapping in mappings for key in mapping})
    operations: list[Callable[[], str]] = []

    def delete_key() -> str:
        path, mapping = rng.choice(mappings)
        key = rng.choice(list(mapping))
        del mapping[key]
        return f"tree: delete key {_shown((*path, key))}"

    def rename_key() -> str:
        path, mapping = rng.choice(mappings)
        key, new = rng.choice(list(mapping)), rng.choice(keys)
        mapping[new] = mapping.pop(key)
        return f"tree: rename key {_shown((*path, key))} to {new}"

    def swap_values() -> str:
        path, mapping = rng.choice(mappings)
        first, second = rng.choice(list(mapping)), rng.choice(list(mapping))
        mapping[first], mapping[second] = mapping[second], mapping[first]
        return f"tree: swap {_shown((*path, first))} and {second}"

    def duplicate_item() -> str:
        path, items = rng.choice(lists)
        index = rng.randrange(len(items))
        items.insert(rng.randrange(len(items) + 1), yaml.safe_load(yaml.safe_dump(items[index])))
        return f"tree: duplicate {_shown((*path, index))}"

    def delete_item() -> str:
        path, items = rng.choice(lists)
        index = rng.randrange(len(items))
        del items[index]
        return f"tree: delete {_shown((*path, index))}"

    def swap_items() -> str:
        path, items = rng.choice(lists)
        first, second = rng.randrange(len(items)), rng.randrange(len(items))
        items[first], items[second] = items[second], items[first]
        return f"tree: swap {_shown((*path, first))} and [{second}]"

    def replace_scalar() -> str:
        path, _ = rng.choice([(p, v) for p, v in nodes if p and not isinstance(v, (dict, list))])
        value = rng.choice(scalars) if rng.random() < 0.7 else rng.choice(ODD_SCALARS)
        _set(tree, path, value)
        return f"tree: {_shown(path)} = {_short(value)}"

    def extreme_number() -> str:
        numbers = [path for path, value in nodes if path and isinstance(value, int) and not isinstance(value, bool)]
        path = rng.choice(numbers or [p for p, _ in nodes if p])
        value = rng.choice(EXTREME_NUMBERS)
        _set(tree, path, value)
        return f"tree: {_shown(path)} = {_short(value)}"

    def retype() -> str:
        path, value = rng.choice([(p, v) for p, v in nodes if p])
        new = rng.choice([[value], {"x": value}, [], {}, None, str(value)[:50], 7])
        _set(tree, path, new)
        return f"tree: {_shown(path)} retyped as {type(new).__name__}"

    def nest_deeper() -> str:
        path, value = rng.choice([(p, v) for p, v in nodes if p])
        depth = rng.choice([1, 2, 5, 49, 60])
        for _ in range(depth):
            value = [value] if rng.random() < 0.5 else {"x": value}
        _set(tree, path, value)
        return f"tree: {_shown(path)} nested {depth} deeper"

    def graft() -> str:
        path, _ = rng.choice([(p, v) for p, v in nodes if p])
        _, value = rng.choice(nodes[1:] or nodes)
        _set(tree, path, yaml.safe_load(yaml.safe_dump(value)))
        return f"tree: {_shown(path)} replaced by a copy of another node"

    if mappings:
        operations += [delete_key, rename_key, swap_values]
    if lists:
        operations += [duplicate_item, delete_item, swap_items]
    if len(nodes) > 1:
        operations += [replace_scalar, replace_scalar, extreme_number, retype, nest_deeper, graft]
    if not operations:
        return _mutate_text(text, rng, done)
    done.append(rng.choice(operations)())
    return yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=100_000)


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


# --- the text ---------------------------------------------------------------------------------------------------


def _mutate_text(text: str, rng: random.Random, done: list[str]) -> str:
    lines = text.split("\n")
    number = rng.randrange(len(lines))
    line = lines[number]
    kind = rng.choice(["truncate", "delete line", "duplicate line", "swap lines", "token", "token", "token",
                       "number", "number", "junk", "junk", "indent", "dedent", "repeat"])
    if kind == "truncate":
        cut = rng.randrange(len(text) + 1)
        done.append(f"text: truncated at character {cut}")
        return text[:cut]
    if kind == "delete line":
        del lines[number]
    elif kind == "duplicate line":
        lines.insert(number, line)
    elif kind == "swap lines":
        other = rng.randrange(len(lines))
        lines[number], lines[other] = lines[other], line
        kind += f" {number + 1} and"
    elif kind in ("token", "number"):
        pattern = TOKEN if kind == "token" else NUMBER
        spots = [(n, match) for n, each in enumerate(lines) for match in pattern.finditer(each)]
        if not spots:
            return _junk(text, rng, done)
        number, match = rng.choice(spots)
        line = lines[number]
        if kind == "token":
            tokens = [each.group() for n, each in spots[:5000]]
            new = rng.choice(tokens) if rng.random() < 0.6 else rng.choice(EXPRESSION_TOKENS)
        else:
            new = str(rng.choice(EXTREME_NUMBERS))
        lines[number] = line[:match.start()] + new + line[match.end():]
        kind = f"{kind} {match.group()!r} -> {_short(new)} at column {match.start() + 1} of"
    elif kind == "junk":
        return _junk(text, rng, done)
    elif kind == "indent":
        lines[number] = " " * rng.choice([1, 2, 4]) + line
    elif kind == "dedent":
        lines[number] = line.lstrip()
    else:  # a line repeated many times: a long file of the same text
        lines[number:number] = [line] * rng.choice([20, 300])
    done.append(f"text: {kind} line {number + 1}")
    return "\n".join(lines)


def _junk(text: str, rng: random.Random, done: list[str]) -> str:
    at = rng.randrange(len(text) + 1)
    junk = rng.choice(JUNK_TEXT)
    done.append(f"text: {junk!r} inserted at character {at}")
    return text[:at] + junk + text[at:]


def _mutate_bytes(data: bytes, rng: random.Random, done: list[str]) -> bytes:
    kind = rng.choice(["insert", "insert", "utf-16", "crlf", "latin-1"])
    if kind == "insert":
        at = rng.randrange(len(data) + 1)
        junk = rng.choice(JUNK_BYTES)
        done.append(f"bytes: {junk!r} inserted at byte {at}")
        return data[:at] + junk + data[at:]
    done.append(f"bytes: the text as {kind}")
    if kind == "utf-16":
        return data.decode("utf-8").encode("utf-16")
    if kind == "crlf":
        return data.replace(b"\n", b"\r\n")
    return data.decode("utf-8").encode("latin-1", errors="replace")


def main(arguments: list[str]) -> None:
    seed = int(arguments[0])
    folder = Path(arguments[1]) if len(arguments) > 1 else Path("fuzz-mutants")
    copy_sources(folder)
    mutant = make_mutant(seed)
    print(mutant.describe())
    print(mutant.write(folder))


if __name__ == "__main__":
    main(sys.argv[1:])
