"""The table's lights and sound, on gpiozero.

- :class:`hardware.outputs.TableOutputs`: the counter ring, buzzer and status light as one
  composite; subscribe it to a session's event bus.
- :mod:`hardware.ring`, :mod:`hardware.buzzer`, :mod:`hardware.status`: the devices.
- :mod:`hardware.mapping`: which event calls for which sound and counter light.
- :mod:`hardware.pins`, :mod:`hardware.factory`: the pin map and the pin factory.

Wiring: ``docs/wiring.md``.
"""
