"""Run many command lines in one process, as ``mahjong-battle`` would run each: for the language
guard, which reads every ``--help`` and every bad-input error without paying a Python start-up
for each of them.

    python -m tests.i18n.cli_driver < commands.json > answers.json

Reads a JSON list of argument lists; writes a JSON list of ``{"argv", "code", "out", "err"}``.
Standard input is empty for every command, as a closed pipe leaves it.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys


def run(argv: list[str]) -> dict[str, object]:
    from battle.cli.command_line import main

    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code: object = main(argv)
        except SystemExit as leaving:
            code = leaving.code
    return {"argv": argv, "code": code, "out": out.getvalue(), "err": err.getvalue()}


if __name__ == "__main__":
    commands = json.load(sys.stdin)
    answers = [run(argv) for argv in commands]
    sys.__stdout__.write(json.dumps(answers))
