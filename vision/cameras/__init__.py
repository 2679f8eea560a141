"""Shipped camera intrinsics (TOML): Pi Camera Module 2 and 3, a generic 60-70 degree webcam.

See :mod:`vision.camera_model` for the format and ``infinite-vision calibrate-camera`` to
measure a camera instead.
"""
