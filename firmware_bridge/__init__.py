"""The NFC card bridge: a Pico reads the tags under the cards; the host proposes their actions.

- :mod:`firmware_bridge.codec`: the frame codec shared unchanged with the firmware.
- :mod:`firmware_bridge.reader`: the host's background reader (pyserial).
- :mod:`firmware_bridge.cards`, :mod:`firmware_bridge.taps`: tag pairings, learn mode, and
  turning a tap into a proposed action.
- ``firmware_bridge/firmware/``: the MicroPython firmware; :mod:`firmware_bridge.cli`:
  ``infinite-bridge flash | monitor | pair``.

Protocol and tools: ``docs/nfc-bridge.md``.
"""
