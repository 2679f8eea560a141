"""Each die the camera read, shown as its crop with the value read, beside the dice keypad.

The player sees at a glance which die was read as what; a tap on a die's tile turns its value
up by one (6 wraps to 1), and the keypad's line follows, so a wrong value is fixed by touch.
Keys typed on the keypad show on the tiles too. A header says plainly when the count differs
from the dice the game expects ("5 dice expected, 4 seen").

:meth:`DiceCrops.attach` places the tiles on the left of an open
:class:`companion.app.widgets.dice_keypad.DiceKeypad`, which is widened to hold them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from kivy.app import App
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.app.camera_dice import DiceRead, count_problem
from companion.app.kvload import load_kv_beside

COLUMNS = 3
TILE_W, TILE_H = 78, 100
HEADER_H = 52


def crop_texture(crop: np.ndarray) -> Texture:
    """A BGR crop as a Kivy texture (rows flipped: Kivy's origin is at the bottom)."""
    rgb = np.ascontiguousarray(crop[::-1, :, ::-1])
    texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture


class DieTile(ButtonBehavior, BoxLayout):
    """One die: its crop and the value it is taken to show; a tap turns the value up."""

    value = StringProperty("")
    index = NumericProperty(0)
    texture = ObjectProperty(None, allownone=True)


class DiceCrops(BoxLayout):
    """The tiles of one camera read and the header saying whether the count is right.

    Attributes:
        header: the count problem, or how to fix a value.
        mismatch: whether the count differs from the dice expected (the header turns red).
        keypad: the keypad whose line the tiles follow and change.
    """

    header = StringProperty("")
    header_height = NumericProperty(HEADER_H - 4)
    mismatch = BooleanProperty(False)
    keypad: Any = None

    def __init__(self, read: DiceRead, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.read = read
        app = App.get_running_app()
        problem = count_problem(read.expected, len(read.values))
        self.mismatch = problem is not None
        self.header = app.tr(problem[0], **problem[1]) if problem else app.tr("camera.tap_to_fix")
        rows = max(1, math.ceil(len(read.crops) / COLUMNS))
        self.size_hint = (None, None)
        self.width = COLUMNS * TILE_W + (COLUMNS - 1) * 6 + 12
        self.height = HEADER_H + rows * TILE_H + (rows - 1) * 6 + 12
        for i, (crop, value) in enumerate(zip(read.crops, read.values, strict=True)):
            tile = DieTile(value=str(value), index=i, texture=crop_texture(crop),
                           size=(TILE_W, TILE_H))
            tile.bind(on_release=self.turn_up)
            self.ids.tiles.add_widget(tile)

    @property
    def tiles(self) -> list[DieTile]:
        """The tiles, left to right as the dice lie."""
        return list(reversed(self.ids.tiles.children))

    def attach(self, keypad: Any) -> None:
        """Put the tiles on the left of the open ``keypad`` and follow its line."""
        content = keypad.children[0]
        keypad.remove_widget(content)
        row = BoxLayout(orientation="horizontal", spacing=8)
        row.add_widget(self)
        row.add_widget(content)
        keypad.add_widget(row)
        keypad.width = keypad.width + self.width + 8
        keypad.height = max(keypad.height, self.height)
        self.keypad = keypad
        keypad.bind(text=self._follow)

    def turn_up(self, tile: DieTile) -> None:
        """The tapped die's value up by one (6 to 1); the keypad's line follows."""
        tile.value = str(int(tile.value) % 6 + 1 if tile.value.isdigit() else 1)
        if self.keypad is not None:
            self.keypad.text = " ".join(t.value or "?" for t in self.tiles)

    def _follow(self, _keypad: Any, text: str) -> None:
        faces = text.split()
        for i, tile in enumerate(self.tiles):
            tile.value = faces[i] if i < len(faces) else ""


load_kv_beside(__file__)
