"""What `pip install .` (not only an editable install) puts in the package: every module and data file."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_of_the_engine_is_installed() -> None:
    packages = sorted(".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "interpreter").rglob(
        "__init__.py"))
    patterns = CONFIG["packages"]["find"]["include"]
    missing = [name for name in packages if not any(fnmatch.fnmatchcase(name, p) for p in patterns)]
    assert len(packages) >= 5 and not missing


def test_every_data_file_the_engine_reads_is_installed() -> None:
    declared = {(package, name) for package, names in CONFIG["package-data"].items() for name in names}
    needed = {(".".join(path.parent.relative_to(ROOT).parts), path.name)
              for suffix in ("*.json", "*.lark", "py.typed") for path in (ROOT / "interpreter").rglob(suffix)}
    assert needed and needed <= declared
