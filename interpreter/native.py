"""The compiled build: some of the engine's own modules compiled to C with mypyc, used in place of their Python
source when a build made from exactly that source is found.

The modules compiled (`COMPILED`) are pure Python as written, type-annotated throughout (mypy --strict), and
mypyc compiles them as they are: the build changes how fast they run, never what they do, and the engine works
the same without it. `ruledeck native build` makes a build (mypy, which brings mypyc, and a C compiler are
needed: `pip install 'ruledeck[native]'`); it is kept in `RULEDECK_NATIVE_DIR`, else
`$XDG_CACHE_HOME/ruledeck/native`, else `~/.cache/ruledeck/native`, in a folder named by the build's
fingerprint: the Python version and platform, and the text of every compiled module. An engine whose compiled
modules have changed since (or another Python) finds no build of its own and runs its Python source; so does
`RULEDECK_PURE=1`. `interpreter.engine` puts a build found in front of its own folder (`activate`) before any
of its modules is imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, MutableSequence
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from importlib.util import find_spec, module_from_spec
from pathlib import Path
from typing import NamedTuple

PACKAGE = Path(__file__).resolve().parent  # the `interpreter` package
# The modules compiled, as paths in the package: the meld machinery (a rummy's legal sets are mostly its search),
# the decisions' general code (which assembles those legal sets) and the shuffle (a loop over the deck's cards at
# every hand).
COMPILED = ("engine/melds.py", "engine/meldsearch.py", "engine/shuffling.py", "engine/decisions.py")
_FORMAT = 1  # of a build's folder; a change of what it holds changes it
_SUFFIX = EXTENSION_SUFFIXES[0]  # (of this Python's compiled modules: `.cpython-311-x86_64-linux-gnu.so`)
_MANIFEST = "native.json"

# What `activate` found: the build in use, or why none is (for `ruledeck native status`).
_state: dict[str, str] = {"active": "", "reason": "not looked for"}


class BuildError(Exception):
    """A build could not be made: what is missing, or the compiler's own words."""


class Status(NamedTuple):
    """Whether this engine runs a compiled build, where it is kept, and why not when it does not."""

    active: bool
    folder: Path | None
    reason: str


def root() -> Path:
    """Where builds are kept."""
    from interpreter.cache import user_folder

    chosen = os.environ.get("RULEDECK_NATIVE_DIR")
    return Path(chosen) if chosen else user_folder() / "native"


def fingerprint(package: Path = PACKAGE) -> str:
    """The build's key: the Python (version, implementation, platform) and the text of every compiled module."""
    digest = hashlib.sha256(f"{_FORMAT}\n{sys.implementation.cache_tag}\n{_SUFFIX}\n{sys.version}\n".encode())
    for name in COMPILED:
        digest.update(name.encode() + b"\0" + (package / name).read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def folder() -> Path:
    """The folder of the build made from this engine's source."""
    return root() / fingerprint()


def _module_name(path: str) -> str:
    return "interpreter." + path.removesuffix(".py").replace("/", ".")


def activate(engine_path: MutableSequence[str]) -> None:
    """Put the compiled build of this engine, when there is one, in front of `interpreter.engine`'s own folder
    (its `__path__`), so that the compiled modules are imported from it. Anything amiss leaves the Python
    source in use: the build is an acceleration, never a requirement."""
    if os.environ.get("RULEDECK_PURE"):
        _state.update(active="", reason="RULEDECK_PURE is set")
        return
    try:
        build = folder()
        manifest = json.loads((build / _MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        _state.update(active="", reason="no build of this engine's source for this Python (`ruledeck native build`)")
        return
    group = manifest.get("group", "")
    library = build / f"{group}{_SUFFIX}"
    engine = build / "interpreter" / "engine"
    try:
        if group not in sys.modules:  # (the compiled code itself, shared by the modules' own small libraries)
            spec = ModuleSpec(group, ExtensionFileLoader(group, str(library)), origin=str(library))
            module = module_from_spec(spec)
            sys.modules[group] = module
            spec.loader.exec_module(module)  # type: ignore[union-attr]
    except (ImportError, OSError) as error:
        sys.modules.pop(group, None)
        _state.update(active="", reason=f"the build at {build} could not be loaded: {error}")
        return
    engine_path.insert(0, str(engine))
    _state.update(active=str(build), reason="")


def status() -> Status:
    """Whether this process runs the compiled build (`interpreter.engine` imported first)."""
    import interpreter.engine  # noqa: F401  (activation happens at its import)

    active = _state["active"]
    if active:
        missing = [name for name in COMPILED if not _compiled(_module_name(name))]
        if missing:
            return Status(False, Path(active), f"modules imported from their source: {', '.join(missing)}")
        return Status(True, Path(active), "")
    return Status(False, None, _state["reason"])


def _compiled(module: str) -> bool:
    spec = find_spec(module)
    return spec is not None and spec.origin is not None and spec.origin.endswith(_SUFFIX)


def build(report: Callable[[str], None] = lambda line: None) -> Path:
    """Compile the modules of `COMPILED` with mypyc into this engine's build folder; returns it. Raises
    BuildError when mypyc or a C compiler is missing, or the compilation fails."""
    import shutil  # (here: every start of the engine imports this module, for `activate`)
    import subprocess
    import tempfile
    import time

    if find_spec("mypyc") is None:
        raise BuildError("the compiled build needs mypy, which brings mypyc: pip install 'ruledeck[native]'")
    destination = folder()
    try:  # (the folder the build is kept in, known to be writable before a minute or two of compiling)
        destination.parent.mkdir(parents=True, exist_ok=True)
        Path(tempfile.mkdtemp(prefix=".writable-", dir=destination.parent)).rmdir()
    except OSError as error:
        raise BuildError(f"builds are kept in {destination.parent}, which cannot be written: "
                         f"{error.strerror or error} (RULEDECK_NATIVE_DIR names another folder)") from None
    with tempfile.TemporaryDirectory(prefix="ruledeck-native-") as work:
        workspace = Path(work)
        # The package's source as mypy reads it (the compiled modules import the others), nothing else.
        for source in PACKAGE.rglob("*.py"):
            target = workspace / "interpreter" / source.relative_to(PACKAGE)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        (workspace / "interpreter" / "py.typed").touch()
        report(f"compiling {', '.join(COMPILED)} with mypyc (a minute or two)")
        started = time.monotonic()
        log = workspace / "build.log"
        with log.open("w", encoding="utf-8") as output:
            finished = subprocess.run([sys.executable, "-m", "mypyc", *(f"interpreter/{name}" for name in COMPILED)],
                                      cwd=workspace, stdout=output, stderr=subprocess.STDOUT, check=False)
        if finished.returncode != 0:
            tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-20:])
            raise BuildError(f"mypyc failed (exit status {finished.returncode}); the end of its output:\n{tail}")
        libraries = list(workspace.glob(f"*__mypyc{_SUFFIX}"))
        modules = [workspace / "interpreter" / name.replace(".py", _SUFFIX) for name in COMPILED]
        if len(libraries) != 1 or not all(path.is_file() for path in modules):
            raise BuildError(f"mypyc did not leave the libraries expected in {workspace}")
        destination.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{destination.name}-", dir=destination.parent))
        try:
            shutil.copy2(libraries[0], staging / libraries[0].name)
            for path in modules:
                target = staging / path.relative_to(workspace)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
            group = libraries[0].name.removesuffix(_SUFFIX)
            (staging / _MANIFEST).write_text(json.dumps({
                "format": _FORMAT, "group": group, "modules": [_module_name(name) for name in COMPILED],
                "python": sys.version, "seconds": round(time.monotonic() - started, 1)}, indent=1), encoding="utf-8")
            if destination.exists():
                shutil.rmtree(destination)
            staging.rename(destination)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return destination


def remove() -> list[Path]:
    """Delete every build kept (of any engine and Python); the folders removed."""
    import shutil

    removed = []
    if root().is_dir():
        for path in sorted(root().iterdir()):
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
    return removed
