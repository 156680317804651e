#!/usr/bin/env bash
# Take a screenshot of the real game window on a virtual X display.
#
#   tools/screenshot.sh [OUT.png] [WIDTHxHEIGHT]      (defaults: docs/screenshot.png 1200x800)
#   DEMO=analysis tools/screenshot.sh docs/analysis.png
#   tools/screenshot.sh --all [WIDTHxHEIGHT]          (docs/screenshot.png, analysis.png, review.png, editor.png)
#
# Starts Xvfb on :99 (DISPLAY_NUMBER=.. to change), opens `python -m battle` with a demo
# screen in a window of the screen's size, waits WAIT seconds (default 4), grabs the root
# window with ImageMagick's `import`, then stops both. DEMO picks the screen (it becomes
# MAHJONG_BATTLE_DEMO): 1 (the default) is the game (deal 1 after six moves, a tile selected);
# analysis is analysis mode on a small endgame with a pair pointed at; review is the review of
# a short game at its first turning point; editor is the position editor with a gap in a column.
# Settings and autosaves go to a temporary directory, so the user's own files are never
# touched. Needs: Xvfb, imagemagick (apt-get install -y xvfb imagemagick).
# PYTHON selects the interpreter (default: /work/venv/bin/python if present, else python3).
# The window speaks the environment's language: LANGUAGE=de tools/screenshot.sh docs/screenshot-de.png
# takes the German picture (docs/screenshot-de.png and docs/review-de.png are taken so).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ "${1:-}" == "--all" ]]; then
    SIZE="${2:-1200x800}"
    for demo in 1 analysis review editor; do
        name="$demo"; [[ "$demo" == 1 ]] && name=screenshot
        DEMO="$demo" "${BASH_SOURCE[0]}" "$ROOT/docs/$name.png" "$SIZE"
    done
    exit 0
fi
OUT="${1:-$ROOT/docs/screenshot.png}"
SIZE="${2:-1200x800}"
DEMO="${DEMO:-1}"
NUMBER="${DISPLAY_NUMBER:-99}"
WAIT="${WAIT:-4}"
if [[ -z "${PYTHON:-}" ]]; then
    if [[ -x /work/venv/bin/python ]]; then PYTHON=/work/venv/bin/python; else PYTHON=python3; fi
fi
for tool in Xvfb import; do
    command -v "$tool" >/dev/null || { echo "screenshot.sh: $tool not found (apt-get install -y xvfb imagemagick)" >&2; exit 2; }
done

SCRATCH="$(mktemp -d)"
XVFB_PID=""
APP_PID=""
cleanup() {
    [[ -n "$APP_PID" ]] && kill "$APP_PID" 2>/dev/null || true
    [[ -n "$XVFB_PID" ]] && kill "$XVFB_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$SCRATCH"
}
trap cleanup EXIT

Xvfb ":$NUMBER" -screen 0 "${SIZE}x24" -nolisten tcp >"$SCRATCH/xvfb.log" 2>&1 &
XVFB_PID=$!
for _ in $(seq 50); do
    [[ -e "/tmp/.X11-unix/X$NUMBER" ]] && break
    sleep 0.1
done

cd "$ROOT"
DISPLAY=":$NUMBER" XDG_CONFIG_HOME="$SCRATCH/config" XDG_DATA_HOME="$SCRATCH/data" \
    MAHJONG_BATTLE_DEMO="$DEMO" MAHJONG_BATTLE_SIZE="$SIZE" SDL_AUDIODRIVER=dummy \
    PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" \
    "$PYTHON" -m battle >"$SCRATCH/app.log" 2>&1 &
APP_PID=$!
sleep "$WAIT"
if ! kill -0 "$APP_PID" 2>/dev/null; then
    echo "screenshot.sh: the game exited early; its output:" >&2
    cat "$SCRATCH/app.log" >&2
    exit 1
fi
mkdir -p "$(dirname "$OUT")"
DISPLAY=":$NUMBER" import -window root "$OUT"
echo "wrote $OUT"
