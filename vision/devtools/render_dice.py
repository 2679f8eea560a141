r"""Photoreal renders of dice lying on a tray's floor (Blender, Cycles on the CPU), with labels.

Needs the optional ``[render]`` extra (``bpy``, Blender as a Python module). Each scene is a
floor (a white board, grey or coloured felt, dark plastic, with a little texture) and a few
16 mm dice with rounded edges, laid out loosely (some touching), each turned to a random
face and yaw and tipped a few degrees. The dice are of the kinds the reader misread on the
photos: dark and smoky translucent bodies, marbled swirls of two colours, wood with a grain,
red and other glossy plastics, and ordinary opaque ones, with dark, red, yellow, gold,
white or coloured pips, sometimes barely differing from the body. The light is an area
light overhead (a room's ceiling), a small bright lamp that leaves glare spots on glossy
dice, a warm or cool colour, and some ambient light; the camera looks down from 35-60 cm,
tilted up to 20 degrees, at a lens that makes a die 24-50 px across, as on the 640 px
tray photos (the render is 320 px square: only the dice and their surroundings matter).
The render is developed as a phone would (blur, noise, JPEG). Pips that would not show
against the body (a paint too near its colour) are drawn again, up to 12 times.

Output: ``NNNNN.jpg`` and ``labels.json`` in the format of the shared photos' labels
(``{"NNNNN.jpg": [{"box": [xmin, ymin, xmax, ymax], "pips": n, "kind": "..."}]}``): the box is
the die's rounded cube projected into the image. Scenes already written are skipped, so an
interrupted run resumes; ``--minutes`` bounds the run.

Usage::

    nice -n 10 .venv/bin/python -m vision.devtools.render_dice --out artifacts/dice_render \
        --scenes 400 --minutes 30
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.devtools.bpy_nodes import colour_between, principled

DIE_M = 0.016
"""A die's side in metres."""

PIP_SPOTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
"""Pip places on a face in units of the pip grid's step (x, y in the face's plane)."""

FACE_AXES = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0),
             4: (0, -1, 0)}
"""The outward normal of each face of the die as modelled (opposite faces sum to seven)."""

KINDS = ("opaque", "red", "wood", "marbled", "translucent", "smoky", "dark")
"""Body kinds, drawn with the weights of :data:`KIND_WEIGHTS`."""
KIND_WEIGHTS = (0.12, 0.16, 0.14, 0.2, 0.12, 0.12, 0.14)

PIP_COLOURS = {
    "white": (0.85, 0.85, 0.82), "black": (0.02, 0.02, 0.02), "dark brown": (0.05, 0.025, 0.01),
    "red": (0.6, 0.02, 0.02), "yellow": (0.8, 0.6, 0.05), "gold": (0.9, 0.65, 0.25),
    "blue": (0.03, 0.1, 0.6), "green": (0.03, 0.35, 0.06),
}
"""Linear RGB of the pip paints (gold is metallic)."""

FLOORS = {
    "white board": (0.7, 0.7, 0.68), "grey": (0.35, 0.35, 0.36), "green felt": (0.04, 0.2, 0.06),
    "wine": (0.2, 0.02, 0.04), "navy": (0.02, 0.04, 0.15), "black": (0.015, 0.015, 0.015),
    "sand": (0.5, 0.38, 0.22), "brown": (0.12, 0.06, 0.03),
}


def face_up_rotation(face: int) -> tuple[str, float]:
    """The axis and angle (radians) that turn the modelled die so ``face`` points up (+Z).

    Example:
        >>> face_up_rotation(2)
        ('Y', -1.5707963267948966)
    """
    return {1: ("X", 0.0), 6: ("X", math.pi), 2: ("Y", -math.pi / 2), 5: ("Y", math.pi / 2),
            3: ("X", math.pi / 2), 4: ("X", -math.pi / 2)}[face]


PIP_STEP = DIE_M * 0.26
"""The pip grid's step on a face."""
PIP_RADIUS = DIE_M * 0.1
BODY_SPOTS = ((0, -1), (0, 1), (-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5))
"""Places on every face (in pip steps) that no pip covers: the body's colour there."""


def face_frame(face: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face's outward normal and the two directions of its plane (the pip grid's axes)."""
    n = np.array(FACE_AXES[face], float)
    u = np.array([n[1], n[2], n[0]]) if n[2] == 0 else np.array([1.0, 0, 0])
    return n, u, np.cross(n, u)


def face_points(face: int, spots: Any) -> np.ndarray:
    """Points on the face ``face`` of the modelled die (metres) at the pip-grid ``spots``."""
    n, u, v = face_frame(face)
    return np.array([n * DIE_M / 2 + u * a * PIP_STEP + v * b * PIP_STEP for a, b in spots])


def _srgb_to_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _body_plan(rng: np.random.Generator) -> dict[str, Any]:
    """A die's look: body kind, colours, gloss, pip paint."""
    kind = str(rng.choice(KINDS, p=KIND_WEIGHTS))
    hue = rng.uniform(0, 1)

    def colour(sat: float, val: float) -> tuple[float, float, float]:
        rgb = cv2.cvtColor(np.array([[[hue * 179, sat * 255, val * 255]]], np.uint8),
                           cv2.COLOR_HSV2RGB)[0, 0] / 255.0
        return tuple(float(v) for v in _srgb_to_linear(rgb))  # type: ignore[return-value]

    plan: dict[str, Any] = {"kind": kind, "roughness": float(rng.uniform(0.05, 0.35)),
                            "second": None, "transmission": 0.0}
    if kind == "opaque":
        plan["rgb"] = colour(rng.uniform(0, 1), rng.uniform(0.3, 1))
        pips = ["white", "black", "yellow", "gold", "red", "blue", "green"]
    elif kind == "red":
        plan["rgb"] = tuple(float(v) for v in _srgb_to_linear(np.array(
            [rng.uniform(0.6, 0.9), rng.uniform(0.02, 0.15), rng.uniform(0.02, 0.12)])))
        pips = ["white", "white", "yellow", "yellow", "gold", "black"]
        plan["roughness"] = float(rng.uniform(0.03, 0.2))
    elif kind == "wood":
        plan["rgb"] = tuple(float(v) for v in _srgb_to_linear(np.array(
            [rng.uniform(0.35, 0.7), rng.uniform(0.2, 0.45), rng.uniform(0.08, 0.25)])))
        plan["second"] = tuple(v * rng.uniform(0.35, 0.6) for v in plan["rgb"])
        plan["roughness"] = float(rng.uniform(0.35, 0.7))
        pips = ["black", "dark brown", "dark brown", "black", "red"]
    elif kind == "marbled":
        dark = rng.random() < 0.7
        plan["rgb"] = colour(rng.uniform(0, 0.4), rng.uniform(0.03, 0.15)) if dark else \
            colour(rng.uniform(0.4, 1), rng.uniform(0.4, 0.9))
        hue = rng.uniform(0, 1)
        plan["second"] = colour(rng.uniform(0.5, 1), rng.uniform(0.5, 1))
        pips = ["red", "white", "gold", "yellow", "black", "red"]
    elif kind == "translucent":
        plan["rgb"] = colour(rng.uniform(0.6, 1), rng.uniform(0.3, 0.8))
        plan["transmission"] = float(rng.uniform(0.3, 0.8))
        pips = ["white", "white", "black", "gold"]
    elif kind == "smoky":
        plan["rgb"] = colour(rng.uniform(0, 0.4), rng.uniform(0.1, 0.35))
        plan["transmission"] = float(rng.uniform(0.5, 0.95))
        pips = ["red", "white", "black", "gold", "dark brown"]
    else:  # dark opaque
        plan["rgb"] = colour(rng.uniform(0, 1), rng.uniform(0.02, 0.2))
        pips = ["black", "dark brown", "red", "white", "gold", "blue"]
    body = np.array(plan["rgb"]) ** (1 / 2.2)
    for _ in range(12):   # pips that show: a paint far enough from the body's colour
        plan["pips"] = str(rng.choice(pips))
        if np.linalg.norm(np.array(PIP_COLOURS[plan["pips"]]) ** (1 / 2.2) - body) > 0.3:
            break
    return plan


class DiceScene:
    """One Blender scene of a tray's floor, a few dice and the lights, re-planned per image."""

    def __init__(self, workdir: Path, samples: int, size: tuple[int, int]) -> None:
        import bpy
        self.bpy = bpy
        self.workdir = workdir
        self.size = size
        bpy.ops.wm.read_factory_settings(use_empty=True)
        sc = bpy.context.scene
        sc.render.engine = "CYCLES"
        sc.cycles.device = "CPU"
        sc.cycles.samples = samples
        sc.cycles.use_adaptive_sampling = True
        sc.cycles.adaptive_threshold = 0.05
        sc.cycles.use_denoising = True
        sc.cycles.denoiser = "OPENIMAGEDENOISE"
        sc.cycles.max_bounces = 6
        sc.cycles.diffuse_bounces = 2
        sc.cycles.glossy_bounces = 2
        sc.cycles.transmission_bounces = 4
        sc.cycles.caustics_reflective = False
        sc.cycles.caustics_refractive = False
        sc.cycles.sample_clamp_indirect = 4.0
        sc.render.threads_mode = "FIXED"
        sc.render.threads = 1
        sc.render.resolution_x, sc.render.resolution_y = size
        sc.render.resolution_percentage = 100
        sc.view_settings.view_transform = "Standard"
        sc.render.image_settings.file_format = "PNG"
        sc.render.image_settings.color_mode = "RGB"
        self.scene = sc
        self.die_mesh = self._die_mesh()
        self.objects: list[Any] = []

    def _die_mesh(self) -> Any:
        """The rounded cube with its pips (material 0 the body, 1 the pips), face 1 up."""
        import bmesh
        bm = bmesh.new()
        bmesh.ops.create_cube(bm, size=DIE_M)
        bmesh.ops.bevel(bm, geom=list(bm.edges) + list(bm.verts), offset=DIE_M * 0.12,
                        segments=3, affect="EDGES", profile=0.5)
        for f in bm.faces:
            f.smooth = True
            f.material_index = 0
        step = PIP_STEP
        r = PIP_RADIUS
        for face in FACE_AXES:
            n, u, v = face_frame(face)
            for a, b in PIP_SPOTS[face]:
                centre = n * (DIE_M / 2 - r * 0.12) + u * a * step + v * b * step
                geom = bmesh.ops.create_uvsphere(bm, u_segments=14, v_segments=7, radius=r)
                verts = geom["verts"]
                # flatten along the normal: a painted dimple's disc
                m = np.eye(3) - 0.7 * np.outer(n, n)
                for vert in verts:
                    vert.co = tuple(m @ np.array(vert.co) + centre)
                for f in {f for vert in verts for f in vert.link_faces}:
                    f.material_index = 1
                    f.smooth = True
        mesh = self.bpy.data.meshes.new("die")
        bm.to_mesh(mesh)
        bm.free()
        return mesh

    def _material(self, name: str, rgb: tuple[float, float, float], roughness: float,
                  second: tuple[float, float, float] | None = None, grain: str = "",
                  transmission: float = 0.0, metallic: float = 0.0, scale: float = 60.0,
                  seed: float = 0.0) -> Any:
        mat, nt, bsdf = principled(self.bpy, name, roughness)
        bsdf.inputs["Metallic"].default_value = metallic
        if transmission:
            bsdf.inputs["Transmission Weight"].default_value = transmission
            bsdf.inputs["IOR"].default_value = 1.5
        if second is None:
            bsdf.inputs["Base Color"].default_value = (*rgb, 1.0)
            return mat
        coord = nt.nodes.new("ShaderNodeTexCoord")
        if grain == "wood":
            tex = nt.nodes.new("ShaderNodeTexWave")
            tex.inputs["Scale"].default_value = scale / 8
            tex.inputs["Distortion"].default_value = 6.0
            tex.inputs["Detail"].default_value = 4.0
        else:
            tex = nt.nodes.new("ShaderNodeTexNoise")
            tex.inputs["Scale"].default_value = scale
            tex.inputs["Detail"].default_value = 6.0
            tex.inputs["Distortion"].default_value = 2.5
            tex.noise_dimensions = "4D"
            tex.inputs["W"].default_value = seed
        mapping = nt.nodes.new("ShaderNodeMapping")
        mapping.inputs["Location"].default_value = (seed, seed * 0.7, seed * 0.3)
        nt.links.new(coord.outputs["Object"], mapping.inputs["Vector"])
        nt.links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
        lo = 0.45 if grain != "wood" else 0.2
        colour_between(nt, tex.outputs["Fac"], bsdf, rgb, second,
                       (lo, lo + (0.1 if grain != "wood" else 0.6)))
        return mat

    def _clear(self) -> None:
        bpy = self.bpy
        for obj in self.objects:
            bpy.data.objects.remove(obj, do_unlink=True)
        self.objects = []
        for mat in list(bpy.data.materials):
            bpy.data.materials.remove(mat)
        for light in list(bpy.data.lights):
            bpy.data.lights.remove(light)
        for mesh in list(bpy.data.meshes):
            if mesh != self.die_mesh and mesh.users == 0:
                bpy.data.meshes.remove(mesh)

    def _link(self, obj: Any) -> Any:
        self.scene.collection.objects.link(obj)
        self.objects.append(obj)
        return obj

    def _floor(self, rng: np.random.Generator) -> None:
        bpy = self.bpy
        name = "white board" if rng.random() < 0.5 else str(rng.choice(list(FLOORS)))
        r, g, b = (float(np.clip(v * rng.uniform(0.8, 1.2), 0, 1)) for v in FLOORS[name])
        rgb = (r, g, b)
        r2, g2, b2 = (v * float(rng.uniform(0.8, 0.95)) for v in rgb)
        second = (r2, g2, b2)
        mat = self._material("floor", rgb, float(rng.uniform(0.5, 0.95)), second=second,
                             scale=float(rng.uniform(100, 600)), seed=float(rng.uniform(0, 50)))
        mesh = bpy.data.meshes.new("floor")
        s = 0.6
        mesh.from_pydata([(-s, -s, 0), (s, -s, 0), (s, s, 0), (-s, s, 0)], [], [(0, 1, 2, 3)])
        obj = bpy.data.objects.new("floor", mesh)
        obj.data.materials.append(mat)
        self._link(obj)

    def _lights(self, rng: np.random.Generator) -> None:
        bpy = self.bpy
        kelvin = rng.uniform(2700, 6500)
        warm = np.array([1.0, 0.55 + 0.45 * (kelvin - 2700) / 3800,
                         0.25 + 0.75 * (kelvin - 2700) / 3800])
        world = bpy.data.worlds.get("room") or bpy.data.worlds.new("room")
        self.scene.world = world
        world.use_nodes = True
        bg = world.node_tree.nodes["Background"]
        bg.inputs[0].default_value = (*(0.7 + 0.3 * warm), 1.0)
        bg.inputs[1].default_value = float(rng.uniform(0.05, 0.6))
        area = bpy.data.lights.new("ceiling", "AREA")
        area.size = float(rng.uniform(0.2, 1.2))
        area.energy = float(rng.uniform(8, 40))
        area.color = tuple(float(v) for v in warm)
        obj = self._link(bpy.data.objects.new("ceiling", area))
        obj.location = (float(rng.uniform(-0.4, 0.4)), float(rng.uniform(-0.4, 0.4)),
                        float(rng.uniform(0.6, 1.2)))
        if rng.random() < 0.8:   # a small bright lamp: glare spots on glossy dice
            lamp = bpy.data.lights.new("lamp", "POINT")
            lamp.shadow_soft_size = float(rng.uniform(0.003, 0.03))
            lamp.energy = float(rng.uniform(3, 25))
            lamp.color = tuple(float(v) for v in 0.5 * warm + 0.5 * rng.uniform(0.8, 1.0, 3))
            o = self._link(bpy.data.objects.new("lamp", lamp))
            o.location = (float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.25, 0.25)),
                          float(rng.uniform(0.25, 0.6)))

    def _camera(self, rng: np.random.Generator) -> Any:
        from mathutils import Euler
        bpy = self.bpy
        data = bpy.data.cameras.new("camera")
        data.sensor_fit = "HORIZONTAL"
        data.sensor_width = 36.0
        height = rng.uniform(0.35, 0.6)
        die_px = rng.uniform(24, 50)
        f_px = die_px * height / DIE_M
        data.lens = float(f_px * 36.0 / self.size[0])
        obj = self._link(bpy.data.objects.new("camera", data))
        tilt = math.radians(rng.uniform(0, 20))
        turn = rng.uniform(0, 2 * math.pi)
        obj.location = (height * math.sin(tilt) * math.cos(turn),
                        height * math.sin(tilt) * math.sin(turn), height * math.cos(tilt))
        obj.rotation_euler = Euler((tilt, 0.0, turn + math.pi / 2), "XYZ")
        self.scene.camera = obj
        return obj

    def _dice(self, rng: np.random.Generator, count: int) -> list[tuple[Any, int, str]]:
        from mathutils import Euler, Matrix
        bpy = self.bpy
        dice = []
        places: list[np.ndarray] = []
        spread = DIE_M * rng.uniform(1.4, 2.4) * math.sqrt(count)
        for i in range(count):
            for _ in range(40):
                p = rng.uniform(-spread / 2, spread / 2, 2)
                if all(np.linalg.norm(p - q) > DIE_M * 1.45 for q in places):
                    break
            else:
                continue
            places.append(p)
            face = int(rng.integers(1, 7))
            look = _body_plan(rng)
            body = self._material(
                f"body{i}", look["rgb"], look["roughness"], second=look["second"],
                grain="wood" if look["kind"] == "wood" else "",
                transmission=look["transmission"], scale=float(rng.uniform(40, 160)),
                seed=float(rng.uniform(0, 100)))
            pip = self._material(f"pip{i}", PIP_COLOURS[look["pips"]],
                                 float(rng.uniform(0.2, 0.6)),
                                 metallic=1.0 if look["pips"] == "gold" else 0.0)
            mesh = self.die_mesh.copy()
            mesh.materials.append(body)
            mesh.materials.append(pip)
            obj = self._link(bpy.data.objects.new(f"die{i}", mesh))
            axis, angle = face_up_rotation(face)
            tip = Euler((math.radians(rng.normal(0, 2.5)), math.radians(rng.normal(0, 2.5)),
                         rng.uniform(0, 2 * math.pi)), "XYZ").to_matrix().to_4x4()
            obj.matrix_world = (Matrix.Translation((float(p[0]), float(p[1]), DIE_M / 2))
                                @ tip @ Matrix.Rotation(angle, 4, axis))
            dice.append((obj, face, f"{look['kind']} body, {look['pips']} pips"))
        return dice

    def _box(self, obj: Any, camera: Any) -> tuple[int, int, int, int] | None:
        from bpy_extras.object_utils import world_to_camera_view
        from mathutils import Vector
        w, h = self.size
        pts = []
        for corner in obj.bound_box:
            c = world_to_camera_view(self.scene, camera, obj.matrix_world @ Vector(corner))
            pts.append((c.x * w, (1 - c.y) * h))
        a = np.array(pts)
        x0, y0 = a.min(axis=0)
        x1, y1 = a.max(axis=0)
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            return None
        return round(x0), round(y0), round(x1), round(y1)

    def _pixels(self, obj: Any, camera: Any, points: np.ndarray) -> np.ndarray:
        """Image pixels (x, y) of points given in the die's own frame (metres)."""
        from bpy_extras.object_utils import world_to_camera_view
        from mathutils import Vector
        w, h = self.size
        out = []
        for p in points:
            c = world_to_camera_view(self.scene, camera, obj.matrix_world @ Vector(p))
            out.append((c.x * w, (1 - c.y) * h))
        return np.array(out)

    def pip_contrast(self, image: np.ndarray, obj: Any, camera: Any, face: int) -> float:
        """How far the top face's pips differ in colour from its body in ``image`` (0-441).

        The mean colour at the pips' centres against the mean at places no pip covers
        (:data:`BODY_SPOTS`), each over 3x3 pixels: near 0 where the pips do not show (a
        paint too near the body's colour, a pale translucent die on a white board).
        """
        h, w = image.shape[:2]

        def mean_at(points: np.ndarray) -> np.ndarray:
            px = np.clip(np.round(self._pixels(obj, camera, points)).astype(int), 1,
                         (w - 2, h - 2))
            return np.mean([image[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).mean(0)
                            for x, y in px], axis=0)

        pips = mean_at(face_points(face, PIP_SPOTS[face]))
        body = mean_at(face_points(face, BODY_SPOTS))
        return float(np.linalg.norm(pips - body))

    def render(self, rng: np.random.Generator) -> tuple[np.ndarray, list[dict[str, Any]]]:
        """A new scene drawn from ``rng``: the 8-bit BGR render and its dice's labels."""
        self._clear()
        self.scene.cycles.seed = int(rng.integers(0, 10_000))
        self._floor(rng)
        self._lights(rng)
        camera = self._camera(rng)
        dice = self._dice(rng, int(rng.integers(4, 10)))
        self.bpy.context.view_layer.update()
        path = self.workdir / "render.png"
        self.scene.render.filepath = str(path)
        self.bpy.ops.render.render(write_still=True)
        image = cv2.imread(str(path))
        if image is None:
            raise RuntimeError(f"Blender wrote no image at {path}")
        labels = []
        for obj, face, kind in dice:
            box = self._box(obj, camera)
            if box is not None:
                labels.append({"box": list(box), "pips": face, "kind": kind, "contrast": round(
                    self.pip_contrast(image, obj, camera, face), 1)})
        return image, labels


def render_face_row(workdir: Path, samples: int = 8
                    ) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """White dice with black pips showing faces 1-6 left to right, seen from straight above.

    A check of the die model and of :func:`face_up_rotation` (each face's pips where the
    labels say): returns the 480x160 BGR render and each die's box.
    """
    scene = DiceScene(workdir, samples, (480, 160))
    from mathutils import Matrix  # bpy (imported by the scene) provides it
    bpy = scene.bpy
    rng = np.random.default_rng(0)
    scene._floor(rng)
    scene._lights(rng)
    data = bpy.data.cameras.new("camera")
    data.type = "ORTHO"
    data.ortho_scale = 0.13
    camera = scene._link(bpy.data.objects.new("camera", data))
    camera.location = (0.0, 0.0, 0.5)
    scene.scene.camera = camera
    boxes = []
    for i, face in enumerate(range(1, 7)):
        mesh = scene.die_mesh.copy()
        mesh.materials.append(scene._material(f"body{i}", (0.8, 0.8, 0.78), 0.3))
        mesh.materials.append(scene._material(f"pip{i}", (0.01, 0.01, 0.01), 0.4))
        obj = scene._link(bpy.data.objects.new(f"die{i}", mesh))
        axis, angle = face_up_rotation(face)
        obj.matrix_world = (Matrix.Translation(((i - 2.5) * 0.02, 0.0, DIE_M / 2))
                            @ Matrix.Rotation(angle, 4, axis))
        bpy.context.view_layer.update()
        box = scene._box(obj, camera)
        if box is None:
            raise RuntimeError(f"face {face}: the die is out of the frame")
        boxes.append(box)
    path = workdir / "faces.png"
    scene.scene.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    image = cv2.imread(str(path))
    if image is None:
        raise RuntimeError(f"Blender wrote no image at {path}")
    return image, boxes


def develop(image: np.ndarray, rng: np.random.Generator) -> bytes:
    """A phone's processing of the render: a little blur, sensor noise, JPEG."""
    x: np.ndarray = cv2.GaussianBlur(image.astype(np.float32), (0, 0),
                                     float(rng.uniform(0.3, 1.0)))
    x = x * rng.uniform(0.8, 1.15) + rng.normal(0, rng.uniform(1, 5), x.shape)
    ok, data = cv2.imencode(".jpg", np.clip(x, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 92))])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def main() -> None:
    """Render ``--scenes`` scenes (skipping those written) within ``--minutes``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=int, default=400)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--size", default="320x320", help="render size WxH")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    labels_path = args.out / "labels.json"
    labels = json.loads(labels_path.read_text()) if labels_path.is_file() else {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        scene = DiceScene(Path(tmp), args.samples, (w, h))
        for i in range(args.scenes):
            if time.monotonic() - start > args.minutes * 60:
                print(f"time is up after {len(labels)} scenes", flush=True)
                break
            name = f"{i:05d}.jpg"
            if name in labels and (args.out / name).is_file():
                continue
            rng = np.random.default_rng([args.seed, i])
            image, dice = scene.render(rng)
            (args.out / name).write_bytes(develop(image, rng))
            labels[name] = dice
            labels_path.write_text(json.dumps(labels, indent=0))
            print(f"{name}: {len(dice)} dice ({time.monotonic() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
