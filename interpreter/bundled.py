"""The example rulesets that come with ruledeck, found by name (`ruledeck play NAME`, `ruledeck list`)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from interpreter.errors import RuledeckError
from interpreter.source import read_file, to_plain

_PACKAGE = Path(__file__).resolve().parent
# Installed from a wheel, the rulesets are package data inside the package; in a checkout (an editable
# install), they are the top-level `rulesets/` beside it, which the wheel is built from.
FOLDERS = (_PACKAGE / "rulesets", _PACKAGE.parent / "rulesets")


class UnknownRulesetError(RuledeckError):
    """A ruleset argument that is neither a file nor the name of a bundled ruleset."""

    def __init__(self, argument: str, names: list[str]) -> None:
        known = ", ".join(names) if names else "none (the package has no rulesets folder)"
        close = difflib.get_close_matches(argument, names, n=1)
        meant = f" (did you mean {close[0]!r}?)" if close else ""
        super().__init__(f"no ruleset file or bundled ruleset named {argument!r}{meant}; bundled rulesets: "
                         f"{known} (`ruledeck list` shows them)")


@dataclass(frozen=True)
class BundledRuleset:
    """One bundled ruleset: the name to ask for it by, its file, its own title, and the ruleset it varies."""

    name: str
    path: Path
    title: str
    base: str | None  # for a variant, the name of the ruleset it extends


def bundled_folder() -> Path | None:
    """The folder of the bundled rulesets, or None when there is none."""
    return next((folder for folder in FOLDERS if folder.is_dir()), None)


def bundled_paths() -> dict[str, Path]:
    """Each bundled ruleset's name (its file name without `.yaml`) and file: games first, then variants."""
    folder = bundled_folder()
    if folder is None:
        return {}
    files = sorted(folder.rglob("*.yaml"), key=lambda path: (len(path.relative_to(folder).parts), path))
    return {path.stem: path for path in files}


def is_a_name(argument: str) -> bool:
    """Whether a ruleset argument reads as a bare name (`pot_limit`) rather than a path (`my_game.yaml`)."""
    return Path(argument).name == argument and not Path(argument).suffix


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # a name longer than the system allows, a NUL: reading it says so
        return False


def resolve_ruleset(argument: str, *, folders: bool = False) -> str:
    """The file a RULESET argument stands for: an existing path, or a path-like one, as given (a missing file
    is reported where it is read); otherwise the bundled ruleset of that name. A folder that has a bundled
    ruleset's name stands for it only where `folders` are taken (`validate`): elsewhere the name is the bundled
    ruleset's (`play NAME` beside a folder `NAME`)."""
    paths = bundled_paths()
    if not is_a_name(argument) or (_exists(argument) and (folders or argument not in paths
                                                         or not Path(argument).is_dir())):
        return argument
    if argument not in paths:
        raise UnknownRulesetError(argument, list(paths))
    return str(paths[argument])


def extended_file(folder: Path, written: str) -> Path:
    """The file an `extends:` line names from a file in `folder`: the path relative to it, or, when no such file
    is there, the bundled ruleset of that name (`extends: NAME`, or `NAME.yaml`, from any folder)."""
    path = folder / written
    try:
        if path.is_file() or Path(written).name != written:
            return path
    except (OSError, ValueError):
        return path
    found = bundled_paths().get(written.removesuffix(".yaml"))
    return found if found is not None else path


def close_bundled(written: str) -> str | None:
    """The bundled ruleset a name that names no file may have meant (one a letter off), if one is close; a
    path (with a folder) means none."""
    if Path(written).name != written:
        return None
    close = difflib.get_close_matches(written.removesuffix(".yaml"), list(bundled_paths()), n=1)
    return close[0] if close else None


def bundled_rulesets() -> list[BundledRuleset]:
    """Every bundled ruleset, each game followed by its variants."""
    described = [_describe(name, path) for name, path in bundled_paths().items()]
    games = [entry for entry in described if entry.base is None]
    variants = [entry for entry in described if entry.base is not None]
    ordered: list[BundledRuleset] = []
    for game in games:
        ordered.append(game)
        ordered.extend(variant for variant in variants if variant.base == game.name)
    return ordered + [variant for variant in variants if variant not in ordered]


def _describe(name: str, path: Path) -> BundledRuleset:
    tree = to_plain(read_file(path))
    extends = tree.get("extends")
    return BundledRuleset(name, path, str(tree.get("name", name)), Path(extends).stem if extends else None)


def variants_seating(ruleset_path: str | Path, count: int) -> list[str]:
    """The bundled variants of a bundled ruleset (given by its file) written for `count` players: what to offer
    someone who asks the ruleset for a table it does not seat."""
    try:
        wanted = Path(ruleset_path).resolve()
        entries = bundled_rulesets()
        name = next((entry.name for entry in entries if entry.base is None and entry.path.resolve() == wanted),
                    None)
    except (OSError, ValueError, RuntimeError):  # (RuntimeError: a loop of symbolic links)
        return []
    found = []
    for entry in entries:
        if name is None or entry.base != name:
            continue
        players = to_plain(read_file(entry.path)).get("players")
        if isinstance(players, dict) and isinstance(players.get("min"), int) and isinstance(players.get("max"), int) \
                and players["min"] <= count <= players["max"]:
            found.append(entry.name)
    return found
