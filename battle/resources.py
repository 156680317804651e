"""Find bundled files (fonts, icons) whether the game is installed or run from a checkout.

setuptools maps the top-level ``assets/`` directory to ``battle/assets`` in the installed
package, while a source checkout keeps it next to ``battle/``.  Callers should not care
which, so every lookup goes through :func:`asset_path`.
"""

from __future__ import annotations

from pathlib import Path

from battle.i18n import _

_PACKAGE_DIR = Path(__file__).resolve().parent


def asset_roots() -> tuple[Path, ...]:
    """The directories searched, installed location first so a wheel never reads a checkout."""
    return (_PACKAGE_DIR / "assets", _PACKAGE_DIR.parent / "assets")


def asset_path(*parts: str) -> Path:
    """Return the path of an asset such as ``asset_path("fonts", "OFL.txt")``.

    Raises :class:`FileNotFoundError` naming the file and every place looked, so a broken
    install says what is missing instead of failing later inside pygame.
    """
    if not parts:
        raise ValueError("asset_path needs at least one path component")
    relative = Path(*parts)
    if relative.is_absolute() or ".." in relative.parts:
        raise ValueError(f"asset path must stay inside the assets directory: {relative!s}")
    candidates = [root / relative for root in asset_roots()]
    for candidate in candidates:
        if candidate.exists():
            return candidate
    looked = ", ".join(str(candidate) for candidate in candidates)
    raise FileNotFoundError(
        _("asset {name} not found; looked in: {places}").format(name=repr(relative.as_posix()), places=looked)
    )
