"""Checked and compiled rulesets kept between runs: a second load of the same files with the same parameters
reads neither YAML nor runs the checker or the expression compiler; it takes the `Ruleset` as the first load
left it, and runs the generated code it kept (compiled, as Python keeps a module's `.pyc`).

An entry is keyed as cache.py keys what a check found (the engine's files, the text of the ruleset and of every
file it extends, the parameters as given, the path as shown), and also by the Python that wrote it (its code
objects are Python's own format). Only a ruleset with no error is kept, and only once a full load has confirmed
which files it is made of. An entry that cannot be read, or that an engine of another shape wrote, is not used:
the ruleset is loaded afresh. Entries live beside the checking results (cache.py: `RULEDECK_CACHE_DIR`,
`RULEDECK_NO_CACHE=1`); the folder is the user's own, trusted as Python trusts its `__pycache__`.

The ruleset is kept with `pickle`, except for what the expression compiler generated: its functions are kept as
their names, and made again by running the kept code in a namespace made for the ruleset's deck
(`GeneratedModule.install`), so a loaded ruleset's functions are the same code as a checked one's.
"""

from __future__ import annotations

import dataclasses
import io
import marshal
import pickle
import sys
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import FunctionType
from typing import Any

from interpreter import cache
from interpreter.cards import Deck
from interpreter.dsl.compiler import FILENAME, GeneratedModule, namespace_for
from interpreter.model import Ruleset
from interpreter.source import MappingNode, Node, SequenceNode

_FORMAT = 3  # of the entries; a change of what they hold changes it
_SUFFIX = ".ruleset"
MOST_KEPT = 256  # entries of this kind kept; the oldest go first (a sweep of parameters makes one per value)


def key_for(path: str | Path, params: Mapping[str, Any] | None,
            params_as_text: bool) -> tuple[str, frozenset[str]] | None:
    """The key of the compiled ruleset at `path` with these parameters, and the files it is made of (see
    cache.ruleset_key); None when a file cannot be read or the cache is off."""
    if cache.folder() is None:
        return None
    given = sorted((str(name), repr(value)) for name, value in (params or {}).items())
    return cache.ruleset_key(str(path), "compiled", _FORMAT, str(path), given, params_as_text, sys.version)


def load(key: str) -> Ruleset | None:
    """The ruleset kept under `key`, ready to play; None when there is none or it cannot be used."""
    data = cache.get_bytes(key, _SUFFIX)
    if data is None:
        return None
    try:
        return _loads(data)
    except Exception:  # a damaged entry, or one an engine of another shape wrote: loaded afresh
        return None


def keep(key: str, files: frozenset[str], ruleset: Ruleset) -> None:
    """Keep a ruleset just checked and compiled, if it is made of exactly `files` (those its key read)."""
    if ruleset.generated is None or cache.made_from(ruleset.tree) != files:
        return
    try:
        data = _dumps(ruleset)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):  # (cannot be kept)
        return
    cache.put_bytes(key, _SUFFIX, data)
    cache.prune(_SUFFIX, MOST_KEPT)


class _Pickler(pickle.Pickler):
    """The ruleset with its deck, its generated module and each generated function as a reference."""

    def __init__(self, file: io.BytesIO, ruleset: Ruleset) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.deck = ruleset.deck
        self.generated = ruleset.generated
        self.namespace = next(iter(ruleset.expressions.values())).__globals__ if ruleset.expressions else {}

    def persistent_id(self, obj: Any) -> Any:  # (pickle's own signature)
        if obj is self.deck:
            return "deck"
        if obj is self.generated:
            return "generated"
        if isinstance(obj, FunctionType) and obj.__code__.co_filename == FILENAME:
            name = obj.__name__
            if self.namespace.get(name) is not obj:
                raise pickle.PicklingError(f"a generated function outside its module: {name}")
            return ("function", name)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, deck: Deck, generated: GeneratedModule, namespace: dict[str, Any]) -> None:
        super().__init__(file)
        self.deck, self.generated, self.namespace = deck, generated, namespace

    def persistent_load(self, pid: Any) -> Any:  # (pickle's own signature)
        if pid == "deck":
            return self.deck
        if pid == "generated":
            return self.generated
        if isinstance(pid, tuple) and len(pid) == 2 and pid[0] == "function":
            return self.namespace[pid[1]]
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


def _dumps(ruleset: Ruleset) -> bytes:
    generated = ruleset.generated
    assert generated is not None
    # `procedure_paths` is keyed by the identity of nodes of the tree, which a new process gives new identities:
    # kept as the nodes themselves, which the pickle keeps as the same objects as the tree's.
    paths = [(node, ruleset.procedure_paths[id(node)]) for node in _nodes(ruleset.tree)
             if id(node) in ruleset.procedure_paths]
    inner = io.BytesIO()
    _Pickler(inner, ruleset).dump((dataclasses.replace(ruleset, procedure_paths={}), paths))
    outer = {"deck": ruleset.deck, "code": marshal.dumps(generated.code), "inlined": generated.inlined,
             "attributes": generated.attributes, "source": generated.source, "ruleset": inner.getvalue()}
    # (compressed, at the fastest level: about a quarter of the size, for 2 ms of a first load and under 1 ms of
    # each load from it)
    return zlib.compress(pickle.dumps(outer, protocol=pickle.HIGHEST_PROTOCOL), 1)


def _loads(data: bytes) -> Ruleset:
    outer = pickle.loads(zlib.decompress(data))  # (the user's own cache folder, written by this module)
    deck = outer["deck"]
    generated = GeneratedModule(marshal.loads(outer["code"]), outer["inlined"], outer["attributes"],
                                outer["source"])
    namespace = namespace_for(deck)
    generated.install(namespace)
    ruleset, paths = _Unpickler(io.BytesIO(outer["ruleset"]), deck, generated, namespace).load()
    if not isinstance(ruleset, Ruleset):
        raise TypeError("not a ruleset")
    return dataclasses.replace(ruleset, procedure_paths={id(node): path for node, path in paths}) if paths \
        else ruleset


def _nodes(tree: Node) -> Iterator[Node]:
    pending: list[Node] = [tree]
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, MappingNode):
            pending.extend(node.entries.values())
        elif isinstance(node, SequenceNode):
            pending.extend(node.items)
