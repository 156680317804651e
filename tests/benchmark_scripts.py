"""The benchmark scripts (``benchmarks/NAME.py``) as modules, for the tests that keep them
working against the solver they measure. They are scripts, not a package, so they are
loaded from their files; each is registered under its own name, as dataclasses and a
script's own imports look it up there."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_script(name: str) -> ModuleType:
    """``benchmarks/<name>.py``, executed as the module ``name``."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
