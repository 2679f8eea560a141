"""The camera over the table: capture, calibration, detectors and change tracking.

``observe(frame, calibration) -> Observation`` is pure (no capture, no threads); capture
lives in :mod:`vision.capture` and :mod:`vision.grabber`; :mod:`vision.watcher` proposes what
changed to a referee session with ``source="camera"``. See ``docs/vision.md``.

Example:
    >>> from vision.render import SceneSpec, render_scene
    >>> from vision.calibration import calibrate
    >>> from vision.observe import observe
    >>> scene = render_scene(SceneSpec(seed=2))
    >>> len(observe(scene.image, calibrate(scene.image)).blocks) == len(scene.field.blocks)
    True
"""
