"""axe-core, the accessibility checker, run on the page in Chromium: the npm package pinned by
``tests/web/package-lock.json`` (``.ci/run`` installs it with ``npm ci --prefix tests/web``) is put
into the page and ``axe.run()`` reports what a screen reader user or a keyboard user would meet
(names missing, roles misused, contrast too low). A page must be opened with ``bypass_csp=True``:
the page's content security policy allows no script the server did not send."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("critical", "serious")
"""The impacts a screen may not have: a critical or serious violation keeps someone out."""

_RUN = """async () => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  return found.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 4).map((node) => node.target.join(" ")), count: v.nodes.length,
  }));
}"""


def axe_script() -> Path:
    """The installed axe.min.js; the test skips, saying how to install it, where it is missing."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: npm ci --prefix tests/web")
    return AXE


def violations(page: Any, impacts: tuple[str, ...] = BLOCKING) -> list[dict[str, Any]]:
    """The screen's violations of those impacts, each ``{id, impact, help, targets, count}``."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_script()))
    found = page.evaluate(_RUN)
    return [violation for violation in found if violation["impact"] in impacts]


def described(screens: dict[str, list[dict[str, Any]]]) -> str:
    """Every screen's violations, one line each: what a failing test prints."""
    return "\n".join(
        f"{screen}: {v['impact']} {v['id']} ({v['help']}) x{v['count']} at {v['targets']}"
        for screen, found in screens.items()
        for v in found
    )
