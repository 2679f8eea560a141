"""The Pico's MicroPython firmware (copied to the board by ``infinite-bridge flash``).

``main.py`` runs on the board only; ``bridge.py`` (the loop logic) and ``pn532.py`` (the
reader driver) also import on the host, where the tests drive them with a simulated PN532.
The frame codec is ``firmware_bridge/codec.py``, copied unchanged next to them.
"""

FILES = ("codec.py", "pn532.py", "bridge.py", "main.py")
"""What goes onto the Pico, in copy order (``main.py`` last: it starts on the next boot)."""
