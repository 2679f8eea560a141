"""Every string the app shows, in English, Spanish and Russian.

The catalogues are JSON files in ``companion/app/locales/`` (``en.json``, ``es.json``,
``ru.json``) mapping a key to a ``str.format`` template. English is complete by definition;
a key missing from another language falls back to English (a test keeps them all complete).
Views never hold literal text: ``.kv`` files call ``app.tr(key, app.lang)`` so a language
change in settings redraws every label.

Example:
    >>> Translator("es").tr("home.resume")
    'Continuar'
    >>> Translator("ru").tr("game.turn", player="Ann")
    'Ходит: Ann'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "ru": "Русский"}
"""Language code -> its own name, as the settings screen lists them."""

DEFAULT_LANGUAGE = "en"


class UnknownLanguage(ValueError):
    """A language code the app has no catalogue for."""


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The key -> template table of ``lang``.

    Raises:
        UnknownLanguage: naming the languages there are.
    """
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    text = resources.files("companion.app").joinpath(f"locales/{lang}.json").read_text("utf-8")
    table = json.loads(text)
    if not isinstance(table, dict):
        raise UnknownLanguage(f"companion/app/locales/{lang}.json: expected a JSON object")
    return {str(key): str(value) for key, value in table.items()}


class Translator:
    """Looks up keys in the chosen language.

    Attributes:
        lang: the current language code.
    """

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        catalogue(lang)
        self.lang = lang

    def set_language(self, lang: str) -> None:
        """Switch language.

        Raises:
            UnknownLanguage: ``lang`` has no catalogue.
        """
        catalogue(lang)
        self.lang = lang

    def tr(self, key: str, **params: Any) -> str:
        """The text of ``key`` in the current language, with ``params`` filled in.

        An unknown key is returned as is, so a missing string is visible, never a crash.

        Example:
            >>> Translator("en").tr("dice.shows", die="d6", value=4)
            'd6 shows 4'
        """
        template = catalogue(self.lang).get(key) or catalogue(DEFAULT_LANGUAGE).get(key)
        if template is None:
            return key
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template

    def label(self, key: str, default: str) -> str:
        """The text of ``key`` (no params), or ``default`` where no catalogue has it.

        Example:
            >>> Translator("es").label("setup.infinifield.official", "official")
            'campo oficial'
            >>> Translator("es").label("setup.infinifield.homemade", "homemade")
            'homemade'
        """
        template = catalogue(self.lang).get(key) or catalogue(DEFAULT_LANGUAGE).get(key)
        return default if template is None else template

    def verb(self, game: str, verb: str) -> str:
        """An action verb as a tab or button says it.

        The catalogue's ``verb.<game>.<verb>``, else ``verb.<verb>``, else the notation's
        own word.

        Example:
            >>> Translator("es").verb("infinidungeon", "reroll")
            'repetir'
        """
        for key in (f"verb.{game}.{verb}", f"verb.{verb}"):
            template = catalogue(self.lang).get(key)
            if template is not None:
                return template
        return verb

    def action_label(self, game: str, action: str) -> str:
        """A legal action's button text, its verb and the data names in it translated.

        The notation itself (what is proposed and recorded) stays as the engine writes it.

        Example:
            >>> Translator("ru").action_label("infinidungeon", "assign 1:goblin")
            'назначить 1:гоблин'
        """
        from companion.app.names import translate_line

        verb, _space, rest = action.partition(" ")
        words = " ".join(self.term(game, word) for word in rest.split(" ")) if rest else ""
        label = self.verb(game, verb) + (" " + words if words else "")
        return translate_line(self.lang, game, label)

    def term(self, game: str, word: str) -> str:
        """A word of a game's notation (``north``, ``none``) in the current language.

        The catalogue's ``word.<game>.<word>``, else ``word.<word>``, else as is.
        """
        for key in (f"word.{game}.{word}", f"word.{word}"):
            template = catalogue(self.lang).get(key)
            if template is not None:
                return template
        return word

    def actor(self, name: str) -> str:
        """Who acts, for "<who> to play".

        A player's own name, or the solo game's ``player`` in the current language.
        """
        return self.tr("game.player") if name == "player" else name

    def data(self, game: str, line: str) -> str:
        """A line of a game's data names (room, monsters) in the current language.

        See :mod:`companion.app.names`.
        """
        from companion.app.names import translate_line

        return translate_line(self.lang, game, line)

    def has(self, key: str) -> bool:
        """Whether ``key`` exists (in English, the reference catalogue)."""
        return key in catalogue(DEFAULT_LANGUAGE)
