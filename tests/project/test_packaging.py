"""The installed game must carry every asset, and installing it must not bury the README's
first command under setuptools warnings: both follow from ``pyproject.toml`` naming each
asset folder as a package and each asset file in a package-data pattern."""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the check is the same on every version

ROOT = Path(__file__).resolve().parents[2]


def setuptools_config() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["tool"]["setuptools"]


def test_every_asset_folder_is_a_package_and_every_asset_is_shipped() -> None:
    config = setuptools_config()
    packages = set(config["packages"])
    assert config["package-dir"]["battle.assets"] == "assets"
    patterns = config["package-data"]
    assets = ROOT / "assets"
    files = [path for path in assets.rglob("*") if path.is_file() and "__pycache__" not in path.parts]
    assert files, "no assets found"
    for path in files:
        folder = path.parent.relative_to(assets)
        package = ".".join(("battle", "assets", *folder.parts))
        assert package in packages, f"{folder.as_posix() or '.'}: folder not listed in [tool.setuptools] packages"
        assert any(fnmatch(path.name, pattern) for pattern in patterns.get(package, [])), (
            f"{path.relative_to(ROOT).as_posix()}: no package-data pattern of {package} ships it"
        )


def test_the_listed_packages_exist() -> None:
    config = setuptools_config()
    for package in config["packages"]:
        parts = package.split(".")
        folder = ROOT / "assets" / Path(*parts[2:]) if parts[:2] == ["battle", "assets"] else ROOT / Path(*parts)
        assert folder.is_dir(), f"{package}: no folder {folder.relative_to(ROOT).as_posix()}"


def test_the_browser_client_ships_with_the_package() -> None:
    config = setuptools_config()
    assert "battle.web" in config["packages"]
    patterns = config["package-data"]["battle.web"]
    files = [path for path in (ROOT / "battle" / "web").iterdir() if path.is_file()]
    assert {path.name for path in files} >= {"index.html", "app.js", "rules.js", "style.css", "tiles.png"}
    for path in files:
        assert any(fnmatch(path.name, pattern) for pattern in patterns), f"battle/web/{path.name}: not shipped"
