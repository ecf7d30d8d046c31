"""The one way a word is marked for translation, and the languages the board speaks.

Every word a player reads or hears goes through this module (docs/i18n.md):

* ``_("Undo")`` where the text is used: translated into the current language at once;
* ``N_("Undo")`` where the text is defined before a language is chosen (a table at import
  time): only marks it for the catalog; translate it with ``_()`` where it is shown;
* ``ngettext("{n} move", "{n} moves", n).format(n=n)`` for every text with a count in it (the
  catalog gives each language its own plural forms: German two, Polish three, ...);
* ``pgettext("context", "text")`` where one English word has two translations.

Placeholders stay ``{name}`` (``str.format``), so a translation may put them in any order.

A :class:`Language` is a value: the code, the catalog, and the notation's piece letters.
:func:`use` sets the one the app shows and says (the language chooser, the system locale at
start); code that must speak another language than the screen's (``companion speak --lang``)
is handed its own :class:`Language` and calls its methods. Catalogs are
``companion/locale/<lang>/LC_MESSAGES/companion.mo``, compiled from the ``.po`` beside it by
``companion/install.sh`` (Babel); a language whose catalog is missing falls back to English
and says so once (:attr:`Language.missing`).
"""

from __future__ import annotations

import gettext as _gettext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

#: The languages the board offers, each named in its own language (the chooser shows these).
#: A new language: its catalog under companion/locale/ and a line here (docs/i18n.md).
LANGUAGES: Mapping[str, str] = {"en": "English", "de": "Deutsch"}
SOURCE_LANGUAGE = "en"

#: The notation's piece letters in English, king to pawn: the catalog translates this very
#: string (context "piece letters") into the language's own (German: KDTLSB).
PIECE_LETTERS = "KQRBNP"


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now (tables built at import)."""
    return message


@dataclass(frozen=True)
class Plural:
    """A text with a count, kept for later (a table built at import): :meth:`format` picks the
    form for the count in the current language. ``count``: the placeholder that holds it."""

    singular: str
    plural: str
    count: str = "n"

    def format(self, **values) -> str:
        return ngettext(self.singular, self.plural, int(values[self.count])).format(**values)


def P_(singular: str, plural: str, count: str = "n") -> Plural:
    """Mark a text with a count for the catalog (Babel keyword ``P_:1,2``); its ``format``
    translates it then."""
    return Plural(singular, plural, count)


@dataclass(frozen=True)
class Language:
    """One language: its code (``de``), its catalog, and whether the catalog was missing."""

    code: str
    catalog: _gettext.NullTranslations = field(default_factory=_gettext.NullTranslations, compare=False,
                                               repr=False)
    missing: bool = False

    @classmethod
    def load(cls, code: str, locale_dir: Path | None = None) -> "Language":
        """The language ``code`` ("de", "de_DE.UTF-8" and "de-AT" name German too); an unknown
        code is an error naming the languages there are."""
        from .errors import CompanionError

        wanted = normalise(code)
        if wanted not in LANGUAGES:
            raise CompanionError(_("no language {code!r}; the board speaks: {languages}").format(
                code=code, languages=', '.join(sorted(LANGUAGES))))
        if wanted == SOURCE_LANGUAGE:
            return cls(wanted)
        try:
            catalog = _gettext.translation(DOMAIN, str(locale_dir or LOCALE_DIR), [wanted])
        except OSError:  # not compiled (install.sh compiles the catalogs), or unreadable
            return cls(wanted, _gettext.NullTranslations(), missing=True)
        return cls(wanted, catalog)

    @property
    def name(self) -> str:
        return LANGUAGES.get(self.code, self.code)

    def gettext(self, message: str) -> str:
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.catalog.pgettext(context, message)

    @property
    def piece_letters(self) -> dict[str, str]:
        """English letter -> this language's (``{"Q": "D", ...}`` in German)."""
        local = self.pgettext("piece letters", "KQRBNP")  # the literal, for the catalog
        if len(local) != len(PIECE_LETTERS):
            local = PIECE_LETTERS
        return dict(zip(PIECE_LETTERS, local))

    def san(self, san: str) -> str:
        """A move in standard notation with this language's piece letters (``Sxe5`` for
        ``Nxe5``, ``e8=D``). Files are lower case and never touched; records (PGN) keep the
        English letters the standard asks for, so only what is shown or said goes through this."""
        letters = self.piece_letters
        return "".join(letters.get(c, c) for c in san)


def normalise(code: str) -> str:
    """``de_DE.UTF-8``, ``de-AT``, ``DE`` -> ``de``; ``C`` and ``POSIX`` -> ``en``."""
    c = code.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if c in ("c", "posix", ""):
        return SOURCE_LANGUAGE
    return c.split("_")[0]


def system_language(environ: Mapping[str, str]) -> str:
    """The language of the system's locale, as gettext looks for it (``LANGUAGE``, then
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), among the board's languages; English when none of
    them is one of ours."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var)
        if not value:
            continue
        for part in value.split(":"):  # LANGUAGE may list several
            code = normalise(part)
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":
            break  # the first of LC_ALL, LC_MESSAGES, LANG that is set decides
    return SOURCE_LANGUAGE


_current = Language(SOURCE_LANGUAGE)


def use(language: Language) -> Language:
    """Make ``language`` the one the app shows and says; returns it."""
    global _current
    _current = language
    return language


def use_system_language(environ: Mapping[str, str] | None = None) -> Language:
    """Use the language ``COMPANION_LANG`` names, else the system locale's (English when the
    board has none of them); a language whose catalog is missing speaks English."""
    import os

    env = os.environ if environ is None else environ
    chosen = env.get("COMPANION_LANG")
    code = normalise(chosen) if chosen and normalise(chosen) in LANGUAGES else system_language(env)
    return use(Language.load(code))


def current() -> Language:
    return _current


def read_in_language(namespace: dict, as_is: tuple[str, ...] = ()) -> Callable[[str], object]:
    """Make a module of texts (``companion/app/texts.py``, ``online_texts.py``, ...) read in the
    language of the moment: call it at the module's end with ``globals()``. Its UPPER_CASE
    constants (marked ``N_``/``P_``; dicts and tuples of them too) leave the module's namespace
    and ``module.NAME`` gives each translated into :func:`current` (PEP 562's module
    ``__getattr__``), kept per language; ``as_is`` names constants that are no words (glyphs).
    Returns the getter, for the module's own functions (``_text("NAME")``), which must not read
    the constants by name."""
    source = {name: value for name, value in namespace.items() if name.isupper() and name not in as_is}
    for name in source:
        del namespace[name]
    cache: dict[tuple[str, str], object] = {}
    module = namespace.get("__name__", "texts")

    def translated(value, gettext):
        if isinstance(value, str):
            return gettext(value) if value else value
        if isinstance(value, dict):
            return {k: translated(v, gettext) for k, v in value.items()}
        if isinstance(value, tuple):
            return tuple(translated(v, gettext) for v in value)
        return value  # a Plural (its format translates), a number

    def getattr_(name: str):
        try:
            value = source[name]
        except KeyError:
            raise AttributeError(f"{module} has no text {name!r}") from None
        language = current()
        key = (language.code, name)
        if key not in cache:
            cache[key] = translated(value, language.gettext)
        return cache[key]

    namespace["__getattr__"] = getattr_
    namespace["__dir__"] = lambda: sorted(set(namespace) | set(source))
    namespace["_SOURCE"] = source
    return getattr_


def _(message: str) -> str:
    """``message`` in the current language."""
    return _current.catalog.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language."""
    return _current.catalog.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _current.catalog.pgettext(context, message)
