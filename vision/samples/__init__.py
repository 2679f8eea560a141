"""Recorded sample footage of an Infinifield game (made by :mod:`vision.recording`).

The JPEG frames, ``field.toml`` (the match's setup) and ``script.txt`` (the actions each
view should produce) ship as package data so the desktop simulation finds them installed.
"""
