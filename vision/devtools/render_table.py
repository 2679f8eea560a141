"""Photoreal renders of the Infinifield table with Blender (Cycles, CPU), with ground truth.

Needs the optional ``[render]`` extra (``bpy``, Blender as a Python module). For each scene
family planned by :mod:`vision.devtools.table3d_scene` it builds the table (wooden top, a
textured mat, four printed markers on cut paper), 40 mm blocks with bevelled edges and a
little colour variation, stacked blocks, pawns, a lighting rig (ceiling panel, sun through
a window with its frame's shadow, warm lamp, mixes, dim room) and sometimes an arm and hand;
renders a linear pinhole image with Cycles (few samples, OpenImageDenoise); then
:mod:`vision.devtools.photo_post` adds the lens distortion of the ground-truth camera,
shading, sensor noise, the image processor and JPEG. Ground truth (format in
``docs/vision.md``) is written beside each image.

Usage (``scripts/render_table_set`` runs it niced, in the background, with a log)::

    python -m vision.devtools.render_table --out artifacts/table3d --families 0-79

Families whose files all exist are skipped, so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.devtools.bpy_nodes import colour_between, principled
from vision.devtools.photo_post import (
    SensorPlan,
    develop,
    distort,
    distortion_maps,
    encode_jpeg,
    render_canvas,
)
from vision.devtools.table3d_scene import (
    BlockPlan,
    FamilyPlan,
    HandPlan,
    ImagePlan,
    edge_only_pairs,
    family_numbers,
    plan_family,
    split_of,
    touching_pairs,
)
from vision.devtools.table3d_truth import FORMAT
from vision.markers import TABLE_DICTIONARY, marker_image

PAPER_Z_MM = 0.15
"""Thickness of the printed paper: the markers' ink lies this far above the mat."""

PAWN_HEIGHT_MM = 29.5
PAWN_HEAD_MM = 24.0
"""Height of the centre of a pawn's spherical head above its base."""

PAWN_HEAD_RADIUS_MM = 5.5

LIGHT_SCALE = 0.22
"""All light powers of a plan are multiplied by this so the linear render rarely clips."""


def _require_bpy() -> Any:
    try:
        import bpy
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise SystemExit("render_table needs Blender as a Python module: "
                         "pip install -e '.[render]' (bpy 4.2, Python 3.11)") from exc
    return bpy


def to_blender(p: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    """Table frame (mm, y down, z into the table) to Blender world (m, z up)."""
    return (float(p[0]) / 1000.0, -float(p[1]) / 1000.0, -float(p[2]) / 1000.0)


class TableScene:
    """One family's Blender scene; images are rendered by changing what stands on it."""

    def __init__(self, plan: FamilyPlan, samples: int, workdir: Path) -> None:
        self.bpy = _require_bpy()
        self.plan = plan
        self.samples = samples
        self.workdir = workdir
        self.rng = random.Random(plan.seed * 7 + 1)
        self.objects: dict[str, Any] = {}
        # a lamp alone lights a dark room, but walls and ceiling still fill its shadows
        self.ambient_scale = LIGHT_SCALE * (2.5 if plan.light.name == "lamp" else 1.0)
        self.K_r, self.size_r = render_canvas(plan.camera)
        self._reset()
        self._materials()
        self._table()
        self._markers()
        self._lights()
        self._camera()

    # ----- scene set-up -------------------------------------------------------------------
    def _reset(self) -> None:
        bpy = self.bpy
        bpy.ops.wm.read_factory_settings(use_empty=True)
        sc = bpy.context.scene
        sc.render.engine = "CYCLES"
        sc.cycles.device = "CPU"
        sc.cycles.samples = self.samples
        sc.cycles.use_adaptive_sampling = True
        sc.cycles.adaptive_threshold = 0.03
        sc.cycles.use_denoising = True
        sc.cycles.denoiser = "OPENIMAGEDENOISE"
        sc.cycles.denoising_prefilter = "FAST"
        sc.cycles.max_bounces = 4
        sc.cycles.diffuse_bounces = 2
        sc.cycles.glossy_bounces = 2
        sc.cycles.transmission_bounces = 0
        sc.cycles.transparent_max_bounces = 2
        sc.cycles.caustics_reflective = False
        sc.cycles.caustics_refractive = False
        sc.cycles.sample_clamp_indirect = 4.0
        sc.cycles.seed = self.plan.seed % 10_000
        sc.render.threads_mode = "FIXED"
        sc.render.threads = 2
        sc.render.resolution_x, sc.render.resolution_y = self.size_r
        sc.render.resolution_percentage = 100
        sc.render.use_persistent_data = True
        sc.view_settings.view_transform = "Raw"
        sc.view_settings.look = "None"
        sc.view_settings.exposure = 0.0
        sc.render.image_settings.file_format = "PNG"
        sc.render.image_settings.color_depth = "16"
        sc.render.image_settings.color_mode = "RGB"
        world = bpy.data.worlds.new("room")
        sc.world = world
        world.use_nodes = True
        bg = world.node_tree.nodes["Background"]
        amb = self.plan.light.params["ambient_rgb"]
        bg.inputs[0].default_value = (*amb, 1.0)
        bg.inputs[1].default_value = self.plan.light.params["ambient"] * self.ambient_scale
        self.scene = sc

    def _principled(self, name: str, rgb: Sequence[float], roughness: float,
                    bump: float = 0.0, bump_scale: float = 800.0, variation: float = 0.0,
                    specular: float = 0.5, subsurface: float = 0.0) -> Any:
        mat, nt, bsdf = principled(self.bpy, name, roughness)
        bsdf.inputs["Specular IOR Level"].default_value = specular
        if subsurface:
            bsdf.inputs["Subsurface Weight"].default_value = subsurface
            bsdf.inputs["Subsurface Radius"].default_value = (1.0, 0.35, 0.2)
            bsdf.inputs["Subsurface Scale"].default_value = 0.004
        if variation or bump:
            tex = nt.nodes.new("ShaderNodeTexNoise")
            tex.inputs["Scale"].default_value = bump_scale
            tex.inputs["Detail"].default_value = 2.0
            coord = nt.nodes.new("ShaderNodeTexCoord")
            nt.links.new(coord.outputs["Object"], tex.inputs["Vector"])
        if variation:
            lo = [c * (1 - variation) for c in rgb]
            hi = [min(1.0, c * (1 + variation)) for c in rgb]
            colour_between(nt, tex.outputs["Fac"], bsdf, lo, hi, (0.3, 0.7))
        else:
            bsdf.inputs["Base Color"].default_value = (*rgb, 1.0)
        if bump:
            b = nt.nodes.new("ShaderNodeBump")
            b.inputs["Strength"].default_value = bump
            b.inputs["Distance"].default_value = 0.0003
            nt.links.new(tex.outputs["Fac"], b.inputs["Height"])
            nt.links.new(b.outputs["Normal"], bsdf.inputs["Normal"])
        return mat

    def _materials(self) -> None:
        rng = self.rng
        self.block_mats = {
            bid: self._principled(f"block_{bid}", rgb, rng.uniform(0.35, 0.6), bump=0.08,
                                  bump_scale=rng.uniform(300, 900), variation=0.04)
            for bid, rgb in self.plan.block_rgb.items()}
        from vision.devtools.table3d_scene import srgb_to_linear
        from vision.palette import DEFAULT_BGR
        self.pawn_mats = {
            name: self._principled(f"pawn_{name}", tuple(float(v) for v in srgb_to_linear(
                np.array(bgr[::-1]) / 255.0)), rng.uniform(0.18, 0.35), specular=0.6)
            for name, (kind, _l, bgr) in DEFAULT_BGR.items() if kind == "pawn"}

    def _mesh_object(self, name: str, bm: Any, material: Any, smooth: bool = False) -> Any:
        bpy = self.bpy
        mesh = bpy.data.meshes.new(name)
        bm.to_mesh(mesh)
        bm.free()
        if smooth:
            for poly in mesh.polygons:
                poly.use_smooth = True
        mesh.materials.append(material)
        obj = bpy.data.objects.new(name, mesh)
        self.scene.collection.objects.link(obj)
        return obj

    def _table(self) -> None:
        import bmesh
        bpy = self.bpy
        t = self.plan.table
        # wooden table top, 2.5 mm below the mat's surface
        wood, nt, bsdf = principled(bpy, "wood", 0.45)
        wave = nt.nodes.new("ShaderNodeTexWave")
        wave.wave_type = "BANDS"
        wave.inputs["Scale"].default_value = 6.0
        wave.inputs["Distortion"].default_value = 8.0
        wave.inputs["Detail"].default_value = 3.0
        coord = nt.nodes.new("ShaderNodeTexCoord")
        mapping = nt.nodes.new("ShaderNodeMapping")
        mapping.inputs["Rotation"].default_value = (0, 0, math.radians(t["wood_angle"]))
        mapping.inputs["Scale"].default_value = (1.0, 8.0, 1.0)
        nt.links.new(coord.outputs["Object"], mapping.inputs["Vector"])
        nt.links.new(mapping.outputs["Vector"], wave.inputs["Vector"])
        base = t["wood_rgb"]
        colour_between(nt, wave.outputs["Fac"], bsdf, [c * 0.6 for c in base],
                       [min(1, c * 1.15) for c in base])
        bm = bmesh.new()
        bmesh.ops.create_grid(bm, x_segments=1, y_segments=1, size=2.0)
        top = self._mesh_object("table", bm, wood)
        top.location = (0.3, -0.225, -0.0025)
        # the mat: a 2.5 mm slab with rounded edges, fine fibre texture
        x0, y0, x1, y1 = t["mat_rect"]
        mat = self._principled("mat", t["mat_rgb"], t["mat_roughness"], bump=0.25,
                               bump_scale=2500.0 * t["mat_scale"], variation=0.07)
        bm = bmesh.new()
        bmesh.ops.create_cube(bm, size=1.0)
        bmesh.ops.scale(bm, vec=((x1 - x0) / 1000, (y1 - y0) / 1000, 0.0025), verts=bm.verts)
        bmesh.ops.bevel(bm, geom=list(bm.edges), offset=0.0008, segments=2, affect="EDGES",
                        profile=0.5)
        slab = self._mesh_object("mat", bm, mat)
        slab.location = to_blender(((x0 + x1) / 2, (y0 + y1) / 2, 1.25))

    def _markers(self) -> None:
        import bmesh
        bpy = self.bpy
        px_mm = 12
        for mid, m in self.plan.markers.items():
            left, top, right, bottom = m["margins_mm"]
            s = self.plan.layout.marker_mm
            w_mm, h_mm = left + s + right, top + s + bottom
            img = np.full((round(h_mm * px_mm), round(w_mm * px_mm)), 247, np.uint8)
            mk = marker_image(mid, round(s * px_mm), TABLE_DICTIONARY)
            y0, x0 = round(top * px_mm), round(left * px_mm)
            img[y0:y0 + mk.shape[0], x0:x0 + mk.shape[1]] = np.where(mk > 127, 247, 18)
            path = self.workdir / f"marker_{mid}.png"
            cv2.imwrite(str(path), img)
            tex_img = bpy.data.images.load(str(path))
            mat = bpy.data.materials.new(f"paper_{mid}")
            mat.use_nodes = True
            nt = mat.node_tree
            bsdf = nt.nodes["Principled BSDF"]
            tex = nt.nodes.new("ShaderNodeTexImage")
            tex.image = tex_img
            tex.interpolation = "Cubic"
            nt.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
            inv = nt.nodes.new("ShaderNodeMapRange")
            inv.inputs["To Min"].default_value = 0.35
            inv.inputs["To Max"].default_value = 0.6
            nt.links.new(tex.outputs["Color"], inv.inputs["Value"])
            nt.links.new(inv.outputs["Result"], bsdf.inputs["Roughness"])
            corners = m["paper_mm"]
            bm = bmesh.new()
            verts = [bm.verts.new(to_blender((c[0], c[1], -PAPER_Z_MM))) for c in corners]
            face = bm.faces.new(verts)
            uv = bm.loops.layers.uv.new("UVMap")
            # paper corners clockwise from top-left (table frame, y down) -> image uv
            for loop, (u, v) in zip(face.loops, [(0, 1), (1, 1), (1, 0), (0, 0)], strict=True):
                loop[uv].uv = (u, v)
            bm.normal_update()
            obj = self._mesh_object(f"paper_{mid}", bm, mat)
            if obj.data.polygons[0].normal.z < 0:
                obj.data.flip_normals()

    def _light_obj(self, name: str, kind: str) -> tuple[Any, Any]:
        bpy = self.bpy
        data = bpy.data.lights.new(name, kind)
        obj = bpy.data.objects.new(name, data)
        self.scene.collection.objects.link(obj)
        obj.visible_camera = False
        return data, obj

    @staticmethod
    def _aim(obj: Any, target: Sequence[float]) -> None:
        from mathutils import Vector
        d = Vector(target) - obj.location
        obj.rotation_euler = d.to_track_quat("-Z", "Y").to_euler()

    def _lights(self) -> None:
        from mathutils import Vector
        p = self.plan.light.params
        centre = to_blender((self.plan.layout.width_mm / 2, self.plan.layout.height_mm / 2, 0))
        if "ceiling" in p:
            c = p["ceiling"]
            data, obj = self._light_obj("ceiling", "AREA")
            data.shape = "RECTANGLE"
            data.size, data.size_y = c["size"][0] / 1000, c["size"][1] / 1000
            data.energy = c["power"] * LIGHT_SCALE
            data.color = c["rgb"]
            obj.location = to_blender(c["pos"])
            self._aim(obj, (obj.location.x, obj.location.y, 0.0))
        if "sun" in p:
            s = p["sun"]
            data, obj = self._light_obj("sun", "SUN")
            data.energy = s["strength"] * LIGHT_SCALE
            data.color = s["rgb"]
            data.angle = math.radians(s["angle_deg"])
            d = Vector(to_blender(s["dir"])) * 1000.0  # direction the light travels
            obj.location = Vector(centre) - d.normalized()
            self._aim(obj, centre)
            # the sky seen through the window: a soft, cool area light on the sun's side
            sky, sobj = self._light_obj("sky", "AREA")
            sky.shape = "RECTANGLE"
            sky.size, sky.size_y = 1.6, 1.2
            sky.energy = p["sky"]["power"] * LIGHT_SCALE
            sky.color = p["sky"]["rgb"]
            flat = Vector((-d.x, -d.y, 0)).normalized()
            sobj.location = Vector(centre) + flat * 1.8 + Vector((0, 0, 0.9))
            self._aim(sobj, centre)
            if s["frame"]:
                self._window_frame(d.normalized(), Vector(centre), s)
        if "lamp" in p:
            lp = p["lamp"]
            data, obj = self._light_obj("lamp", "POINT")
            data.energy = lp["power"] * LIGHT_SCALE
            data.shadow_soft_size = lp["radius"] / 1000
            data.color = lp["rgb"]
            obj.location = to_blender(lp["pos"])

    def _window_frame(self, d: Any, centre: Any, s: dict[str, Any]) -> None:
        """Mullions between the sun and the table: hard stripes of shadow, unseen by camera."""
        import bmesh
        bm = bmesh.new()
        pitch = s["frame_pitch"] / 1000
        bar = 0.045
        for i in range(-4, 5):
            for horizontal in (False, True):
                size = (3.0, bar, 0.03) if horizontal else (bar, 3.0, 0.03)
                off = (0.0, i * pitch + s["frame_offset"] / 1000, 0.0) if horizontal \
                    else (i * pitch + s["frame_offset"] / 1000, 0.0, 0.0)
                geom = bmesh.ops.create_cube(bm, size=1.0)
                bmesh.ops.scale(bm, vec=size, verts=geom["verts"])
                bmesh.ops.translate(bm, vec=off, verts=geom["verts"])
        mat = self._principled("frame", (0.8, 0.8, 0.8), 0.5)
        obj = self._mesh_object("window_frame", bm, mat)
        obj.location = centre - d * 1.3
        obj.rotation_euler = (-d).to_track_quat("Z", "Y").to_euler()
        obj.visible_camera = False
        obj.visible_glossy = False
        obj.visible_diffuse = False

    def _camera(self) -> None:
        from mathutils import Matrix
        bpy = self.bpy
        cam = self.plan.camera
        data = bpy.data.cameras.new("camera")
        data.sensor_fit = "HORIZONTAL"
        data.sensor_width = 36.0
        wr, _hr = self.size_r
        data.lens = float(self.K_r[0, 0]) * 36.0 / wr
        data.clip_start = 0.01
        data.clip_end = 20.0
        obj = bpy.data.objects.new("camera", data)
        self.scene.collection.objects.link(obj)
        self.scene.camera = obj
        R = cam.R
        flip = np.diag([1.0, -1.0, -1.0])
        rb = flip @ np.stack([R[0], -R[1], -R[2]], axis=1)
        pos: np.ndarray = np.array(to_blender(cam.position_mm))
        m = np.eye(4)
        m[:3, :3] = rb
        m[:3, 3] = pos
        obj.matrix_world = Matrix(m.tolist())
        self.cam_obj = obj

    # ----- things on the table --------------------------------------------------------------
    def _block_mesh(self) -> Any:
        import bmesh
        if "block_mesh" not in self.objects:
            bpy = self.bpy
            bm = bmesh.new()
            bmesh.ops.create_cube(bm, size=0.04)
            bmesh.ops.bevel(bm, geom=list(bm.edges), offset=self.rng.uniform(0.0012, 0.002),
                            segments=3, affect="EDGES", profile=0.5)
            mesh = bpy.data.meshes.new("block")
            bm.to_mesh(mesh)
            bm.free()
            self.objects["block_mesh"] = mesh
        return self.objects["block_mesh"]

    def _pawn_bm(self) -> Any:
        import bmesh
        from mathutils import Matrix
        bm = bmesh.new()
        parts = [(9.0, 9.0, 3.0, 1.5), (7.0, 3.8, 16.0, 3.0 + 8.0), (5.4, 5.4, 1.6, 19.3)]
        for r1, r2, depth, z in parts:
            bmesh.ops.create_cone(bm, cap_ends=True, segments=32, radius1=r1 / 1000,
                                  radius2=r2 / 1000, depth=depth / 1000,
                                  matrix=Matrix.Translation((0, 0, z / 1000)))
        bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=16,
                                  radius=PAWN_HEAD_RADIUS_MM / 1000,
                                  matrix=Matrix.Translation((0, 0, PAWN_HEAD_MM / 1000)))
        return bm

    def place(self, image: ImagePlan) -> None:
        """Put the image's blocks, pawns and hand on the table (replacing what was there)."""
        bpy = self.bpy
        for name in [n for n in self.objects if n != "block_mesh"]:
            bpy.data.objects.remove(self.objects.pop(name), do_unlink=True)
        mesh = self._block_mesh()
        by_id = {b.id: b for b in image.blocks}
        for idx, b in enumerate(image.blocks):
            obj = bpy.data.objects.new(f"block_{b.id}", mesh)
            obj.pass_index = idx + 1
            self.scene.collection.objects.link(obj)
            if not mesh.materials:
                mesh.materials.append(self.block_mats[b.id])
            obj.material_slots[0].link = "OBJECT"
            obj.material_slots[0].material = self.block_mats[b.id]
            obj.location = to_blender((b.centre[0], b.centre[1], -(b.bottom + b.size[2] / 2)))
            obj.rotation_euler = (0.0, 0.0, -math.radians(b.angle))
            self.objects[obj.name] = obj
        for p in image.pawns:
            blk = by_id[p.block]
            bm = self._pawn_bm()
            obj = self._mesh_object(f"pawn_{p.colour}", bm, self.pawn_mats[p.colour], True)
            obj.location = to_blender(self.pawn_base(blk, p.offset))
            self.objects[obj.name] = obj
        if image.hand is not None:
            for obj in self._hand(image.hand):
                self.objects[obj.name] = obj

    @staticmethod
    def pawn_base(block: BlockPlan, offset: tuple[float, float]) -> tuple[float, float, float]:
        """Table-frame point under a pawn's base centre."""
        return (block.centre[0] + offset[0], block.centre[1] + offset[1], -block.top)

    def _hand(self, hand: HandPlan) -> list[Any]:
        import bmesh
        from mathutils import Matrix, Vector
        skin = self._principled("skin", hand.skin, 0.5, bump=0.05, bump_scale=3000,
                                variation=0.05, subsurface=0.15)
        target = Vector(to_blender((hand.target[0], hand.target[1], -hand.height)))
        entry = Vector(to_blender((hand.entry[0], hand.entry[1], -(hand.height + 260))))
        axis = (target - entry).normalized()
        flat = Vector((axis.x, axis.y, 0)).normalized()
        side = flat.cross(Vector((0, 0, 1))).normalized()
        up = side.cross(axis).normalized()
        basis = Matrix((side, axis, up)).transposed().to_4x4()

        def place_frame(at: Vector) -> Matrix:
            return Matrix.Translation(at) @ basis

        bm = bmesh.new()
        length = (target - entry).length + 0.25
        # forearm (local y along the arm), wrist at the target minus the hand's length
        wrist = target - axis * 0.09
        arm_mid = wrist - axis * (length / 2)
        cyl = Matrix.Rotation(math.radians(90), 4, "X")
        bmesh.ops.create_cone(bm, cap_ends=True, segments=24, radius1=0.036, radius2=0.026,
                              depth=length, matrix=place_frame(arm_mid) @ cyl.inverted()
                              @ Matrix.Diagonal((1.0, 0.75, 1.0, 1.0)))
        # palm: a flattened ellipsoid, a little wider than the wrist
        palm_c = wrist + axis * 0.045
        bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=12, radius=1.0,
                                  matrix=place_frame(palm_c)
                                  @ Matrix.Diagonal((0.041, 0.052, 0.0125, 1.0)))
        # fingers (index to little): three phalanges each, spread and gently curled
        lengths = (0.072, 0.08, 0.075, 0.06)
        for i, ln in enumerate(lengths):
            x = (i - 1.5) * (0.0185 + 0.005 * hand.spread)
            ang = math.radians((i - 1.5) * 7 * hand.spread)
            root = palm_c + side * x + axis * (0.042 - 0.004 * abs(i - 1.5)) - up * 0.002
            d = Matrix.Rotation(ang, 3, up) @ axis
            at = root
            for k, share in enumerate((0.45, 0.3, 0.25)):
                d = Matrix.Rotation(-math.radians(6 + 22 * hand.curl), 3, side) @ d
                seg_len = ln * share
                radius = 0.0088 - 0.0009 * k - 0.0006 * (i == 3)
                mid = at + d * seg_len / 2
                rot = d.to_track_quat("Z", "Y").to_matrix().to_4x4()
                bmesh.ops.create_cone(bm, cap_ends=True, segments=12, radius1=radius,
                                      radius2=radius * 0.92, depth=seg_len,
                                      matrix=Matrix.Translation(mid) @ rot)
                bmesh.ops.create_uvsphere(bm, u_segments=10, v_segments=6,
                                          radius=radius * 0.93,
                                          matrix=Matrix.Translation(at + d * seg_len))
                at = at + d * seg_len
        # thumb, along the side toward the body's midline
        tdir = (axis * 0.7 - side * 0.65 - up * 0.25).normalized()
        troot = wrist + axis * 0.025 - side * 0.028
        rot = tdir.to_track_quat("Z", "Y").to_matrix().to_4x4()
        bmesh.ops.create_cone(bm, cap_ends=True, segments=12, radius1=0.013, radius2=0.0095,
                              depth=0.065, matrix=Matrix.Translation(troot + tdir * 0.0325) @ rot)
        bmesh.ops.create_uvsphere(bm, u_segments=10, v_segments=6, radius=0.0092,
                                  matrix=Matrix.Translation(troot + tdir * 0.065))
        objs = [self._mesh_object("hand", bm, skin, smooth=True)]
        if hand.sleeve is not None:
            cloth = self._principled("sleeve", hand.sleeve, 0.9, bump=0.3, bump_scale=1500,
                                     variation=0.05)
            bm2 = bmesh.new()
            s_len = length * 0.6
            s_mid = wrist - axis * (0.12 + s_len / 2)
            bmesh.ops.create_cone(bm2, cap_ends=True, segments=24, radius1=0.045,
                                  radius2=0.038, depth=s_len,
                                  matrix=place_frame(s_mid) @ cyl.inverted()
                                  @ Matrix.Diagonal((1.0, 0.82, 1.0, 1.0)))
            objs.append(self._mesh_object("sleeve", bm2, cloth, smooth=True))
        return objs

    # ----- rendering and truth -----------------------------------------------------------------
    def render_linear(self) -> np.ndarray:
        """Render the canvas; linear BGR float32."""
        path = self.workdir / "render.png"
        self.scene.render.filepath = str(path)
        self.bpy.ops.render.render(write_still=True)
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise RuntimeError(f"Blender wrote no image at {path}")
        return img.astype(np.float32) / 65535.0

    def visible_fraction(self, points_mm: np.ndarray, owner: set[str]) -> float:
        """Share of the table-frame points that the camera sees on objects named ``owner``."""
        from mathutils import Vector
        cam = self.plan.camera
        px = cam.project(points_mm)
        w, h = cam.size
        depsgraph = self.bpy.context.evaluated_depsgraph_get()
        origin = Vector(to_blender(cam.position_mm))
        seen = 0
        for p, (u, v) in zip(points_mm, px, strict=True):
            if not (0 <= u <= w - 1 and 0 <= v <= h - 1):
                continue
            target = Vector(to_blender(p))
            d = target - origin
            hit, loc, _n, _i, obj, _m = self.scene.ray_cast(depsgraph, origin, d.normalized(),
                                                             distance=d.length + 0.002)
            if hit and obj is not None and obj.name in owner and (loc - target).length < 0.0015:
                seen += 1
        return seen / len(points_mm)

    def pixels_on(self, owner: set[str], step: int = 4) -> np.ndarray:
        """Pixels (every ``step``-th, (N, 2)) whose ray through the lens meets ``owner``."""
        from mathutils import Vector
        cam = self.plan.camera
        w, h = cam.size
        u, v = np.meshgrid(np.arange(step // 2, w, step), np.arange(step // 2, h, step))
        pts = np.stack([u.ravel(), v.ravel()], 1).astype(np.float64)
        norm = cv2.undistortPoints(pts.reshape(-1, 1, 2), cam.K, cam.dist, None, None, None,
                                   (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9)
                                   ).reshape(-1, 2)
        rays = np.concatenate([norm, np.ones((len(norm), 1))], 1) @ cam.R
        depsgraph = self.bpy.context.evaluated_depsgraph_get()
        origin = Vector(to_blender(cam.position_mm))
        found = []
        for p, (dx, dy, dz) in zip(pts, rays, strict=True):
            d = Vector((dx, -dy, -dz)).normalized()
            hit, _loc, _n, _i, obj, _m = self.scene.ray_cast(depsgraph, origin, d)
            if hit and obj is not None and obj.name in owner:
                found.append(p)
        return np.array(found).reshape(-1, 2)


def _grid_on_top(b: BlockPlan, n: int = 5, inset: float = 3.0) -> np.ndarray:
    t = math.radians(b.angle)
    c, s = math.cos(t), math.sin(t)
    offs = np.linspace(-b.size[0] / 2 + inset, b.size[0] / 2 - inset, n)
    return np.array([[b.centre[0] + c * x - s * y, b.centre[1] + s * x + c * y, -b.top - 0.01]
                     for x in offs for y in offs])


def truth_document(scene: TableScene, image: ImagePlan, image_id: str,
                   extra: dict[str, Any]) -> dict[str, Any]:
    """The ground-truth JSON of one rendered image (format ``table3d/1``)."""
    plan = scene.plan
    cam = plan.camera
    by_id = {b.id: b for b in image.blocks}
    blocks = []
    for b in image.blocks:
        top = b.top_corners()
        blocks.append({
            "id": b.id, "colour": b.colour, "level": b.level,
            "centre_mm": [b.centre[0], b.centre[1]], "angle_deg": b.angle,
            "size_mm": list(b.size), "bottom_mm": b.bottom, "top_mm": b.top,
            "rests_on": list(b.rests_on), "top_corners_mm": top.tolist(),
            "top_corners_px": cam.project(top).tolist(),
            "top_centre_px": cam.project([[b.centre[0], b.centre[1], -b.top]])[0].tolist(),
            "top_visible": round(scene.visible_fraction(_grid_on_top(b), {f"block_{b.id}"}), 3),
            "albedo_linear_rgb": [round(v, 4) for v in plan.block_rgb[b.id]]})
    pawns = []
    for p in image.pawns:
        base = TableScene.pawn_base(by_id[p.block], p.offset)
        head = (base[0], base[1], base[2] - PAWN_HEAD_MM)
        cap = [(head[0] + dx, head[1] + dy, head[2] - PAWN_HEAD_RADIUS_MM * 0.8)
               for dx in (-1.5, 0, 1.5) for dy in (-1.5, 0, 1.5)]
        pawns.append({
            "colour": p.colour, "block": p.block, "base_mm": list(base),
            "height_mm": PAWN_HEIGHT_MM, "head_mm": list(head),
            "head_px": cam.project([head])[0].tolist(),
            "base_px": cam.project([base])[0].tolist(),
            "visible": round(scene.visible_fraction(np.array(cap), {f"pawn_{p.colour}"}), 3)})
    markers = {}
    for mid, m in plan.markers.items():
        corners = np.asarray(m["corners_mm"], np.float64).copy()
        corners[:, 2] = -PAPER_Z_MM
        markers[str(mid)] = {"corners_mm": corners.tolist(),
                             "corners_px": cam.project(corners).tolist(),
                             "paper_mm": np.asarray(m["paper_mm"]).tolist(),
                             "visible": round(scene.visible_fraction(
                                 corners + np.array([0, 0, -0.01]), {f"paper_{mid}"}), 3)}
    hand: dict[str, Any] = {"present": False, "bbox_px": None}
    if image.hand is not None:
        hand = _hand_truth(scene, image.hand)
    return {
        "format": FORMAT, "id": image_id, "family": plan.family, "role": image.role,
        "split": plan.split, "kind": plan.kind, "image": f"{image_id}.jpg",
        "camera": cam.to_json(), "layout": plan.layout.to_json(),
        "blocks": blocks, "pawns": pawns,
        "touching": [list(p) for p in touching_pairs(image.blocks)],
        "touching_edge_only": [list(p) for p in edge_only_pairs(image.blocks)],
        "markers": markers, "hand": hand,
        "lighting": {"name": plan.light.name, **plan.light.params},
        "action": image.action, **extra}


def _hand_truth(scene: TableScene, hand: HandPlan) -> dict[str, Any]:
    hit = scene.pixels_on({"hand", "sleeve"}, step=4)
    doc: dict[str, Any] = {"present": bool(len(hit) >= 3), "bbox_px": None,
                           "area_px": int(len(hit) * 16),
                           "entry_mm": list(hand.entry), "target_mm": list(hand.target),
                           "palm_height_mm": hand.height, "skin_linear_rgb": list(hand.skin),
                           "sleeve_linear_rgb": None if hand.sleeve is None
                           else list(hand.sleeve)}
    if doc["present"]:
        w, h = scene.plan.camera.size
        x0, y0 = np.clip(hit.min(axis=0) - 3, 0, [w - 1, h - 1])
        x1, y1 = np.clip(hit.max(axis=0) + 3, 0, [w - 1, h - 1])
        doc["bbox_px"] = [float(x0), float(y0), float(x1), float(y1)]
    return doc


ROLES = ("before", "after", "hand", "ground")
"""Render order of a family's images (the first one rendered fixes exposure and gains).

``ground`` (stacked families) is the field's first level before anything was stacked on it;
it comes last, so the families rendered before it existed keep their images."""


def render_family(plan: FamilyPlan, out: Path, samples: int, log: Any,
                  force: bool = False) -> list[str]:
    """Render the images of ``plan`` into ``out``; returns the image ids written.

    Images already in ``out`` are kept (unless ``force``); their exposure and white-balance
    gains are reused, so a family completed later looks like one camera's frames.
    """
    written: list[str] = []
    with tempfile.TemporaryDirectory(prefix="table3d_") as tmp:
        scene = TableScene(plan, samples, Path(tmp))
        sensor = SensorPlan.draw(random.Random(plan.seed * 13 + 5), plan.light.name == "dim")
        maps = distortion_maps(plan.camera, scene.K_r, sensor.chroma)
        exposure: float | None = None
        awb = None
        for role in ROLES:
            image = plan.images.get(role)
            if image is None:
                continue
            image_id = f"{plan.family}_{role}"
            done = out / f"{image_id}.json"
            if not force and done.is_file() and (out / f"{image_id}.jpg").is_file():
                old = json.loads(done.read_text(encoding="utf-8"))["sensor"]
                exposure, awb = float(old["exposure"]), np.array(old["awb_gains_bgr"])
                continue
            t0 = time.monotonic()
            scene.place(image)
            linear = scene.render_linear()
            t_render = time.monotonic() - t0
            photo = distort(linear, maps)
            noise_rng = np.random.default_rng(plan.seed * 31 + ROLES.index(role))
            bgr, exposure, awb = develop(photo, sensor, noise_rng, exposure, awb)
            jpeg = encode_jpeg(bgr, sensor.jpeg_quality)
            doc = truth_document(scene, image, image_id, {
                "render": {"engine": "cycles-cpu", "blender": scene.bpy.app.version_string,
                           "samples": samples, "canvas_px": list(scene.size_r),
                           "light_scale": LIGHT_SCALE, "ambient_scale": scene.ambient_scale,
                           "canvas_K": scene.K_r.tolist(), "seconds": round(t_render, 2),
                           "seed": plan.seed},
                "sensor": {**sensor.to_json(), "exposure": exposure,
                           "awb_gains_bgr": [float(v) for v in awb]}})
            _write_atomic(out / f"{image_id}.jpg", jpeg)
            _write_atomic(out / f"{image_id}.json", (json.dumps(
                compact_document(doc), separators=(",", ":")) + "\n").encode("utf-8"))
            written.append(image_id)
            print(f"{image_id}: {plan.kind} {plan.light.name} {plan.camera.size[0]}x"
                  f"{plan.camera.size[1]} h={plan.camera.height_mm:.0f} mm, render "
                  f"{t_render:.1f} s, total {time.monotonic() - t0:.1f} s", file=log, flush=True)
    return written


def retruth_family(plan: FamilyPlan, out: Path) -> list[str]:
    """Rewrite the ground truth of a rendered family from its plan, without rendering.

    The ``render`` and ``sensor`` records of the existing files are kept. For fixing how the
    truth is computed without paying for the images again.
    """
    written: list[str] = []
    with tempfile.TemporaryDirectory(prefix="table3d_") as tmp:
        scene = TableScene(plan, 1, Path(tmp))
        for role, image in plan.images.items():
            image_id = f"{plan.family}_{role}"
            path = out / f"{image_id}.json"
            if not path.is_file():
                continue
            old = json.loads(path.read_text(encoding="utf-8"))
            scene.place(image)
            doc = truth_document(scene, image, image_id,
                                 {"render": old["render"], "sensor": old["sensor"]})
            _write_atomic(path, (json.dumps(compact_document(doc), separators=(",", ":"))
                                 + "\n").encode("utf-8"))
            written.append(image_id)
    return written


def _write_atomic(path: Path, data: bytes) -> None:
    """Write a file so that a reader (another render process) never sees half of it."""
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_bytes(data)
    tmp.replace(path)


def rounded(value: Any, digits: int = 4) -> Any:
    """``value`` with floats rounded (the camera's own numbers are kept exact by the caller)."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v, digits) for v in value]
    return value


def compact_document(doc: dict[str, Any]) -> dict[str, Any]:
    """The ground truth with every float but the camera's rounded to 4 decimals."""
    return {k: (v if k == "camera" else rounded(v)) for k, v in doc.items()}


def write_index(out: Path) -> None:
    """``split.json`` and ``index.json`` for the images present in ``out``."""
    entries = []
    for path in sorted(out.glob("f*_*.json")):
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            print(f"{path}: skipped in the index ({exc})", file=sys.stderr)
            continue
        entries.append({"id": d["id"], "family": d["family"], "role": d["role"],
                        "split": d["split"], "kind": d["kind"],
                        "size": d["camera"]["image_size"], "lighting": d["lighting"]["name"],
                        "height_mm": round(d["camera"]["height_mm"]),
                        "hand": d["hand"]["present"], "action": d["action"],
                        "blocks": len(d["blocks"]), "pawns": len(d["pawns"])})
    families = sorted({e["family"] for e in entries})
    split = {"rule": "family number % 4 == 3 is held out: never tune on these",
             "tune": [f for f in families if split_of(int(f[1:])) == "tune"],
             "holdout": [f for f in families if split_of(int(f[1:])) == "holdout"]}
    _write_atomic(out / "split.json", (json.dumps(split, indent=1) + "\n").encode())
    _write_atomic(out / "index.json", ("[\n" + ",\n".join(
        json.dumps(e, separators=(",", ":")) for e in entries) + "\n]\n").encode())


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: render families into a folder."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="output folder")
    ap.add_argument("--families", default="0-79", help="family numbers, e.g. 0-19,40")
    ap.add_argument("--samples", type=int, default=8, help="Cycles samples per pixel")
    ap.add_argument("--size", default=None, help="force an image size, e.g. 1280x960")
    ap.add_argument("--force", action="store_true", help="re-render existing families")
    ap.add_argument("--index-only", action="store_true",
                    help="only rewrite split.json and index.json for the images in --out")
    ap.add_argument("--truth-only", action="store_true",
                    help="rewrite the ground truth of rendered families, render nothing")
    ap.add_argument("--roles", default=None,
                    help="only these images of each family, e.g. ground (the set-up image "
                         "is kept in the plan: an existing one gives the exposure)")
    ap.add_argument("--level-study", action="store_true",
                    help="stacked fields with 5-8 blocks on others, set-up image only "
                         "(level-network training data; use a folder of its own)")
    args = ap.parse_args(argv)
    try:
        numbers = family_numbers(args.families)
        size = tuple(int(v) for v in args.size.split("x")) if args.size else None
    except ValueError:
        print(f"bad --families {args.families!r} or --size {args.size!r}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    if args.index_only:
        write_index(args.out)
        return 0
    for n in numbers:
        plan = plan_family(n, size, level_study=args.level_study)  # type: ignore[arg-type]
        if args.roles:
            wanted = {"before", *args.roles.split(",")}
            plan = dataclasses.replace(plan, images={r: i for r, i in plan.images.items()
                                                     if r in wanted})
        ids = [f"{plan.family}_{r}" for r in plan.images]
        if args.truth_only:
            print(" ".join(retruth_family(plan, args.out)), flush=True)
            continue
        if not args.force and all((args.out / f"{i}.json").is_file() for i in ids):
            continue
        render_family(plan, args.out, args.samples, sys.stdout, args.force)
        write_index(args.out)
    write_index(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
