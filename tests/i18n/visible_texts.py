"""A scan of the code for text a person reads that is not a whole catalogue sentence.

Four kinds of it, each found in the syntax tree of a module:

* **a literal shown as it is**: a string (or an f-string's words) passed where a player reads it,
  to ``print``, a drawing call, a status line, or an error whose message is shown
  (``VISIBLE_ARGUMENTS``, ``VISIBLE_KEYWORDS``), also inside ``a or "none"`` and ``x if c else "y"``;
* **a word glued into a sentence**: a literal with words among the values a catalogue sentence is
  formatted with (``_("best: {value}").format(value="(none: the game is over)")``);
* **a fragment glued on**: a catalogue text joined to another text with ``+``
  (``_("these fields were reset: ") + names``), which no language can reorder;
* **a case changed on a translation**: ``.lower()``, ``.upper()``, ``.capitalize()`` or ``.title()``
  on what the catalogue gives, which is right in one language at most.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

VISIBLE_ARGUMENTS: dict[str, tuple[int, ...]] = {
    "print": (0,),
    "say": (0,),
    "InputError": (0,),
    "print_error": (0,),
    "FormProblem": (0,),
    "text": (0,),
    "fit": (0,),
    "wrap": (0,),
    "balanced_wrap": (0,),
    "Button": (1,),
    "UILabel": (1,),
    "label": (0,),
    "field": (1, 4),  # a form row: its label and its placeholder
    "entry": (3,),
    "note": (2,),
    "button": (2, 3),
    "section": (0,),
    "paragraph": (0,),
    "Choice": (1, 2),
    "ChoiceScene": (1, 2),
    "StatusLine": (0,),
    "show_title": (0,),
    "start_match": (1,),
    "begin": (1,),
    "DealPick": (1,),
    "NoCataloguedDeal": (0,),
    "draw_banner": (3, 4),
    "render_to": (2,),
    "ArgumentTypeError": (0,),
    "StorageProblem": (0,),
    "NotAFileToWrite": (0,),
    "TextFileError": (0,),
    "PuzzleFormatError": (0,),
    "CatalogueError": (0,),
    "SurveyDatabaseError": (0,),
    "SurveyClaimed": (0,),
    "StoreRefused": (0,),
    "StoreUnusable": (0,),
    "StoreBusy": (0,),
    "ClusterStartError": (0,),
    "FileNotFoundError": (0,),
    "RowProblem": (0,),
    "Phrase": (0,),
    "BattleError": (0,),
    "NotationError": (0,),
    "PositionError": (0,),
    "IllegalMoveError": (0,),
    "RecordError": (0,),
}
"""Calls whose arguments at these places a player reads: the window's drawing and widgets, the
terminal's printing, the status line, an image's words, and the errors whose message is shown as
one line (the command line's and the files' errors; a ``Phrase`` is a catalogue key, marked ``N_``)."""
VISIBLE_KEYWORDS = frozenset(
    {
        "help",
        "description",
        "tool_tip_text",
        "placeholder_text",
        "window_title",
        "action_short_name",
        "action_long_desc",
    }
)
CATALOGUE_CALLS = frozenset({"_", "ngettext", "pgettext", "npgettext", "N_", "NN_", "NP_"})
CASE_CHANGES = frozenset({"lower", "upper", "capitalize", "title", "swapcase"})
WORD = re.compile(r"[A-Za-z]{3,}")
NOT_WORDS = frozenset(
    {"mahjong-battle", "ws://host:8765", "Mahjong Battle", "solver_side", "front_end", "kept", "from_ply"}
)
"""Literal texts that are names, addresses, notation or a file format's keys (a saved game's
settings: ``solver_side``, ``front_end``, ``kept``, ``from_ply``), the same in every language."""
SCANNED = (
    "battle/ui",
    "battle/cli",
    "battle/rules",
    "battle/storage",
    "battle/history",
    "battle/atlas",
    "battle/puzzles",
    "battle/ratings",
    "battle/players/review_report.py",
    "battle/i18n.py",
    "battle/resources.py",
)
"""Every part of the program a person reads, but online play (its own helper's) and the page."""
NOT_SCANNED = ("battle/ui/online", "battle/cli/online_play.py")


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else None


def _is_catalogue_call(node: ast.AST) -> bool:
    """``_("...")`` or ``_("...").format(...)``: a text of the catalogue."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        node = node.func.value
    return isinstance(node, ast.Call) and _call_name(node) in CATALOGUE_CALLS


def _holds_words(node: ast.expr) -> bool:
    """A text with words in it, past ``+`` and the branches of ``if``/``or``: a literal with words, a
    catalogue text or a joined list of texts (whitespace and punctuation lay a line out, say nothing)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _holds_words(node.left) or _holds_words(node.right)
    if isinstance(node, ast.IfExp):
        return _holds_words(node.body) or _holds_words(node.orelse)
    if isinstance(node, ast.BoolOp):
        return any(_holds_words(value) for value in node.values)
    joined = isinstance(node, ast.Call) and _call_name(node) == "join"
    return bool(_literal_words(node)) or _is_catalogue_call(node) or joined


def _literal_words(node: ast.expr) -> list[str]:
    """The words of the string literals ``node`` shows as they are: itself, an f-string's own text, the
    branches of ``a or "none"`` and ``x if c else "y"``, the parts of ``"a" + b`` (never inside a call)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        texts = [node.value]
    elif isinstance(node, ast.JoinedStr):
        texts = ["".join(part.value for part in node.values if isinstance(part, ast.Constant))]
    elif isinstance(node, ast.BoolOp):
        return [text for value in node.values for text in _literal_words(value)]
    elif isinstance(node, ast.IfExp):
        return _literal_words(node.body) + _literal_words(node.orelse)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _literal_words(node.left) + _literal_words(node.right)
    else:
        return []
    return [text for text in texts if WORD.search(text) and text.strip() not in NOT_WORDS]


def _shown_arguments(node: ast.Call) -> list[ast.expr]:
    arguments = [node.args[i] for i in VISIBLE_ARGUMENTS.get(_call_name(node) or "", ()) if i < len(node.args)]
    return arguments + [keyword.value for keyword in node.keywords if keyword.arg in VISIBLE_KEYWORDS]


def _problems(node: ast.AST) -> list[tuple[ast.AST, str]]:
    """What one node shows that is not a whole catalogue sentence, each with a few words on what."""
    found: list[tuple[ast.AST, str]] = []
    if isinstance(node, ast.Call) and _call_name(node) not in CATALOGUE_CALLS:
        found += [(argument, repr(text)) for argument in _shown_arguments(node) for text in _literal_words(argument)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_catalogue_call(node.func.value):
        if node.func.attr == "format":
            values = [*node.args, *(keyword.value for keyword in node.keywords)]
            found += [(value, f"glued into a sentence: {text!r}") for value in values for text in _literal_words(value)]
        if node.func.attr in CASE_CHANGES:
            found.append((node, f"case changed on a translation: .{node.func.attr}()"))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if _is_catalogue_call(side) and _holds_words(other):
                found.append((node, "a fragment glued to a translation with +"))
                break
    return found


def unshown_texts(path: Path) -> list[str]:
    """``file:line: what`` for each text of the module a person reads that is not a whole catalogue sentence."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [(getattr(node, "lineno", 0), what) for walked in ast.walk(tree) for node, what in _problems(walked)]
    return [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in sorted(found, key=lambda item: item[0])]


def scanned_files() -> list[Path]:
    files = [
        path
        for place in SCANNED
        for path in ([ROOT / place] if place.endswith(".py") else (ROOT / place).rglob("*.py"))
    ]
    return sorted(path for path in files if not str(path.relative_to(ROOT)).startswith(NOT_SCANNED))
