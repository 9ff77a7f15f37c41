"""Structural validation of a merged ruleset with its JSON Schema, each error mapped back to file and line.

jsonschema reports a failed `oneOf` (a step, an option) as one opaque error; here the branch the author meant
is chosen by its discriminating key (the first `required` key of each branch: `set`, `move`, `decide`, ...)
and that branch's own errors are reported instead.
"""

from __future__ import annotations

import difflib
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from interpreter.errors import Diagnostic, Location
from interpreter.source import YAML_WORDS, MappingNode, Node, find, to_plain, written_word, yaml_path

SCHEMA_PATH = Path(__file__).with_name("ruleset.schema.json")

_JSON_TYPES = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
               "boolean": "true or false", "null": "null", "number": "a number"}


@cache
def ruleset_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


@cache
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(ruleset_schema())
    return cls(ruleset_schema())


def validate_structure(root: MappingNode) -> list[Diagnostic]:
    """Every structural error of a merged ruleset tree."""
    diagnostics: list[Diagnostic] = []
    _collect(_validator(), to_plain(root), root, (), diagnostics)
    unique: dict[tuple[object, ...], Diagnostic] = {}
    for diagnostic in diagnostics:
        unique.setdefault((diagnostic.sort_key(), diagnostic.message), diagnostic)
    # A step or option with two verbs is reported once: not again by the checks of each verb's keys.
    ambiguous = {d.yaml_path for d in unique.values() if d.message.startswith(_TWO_VERBS)}
    return [d for d in unique.values()
            if d.message.startswith(_TWO_VERBS) or not any(_under(d.yaml_path, p) for p in ambiguous)]


_TWO_VERBS = "a step has one verb", "an option has one verb", "a legality clause is a `rule` or a `prefer`"


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith((prefix + ".", prefix + "["))


def _collect(validator: Any, instance: Any, root: MappingNode, prefix: tuple[str | int, ...],
             diagnostics: list[Diagnostic], schema: dict[str, Any] | None = None) -> None:
    if schema is not None:
        # A branch of a oneOf, validated on its own; it keeps the root's $defs so its $refs resolve.
        validator = validator.evolve(schema={"$defs": ruleset_schema()["$defs"], **schema})
    errors = validator.iter_errors(instance)
    for error in errors:
        path = (*prefix, *error.absolute_path)
        if (error.validator == "oneOf" and isinstance(error.instance, dict)
                and _descend_one_of(validator, error, root, path, diagnostics)):
            continue
        diagnostics.append(_diagnostic(error, root, path))


def _branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    branches = []
    for branch in schema.get("oneOf", []):
        if "$ref" in branch:
            name = branch["$ref"].rsplit("/", 1)[-1]
            branch = ruleset_schema()["$defs"][name]
        branches.append(branch)
    return branches


def _discriminators(branch: dict[str, Any]) -> list[str]:
    if branch.get("required"):
        return [branch["required"][0]]
    return [alt["required"][0] for alt in branch.get("oneOf", []) if alt.get("required")]


def _descend_one_of(validator: Any, error: ValidationError, root: MappingNode, path: tuple[str | int, ...],
                    diagnostics: list[Diagnostic]) -> bool:
    instance: Any = error.instance
    schema: Any = error.schema
    branches = _branches(schema)
    keys = {key: branch for branch in branches for key in _discriminators(branch)}
    if not keys:
        return False
    present = [key for key in keys if key in instance]
    node = find(root, path)
    location = node.location if node else None
    if "rule" in keys:  # (a legality clause: a rule or a preference)
        if len(present) > 1:
            diagnostics.append(Diagnostic("schema", f"{_TWO_VERBS[2]}, not both", location, yaml_path(path),
                                          hint="`rule:` for what every allowed action meets, `prefer:` for a duty "
                                               "when able; write two clauses for both"))
            return True
        if not present:
            diagnostics.append(Diagnostic("schema", "a legality clause needs a `rule` or a `prefer`; found "
                                          f"{', '.join(sorted(instance)) or 'nothing'}", location, yaml_path(path),
                                          hint="e.g. `rule: card.suit == led` with its `reason:`"))
            return True
    kind = "an option" if "choose" in keys else "a step"
    if not present:
        found = ", ".join(sorted(instance)) or "nothing"
        # (a close cutoff: a verb's modifier, such as `from`, is not a misspelt verb, such as `random`)
        guess = [close for key in instance for close in difflib.get_close_matches(key, list(keys), n=1, cutoff=0.7)]
        hint = f"did you mean `{guess[0]}`?" if guess else "one of: " + ", ".join(keys)
        diagnostics.append(Diagnostic("schema", f"{kind} needs one of its verbs; found {found}", location,
                                      yaml_path(path), hint=hint))
        return True
    if len(present) > 1:
        diagnostics.append(Diagnostic("schema", f"{kind} has one verb, but this one has {' and '.join(present)}",
                                      location, yaml_path(path), hint="split it into separate items"))
        return True
    branch = keys[present[0]]
    before = len(diagnostics)
    _collect(validator, instance, root, path, diagnostics, branch)
    return len(diagnostics) > before


def _location(root: MappingNode, path: tuple[str | int, ...], key: str | None = None) -> Location | None:
    node: Node | None = find(root, path)
    while node is None and path:
        path = path[:-1]
        node = find(root, path)
    if node is None:
        return None
    if key is not None and isinstance(node, MappingNode) and key in node.key_locations:
        return node.key_locations[key]
    return node.location


def _diagnostic(error: ValidationError, root: MappingNode, path: tuple[str | int, ...]) -> Diagnostic:
    kind = error.validator
    where = yaml_path(path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(schema.get("properties", {}))
        extra = [key for key in error.instance if key not in allowed]
        key = extra[0] if extra else ""
        hint = None
        close = difflib.get_close_matches(key, allowed, n=1)
        if error.instance.get(key) is None and any(mark in str(key) for mark in "()[]") and \
                str(key).count("(") + str(key).count("[") != str(key).count(")") + str(key).count("]"):
            hint = ("is it the end of an expression cut at a comma? Inside `{...}` a comma ends a value: quote an "
                    "expression that holds one (`rule: \"f(a, b)\"`)")  # (`{rule: f(a, b), ...}`)
        elif " " in str(key).strip() and error.instance.get(key) is None:  # (`{..., text: a, b c, ...}`)
            hint = ("is it the end of a text cut at a comma? Inside `{...}` a comma ends a value: quote a text "
                    "that holds one (`description: \"a, b\"`)")
        elif close:
            hint = f"did you mean `{close[0]}`?"
        elif allowed:
            hint = "allowed here: " + ", ".join(allowed)
        return Diagnostic("schema", f"unexpected key `{key}`", _location(root, path, key),
                          yaml_path((*path, key)), hint=hint)
    if kind == "required":
        missing = str(error.message).split("'")[1] if "'" in str(error.message) else str(error.message)
        described = schema.get("properties", {}).get(missing, {})
        description = described.get("description") if isinstance(described, dict) else None
        hint = f"`{missing}`: {description}" if description else None
        params = root.entries.get("params")
        if len(path) == 2 and path[0] == "params" and isinstance(params, MappingNode):  # (a parameter's own keys)
            others = [str(name) for name in params.entries if name != path[1]]
            close = difflib.get_close_matches(str(path[1]), others, n=1, cutoff=0.75)
            if close:  # (a variant's default for its base's parameter, misspelt: a new parameter to the schema)
                hint = (f"`{path[1]}` is no parameter of this ruleset: did you mean `{close[0]}`? (a new parameter "
                        "needs its `type` and `description`)")
        return Diagnostic("schema", f"missing required key `{missing}`", _location(root, path), where, hint=hint)
    if kind == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        words = " or ".join(_JSON_TYPES.get(str(t), str(t)) for t in wanted)
        hint = None
        if set(wanted) >= {"string", "integer", "boolean"} and isinstance(error.instance, (list, dict)):
            words = "an expression"
            opener = "[" if isinstance(error.instance, list) else "{"
            hint = f"YAML read this as a {'list' if opener == '[' else 'mapping'}: an expression that starts " \
                   f"with `{opener}` must be quoted, or written after `|`"
        word = written_word(_location(root, path)) if error.instance is None or isinstance(error.instance, bool) \
            else None
        if word is not None and "string" in wanted:
            hint = f"YAML reads `{word}` as {YAML_WORDS[word.lower()]}: quote it (\"{word}\") to write the word"
        if wanted == ["string"] and isinstance(error.instance, (int, float)) and not isinstance(error.instance, bool):
            hint = f"YAML reads {error.instance} as a number: quote it ('{error.instance}') to write a word"
        # A list or mapping in the wrong place: point at its key, not at its first item.
        location = None
        if path and isinstance(path[-1], str) and isinstance(error.instance, (list, dict)):
            location = _location(root, path[:-1], path[-1])
        return Diagnostic("schema", f"must be {words}, not {_describe(error.instance)}",
                          location or _location(root, path), where, hint=hint)
    if kind == "enum":
        enum_values: Any = error.validator_value
        choices = [str(choice) for choice in enum_values]
        close = difflib.get_close_matches(str(error.instance), choices, n=1)
        return Diagnostic("schema", f"`{error.instance}` is not one of: {', '.join(choices)}",
                          _location(root, path), where,
                          hint=f"did you mean `{close[0]}`?" if close else "allowed: " + ", ".join(choices))
    if kind == "pattern" and "a-z" in str(error.validator_value):
        hint = "names are lower case letters, digits and `_`, starting with a letter"
        text = str(error.instance)
        if text in ("True", "False", "None"):  # a key YAML read as a truth value or null, not as a name
            location = _location(root, path, text)
            word = written_word(location)
            if word is not None:
                return Diagnostic("schema", f"`{word}` is not a valid name here: YAML reads it as "
                                  f"{YAML_WORDS[word.lower()]}", location, yaml_path((*path, word)),
                                  hint=f"quote it (\"{word}\") or choose another name")
        if any(mark in text for mark in "()[]"):
            balanced = text.count("(") == text.count(")") and text.count("[") == text.count("]")
            hint = "a comma inside `{...}` separates YAML entries: quote an expression that holds a comma" \
                if not balanced else "only a name may stand here, not an expression"
            parent = find(root, path[:-1]) if path and path[-1] == "to" else None
            if balanced and isinstance(parent, MappingNode) and "deal" in parent.entries:
                hint = "`to` names the zone dealt to; choose who receives cards with `seats:` (a list of seats)"
        return Diagnostic("schema", f"{error.instance!r} is not a valid name", _location(root, path), where,
                          hint=hint)
    if kind == "pattern":
        return Diagnostic("schema", f"{error.instance!r} is not a valid card, rank or suit name",
                          _location(root, path), where,
                          hint="rank and suit names start with an upper-case letter or are numbers: 10, J, H")
    if kind == "const" and path == ("format",):
        return Diagnostic("schema", f"unsupported format {error.instance!r}; this ruledeck reads format 1",
                          _location(root, path), where, hint="write `format: 1`")
    if kind == "oneOf" and path and path[-1] == "next":
        return Diagnostic("schema", "`next` must be a phase name or a list of {if, goto} transitions",
                          _location(root, path), where,
                          hint=_yaml_word_hint(root, path, error.instance)
                          or "e.g. `next: deal` or `next: [{if: x, goto: a}, {goto: b}]`")
    return Diagnostic("schema", _plain_message(error), _location(root, path), where,
                      hint=_yaml_word_hint(root, path, error.instance))


def _yaml_word_hint(root: MappingNode, path: tuple[str | int, ...], instance: object) -> str | None:
    """For a value YAML read as a truth value or null from a plain word (`off`, `no`, `null`): how to write the
    word; None for any other value."""
    if instance is not None and not isinstance(instance, bool):
        return None
    word = written_word(_location(root, path))
    if word is None:
        return None
    return f"YAML reads `{word}` as {YAML_WORDS[word.lower()]}: quote it (\"{word}\") to write the word"


def _describe(value: object) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null (empty)"
    return repr(value)


def _plain_message(error: ValidationError) -> str:
    kind = error.validator
    value = error.validator_value
    if kind == "minItems":
        return f"needs at least {value} item(s)"
    if kind == "minimum":
        return f"{error.instance} is below the minimum {value}"
    if kind == "maximum":
        return f"{error.instance} is above the maximum {value}"
    if kind == "uniqueItems":
        return "items must be different from each other"
    if kind == "minLength":
        return "must not be empty"
    if kind == "const":
        return f"must be {value!r}"
    return str(error.message)
