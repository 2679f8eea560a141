"""Settings: the language (English, Spanish, Russian) and the buzzer sound."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.app.kvload import load_kv_beside


class SettingsScreen(Screen):
    """Language and sound, saved in the data directory."""

    def choose_language(self, lang: str) -> None:
        """Switch the whole app to ``lang``."""
        App.get_running_app().set_language(lang)

    def toggle_sound(self) -> None:
        """Turn the buzzer (real and simulated) on or off."""
        app = App.get_running_app()
        app.settings.sound = not app.settings.sound
        app.outputs.sound = app.settings.sound
        app.settings.save()
        app.revision += 1


load_kv_beside(__file__)
