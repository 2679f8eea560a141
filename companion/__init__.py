"""Infinite Table Companion: a Raspberry Pi referee for physical tabletop games."""

__version__ = "0.1.0"
