"""The app shows no bare words (docs/i18n.md): every word on the touchscreen comes from the
catalog through companion/app/texts.py.

An AST walk of companion/app (the .py files) and a look at every .kv file:

* a string literal or f-string with a word in it, given as a shown text (a keyword argument or
  an attribute named ``text``, ``title``, ``label``, ``message``, ``notice``, ``status``, ``hint``,
  ``summary``, ``problem``, ... or ending in ``_label``, ``_text``, ...) fails, unless the
  allow-list below names it (markup, a technical name);
* a ``.kv`` ``text:`` with a quoted word fails (kv files read ``T.NAME``);
* a module-level read of ``T.NAME`` outside texts.py fails: it would keep the language of the
  moment the module was imported.

Non-words are fine bare: square names, numbers, symbols ("\\u2212", "|<"), markup.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "companion" / "app"
WORD = re.compile(r"[A-Za-z]{2,}")
MARKUP = re.compile(r"\[/?(?:size|color|b|i|u|s|font|sub|sup|ref|anchor)\b[^\]]*\]?")  # Kivy markup, also in pieces
SHOWN = ("text", "title", "label", "hint", "message", "notice", "status", "summary", "caption", "banner", "problem",
         "words", "advice", "help_text", "start_problem")
#: (file, the literal) pairs that are no words a player reads.
ALLOWED = {
    ("widgets/popups.py", "cancel_label"),  # an attribute's name (getattr)
}


def shown(name: str | None) -> bool:
    return bool(name) and any(name == s or name.endswith("_" + s) for s in SHOWN)


def words_in(node: ast.AST) -> list[tuple[int, str]]:
    """The literal words of an expression shown as it is (calls other than ``.format`` are not
    looked into: their arguments are not the text)."""
    out = []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if WORD.search(MARKUP.sub("", node.value)):
            out.append((node.lineno, node.value))
    elif isinstance(node, ast.JoinedStr):
        literal = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        if WORD.search(MARKUP.sub("", literal)):
            out.append((node.lineno, literal))
    elif isinstance(node, (ast.BinOp, ast.IfExp, ast.BoolOp, ast.Tuple, ast.List)):
        for child in ast.iter_child_nodes(node):
            out += words_in(child)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        out += words_in(node.func.value)
    return out


def bare_words() -> list[str]:
    found = []
    for path in sorted(APP.rglob("*.py")):
        if path.name.startswith("texts"):
            continue
        rel = path.relative_to(APP).as_posix()
        for node in ast.walk(ast.parse(path.read_text())):
            pairs = []
            if isinstance(node, ast.keyword) and shown(node.arg):
                pairs = words_in(node.value)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Attribute) and shown(t.attr) for t in targets) and node.value is not None:
                    pairs = words_in(node.value)
            found += [f"{rel}:{line}: {text!r}" for line, text in pairs if (rel, text) not in ALLOWED]
    for path in sorted(APP.rglob("*.kv")):
        for i, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r"\s*text:\s*(.+)$", line)  # a kv value is a Python expression
            try:
                expression = ast.parse(m.group(1).strip(), mode="eval").body if m else None
            except SyntaxError:  # one that goes on over several lines: its first line is checked alone
                expression = None
            for _line, text in words_in(expression) if expression is not None else ():
                found.append(f"{path.relative_to(APP).as_posix()}:{i}: {text!r}")
    return found


def test_the_app_shows_no_word_that_is_not_from_the_catalog():
    assert bare_words() == [], "words shown bare (docs/i18n.md: mark them in companion/app/texts.py)"


def test_the_check_finds_a_bare_word(tmp_path, monkeypatch):
    """The walk itself: a bare label, a bare f-string notice and a bare kv text are found."""
    app = tmp_path / "app"
    app.mkdir()
    (app / "x.py").write_text('label = Label(text="Start")\nself.notice = f"Saved {n} games"\nok = Label(text="e4")\n')
    (app / "x.kv").write_text('Label:\n    text: "Undo"\nLabel:\n    text: T.UNDO\n')
    monkeypatch.setattr(__import__(__name__), "APP", app)
    assert sorted(f.split(":", 2)[-1].strip() for f in bare_words()) == ["'Saved  games'", "'Start'", "'Undo'"]


def module_level_texts() -> list[str]:
    found = []
    for path in sorted(APP.rglob("*.py")):
        if path.name.startswith("texts"):
            continue
        tree = ast.parse(path.read_text())

        def scan(node: ast.AST) -> None:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "T":
                found.append(f"{path.relative_to(APP).as_posix()}:{node.lineno}: T.{node.attr}")
            for child in ast.iter_child_nodes(node):
                scan(child)

        for stmt in tree.body:
            scan(stmt)
    return found


def test_no_module_keeps_a_text_from_the_moment_it_was_imported():
    assert module_level_texts() == [], "read T.NAME where it is shown, not at import"


def test_every_text_reads_in_the_language_of_the_moment():
    from companion.app import texts as T
    from companion.i18n import Language, use

    assert T.UNDO == "Undo"
    use(Language.load("de"))
    try:
        assert T.UNDO == "Zurück"
        assert T.GAMES_MOVES.format(n=1) == "1 Zug" and T.GAMES_MOVES.format(n=2) == "2 Züge"
        assert T.GAME_TITLES["chess"] == "Schach" and T.PIECE_CODES["Q"] == "queen"
        assert T.seat_word("blue") == "Blau"
    finally:
        use(Language.load("en"))
    assert T.UNDO == "Undo" and T.seat_word("blue") == "Blue"
