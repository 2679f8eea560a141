"""Fresh before/after removal pairs for checking the play check on data nobody tuned on.

Families are planned exactly as :func:`vision.devtools.table3d_scene.plan_family` plans them
(field, pawns, camera, light, table, markers from the family's seed); the ``after`` image is
always a legal removal (drawn from a separate generator when the family's own plan is a pawn
move or nothing), and the hand image is left out. Rendered with
:func:`vision.devtools.render_table.render_family` into a folder of its own, e.g.::

    nice -n 10 python -m vision.devtools.render_removals --out artifacts/table3d_extra \
        --families 200-239

``--hands`` renders only the families with an arm over the table, their hand image too;
``--only before`` then ``--only after`` render a family's two images in separate runs (the
second reuses the first's exposure and white balance), as the set's held-out after images
were made.
Family numbers 0-87 are the shipped set; use others. Numbers with ``n % 4 == 3`` are skipped
(the shipped set's held-out rule would mark them held out).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from vision.devtools.render_table import render_family, write_index
from vision.devtools.table3d_scene import FamilyPlan, _after, family_numbers, plan_family

REMOVAL_SEED_OFFSET = 700_000
"""Offset of the generator that draws the removal when the family's plan has none."""


def removal_family(number: int, hand: bool = False) -> FamilyPlan | None:
    """The family ``number`` at 640x480 with ``before`` and a removal ``after``.

    With ``hand``, also the family's hand image (an arm reaching over the table) where its
    plan has one. Returns None when no block of the field may be removed.
    """
    plan = plan_family(number, (640, 480))
    before = plan.images["before"]
    after = plan.images.get("after")
    if after is None or after.action is None or after.action["kind"] != "remove":
        after = _after(random.Random(plan.seed + REMOVAL_SEED_OFFSET), before.blocks,
                       before.pawns, "remove")
    if after is None or after.action is None or after.action["kind"] != "remove":
        return None
    images = {"before": before, "after": after}
    if hand and "hand" in plan.images:
        images["hand"] = plan.images["hand"]
    return replace(plan, images=images)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: render removal pairs into a folder."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="output folder")
    ap.add_argument("--families", default="200-239", help="family numbers, e.g. 200-239")
    ap.add_argument("--samples", type=int, default=8, help="Cycles samples per pixel")
    ap.add_argument("--hands", action="store_true",
                    help="only families whose plan has an arm over the table, with its image")
    ap.add_argument("--only", choices=["before", "after"], default=None,
                    help="render only this image of each family (the after image in a later "
                         "run, as the set's held-out after images were made)")
    args = ap.parse_args(argv)
    try:
        numbers = [n for n in family_numbers(args.families) if n % 4 != 3 and n > 87]
    except ValueError:
        print(f"bad --families {args.families!r}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for n in numbers:
        plan = removal_family(n, args.hands)
        if plan is None:
            print(f"f{n:03d}: nothing removable, skipped", flush=True)
            continue
        if args.hands and "hand" not in plan.images:
            continue
        if args.only == "before":
            plan = replace(plan, images={"before": plan.images["before"]})
        render_family(plan, args.out, args.samples, sys.stdout)
        write_index(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
