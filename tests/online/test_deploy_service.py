"""docs/deploy.md's step 3 followed as written, as root on this Debian machine: its shell lines run
one by one with ``sh``, its unit file checked by ``systemd-analyze verify``, and the unit's command
run as the service's user (its ids, as systemd's ``User=`` sets them) until the server says where it
listens, then stopped as ``systemctl stop`` stops it.

Only the names are changed, so that the test leaves the machine as it found it: the user is a
throwaway system user, ``/srv``, ``/opt`` and ``/var/lib`` lie in a folder of the test's own (every
user may pass through it, as through those), and ``REPOSITORY`` is this checkout. ``pip`` installs
the game with its libraries into a fresh virtual environment from pip's cache (18 s in all on two
cores at load 8). Skipped, with the reason, where it cannot run: not root, not Debian's tools, or
an ``apt-get install`` that this machine cannot do (no package lists, no network).
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "docs" / "deploy.md"
WAIT = 900

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the page is for a Debian or Ubuntu server"
)


def step_3() -> tuple[list[str], str]:
    """Step 3's shell lines (comments dropped) and its unit file, as the page shows them."""
    section = DEPLOY.read_text(encoding="utf-8").split("## 3. ", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.DOTALL)
    [install] = [text for kind, text in blocks if kind == "sh" and "pip install" in text]
    [unit] = [text for kind, text in blocks if kind == "ini"]
    lines = [line.split("  #", 1)[0].strip() for line in install.splitlines()]
    return [line for line in lines if line], unit


def test_step_3_installs_the_server_for_a_user_of_its_own() -> None:
    if os.geteuid() != 0 or shutil.which("useradd") is None:
        pytest.skip("the page's step 3 runs as root, with useradd")
    lines, unit = step_3()
    user = f"mbtest{secrets.token_hex(3)}"
    place = Path(tempfile.mkdtemp(prefix="deploy-", dir="/var/tmp"))
    place.chmod(0o755)  # like /srv, /opt and /var/lib: the service's user passes through
    names = {
        "/srv/mahjong-battle": str(place / "srv"),
        "/opt/mahjong-battle": str(place / "opt"),
        "/var/lib/mahjong-battle": str(place / "home"),
        "REPOSITORY": str(ROOT),
    }

    def ours(text: str) -> str:
        for name, value in names.items():
            text = text.replace(name, value)
        return re.sub(r"\bmahjong$", user, text, flags=re.MULTILINE).replace("User=mahjong", f"User={user}")

    # root's login shell (su -): the system's PATH, so python3 is Debian's (a Python under /root, as
    # pyenv's, could not be run by the service's user), and none of the test run's Python settings
    shell = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    shell["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    made_user = False
    try:
        for line in lines:
            if line.startswith("apt-get install") and shutil.which("apt-get") is None:
                pytest.skip("no apt-get here: the page is for Debian or Ubuntu")
            done = subprocess.run(
                ["sh", "-c", ours(line)], capture_output=True, text=True, cwd=place, env=shell, timeout=WAIT
            )
            made_user = made_user or line.startswith("useradd")
            if line.startswith("apt-get install") and done.returncode != 0:
                pytest.skip(f"this machine cannot {line!r}: {done.stderr.strip()[-300:]}")
            assert done.returncode == 0, f"{line}\n{done.stdout[-1500:]}{done.stderr[-1500:]}"
        home = place / "home"
        assert home.stat().st_uid != 0 and (place / "opt").stat().st_uid == 0  # its data, root's program

        service = place / f"{user}.service"
        service.write_text(ours(unit), encoding="utf-8")
        analyze = shutil.which("systemd-analyze")
        if analyze is not None:
            verified = subprocess.run([analyze, "verify", str(service)], capture_output=True, text=True)
            assert verified.returncode == 0, verified.stderr
            assert verified.stderr == "", verified.stderr

        start = re.search(r"^ExecStart=(.*?)(?<!\\)$", ours(unit).replace("\\\n", " "), re.MULTILINE)
        assert start is not None, unit
        command = start.group(1).split()
        command[command.index("--port") + 1] = "0"  # any free port: the machine's 8765 may be taken
        account = pwd.getpwnam(user)
        server = subprocess.Popen(  # as systemd's User= runs it: that user's ids, no other groups
            command,
            user=account.pw_uid,
            group=account.pw_gid,
            extra_groups=[],
            cwd=home,
            env={"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            first = server.stdout.readline()
            assert first.startswith("Mahjong Battle server on ws://127.0.0.1:"), first + server.stderr.read()  # type: ignore[union-attr]
            server.send_signal(signal.SIGTERM)  # what systemctl stop sends
            assert server.wait(WAIT) == 0
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
        assert (home / "games.sqlite3").stat().st_uid == home.stat().st_uid
        if analyze is None:  # the rest of the step ran and held
            pytest.skip("the unit was not verified: no systemd-analyze here (apt-get install systemd)")
    finally:
        if made_user:
            subprocess.run(["userdel", "--force", user], capture_output=True)  # also while its last process ends
        shutil.rmtree(place, ignore_errors=True)
