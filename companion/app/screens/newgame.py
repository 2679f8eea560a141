"""New game: the players (how many, their names) and the layout to start from.

Every game's players can be named: Infinifield takes the names as an option, Infinity's
armies and Defiance's game files have theirs replaced, and 401 Infinite (whose engine knows
only the red and blue sides) keeps them beside the journal.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion.app import theme
from companion.app.game_setups import SETUPS, check_names
from companion.app.journal_shelf import save_seat_names
from companion.app.kvload import load_kv_beside
from companion.app.screens.field_setup_choice import (
    CAMERA_LAYOUT,
    camera_layout_button,
    open_field_setup,
)
from companion.app.widgets.common import BigButton
from companion.games.core import SetupError
from companion.games.registry import load_game


class NewGameScreen(Screen):
    """Choose players and layout, then start.

    Attributes:
        game: the chosen game's short name.
        game_title: its title.
        count: how many players.
        layout: the chosen layout.
        layouts: the layouts there are.
    """

    game = StringProperty("")
    game_title = StringProperty("")
    count = NumericProperty(0)
    layout = StringProperty("")
    layouts = ListProperty([])
    error = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chosen: dict[str, Any] = {}

    def prepare(self, game: str) -> None:
        """Show the choices of ``game`` with its defaults."""
        spec = SETUPS[game]
        self.game = game
        self.game_title = load_game(game).title
        self.layouts = list(spec.layouts)
        self.layout = self.layouts[0]
        self.error = ""
        self.count = spec.players.minimum if spec.players else 0
        self.chosen = {option: values[0] for option, values in spec.choices.items()}
        self.ids.names.clear_widgets()  # each game starts from its own default names
        self._build_choices()

    def _build_choices(self) -> None:
        spec = SETUPS[self.game]
        counts = self.ids.counts
        counts.clear_widgets()
        if spec.players is not None:
            for n in range(spec.players.minimum, spec.players.maximum + 1):
                button = BigButton(text=str(n), action=str(n), selected=n == self.count)
                button.bind(on_release=lambda b: self.set_count(int(b.action)))
                counts.add_widget(button)
        layouts = self.ids.layouts
        layouts.clear_widgets()
        app = App.get_running_app()
        for name in self.layouts:
            button = BigButton(text=app.translator.label(f"setup.{self.game}.{name}", name),
                               action=name, selected=name == self.layout)
            button.bind(on_release=lambda b: self.set_layout(b.action))
            layouts.add_widget(button)
        camera = camera_layout_button(self)  # issue 12: the field read from the camera
        if camera is not None:
            layouts.add_widget(camera)
        self._build_options()
        self._build_names()

    def _build_options(self) -> None:
        """One row per option: its name, then a button per value (the chosen one lit)."""
        app = App.get_running_app()
        rows = self.ids.options
        rows.clear_widgets()
        choices = SETUPS[self.game].choices
        rows.cols = 1 + max((len(values) for values in choices.values()), default=1)
        for option, values in SETUPS[self.game].choices.items():
            rows.add_widget(Label(text=app.translator.label(f"option.{option}",
                                                            option.replace("_", " ")),
                                  font_size="16sp",
                                  color=theme.TEXT_DIM, size_hint_y=None,
                                  height=theme.TOUCH_MIN_PX))
            for value in values:
                button = BigButton(text=app.translator.label(f"choice.{option}.{value}",
                                                             str(value)),
                                   action=f"{option}={value}",
                                   selected=self.chosen.get(option) == value, font_size="17sp")
                button.bind(on_release=lambda b, o=option, v=value: self.choose(o, v))
                rows.add_widget(button)
            for _ in range(rows.cols - 1 - len(values)):
                rows.add_widget(Widget(size_hint_y=None, height=theme.TOUCH_MIN_PX))

    def choose(self, option: str, value: Any) -> None:
        """Pick ``value`` for ``option``."""
        self.chosen[option] = value
        for button in self.ids.options.children:
            if isinstance(button, BigButton) and button.action.startswith(f"{option}="):
                button.selected = button.action == f"{option}={value}"

    def _build_names(self) -> None:
        spec = SETUPS[self.game]
        names = self.ids.names
        old = [child.text for child in reversed(names.children) if isinstance(child, TextInput)]
        names.clear_widgets()
        if spec.naming == "option":
            if spec.players is None:
                return
            defaults = spec.players.defaults(int(self.count))
        else:
            defaults = spec.default_names(self.layout)
        app = App.get_running_app()
        for index, default in enumerate(defaults):
            text = old[index] if index < len(old) and old[index] else default
            if spec.seats:
                seat = spec.seats[index]
                names.add_widget(Label(text=app.translator.label(f"term.{self.game}.side.{seat}",
                                                                 seat),
                                       font_size="19sp", bold=True, color=theme.TEXT,
                                       size_hint_y=None, height=theme.TOUCH_MIN_PX))
            names.add_widget(TextInput(text=text, multiline=False, font_size="20sp",
                                       size_hint_y=None, height=theme.TOUCH_MIN_PX,
                                       write_tab=False, padding=[10, 14]))

    def set_count(self, count: int) -> None:
        """Choose how many players."""
        self.count = count
        for button in self.ids.counts.children:
            button.selected = button.action == str(count)
        self._build_names()

    def set_layout(self, layout: str) -> None:
        """Choose the layout (a game file may bring its own number of players)."""
        self.layout = layout
        for button in self.ids.layouts.children:
            button.selected = button.action == layout
        if SETUPS[self.game].naming != "option":
            self._build_names()

    def player_names(self) -> list[str] | None:
        """The names typed (``None`` for a game without named players)."""
        fields = [child for child in reversed(self.ids.names.children)
                  if isinstance(child, TextInput)]
        return [field.text.strip() for field in fields] if fields else None

    def start(self, *_args: Any) -> None:
        """Start the game; a setup the engine refuses is shown, naming what is wrong."""
        app = App.get_running_app()
        spec = SETUPS[self.game]
        names = self.player_names()
        try:
            if names is not None:
                check_names(names)
        except ValueError as error:
            self.error = app.tr("newgame.names_needed") if "different" in str(error) \
                else app.tr("newgame.name_one_word")
            return
        if self.layout == CAMERA_LAYOUT:
            open_field_setup(self.game, names, self.chosen)
            return
        try:
            if spec.naming == "rename":
                app.table.start_from(self.game, spec.named_sources(self.layout, names),
                                     spec.build_options(None, self.layout, self.chosen),
                                     seed=app.options.seed)
            else:
                session = app.table.start(self.game, self.layout,
                                          names if spec.naming == "option" else None,
                                          seed=app.options.seed, chosen=self.chosen)
                if spec.naming == "seats" and names and session.journal is not None:
                    save_seat_names(session.journal.path, dict(zip(spec.seats, names,
                                                                   strict=True)))
        except (SetupError, ValueError) as error:
            self.error = str(error)
            return
        app.outputs.reset()
        app.open_game_screen()


load_kv_beside(__file__)
