"""Fixtures for every test module.

``private_home`` is automatic: every test's settings and saved games live in its own
temporary folder, so no test reads or writes the user's real files, whatever it
forgets to redirect. A test that needs its own layout sets the variables again.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    return home
