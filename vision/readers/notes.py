"""What a set-up reading could not see and assumed, for the players to check.

A :class:`ReadingNote` is the English sentence the command line prints and a field file
keeps as a comment, and it says what it is about, so a screen can say it in the players'
language and point at the block on the picture instead of quoting table millimetres.

Example:
    >>> note = hidden_block_note("white", (120.0, 80.0), 1, "red")
    >>> str(note)
    'the block under the red block at (120, 80) mm (level 1) is hidden: assumed white; check it'
    >>> note.kind, note.colour, note.at, note.level
    ('hidden', 'white', (120.0, 80.0), 1)
    >>> "hidden" in note
    True
"""

from __future__ import annotations

HIDDEN = "hidden"
"""A block under another that nothing of shows: its colour is assumed."""

PAWN_UNSURE = "pawn_unsure"
"""A pawn whose head showed almost as well over another top."""

DETAIL = "detail"
"""The camera shows a block top too few pixels across to read the field reliably."""

TOWER_UNSURE = "tower_unsure"
"""A first-level block that may carry a block of its own colour (a tower's top, read as the
block under it)."""


class ReadingNote(str):
    """A note of a reading: its English text, and what it is about.

    Attributes:
        kind: :data:`HIDDEN`, :data:`PAWN_UNSURE`, :data:`DETAIL` or
            :data:`TOWER_UNSURE`.
        colour: the assumed block's colour (``hidden``), the pawn's (``pawn_unsure``) or
            the block's (``tower_unsure``); empty for ``detail``.
        at: the centre (table mm) of the block concerned: the hidden block, the top the
            pawn was taken to stand on, or the block that may carry a tower; the play
            area's centre for ``detail``.
        level: that block's level.
        other: the other top a pawn may stand on (table mm), else ``None``.
        value: the measure a ``detail`` note is about (a top's side in frame pixels), else
            ``None``.
    """

    kind: str
    colour: str
    at: tuple[float, float]
    level: int
    other: tuple[float, float] | None
    value: float | None

    def __new__(cls, text: str, kind: str, colour: str, at: tuple[float, float], level: int,
                other: tuple[float, float] | None = None, value: float | None = None
                ) -> ReadingNote:
        """A note saying ``text``; see the class for the rest."""
        note = super().__new__(cls, text)
        note.kind = kind
        note.colour = colour
        note.at = (float(at[0]), float(at[1]))
        note.level = int(level)
        note.other = None if other is None else (float(other[0]), float(other[1]))
        note.value = None if value is None else float(value)
        return note

    def __reduce__(self) -> tuple[object, ...]:
        return (ReadingNote, (str(self), self.kind, self.colour, self.at, self.level,
                              self.other, self.value))


def _mm(xy: tuple[float, float]) -> str:
    return f"({xy[0]:.0f}, {xy[1]:.0f}) mm"


def hidden_block_note(colour: str, at: tuple[float, float], level: int,
                      top_colour: str | None = None, second: bool = False,
                      top_at: tuple[float, float] | None = None) -> ReadingNote:
    """A block under a top that nothing of shows, taken to be ``colour``.

    Args:
        colour: the colour assumed.
        at: the hidden block's centre (table mm).
        level: its level.
        top_colour: the colour of the top resting on it, when known.
        second: it is the second block under a bridge (the first one showed).
        top_at: that top's centre, when the note should name it (else ``at``).
    """
    which = "the second block" if second else "the block"
    if top_colour is None:
        under = f"a raised top at {_mm(top_at or at)}"
    else:
        under = f"the {top_colour} block at {_mm(top_at or at)}"
    return ReadingNote(f"{which} under {under} (level {level}) is hidden: assumed {colour}; "
                       "check it", HIDDEN, colour, at, level)


def relocated(note: ReadingNote, at: tuple[float, float]) -> ReadingNote:
    """``note`` about the same block, now read at ``at``.

    Its text, which names the top the block is under, is kept.
    """
    return ReadingNote(str(note), note.kind, note.colour, at, note.level, note.other,
                       note.value)


def pawn_unsure_note(colour: str, at: tuple[float, float], level: int, top_colour: str,
                     other: tuple[float, float], other_colour: str) -> ReadingNote:
    """A ``colour`` pawn taken to stand on the top at ``at``; it may be on ``other``."""
    return ReadingNote(f"{colour} pawn taken to stand on the {top_colour} block at "
                       f"{_mm(at)}; it may be on the {other_colour} block at {_mm(other)}",
                       PAWN_UNSURE, colour, at, level, other)


def tower_unsure_note(colour: str, at: tuple[float, float]) -> ReadingNote:
    """The first-level ``colour`` block at ``at`` may carry a block of its colour.

    Read against the first level's photo, its top shows larger and farther from the camera's
    nadir, as a top a level up does; a block of one colour on another shows no other colour
    between them, and the camera cannot tell more.
    """
    return ReadingNote(f"the {colour} block at {_mm(at)} may carry another {colour} block "
                       "(its top shows larger and farther out than on the first level's "
                       "photo); check it", TOWER_UNSURE, colour, at, 1)


def detail_note(top_px: float, at: tuple[float, float], enough_px: float) -> ReadingNote:
    """The camera shows a first-level top only ``top_px`` pixels across.

    Args:
        top_px: a top's side in frame pixels at the play area's centre.
        at: that centre (table mm).
        enough_px: the side a reliable reading needs.
    """
    return ReadingNote(f"the camera shows a block top only {top_px:.0f} px across (a reliable "
                       f"reading needs {enough_px:.0f}): levels and touching pairs may be "
                       "misread; lower the camera or give it a larger picture",
                       DETAIL, "", at, 1, value=top_px)
