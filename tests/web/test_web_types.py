"""The page's modules type-checked by the TypeScript compiler over their JSDoc, with the settings of
``tests/web/jsconfig.json`` (``strict``; beside the tests, so the server does not serve it): a field
of a server message misspelt, an element that may be missing used as if it were there, a function
given the wrong kind of value fail here rather than in a player's browser. The compiler is the npm
package ``tests/web/package-lock.json`` pins (``.ci/run`` installs it with ``npm ci --prefix
tests/web``); where it is missing the check skips, saying how to install it. It takes about 2 s."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "battle" / "web"
TSC = Path("tests") / "web" / "node_modules" / "typescript" / "bin" / "tsc"
CONFIG = Path("tests") / "web" / "jsconfig.json"
TSC_WAIT = 120
"""Seconds a run may take: about 2 s, so only a hung compiler reaches it."""


def test_every_module_of_the_page_passes_the_type_checker() -> None:
    if not (ROOT / TSC).is_file():
        pytest.skip("TypeScript is not installed: npm ci --prefix tests/web")
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on the PATH to run TypeScript: apt-get install nodejs")
    command = [node, str(TSC), "--noEmit", "-p", str(CONFIG)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=TSC_WAIT, check=False)
    assert result.returncode == 0, (
        f"{' '.join(command)} (in {ROOT}) exited {result.returncode}:\n{result.stdout}{result.stderr}"
    )


def test_every_module_asks_for_the_strict_check() -> None:
    """An editor that opens one module without the folder's settings checks it too (``// @ts-check``),
    and the settings keep every strict check on."""
    settings = json.loads((ROOT / CONFIG).read_text(encoding="utf-8"))["compilerOptions"]
    assert settings["strict"] is True and settings["checkJs"] is True and settings["noEmit"] is True
    unchecked = [
        path.name
        for path in sorted(WEB.glob("*.js"))
        if not path.read_text(encoding="utf-8").startswith("// @ts-check\n")
    ]
    assert not unchecked, f"modules that do not start with // @ts-check: {unchecked}"
