"""The README's examples, and those of the pages it sends a reader to (``docs/page.md``,
``docs/solver.md``), work exactly as written, after its set-up and the activation it names.

The shell examples run through ``sh`` with the environment's ``bin`` folder first on
PATH (what ``. .venv/bin/activate`` does), one line at a time in a fresh folder; the
Python example runs after them in the same folder, as a user would paste it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGE = ROOT / "docs" / "page.md"
"""Online play and the page in a browser."""
SOLVER = ROOT / "docs" / "solver.md"
"""The levels, the deal atlas and the puzzles."""


def block_after(marker: str, language: str, document: Path = README) -> str:
    text = document.read_text(encoding="utf-8")
    start = text.index(marker)
    match = re.compile(rf"```{language}\n(.*?)```", re.S).search(text, start)
    assert match is not None, f"no {language} block after {marker!r}"
    return match.group(1)


def activated(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1")
    return env


def test_the_readme_examples_run_as_written(tmp_path) -> None:
    env = activated(tmp_path)
    outputs = []
    for line in block_after("Examples:", "sh").splitlines():
        command = line.split("  #")[0].strip()
        if not command:
            continue
        result = subprocess.run(
            ["sh", "-c", command], cwd=tmp_path, env=env, input=b"quit\n", capture_output=True, timeout=300
        )
        assert result.returncode == 0, f"{command}: {result.stderr.decode()[-1000:]}"
        outputs.append(result.stdout.decode())
    moves, _, solved, played = outputs
    assert moves.splitlines()[0].endswith(")")  # "a1-i9 (9)"
    assert '"best_moves"' in solved and '"exact": false' in solved
    assert "Solver (club)" in played

    result = subprocess.run(
        [sys.executable, "-c", block_after("From Python", "python")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    value_line, move_line = result.stdout.decode().splitlines()[-2:]
    assert re.fullmatch(r"-?\d+ (True|False) \[.*\]", value_line), value_line
    assert re.fullmatch(r"[a-l][1-9]-[a-l][1-9]", move_line), move_line


def test_the_readme_online_example_runs_as_written(tmp_path) -> None:
    """The server line (run in the background, as its ``&`` says) and the host line, which prints an
    invite code and leaves when standard input says ``quit``."""
    env = activated(tmp_path)
    serve_line, host_line = [
        line.split("  #")[0].strip() for line in block_after("## Online play", "sh", PAGE).splitlines() if line.strip()
    ]
    assert serve_line.endswith("&")
    server = subprocess.Popen(
        ["sh", "-c", f"exec {serve_line.rstrip('&').strip()}"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        banner = server.stdout.readline()
        assert "ws://127.0.0.1:8765" in banner, banner + server.stdout.read(2000) if server.poll() else banner
        result = subprocess.run(
            ["sh", "-c", host_line], cwd=tmp_path, env=env, input=b"quit\n", capture_output=True, timeout=60
        )
        assert result.returncode == 0, result.stderr.decode()[-1000:]
        assert re.search(r"Invite code: \w{4}-\w{4}", result.stdout.decode())
    finally:
        server.terminate()
        server.wait(10)


def test_the_readme_atlas_examples_run_as_written(tmp_path) -> None:
    """Shipped pars, a quick survey on a local Dask cluster, its report and plot, and the shipped catalogue's deals."""
    env = activated(tmp_path)
    outputs = []
    for line in block_after("## The deal atlas", "sh", SOLVER).splitlines():
        command = line.split("  #")[0].strip()
        if not command:
            continue
        result = subprocess.run(["sh", "-c", command], cwd=tmp_path, env=env, capture_output=True, timeout=300)
        assert result.returncode == 0, f"{command}: {result.stderr.decode()[-1000:]}"
        outputs.append(result.stdout.decode())
    pars, surveyed, report, daily, fair = outputs
    assert [line.split(":")[0] for line in pars.splitlines()] == ["deal 1", "deal 2", "deal 4", "deal 5"]
    assert all(line.endswith("(from the shipped catalogue)") for line in pars.splitlines())
    assert "20 deals solved now" in surveyed and "20 deals surveyed" in report
    assert (tmp_path / "values.png").read_bytes()[:4] == b"\x89PNG"
    assert daily.startswith("# deal ") and "Par:" in daily.splitlines()[0]
    assert fair.startswith("# deal ") and "Par:" in fair.splitlines()[0]


def test_the_pages_size_is_what_its_document_says() -> None:
    """docs/page.md bounds what a browser loads from the server (every file of ``battle/web``, the
    text gzipped as every browser takes it), a bound the page keeps as it grows rather than a byte
    count that is out of date at its next edit."""
    from battle.online.server.shell.web_files import web_files

    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    found = re.search(
        r"under (\d+) KB in all as a browser gets it, its text gzipped \(the tile sheet, a PNG, more than half of it",
        text,
    )
    assert found is not None, "docs/page.md no longer says what the page weighs"
    files = web_files()
    sent = sum(len(file.gzipped or file.body) for file in files.values())
    tiles = len(files["/tiles.png"].body)
    assert sent < int(found.group(1)) * 1000, f"{len(files)} files, {sent:,} bytes sent"
    assert 0.5 * sent < tiles, f"the tile sheet is {tiles:,} of {sent:,} bytes sent"
