"""Colours and sizes shared by every screen, readable at arm's length on a 7" 800x480 screen.

Colours never carry meaning alone: each side or block colour is paired with a letter, and
the verdict banner pairs green/red with a shape and a word.

Example:
    >>> TOUCH_MIN_PX >= 48
    True
"""

from __future__ import annotations

import os
from pathlib import Path

RGBA = tuple[float, float, float, float]

TOUCH_MIN_PX = 56
"""Height of every button: above the 48 px minimum for a fingertip at 800x480."""

BACKGROUND: RGBA = (0.07, 0.10, 0.13, 1)
PANEL: RGBA = (0.12, 0.16, 0.21, 1)
PANEL_LIGHT: RGBA = (0.18, 0.23, 0.30, 1)
TEXT: RGBA = (0.95, 0.96, 0.97, 1)
TEXT_DIM: RGBA = (0.66, 0.72, 0.78, 1)
ACCENT: RGBA = (0.98, 0.74, 0.18, 1)
BUTTON: RGBA = (0.22, 0.36, 0.52, 1)
BUTTON_PRESSED: RGBA = (0.32, 0.50, 0.70, 1)
DANGER: RGBA = (0.62, 0.22, 0.20, 1)

ACCEPTED: RGBA = (0.13, 0.55, 0.27, 1)
"""The banner for an accepted action (with a round badge and "OK")."""
REFUSED: RGBA = (0.80, 0.15, 0.13, 1)
"""The banner for a refused action (with a square badge and "NO")."""

REMOVABLE: RGBA = (1.00, 0.20, 0.85, 1)
"""Outline of a block that may be removed now (magenta: unlike every block colour)."""

HOLD_RING: RGBA = (0.98, 0.98, 0.98, 1)
"""A touch held on the set-up picture: the arc that fills round the finger until it is a
long press (white, drawn over :data:`HOLD_RING_EDGE` so it shows on light and dark photos)."""
HOLD_RING_EDGE: RGBA = (0.05, 0.05, 0.07, 0.9)
"""The dark edge under :data:`HOLD_RING`'s arc, and (fainter) the track it fills."""

DIE_FACE: RGBA = (0.96, 0.95, 0.90, 1)
"""A die's face on screen (off-white)."""
DIE_INK: RGBA = (0.08, 0.08, 0.10, 1)
"""A die's digits and outline: near-black on the off-white face, also when the die cannot be
tapped (issue 15: the value must read while the player assigns dice)."""

LED_OFF: RGBA = (0.20, 0.22, 0.25, 1)
LED_LIT: RGBA = (1.00, 0.80, 0.20, 1)
"""A lit ring LED: the counter is here (amber)."""
LED_DUE: RGBA = (1.00, 0.12, 0.10, 1)
"""The X LED lit red: a block must be removed."""

BLOCK_COLOURS: dict[str, RGBA] = {
    "white": (0.95, 0.95, 0.93, 1),
    "yellow": (0.98, 0.84, 0.10, 1),
    "red": (0.86, 0.16, 0.14, 1),
    "blue": (0.16, 0.40, 0.90, 1),
}
"""Infinifield block colours; each block also shows its letter (W, Y, R, B) and id."""

PLAYER_COLOURS: tuple[RGBA, ...] = (
    (0.10, 0.75, 0.85, 1), (0.92, 0.40, 0.75, 1), (0.55, 0.85, 0.25, 1), (0.98, 0.55, 0.10, 1),
    (0.70, 0.55, 0.95, 1), (0.95, 0.95, 0.40, 1))
"""Pawn/side colours in seat order; every pawn also carries its player's initial."""


def player_colour(index: int) -> RGBA:
    """The colour of the player in seat ``index`` (wraps round).

    Example:
        >>> player_colour(6) == player_colour(0)
        True
    """
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


BOLD_FONT_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",  # Debian / Raspberry Pi OS
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",  # Fedora, Arch
)
"""Where DejaVu Sans Bold is looked for (Debian's ``fonts-dejavu-core``, installed by
``scripts/setup``)."""


def font_files() -> tuple[str, str]:
    """The regular and bold font files every label uses: DejaVu Sans.

    Kivy's default, Roboto, has no arrows, check marks or ballot crosses ("→", "✗"), so
    those showed as empty boxes. DejaVu Sans (free licence, see
    https://dejavu-fonts.github.io/License.html) covers Latin, Cyrillic, arrows and
    dingbats. The regular face ships inside Kivy itself (``kivy/data/fonts``), so it is
    there wherever Kivy is; the bold face comes from the system's DejaVu package, and the
    regular face stands in for it where that is missing.
    """
    import kivy

    regular = os.path.join(kivy.kivy_data_dir, "fonts", "DejaVuSans.ttf")
    bold = next((path for path in BOLD_FONT_PATHS if Path(path).is_file()), regular)
    return regular, bold


def use_app_font() -> tuple[str, str]:
    """Make DejaVu Sans the font of every label, button and text field.

    Call it before building widgets. Returns the regular and bold files.
    """
    from kivy.core.text import DEFAULT_FONT, LabelBase

    regular, bold = font_files()
    LabelBase.register(DEFAULT_FONT, regular, None, bold, None)
    return regular, bold
