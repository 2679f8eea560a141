"""Small Blender (``bpy``) shader pieces the photoreal renderers share.

The table renderer (:mod:`vision.devtools.render_table`) and the dice renderer
(:mod:`vision.devtools.render_dice`) both build Principled BSDF materials whose base colour
runs between two colours along a procedural texture. ``bpy`` is passed in, so importing
this module needs no Blender (the ``[render]`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def principled(bpy: Any, name: str, roughness: float) -> tuple[Any, Any, Any]:
    """A new node-based material: ``(material, its node tree, its Principled BSDF)``."""
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    tree = material.node_tree
    bsdf = tree.nodes["Principled BSDF"]
    bsdf.inputs["Roughness"].default_value = roughness
    return material, tree, bsdf


def colour_between(tree: Any, factor: Any, bsdf: Any, low: Sequence[float],
                   high: Sequence[float], at: tuple[float, float] | None = None) -> Any:
    """Drive ``bsdf``'s base colour from ``low`` to ``high`` RGB by a texture output.

    Args:
        tree: the material's node tree.
        factor: the texture's output socket (``Fac``) that chooses the colour.
        bsdf: the Principled BSDF node.
        low: the colour at the ramp's first stop.
        high: the colour at its second stop.
        at: the two stops' positions (Blender's default, 0 and 1, when omitted).

    Returns:
        The colour-ramp node.
    """
    ramp = tree.nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (*low, 1.0)
    ramp.color_ramp.elements[1].color = (*high, 1.0)
    if at is not None:
        ramp.color_ramp.elements[0].position = at[0]
        ramp.color_ramp.elements[1].position = at[1]
    tree.links.new(factor, ramp.inputs["Fac"])
    tree.links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    return ramp
