"""Pure rules engines: one subpackage per game plus the shared contract in :mod:`.core`.

Nothing under this package imports the outside world (Kivy, OpenCV, gpiozero, serial,
threads, clocks, files, the global ``random``); ``tests/games/test_dependency_rule.py``
enforces it.
"""
