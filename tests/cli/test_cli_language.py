"""The command line speaks the system's language, or the one --lang names: help, errors, the board.

Each test runs the real program (``python -m battle``) in a child process with the locale
variables a German desktop sets, as a player's terminal would.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def run(*argv: str, lang: str = "de_DE.UTF-8", stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if name not in LOCALE_VARIABLES}
    env.update(LANG=lang, NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "battle", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        input=stdin,
        timeout=120,
    )


def test_help_is_german_on_a_german_system() -> None:
    shown = run("--help")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("Aufruf: mahjong-battle")
    assert "Optionen:" in shown.stdout
    assert "eine nummerierte Verteilung als Stellungsdatei ausgeben" in shown.stdout
    assert "show this help" not in shown.stdout


def test_lang_en_overrides_the_system_and_lang_de_overrides_english() -> None:
    english = run("--lang", "en", "--help")
    assert english.returncode == 0 and english.stdout.startswith("usage: mahjong-battle")
    assert "print a numbered deal as a position file" in english.stdout
    german = run("deal", "--help", "--lang=de", lang="en_US.UTF-8")
    assert german.returncode == 0 and german.stdout.startswith("Aufruf: mahjong-battle deal")
    assert "die Verteilung des Tages" in german.stdout


def test_errors_are_one_german_line_with_exit_code_2() -> None:
    wrong = run("deal", "--fair", "--daily")
    assert wrong.returncode == 2
    assert wrong.stderr == "mahjong-battle: --fair oder --daily, nicht beides\n"
    unknown = run("moves", "game.mbp", "--bogus")
    assert unknown.returncode == 2
    assert (
        unknown.stderr == "mahjong-battle: moves: unbekannte Argumente: '--bogus' (siehe mahjong-battle moves --help)\n"
    )


def test_an_unknown_language_is_one_line() -> None:
    refused = run("--lang", "xx", "deal", "1", lang="en_US.UTF-8")
    assert refused.returncode == 2
    assert refused.stderr == "mahjong-battle: --lang: 'xx' is not a language of the game (de, en)\n"
    assert refused.stdout == ""


def test_the_text_board_is_german_and_its_notation_and_files_are_not() -> None:
    dealt = run("deal", "5")
    assert dealt.returncode == 0
    assert dealt.stdout == run("deal", "5", lang="C").stdout, "a position file is the same in every language"
    shown = run("show", "-", stdin=dealt.stdout)
    assert shown.returncode == 0, shown.stderr
    assert "Steine pro Spalte" in shown.stdout
    assert "Spieler 1 ist am Zug   7 Paare spielbar   108 Steine, 270 Punkte auf dem Brett" in shown.stdout
    assert "[5p] frei mit freiem Zwilling (spielbar)" in shown.stdout
    assert "(9p) [1s] (7m) [5p]" in shown.stdout


def test_numbers_are_german_and_the_json_is_not() -> None:
    """The solver's count of nodes and its seconds: 29.400 in 0,07 s in German, 29,400 in 0.07s in
    English; the JSON answer is the same in both (its keys and values are never translated)."""
    position = str(ROOT / "tests" / "data" / "positions" / "midgame-deal-9-ply-25.mbp")
    german, english = run("solve", position), run("solve", position, lang="C.UTF-8")
    assert german.returncode == 0 and english.returncode == 0, german.stderr + english.stderr
    assert re.search(r"^Knoten: \d{1,3}(\.\d{3})* in \d+,\d\d s$", german.stdout, re.MULTILINE), german.stdout
    assert re.search(r"^nodes: \d{1,3}(,\d{3})* in \d+\.\d\ds$", english.stdout, re.MULTILINE), english.stdout
    german_json = json.loads(run("solve", "--json", position).stdout)
    english_json = json.loads(run("solve", "--json", position, lang="C.UTF-8").stdout)
    for answer in (german_json, english_json):
        answer.pop("seconds", None), answer.pop("nodes", None)
    assert german_json == english_json


def test_terminal_play_prompts_in_german() -> None:
    played = run("play", "--deal", "5", stdin="zz\nquit\n")
    assert played.returncode == 0, played.stderr
    # the record keeps the default names in English (a file reads the same everywhere); the screen does not
    assert "Mahjong Battle: Spieler 1 gegen Spieler 2, Verteilung 5. 'help' zeigt die Befehle." in played.stdout
    assert "Spieler 1 ist am Zug> " in played.stdout
    assert "Kein erlaubter Zug: 'zz' ist kein Zug (erwartet: zwei Felder, z. B. c1-c9)." in played.stdout


def test_stats_and_a_fair_deal_speak_german_while_the_file_stays_english(tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if name not in LOCALE_VARIABLES}
    env.update(
        LANG="de_DE.UTF-8",
        NO_COLOR="1",
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
    )
    stats = subprocess.run(
        [sys.executable, "-m", "battle", "stats"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert stats.returncode == 0, stats.stderr
    assert stats.stdout.startswith("Partien: 0 gespeichert, 0 von dir\n")
    assert "Wertung gegen den Solver: noch keine Partie gegen eine Stufe" in stats.stdout
    assert "(Stufen: Anfänger 1000, Freizeit 1645, Verein 1993" in stats.stdout
    dealt = subprocess.run(
        [sys.executable, "-m", "battle", "deal", "--fair"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert dealt.returncode == 0, dealt.stderr
    assert re.match(r"# deal \d+; Par: (even|first player [+-]\d+)", dealt.stdout), dealt.stdout[:80]
