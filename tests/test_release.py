"""A release as a packager takes it: ``python -m build`` makes the sdist and, from it, the wheel
without a warning of setuptools'; the wheel holds every file the game reads (the German catalogue
among them); installed into a fresh virtual environment, its ``mahjong-battle`` command answers
``--version``, ``--lang de --help`` and a solve of a one-move position.

The fresh environment gets the wheel alone (``--no-deps --no-index``) and reaches the libraries the
game needs (numba, pygame-ce, ...) in the environment the tests run in, through a ``.pth`` file:
what is checked is the wheel's own content, without downloading those libraries again. The build
itself fetches setuptools into its isolated environment, as a packager's build does.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WAIT = 600
"""Seconds a build, an install or a first solve may take on a loaded machine (the solve compiles the
kernels of the installed copy: 10-20 s on a quiet machine)."""
ONE_MOVE = """\
to-move: 1
score: 0 0
9m .. .. .. .. .. .. .. .. .. .. ..
9m .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
"""
LEFT_OUT = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "node_modules")
"""What a source tree in use holds that is no part of the source."""


def run(command: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=WAIT
    )


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The sdist and the wheel built from a copy of the source tree, and the build's output."""
    try:
        import build  # noqa: F401 - the packager's tool, in the test extra
    except ImportError:
        pytest.skip("python -m build is not installed (pip install '.[test]')")
    folder = tmp_path_factory.mktemp("release")
    source = folder / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*LEFT_OUT))
    built = run([sys.executable, "-m", "build", "--outdir", folder / "dist", source], folder)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    [sdist] = (folder / "dist").glob("*.tar.gz")
    [wheel] = (folder / "dist").glob("*.whl")
    return sdist, wheel, built.stdout + built.stderr


def test_the_build_warns_of_nothing(release: tuple[Path, Path, str]) -> None:
    output = release[2]
    assert "would be ignored" not in output and "is absent from the `packages` configuration" not in output
    warnings = [line for line in output.splitlines() if re.search(r"\bwarning\b", line, re.IGNORECASE)]
    # MANIFEST.in's excludes find nothing in the copy, which leaves out what a checkout in use holds
    benign = ("byte-compiling is disabled", "no previously-included files", "no previously-included directories")
    assert all(any(words in line for words in benign) for line in warnings), warnings


def test_the_wheel_holds_every_file_the_game_reads(release: tuple[Path, Path, str]) -> None:
    sdist, wheel, _output = release
    names = set(zipfile.ZipFile(wheel).namelist())
    catalogues = {str(path.relative_to(ROOT)) for path in (ROOT / "battle" / "locale").rglob("*.po*")}
    assert catalogues and catalogues <= names, sorted(catalogues - names)
    shipped = {f"battle/assets/{path.relative_to(ROOT / 'assets')}" for path in (ROOT / "assets").rglob("*.*")}
    web = {str(path.relative_to(ROOT)) for path in (ROOT / "battle" / "web").glob("*.*")}
    assert shipped <= names and web <= names, sorted((shipped | web) - names)
    [metadata] = [name for name in names if name.endswith(".dist-info/METADATA")]
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    for field in (
        "Author: ",
        "Classifier: Topic :: Games/Entertainment",
        "License-Expression",
    ):
        assert field in text, field
    version = re.search(r"^Version: (\S+)$", text, re.MULTILINE)
    assert version is not None
    changes = (ROOT / "CHANGELOG.md").read_text()
    if version.group(1).endswith(".dev0"):  # between releases: the changes since the last are unreleased
        assert "\n## Unreleased\n" in changes and f"## {version.group(1)}" not in changes
    else:
        assert f"## {version.group(1)} (" in changes
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "README.md", "CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md"} <= members
    linked = {
        str((page.parent / target).resolve().relative_to(ROOT))
        for page in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")]
        for target in re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", page.read_text())
    }
    assert linked and linked <= members, sorted(linked - members)  # every page and picture the docs link to
    assert {"tests/test_release.py", "benchmarks/README.md", "tools/flake_hunt.py", ".ci/run"} <= members
    assert not any("node_modules" in name or "__pycache__" in name for name in members)


def installed(wheel: Path, home: Path) -> tuple[Path, dict[str, str]]:
    """The wheel installed alone into a fresh virtual environment in ``home``: its
    ``mahjong-battle`` command and an environment of a user with nothing else set."""
    venv = home / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", venv], home)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    # this environment's pip installs into the new one (seconds less than a pip of its own)
    done = run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index", wheel], home
    )
    assert done.returncode == 0, done.stderr
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], home).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "the-tests-libraries.pth").write_text("\n".join(sorted(ours)) + "\n")
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "LANG": "C.UTF-8",
    }
    command = venv / "bin" / "mahjong-battle"
    where = run([python, "-c", "import battle, solver; print(battle.__file__, solver.__file__)"], home, env)
    assert where.stdout.count(str(site)) == 2, where.stdout + where.stderr  # the wheel's copy, not the source's
    return command, env


def test_the_installed_wheel_answers(release: tuple[Path, Path, str], tmp_path: Path) -> None:
    wheel = release[1]
    command, env = installed(wheel, tmp_path)
    version = run([command, "--version"], tmp_path, env)
    assert (version.returncode, version.stdout) == (0, f"mahjong-battle {wheel.name.split('-')[1]}\n"), version.stderr

    german = run([command, "--lang", "de", "--help"], tmp_path, env)
    assert german.returncode == 0, german.stderr
    assert "Aufruf:" in german.stdout and "Optionen:" in german.stdout, german.stdout  # argparse's words too


@pytest.mark.slow
def test_the_installed_wheel_solves(release: tuple[Path, Path, str], tmp_path: Path) -> None:
    """Slow: the installed copy's kernels compile on its first solve (numba's cache is kept per
    source file), 10-20 s on a quiet machine, about 50 s on two loaded cores."""
    command, env = installed(release[1], tmp_path)
    (tmp_path / "one-move.mbp").write_text(ONE_MOVE)
    solved = run([command, "solve", "one-move.mbp", "--quiet"], tmp_path, env)
    assert solved.returncode == 0, solved.stderr
    assert "best moves: a1-a2" in solved.stdout and "final score: 9-0" in solved.stdout, solved.stdout
