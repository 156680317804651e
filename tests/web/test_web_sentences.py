"""What the page says, held true in Chromium against a real ``serve``: a link cut short says so; the
page keeps the language it was opened in (``?lang=de``) through the address it rewrites and a
reload; a name of 40 characters with no break point wraps wherever it shows on a phone; the end
line puts the winner's score first, whoever reads it; a statistics plot follows its width; and
every message the page sends is built in ``socket.js``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import Served
from tests.web.game_pages import DESKTOP, PHONE, click_pair, host, join, new_page, wait_ply

SCREEN_MODULES = (
    "app.js",
    "home_screen.js",
    "game_screen.js",
    "game_panels.js",
    "invite_panel.js",
    "name_panel.js",
    "solver_panel.js",
    "analysis_screen.js",
    "review_screen.js",
    "puzzle_screen.js",
    "lobby_panel.js",
    "daily_panel.js",
    "stats_screen.js",
)
"""The page's modules that drive screens: none of them builds a message of the protocol."""
UNSEEN_HERE = {"ping", "lobby_follow", "lobby_page", "daily", "my_stats", "puzzle_open"}
"""Messages this test's games do not send, which the modules must not build either."""


def test_a_link_cut_before_its_code_says_so(browser: Any, served: Served) -> None:
    page = new_page(browser)
    for path in ("/join/", "/watch/", "/play/", "/review/"):
        page.goto(served.base + path)
        page.wait_for_selector("#notice:not([hidden])")
        assert "This link is cut short" in page.text_content("#notice"), path
    assert page.errors == []


def test_a_page_opened_in_german_stays_german_through_its_rewritten_address_and_a_reload(
    browser: Any, served: Served
) -> None:
    ann = new_page(browser, **DESKTOP, locale="en-US")
    ann.goto(served.base + "/?lang=de")
    ann.wait_for_selector("#home:not([hidden])")
    ann.fill("#host-form input[name=name]", "Ann")
    ann.click("#host-button")
    ann.wait_for_selector("#invite-link:not(:empty)")
    assert re.search(r"/play/\w+\?lang=de$", ann.url), ann.url  # the game's own address, the language kept
    ann.reload()
    ann.wait_for_selector("#invite-link:not(:empty)")
    assert ann.text_content("#copy-link") == "Link kopieren"
    assert ann.get_attribute("#home-link", "href").endswith("/?lang=de")
    assert ann.errors == []


def test_a_long_name_wraps_wherever_it_shows_on_the_opponents_phone(browser: Any, served: Served) -> None:
    long = "W" * 40
    ann = new_page(browser, **DESKTOP)
    bob = new_page(browser, **PHONE)
    width = PHONE["viewport"]["width"]
    join(bob, host(ann, served.base, long, deal=1, first="creator"), "Bob")

    def fits(what: str) -> None:
        wide = bob.evaluate("() => document.scrollingElement.scrollWidth")
        assert wide <= width, f"{what}: the page is {wide} px wide on a {width} px phone"

    bob.wait_for_selector(f"#turn:has-text('{long}')")  # "WWW… ● to move."
    fits("the long name to move")
    click_pair(ann)
    wait_ply(bob, 1)
    ann.click("#takeback")
    bob.wait_for_selector("#offer:not([hidden])")
    fits("the long name's takeback asked")
    bob.click("#offer-no")
    ann.click("#resign")
    ann.click("#confirm-yes")
    bob.wait_for_selector('body[data-status="finished"]')
    fits("the end line")
    ann.click("#rematch")
    bob.wait_for_selector("#offer:not([hidden])")
    fits("the long name's rematch offered")
    bob.click("#leave")
    bob.wait_for_selector("#game-list button")
    fits("the home list")
    assert bob.errors == []


DAY_WITH_LONG_NAMES = """async () => {
  const { DailyPanel } = await import("/daily_panel.js");
  const panel = new DailyPanel({ openGame() {} });
  const long = "Wolfeschlegelsteinhausenbergerdorffwelche";
  panel.table = { deal: 21, par: 2, rows: [
    { place: 1, name: long, tag: "a1b2", score: 140, against_par: 12, opponent: "perfect", yours: true },
    { place: 2, name: "Ann", score: 130, against_par: -8, opponent: "friend" },
    { place: 20, name: long.slice(0, 30), score: 100, against_par: -40, opponent: "expert" } ] };
  panel.render();
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return document.documentElement.scrollWidth;
}"""
"""The day's table drawn by the page's own panel with names of 41 and 30 characters; the page's width."""


@pytest.mark.parametrize("width", [320, 360])
def test_the_days_table_with_long_names_fits_a_narrow_phone(browser: Any, served: Served, width: int) -> None:
    for language in ("en", "de"):
        page = new_page(browser, **{**PHONE, "viewport": {"width": width, "height": 640}})
        page.goto(served.base + f"/?lang={language}")
        page.wait_for_selector("#home:not([hidden])")
        assert page.evaluate(DAY_WITH_LONG_NAMES) <= width, language
        label = page.evaluate(
            "() => getComputedStyle(document.querySelector('#daily-rows td:nth-child(3)'), '::before').content"
        )
        assert label == ('"Score: "' if language == "en" else '"Punkte: "'), label  # a figure named by its heading
        assert page.errors == []


def test_the_end_line_puts_the_winners_score_first(browser: Any, served: Served) -> None:
    """Whoever reads it, a winner's, a loser's or a spectator's page (``resultText``, the end line of
    every game on the page; a whole game to it by clicks is ``test_web_play``'s): the winner's score
    first, for either seat winning, at the rules' end and on a resignation; a draw the reader's own
    score first, seat order for a spectator."""
    page = new_page(browser, **DESKTOP)
    page.goto(served.base + "/")
    page.wait_for_selector("#home:not([hidden])")
    lines = page.evaluate(
        """async () => {
          const { resultText } = await import("/server_words.js");
          const players = [{ seat: 1, name: "Ann" }, { seat: 2, name: "Bob" }];
          const lines = [];
          for (const [scores, winner] of [[[140, 130], 1], [[120, 150], 2], [[135, 135], null]]) {
            for (const reason of ["no_pair", "resign"]) {
              for (const you of [1, 2, "spectator"]) {
                const result = { scores, winner, reason: winner === null ? "no_pair" : reason };
                lines.push([scores, winner, you, resultText({ you, players, result })]);
              }
            }
          }
          return lines;
        }"""
    )
    assert len(lines) == 18
    for scores, winner, you, line in lines:
        first = winner if winner is not None else (2 if you == 2 else 1)
        score = f"{scores[first - 1]}-{scores[2 - first]}"
        assert score in line and line.count("-") == 1, (scores, winner, you, line)
    said = {line for _scores, _winner, _you, line in lines}
    assert {"You win 140-130 (by 10).", "Ann wins 140-130 (by 10).", "Bob wins 150-120 (by 30)."} <= said
    assert {"Draw, 135-135.", "Ann resigned; Bob wins, 150-120.", "Bob resigned; you win, 140-130."} <= said
    assert page.errors == []


def test_every_message_the_page_sends_is_built_in_the_socket_module(browser: Any, served: Served) -> None:
    sent: set[str] = set()

    def frames(page: Any) -> None:
        page.on(
            "websocket",
            lambda socket: socket.on(
                "framesent",
                lambda frame: sent.update(re.findall(r'"type":"(\w+)"', frame if isinstance(frame, str) else "")),
            ),
        )

    ann, bob, eve = new_page(browser), new_page(browser), new_page(browser)
    for page in (ann, bob, eve):
        frames(page)
    link = host(ann, served.base, "Ann", deal=2, first="creator")
    watch = ann.text_content("#watch-code")
    join(bob, link, "Bob")  # hello, create, join, name
    eve.goto(f"{served.base}/watch/{watch}")
    eve.wait_for_selector("body[data-playable]")
    click_pair(ann)
    wait_ply(bob, 1)
    ann.click("#takeback")
    bob.wait_for_selector("#offer:not([hidden])")
    bob.click("#offer-yes")
    wait_ply(ann, 0)
    ann.click("#resign")
    ann.click("#confirm-yes")
    bob.wait_for_selector('body[data-status="finished"]')
    bob.click("#rematch")
    ann.wait_for_selector("#offer:not([hidden])")
    ann.click("#offer-no")
    with bob.expect_download():
        bob.click("#record")
    bob.click("#analyse")  # a server without a solver refuses the analysis: the page still asks
    bob.wait_for_selector("#analysis:not([hidden])")
    # the server's refusal on the page: the `analyse` frame went out before it (a status shown while the
    # line opens came before the frame on a loaded machine, and the frame was not seen yet)
    bob.wait_for_function("() => document.querySelector('#analysis-status').textContent.includes('runs no solver')")
    assert {"hello", "create", "join", "watch", "move", "takeback_request", "takeback_answer"} <= sent
    assert {"resign", "rematch_offer", "rematch_decline", "record", "analyse"} <= sent

    socket = str(ann.evaluate("() => fetch('/socket.js').then((answer) => answer.text())"))
    for kind in sorted(sent):
        assert f'type: "{kind}"' in socket or f'"{kind}"' in socket, f"socket.js builds no {kind!r} message"
    for module in SCREEN_MODULES:
        text = str(ann.evaluate(f"() => fetch('/{module}').then((answer) => answer.text())"))
        built = sorted(kind for kind in sent | UNSEEN_HERE if re.search(rf'type:\s*"{kind}"', text))
        assert not built, f"{module} builds {built} itself"
    assert ann.errors == bob.errors == eve.errors == []


def test_a_waiting_solver_request_says_its_place_and_roughly_the_work_ahead(browser: Any, served: Served) -> None:
    """``solver_queue``'s ``ahead`` in the page's words, in both languages, and nothing of it without one."""
    said = {}
    for language in ("en", "de"):
        page = new_page(browser, **DESKTOP)
        page.goto(served.base + f"/?lang={language}")
        page.wait_for_selector("#home:not([hidden])")
        said[language] = page.evaluate(
            """async () => {
              const { thinkingWords } = await import("/solver_panel.js");
              const words = thinkingWords;
              return [words(2, null, 7), words(1, null, 1), words(3), words(0, null, 9)];
            }"""
        )
        assert page.errors == []
    assert said["en"] == [
        "The solver waits for a free worker: place 2 in the queue. "
        "Other players' solver work ahead of it: about 7 seconds.",
        "The solver waits for a free worker: place 1 in the queue. "
        "Other players' solver work ahead of it: about 1 second.",
        "The solver waits for a free worker: place 3 in the queue.",
        "The solver thinks…",
    ]
    assert said["de"][0] == (
        "Der Solver wartet auf einen freien Worker: Platz 2 in der Warteschlange. "
        "Davor liegt Solver-Arbeit anderer Spieler: etwa 7 Sekunden."
    )
    assert said["de"][1].endswith("etwa 1 Sekunde.")


def test_the_solver_panel_says_who_plays_the_solver_and_whether_they_still_do(browser: Any, served: Served) -> None:
    """The panel's first line for the player while the game goes on, for the player once it is over,
    and for a spectator, who plays nobody (``renderSolverPanel`` on the page's own panel)."""
    page = new_page(browser, **DESKTOP)
    page.goto(served.base + "/")
    page.wait_for_selector("#home:not([hidden])")
    said = page.evaluate(
        """async () => {
          const { renderSolverPanel } = await import("/solver_panel.js");
          const socket = { solver: { level: "club", par: null, seat: 2 }, hintAsked: false, hint: null };
          const view = (you, status) => ({
            you, state: { status, game: "g" }, playing: status === "playing", yourTurn: false, history: [],
          });
          return [[1, "playing"], [1, "finished"], ["spectator", "playing"]].map(([you, status]) => {
            renderSolverPanel(view(you, status), socket);
            return document.getElementById("solver-level").textContent;
          });
        }"""
    )
    assert said == [
        "You play the solver at level club.",
        "You played the solver at level club.",
        "A game against the solver at level club.",
    ]
    assert page.errors == []


def test_the_accuracy_line_gives_one_games_figure_once_and_an_average_to_the_tenth(
    browser: Any, served: Served
) -> None:
    """One reviewed game's accuracy was "Latest 29.6%, average 30% over 1 reviewed games": one figure
    shown two ways, and a plural for one; every figure to the tenth, in German with its decimal comma
    ("29.6 %" was English's figure in a German sentence). (``renderAccuracy`` on the page's own
    statistics screen.)"""
    expected = {
        "": ["Accuracy in your one reviewed game: 29.6%.", "Latest 40.0%, average 34.8% over 2 reviewed games."],
        "?lang=de": [
            "Genauigkeit in deiner einen bewerteten Partie: 29,6 %.",
            "Zuletzt 40,0 %, im Mittel 34,8 % über 2 bewertete Partien.",
        ],
    }
    for query, sentences in expected.items():
        page = new_page(browser, **DESKTOP)
        page.goto(served.base + "/" + query)
        page.wait_for_selector("#home:not([hidden])")
        said = page.evaluate(
            """async () => {
              const { StatsScreen } = await import("/stats_screen.js");
              return [[[1, 29.6]], [[1, 29.6], [2, 40]]].map((accuracy) => {
                StatsScreen.prototype.renderAccuracy(accuracy);
                return document.getElementById("stats-accuracy").textContent;
              });
            }"""
        )
        assert said == sentences
        assert page.errors == []


def test_the_names_a_record_gives_unnamed_seats_read_in_the_pages_language(browser: Any, served: Served) -> None:
    """A German review named a seat nobody named "Player 1", in English: a record's default names
    ("Player 1", "You") and the solver's read as the window shows them; a chosen name as given."""
    page = new_page(browser, **DESKTOP)
    page.goto(served.base + "/?lang=de")
    page.wait_for_selector("#home:not([hidden])")
    shown = page.evaluate(
        """async () => {
          const { shownName } = await import("/server_words.js");
          return ["Player 1", "Player 2", "You", "Solver (club)", "Ann", "Player 3", "Player 1 again"].map(shownName);
        }"""
    )
    assert shown == ["Spieler 1", "Spieler 2", "Du", "Solver (Verein)", "Ann", "Player 3", "Player 1 again"]
    assert page.errors == []


def test_a_statistics_plot_is_drawn_again_at_its_new_width(browser: Any, served: Served) -> None:
    """A plot drawn at one width and shown at another (a phone turned, a window resized, a plot drawn
    before its screen showed) kept its first drawing, letterboxed: its figures stay at its left edge
    and its last dot at its right edge at every width. (``drawPlot``, the statistics screen's.)"""
    page = new_page(browser, **DESKTOP)
    page.goto(served.base + "/")
    page.wait_for_selector("#home:not([hidden])")
    page.evaluate(
        """async () => {
          const { drawPlot } = await import("/stats_screen.js");
          const box = document.createElement("div");
          box.id = "plot-box";
          box.style.width = "400px";
          box.innerHTML = '<svg class="card stats-plot" id="plot-under-test"></svg>';
          document.body.append(box);
          drawPlot(document.getElementById("plot-under-test"), [1500, 1520, 1555], "a rating");
        }"""
    )
    for width in (900, 320, 640):  # inside its 1 px border, the drawing as big as the plot
        page.evaluate(f"() => {{ document.getElementById('plot-box').style.width = '{width}px'; }}")
        page.wait_for_function(
            "(width) => document.getElementById('plot-under-test').getAttribute('viewBox') === `0 0 ${width} 158`",
            arg=width - 2,
        )
        last = page.evaluate(
            "() => Number(document.querySelector('#plot-under-test circle:last-of-type').getAttribute('cx'))"
        )
        assert last == width - 2 - 16
    assert page.errors == []
