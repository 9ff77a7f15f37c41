"""What `pip install .` (not only an editable install) puts in the package: every module and data file, the
bundled rulesets, and the license."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONFIG = PYPROJECT["tool"]["setuptools"]


def test_every_package_of_the_engine_is_installed() -> None:
    packages = sorted(".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "interpreter").rglob(
        "__init__.py"))
    assert len(packages) >= 5 and set(packages) <= set(CONFIG["packages"])


def test_every_data_file_the_engine_reads_is_installed() -> None:
    declared = {(package, name) for package, names in CONFIG["package-data"].items() for name in names}
    needed = {(".".join(path.parent.relative_to(ROOT).parts), path.name)
              for suffix in ("*.json", "*.lark", "py.typed") for path in (ROOT / "interpreter").rglob(suffix)}
    assert needed and needed <= declared


def test_every_shipped_ruleset_is_package_data() -> None:
    folder = ROOT / CONFIG["package-dir"]["interpreter.rulesets"]
    shipped = set(folder.rglob("*.yaml"))
    packaged = set()
    for package, patterns in CONFIG["package-data"].items():
        if package.startswith("interpreter.rulesets"):
            assert package in CONFIG["packages"]  # else setuptools leaves its folder out
            where = folder.joinpath(*package.split(".")[2:])
            packaged |= {path for pattern in patterns for path in where.glob(pattern)}  # no `**` in setuptools
    assert folder == ROOT / "rulesets" and len(shipped) >= 14 and sorted(shipped - packaged) == []


def test_the_license_is_declared_and_shipped() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Copyright (c) 2026 the ruledeck authors" in text
