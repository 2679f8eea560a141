"""Seeded mutations of valid inputs, shared by every fuzz target.

Each function takes a ``random.Random`` and a valid input (text or bytes) and returns a
damaged variant of the kind a hostile or careless user produces: a byte flipped, a line
truncated or repeated, a number turned into NaN, a key misspelt, nesting thousands deep, a
very long line, text that is not UTF-8. ``mutants(rng, valid, count)`` mixes them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

TextMutation = Callable[[random.Random, str], str]

_NASTY_VALUES = ["nan", "inf", "-inf", "1e309", "-0", "0", "-1", "99999999999999999999",
                 '""', '"\\u0000"', "[]", "{}", "true", '"x"', "[1, [2, [3]]]", '"🎲✗→"']


def flip_character(rng: random.Random, text: str) -> str:
    """One character replaced by a random printable or control character."""
    if not text:
        return chr(rng.randrange(32, 127))
    at = rng.randrange(len(text))
    return text[:at] + chr(rng.choice([rng.randrange(0, 32), rng.randrange(32, 127),
                                       rng.randrange(0x80, 0x3000)])) + text[at + 1:]


def truncate(rng: random.Random, text: str) -> str:
    """The text cut at a random point (a torn write)."""
    return text[:rng.randrange(len(text) + 1)]


def duplicate_or_drop_line(rng: random.Random, text: str) -> str:
    """One line repeated, deleted, or swapped with its neighbour."""
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    choice = rng.randrange(3)
    if choice == 0:
        lines.insert(at, lines[at])
    elif choice == 1 and len(lines) > 1:
        del lines[at]
    elif at + 1 < len(lines):
        lines[at], lines[at + 1] = lines[at + 1], lines[at]
    return "\n".join(lines)


def nasty_value(rng: random.Random, text: str) -> str:
    """One number or quoted string replaced by NaN, infinity, a huge number, a wrong type."""
    spots = list(re.finditer(r'-?\d+(\.\d+)?|"[^"\n]*"', text))
    if not spots:
        return text + "\n" + rng.choice(_NASTY_VALUES)
    spot = rng.choice(spots)
    return text[:spot.start()] + rng.choice(_NASTY_VALUES) + text[spot.end():]


def misspell_key(rng: random.Random, text: str) -> str:
    """One ``key =`` renamed by dropping, doubling or swapping a letter."""
    keys = list(re.finditer(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=)", text, re.MULTILINE))
    if not keys:
        return text
    found = rng.choice(keys)
    key = found.group(2)
    at = rng.randrange(len(key))
    variants = [key[:at] + key[at + 1:], key[:at] + key[at] * 2 + key[at + 1:]]
    if len(key) > 1 and at + 1 < len(key):
        variants.append(key[:at] + key[at + 1] + key[at] + key[at + 2:])
    new = rng.choice([v for v in variants if v] or [key + "x"])
    return text[:found.start(2)] + new + text[found.end(2):]


def deep_nesting(rng: random.Random, text: str) -> str:
    """A value nested thousands deep appended (arrays or inline tables)."""
    depth = rng.choice([100, 3000, 50000])
    if rng.random() < 0.5:
        return text + "\nzz_deep = " + "[" * depth + "]" * depth + "\n"
    return text + "\nzz_deep = " + "{a = " * depth + "1" + "}" * depth + "\n"


def long_line(rng: random.Random, text: str) -> str:
    """A line of hundreds of kilobytes to megabytes inserted."""
    size = rng.choice([10_000, 300_000, 2_000_000])
    lines = text.split("\n")
    lines.insert(rng.randrange(len(lines) + 1), "x" * size)
    return "\n".join(lines)


def crlf(rng: random.Random, text: str) -> str:
    """Line endings converted to CRLF (a file passed through a Windows editor)."""
    return text.replace("\n", "\r\n")


TEXT_MUTATIONS: list[TextMutation] = [flip_character, truncate, duplicate_or_drop_line,
                                      nasty_value, misspell_key, deep_nesting, long_line, crlf]


def mutate_text(rng: random.Random, text: str, rounds: int = 1) -> str:
    """``text`` after ``rounds`` random mutations."""
    for _ in range(rounds):
        text = rng.choice(TEXT_MUTATIONS)(rng, text)
    return text


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """``data`` with bytes flipped, cut, inserted (including invalid UTF-8 sequences)."""
    buffer = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        choice = rng.randrange(4)
        at = rng.randrange(len(buffer) + 1)
        if choice == 0 and buffer:
            buffer[min(at, len(buffer) - 1)] ^= 1 << rng.randrange(8)
        elif choice == 1:
            del buffer[at:]
        elif choice == 2:
            buffer[at:at] = rng.choice([b"\xff\xfe", b"\xc3", b"\x00", b"\xed\xa0\x80",
                                        bytes(rng.randrange(256) for _ in range(8))])
        else:
            buffer[at:at] = buffer[at:at + rng.randrange(64)]
    return bytes(buffer)


def mutants(rng: random.Random, valid: str, count: int) -> Iterator[str]:
    """``count`` mutants of ``valid``, one to three mutations each."""
    for _ in range(count):
        yield mutate_text(rng, valid, rounds=rng.randrange(1, 4))
