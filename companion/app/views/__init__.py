"""View models: what each game screen draws, computed from the state without Kivy."""
