"""Turning a tapped card into a proposed action, on the session's main loop.

Sensors propose, the engine decides: a tag laid on the reader is looked up in the
:class:`~firmware_bridge.cards.CardMap`; the legal actions whose notation names that card are
found; exactly one is proposed to the session (source ``"nfc"``), several are offered to the
players to choose from, none is reported. An unknown tag starts learn mode: the app shows the
cards to pair it with (:meth:`TapHandler.pairing_choices`) and calls
:meth:`TapHandler.pair_pending`.

A card "is named" by an action when one of the action's words (its notation split at spaces,
``:``, ``,``, ``->``, ``@``, ``*`` and ``+``) equals the card's name, case-insensitively; the
verb itself does not count. Notation puts who acts right after the verb, so when some of the
actions have the card as their first argument after that (``play red Hex -> B1``,
``move Ann Fusilier 4``: the card *does* something), only those are kept; otherwise every
action naming it (as a target, say) is.

Example:
    >>> actions_naming("fireball", ["cast Ann fireball B3", "move Ann A1 A2"])
    ['cast Ann fireball B3']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.session import Session, Verdict
from firmware_bridge.cards import CardMap
from firmware_bridge.messages import Message, TagPresent

_SEPARATORS = re.compile(r"\s+|:|,|->|@|\*|\+")


def notation_words(text: str) -> list[str]:
    """The words of an action's notation after its verb, lower-cased.

    Example:
        >>> notation_words("assign 1:goblin 3:Goblin")
        ['1', 'goblin', '3', 'goblin']
    """
    words = [word for word in _SEPARATORS.split(text.strip()) if word]
    return [word.lower() for word in words[1:]]


def actions_naming(card: str, notations: Iterable[str]) -> list[str]:
    """The notations (in the given order) naming ``card``; those where it acts, if any.

    Example:
        >>> actions_naming("Grenzer", ["aro Ben Grenzer dodge",
        ...                            "shoot Ann Fusilier combi_rifle Grenzer@12"])
        ['aro Ben Grenzer dodge']
    """
    wanted = card.lower()
    naming = [text for text in notations if wanted in notation_words(text)]
    acting = [text for text in naming if _subject(text) == wanted]
    return acting or naming


def _subject(text: str) -> str:
    """The first argument after the verb and who acts, lower-cased ("" when there is none)."""
    words = text.split()
    return _SEPARATORS.split(words[2])[0].lower() if len(words) > 2 else ""


@dataclass(frozen=True)
class TapResult:
    """What a tap did.

    Attributes:
        uid: the tag.
        card: the card it is paired with (``None`` for an unknown tag: learn mode).
        verdict: the referee's verdict when one action was proposed.
        choices: the legal actions naming the card when there were several (to offer).
        note: one sentence for the screen when nothing was proposed.
    """

    uid: str
    card: str | None
    verdict: Verdict | None = None
    choices: tuple[str, ...] = ()
    note: str = ""

    @property
    def unknown(self) -> bool:
        """Whether the tag is not paired yet (the app offers learn mode)."""
        return self.card is None


@dataclass
class TapHandler:
    """Handles the bridge's messages for one session; call it on the main loop only.

    Args:
        session: the game in progress.
        cards: the tag pairings.
        cards_path: where learn mode saves new pairings (not saved when ``None``).
        on_result: told about every tap (the app shows it; the log records it).

    Example:
        >>> # in the Kivy app, from the reader's thread:
        >>> # reader.on_message = lambda m: Clock.schedule_once(lambda dt: handler.handle(m))
    """

    session: Session
    cards: CardMap
    cards_path: Path | None = None
    on_result: Callable[[TapResult], object] | None = None
    pending_uid: str | None = field(default=None)

    @property
    def game(self) -> str:
        """The short name of the session's game."""
        return self.session.game.name

    def handle(self, message: Message) -> TapResult | None:
        """Act on one message from the bridge: a tag laid down is a tap; others are ignored."""
        if not isinstance(message, TagPresent):
            return None
        result = self.tap(message.uid)
        if self.on_result is not None:
            self.on_result(result)
        return result

    def tap(self, uid: str) -> TapResult:
        """Look the tag up and propose the action it stands for (see the module docstring)."""
        card = self.cards.card_for(self.game, uid)
        if card is None:
            self.pending_uid = uid
            return TapResult(uid, None, note=f"Unknown tag {uid}: choose its card to pair it.")
        legal = [self.session.game.format_action(action)
                 for action in self.session.legal_actions()]
        matching = actions_naming(card, legal)
        if not matching:
            return TapResult(uid, card, note=f"No legal action uses {card} right now.")
        if len(matching) > 1:
            return TapResult(uid, card, choices=tuple(matching),
                             note=f"{card}: choose one of {len(matching)} actions.")
        return TapResult(uid, card, verdict=self.session.propose(matching[0], source="nfc"))

    def choose(self, notation: str) -> Verdict:
        """Propose one of a tap's ``choices`` (the players picked it on screen)."""
        return self.session.propose(notation, source="nfc")

    def pairing_choices(self, names: Sequence[str] | None = None) -> list[str]:
        """Cards to offer for the pending tag, minus those already paired, sorted.

        ``names`` when given (the app lists the setup's cards), else the words of the legal
        actions (the cards in play right now).
        """
        paired = {card.lower() for card in self.cards.cards(self.game).values()}
        if names is None:
            words: set[str] = set()
            for action in self.session.legal_actions():
                words.update(_original_words(self.session.game.format_action(action)))
            names = sorted(words)
        return sorted({name for name in names if name.lower() not in paired
                       and not name.isdigit()}, key=str.lower)

    def pair_pending(self, card: str) -> TapResult:
        """Pair the last unknown tag with ``card``, save the map, and act on the tap.

        Raises:
            LookupError: no unknown tag is waiting.
            ValueError: the card name cannot be used.
        """
        if self.pending_uid is None:
            raise LookupError("no unknown tag is waiting to be paired; tap it first")
        uid, self.pending_uid = self.pending_uid, None
        self.cards.pair(self.game, uid, card)
        if self.cards_path is not None:
            self.cards.save(self.cards_path)
        return self.tap(uid)


def _original_words(text: str) -> list[str]:
    words = [word for word in _SEPARATORS.split(text.strip()) if word]
    return words[1:]


__all__ = ["TapHandler", "TapResult", "actions_naming", "notation_words"]
