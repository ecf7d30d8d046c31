"""``companion words``: the one command a developer runs after changing what the board shows or
says (docs/i18n.md).

It lists, one line each, and exits 1 when there is any:

* a word the app shows bare (not from the catalog): a string literal or f-string given as a
  shown text in ``companion/app`` (a ``text=``, ``title=``, ``.notice = ...``) or a quoted word in
  a ``.kv`` file's ``text:``;
* a ``T.NAME`` read at a module's top level (it would keep the language of the import);
* an error a player may read made with a bare message: ``raise X("...")`` or ``raise X(f"...")``
  anywhere in ``companion/``, X being ``CompanionError`` or a subclass (docs/i18n.md, "Errors too");
* a marked message missing from a language's catalog, untranslated, fuzzy, or whose translation
  lost (or added) a ``{placeholder}`` of its English.

``--update`` first brings every catalog up to date with the code: it extracts the marked
messages (Babel, ``companion/locale/babel.cfg``) into ``companion.pot``, adds the new ones to each
``companion.po`` untranslated (translations of messages that are gone are kept as obsolete, no
guessing), and compiles the ``.mo`` files. What is left to do is then the list: translate those
entries and run it again.

Babel comes with the test extra (``bash companion/install.sh test``).
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .i18n import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE, _

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
APP = PACKAGE / "app"
KEYWORDS = {"P_": (1, 2)}  # companion.i18n.P_: a text with a count (Babel's defaults know _, N_, ngettext, pgettext)

WORD = re.compile(r"[A-Za-z]{2,}")
MARKUP = re.compile(r"\[/?(?:size|color|b|i|u|s|font|sub|sup|ref|anchor)\b[^\]]*\]?")  # Kivy markup, also in pieces
PLACEHOLDER = re.compile(r"\{(\w*)(?:![rsa])?(?::[^}]*)?\}")
#: Names of what a player reads: a keyword argument or an attribute so named (or ending ``_<name>``).
SHOWN = ("text", "title", "label", "hint", "message", "notice", "status", "summary", "caption", "banner", "problem",
         "words", "advice", "help_text", "start_problem")
#: (file under companion/app, the literal) pairs that are no words a player reads.
ALLOWED = {
    ("widgets/popups.py", "cancel_label"),  # an attribute's name (getattr)
}


# ----- words shown bare in the app ------------------------------------------------------------------
@functools.lru_cache(maxsize=4096)
def _parsed_at(path: Path, mtime_ns: int, size: int) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _parsed(path: Path) -> ast.AST:
    """A module's syntax tree, parsed once while the file is unchanged (the walks below each
    read every module of the package; the trees are only read, never changed)."""
    st = path.stat()
    return _parsed_at(path, st.st_mtime_ns, st.st_size)


def _shown(name: str | None) -> bool:
    return bool(name) and any(name == s or name.endswith("_" + s) for s in SHOWN)


def _words_in(node: ast.AST, placeholders: bool = False) -> list[tuple[int, str]]:
    """The literal words of an expression shown as it is (calls other than ``.format`` are not
    looked into: their arguments are not the text). ``placeholders``: an f-string's values are
    given as ``{expression}`` in the text (else left out)."""
    out = []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if WORD.search(MARKUP.sub("", node.value)):
            out.append((node.lineno, node.value))
    elif isinstance(node, ast.JoinedStr):
        literal = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        if WORD.search(MARKUP.sub("", literal)):
            if placeholders:
                literal = "".join(v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
                                  for v in node.values)
            out.append((node.lineno, literal))
    elif isinstance(node, (ast.BinOp, ast.IfExp, ast.BoolOp, ast.Tuple, ast.List)):
        for child in ast.iter_child_nodes(node):
            out += _words_in(child, placeholders)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        out += _words_in(node.func.value, placeholders)
    return out


def bare_words(app: Path = APP) -> list[str]:
    """``file:line: 'text'`` for every word ``app`` shows bare."""
    found = []
    for path in sorted(app.rglob("*.py")):
        if "texts" in path.stem:  # the tables of words themselves (texts.py, online_texts.py, ...)
            continue
        rel = path.relative_to(app).as_posix()
        for node in ast.walk(_parsed(path)):
            pairs = []
            if isinstance(node, ast.keyword) and _shown(node.arg):
                pairs = _words_in(node.value)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Attribute) and _shown(t.attr) for t in targets) and node.value is not None:
                    pairs = _words_in(node.value)
            found += [f"{rel}:{line}: {text!r}" for line, text in pairs if (rel, text) not in ALLOWED]
    for path in sorted(app.rglob("*.kv")):
        for i, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r"\s*text:\s*(.+)$", line)  # a kv value is a Python expression
            try:
                expression = ast.parse(m.group(1).strip(), mode="eval").body if m else None
            except SyntaxError:  # one that goes on over several lines: its first line is checked alone
                expression = None
            for _line, text in _words_in(expression) if expression is not None else ():
                found.append(f"{path.relative_to(app).as_posix()}:{i}: {text!r}")
    return found


def module_level_texts(app: Path = APP) -> list[str]:
    """``file:line: T.NAME`` for every text read at a module's top level (outside a function)."""
    found = []
    for path in sorted(app.rglob("*.py")):
        if "texts" in path.stem:
            continue
        rel = path.relative_to(app).as_posix()
        tree = _parsed(path)
        aliases = {"T"} | {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                           for alias in node.names if alias.name.endswith("texts")}  # texts as T, online_texts as W

        def scan(node: ast.AST) -> None:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                found.append(f"{rel}:{node.lineno}: {node.value.id}.{node.attr}")
            for child in ast.iter_child_nodes(node):
                scan(child)

        for stmt in tree.body:
            scan(stmt)
    return found


# ----- error messages not marked ----------------------------------------------------------------------
#: The messages a ``CompanionError`` may carry bare (``path:line``-free texts that are no words are
#: never reported: ``f"{path}: {problem}"`` has none). Kept as short as :data:`ALLOWED`.
ERRORS_ALLOWED: set[tuple[str, str]] = {
    # type checks of values our own code builds (records, fighters): no input a player gives
    # reaches them, the readers refuse bad input first, in words
    ("companion/dice/odds.py", "a fighter's dice must be a DiceSpec, got {self.dice}"),
    ("companion/dice/odds.py", "the {role} side holds {fighter}, which is not a Fighter"),
    ("companion/dice/record.py", "a side needs at least one FighterRoll"),
    ("companion/dice/record.py", "a game's moves must be MoveRecord values"),
    ("companion/dice/record.py", "a record's rounds must be RoundRecord values"),
    ("companion/dice/record.py", "a record's game must be a GameRecord"),
    # an invariant of the hash chain: SHA-256's stream does not end
    ("companion/dice/sources.py", "the digest stream ended before an unbiased draw"),
    # the serial codec: the same file runs on the RP2040 (CircuitPython: no gettext there), and its
    # errors are a damaged frame's, which the decoder counts and drops: no player ever reads them
    ("companion/board/protocol.py", "%s payload has %d bytes, needs at least %d"),
    ("companion/board/protocol.py", "frame body of %d bytes exceeds %d"),
    ("companion/board/protocol.py", "square %d is outside a board of %d squares"),
    ("companion/board/protocol.py", "EVENTS carries 1 to 255 changes, got %d"),
    ("companion/board/protocol.py", "EVENTS with no change"),
    ("companion/board/protocol.py", "SNAPSHOT bitmap has %d bytes, %d squares need %d"),
    ("companion/board/protocol.py", "SNAPSHOT of %d squares (at most %d)"),
    ("companion/board/protocol.py", "LED_FRAME rgb length %d is not a multiple of 3"),
    ("companion/board/protocol.py", "LED_FRAME of %d squares (at most %d)"),
    ("companion/board/protocol.py", "LED_DELTA of %d squares (at most %d)"),
    ("companion/board/protocol.py", "square %d does not fit an EVENTS entry"),
}
#: Helpers that put a piece of text they are handed into an error a player reads, and which of
#: their arguments it is (0 the first): companion/bounds.py's ``what``/``where``, a reader's
#: ``self.fail(key, problem)`` (companion/maps.py, companion/board/profiles.py).
MESSAGE_HELPERS = {"whole_number": 1, "load_json": 1, "read_text_file": 2, "read_small_file": 2, "fail": 1}


def error_classes(package: Path = PACKAGE) -> set[str]:
    """The names of ``CompanionError`` and every class of ``package`` that subclasses it
    (companion/errors.py's, and those defined beside their code: ``UciError``, ``MapProblems``, ...)."""
    bases: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(_parsed(path)):
            if isinstance(node, ast.ClassDef):
                names = {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                         if isinstance(b, (ast.Name, ast.Attribute))}
                bases.setdefault(node.name, set()).update(names)
    found = {"CompanionError"}
    while True:
        more = {name for name, of in bases.items() if of & found} - found
        if not more:
            return found
        found |= more


def bare_errors(package: Path = PACKAGE, under: tuple[str, ...] = ()) -> list[str]:
    """``path:line: 'text'`` for every error a player may read that is made with a bare message:
    a ``CompanionError`` (or subclass) called with a string literal, an f-string, or
    ``"...".format(...)`` holding a word as its first argument (``raise X(...)``, over as many
    lines as it takes, and the same error made to be raised later), or such a text handed to one
    of the :data:`MESSAGE_HELPERS`. ``under``: only the files whose path (from the repository's
    root, ``companion/core/``) starts so."""
    classes = error_classes(package)
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).as_posix()
        if under and not rel.startswith(under):
            continue
        for node in ast.walk(_parsed(path)):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            index = 0 if name in classes else MESSAGE_HELPERS.get(name)
            if index is None or len(node.args) <= index:
                continue
            found += [f"{rel}:{line}: {text!r}" for line, text in _words_in(node.args[index], placeholders=True)
                      if (rel, text) not in ERRORS_ALLOWED]
    return found


# ----- two traps of gettext in Python ----------------------------------------------------------------
GETTEXT_CALLS = {"_", "ngettext", "pgettext", "npgettext"}


def _local_nodes(fn: ast.AST):
    """The nodes of a function's own scope: nested functions, classes, lambdas and
    comprehensions (their own scopes) left out."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
                                 ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            todo.extend(ast.iter_child_nodes(node))


def gettext_traps(package: Path = PACKAGE) -> list[str]:
    """``path:line: why`` for the two ways a marked word is lost: a gettext call of a literal
    inside an f-string (Babel on Python 3.11 does not extract it, so the word is never in a catalog) and
    ``_`` used as a throwaway name in a function that also calls ``_()`` (the name is then local
    to the whole function: ``UnboundLocalError`` where the word is shown)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).as_posix()
        tree = _parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                for part in node.values:
                    calls = [c for c in ast.walk(part) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                             and c.func.id in GETTEXT_CALLS
                             and any(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in c.args)]
                    found += [f"{rel}:{c.lineno}: " + _("a gettext call inside an f-string is never extracted")
                              for c in calls]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local = list(_local_nodes(node))
                binds = [n for n in local if (isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store))
                         or (isinstance(n, ast.ExceptHandler) and n.name == "_")]
                calls = [n for n in local if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"]
                if binds and calls:
                    found.append(f"{rel}:{binds[0].lineno}: " + _("'_' is a throwaway name here and _() is called in "
                                                                   "the same function"))
    return sorted(set(found))


# ----- the catalogs -----------------------------------------------------------------------------------
#: The words of the game data a player reads (maps/**.toml): a unit's title and plain words, a
#: ready-made army's title, a map's title and description. Shown through ``_()`` (data_word).
DATA_KEYS = {"pieces": ("title", "notes"), "armies": ("title",), "map": ("title", "description")}


def extract_toml(fileobj, keywords, comment_tags, options):
    """Babel's extractor for the game data (``[extractors] toml`` in companion/locale/babel.cfg):
    each unit's title (its name in words when the file gives none, as companion/core/roster.py
    makes it) and notes, each army's title, each map's title and description."""
    import tomllib

    data = tomllib.loads(fileobj.read().decode("utf-8"))
    for table, keys in DATA_KEYS.items():
        entries = data.get(table, {})
        rows = [entries] if table == "map" else list(entries.items())
        for row in rows:
            name, values = row if isinstance(row, tuple) else ("", row)
            if not isinstance(values, dict):
                continue
            for key in keys:
                text = values.get(key)
                if text is None and key == "title" and table == "pieces":
                    text = name.replace("_", " ").title()
                if isinstance(text, str) and text:
                    yield 0, None, text, []


def po_path(lang: str, locale: Path = LOCALE_DIR) -> Path:
    return locale / lang / "LC_MESSAGES" / "companion.po"


def extract(root: Path = ROOT, locale: Path = LOCALE_DIR):
    """Every message the package marks, as a Babel catalog (the template)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(locale / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    template = Catalog(project="companion", copyright_holder="the companion authors", fuzzy=False)
    for filename, line, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=dict(DEFAULT_KEYWORDS, **KEYWORDS)):
        template.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    return template


@dataclass(frozen=True)
class Finding:
    lang: str
    kind: str  # "missing", "untranslated", "fuzzy", "placeholders"
    message: str

    def __str__(self) -> str:
        return f"{self.lang}: {self.kind}: {self.message!r}"


def catalog_findings(template, lang: str, locale: Path = LOCALE_DIR) -> list[Finding]:
    """What the ``lang`` catalog lacks against ``template``: messages missing, untranslated,
    fuzzy, or with placeholders not those of the English."""
    from babel.messages.pofile import read_po

    path = po_path(lang, locale)
    if not path.exists():
        return [Finding(lang, "no catalog", str(path))]
    with open(path, "rb") as f:
        catalog = read_po(f)
    out = []
    for m in template:
        if not m.id:
            continue
        have = catalog.get(m.id, context=m.context)
        first = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
        if have is None:
            out.append(Finding(lang, "missing", first))
            continue
        strings = have.string if isinstance(have.string, (list, tuple)) else (have.string,)
        if not all(strings):
            out.append(Finding(lang, "untranslated", first))
        elif have.fuzzy:
            out.append(Finding(lang, "fuzzy", first))
        elif not placeholders_kept(m.id, strings):
            out.append(Finding(lang, "placeholders", first))
    return out


def placeholders_kept(msgid, strings) -> bool:
    """A translation keeps the ``{placeholders}`` of its English (a plural form may leave out the
    count: "one game" for "{n} game")."""
    ids = msgid if isinstance(msgid, (list, tuple)) else (msgid,)
    want = set(PLACEHOLDER.findall(ids[-1]))
    for s in strings:
        got = set(PLACEHOLDER.findall(s))
        if got - want or (want - got and not (len(ids) > 1 and want - got <= {"n", "count"})):
            return False
    return True


def update(template, locale: Path = LOCALE_DIR) -> list[str]:
    """Write ``companion.pot`` from ``template``, bring every catalog up to date with it (new
    messages untranslated, none guessed) and compile them; returns what it wrote."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po, write_po

    written = []
    pot = locale / "companion.pot"
    if pot.exists():  # the template's date stays (a new date alone is a diff, and a merge conflict)
        with open(pot, "rb") as f:
            template.creation_date = read_po(f).creation_date
    with open(pot, "wb") as f:
        write_po(f, template, width=0, no_location=True)  # a message on one line: small diffs, easy merges
    written.append(str(locale / "companion.pot"))
    for lang in sorted(set(LANGUAGES) - {SOURCE_LANGUAGE}):
        path = po_path(lang, locale)
        if not path.exists():
            continue
        with open(path, "rb") as f:
            catalog = read_po(f, locale=lang)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()  # a message no longer in the code: its translation goes with it
        with open(path, "wb") as f:
            write_po(f, catalog, width=0, no_location=True)
        with open(path.with_suffix(".mo"), "wb") as f:
            write_mo(f, catalog)
        written.append(str(path))
    return written


# ----- the command ------------------------------------------------------------------------------------
def add_parser(sub) -> None:
    p = sub.add_parser("words", help=_("list the words not marked for translation or not translated (developers)"),
                       description=_("Lists every word the app shows bare and every message a language's catalog "
                                     "lacks (missing, untranslated, fuzzy, placeholders changed); exits 1 if "
                                     "there is any. See docs/i18n.md."))
    p.add_argument("--update", action="store_true",
                   help=_("first extract the messages, add the new ones to every catalog and compile them"))
    p.add_argument("--lang", default=None, help=_("check only this language's catalog"))
    p.set_defaults(func=cmd_words)


def cmd_words(args) -> int:
    try:
        template = extract()
    except ImportError:
        print(_("companion words needs Babel: bash companion/install.sh test"), file=sys.stderr)
        return 2
    if args.update:
        for path in update(template):
            print(_("updated {path}").format(path=path))
    problems = [f"companion/app/{line}: " + _("shown bare: mark it in companion/app/texts.py")
                for line in bare_words()]
    problems += [f"companion/app/{line}: " + _("read at import: read it where it is shown")
                 for line in module_level_texts()]
    problems += [f"{line}: " + _("error message not marked") for line in bare_errors()]
    problems += gettext_traps()
    langs = [args.lang] if args.lang else sorted(set(LANGUAGES) - {SOURCE_LANGUAGE})
    findings = [f for lang in langs for f in catalog_findings(template, lang)]
    problems += [str(f) for f in findings]
    for line in problems:
        print(line)
    if any(f.kind == "missing" for f in findings) and not args.update:
        print(_("(companion words --update adds the missing messages to the catalogs)"))
    print(_("To do: {n}").format(n=len(problems)) if problems else _("every word is marked and translated"))
    return 1 if problems else 0


__all__ = ["bare_words", "module_level_texts", "bare_errors", "error_classes", "gettext_traps", "extract", "catalog_findings", "update",
           "cmd_words"]
