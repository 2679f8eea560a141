r"""Training many dice readers at once on one GPU: cross-validation, then the reader to ship.

Training only (``pip install -e .[train]``). :mod:`vision.devtools.dice_reader_train` trains
one reader on the CPU, choosing on the 20 tune photos (158 dice: one misread moves the figure
by 0.6 %). Here the 150 training and tune photos are dealt into folds by photo, and readers of
the same network (:class:`~vision.devtools.dice_reader_train.DiceReader`) are trained side by
side as one grouped network (:class:`MultiReader`, one group per reader): for each recipe one
reader per fold, each left without that fold's photos, plus the readers to ship, trained on
all 150. Each recipe is judged on the dice its fold readers never saw (out-of-fold: every
training die read once by a reader that did not learn from it), so a recipe is chosen on
about 1,100 dice, not 158; the held-out photos of ``vision/models/dice_split.json`` are never
read here. A recipe is a share of rendered dice per batch (:mod:`vision.devtools.render_dice`)
and the crop's side (one run per side).

Two steps::

    # here (CPU, OpenCV): the boxes to learn from, the detector's boxes and the not-dice
    .venv/bin/python -m vision.devtools.dice_reader_gpu prepare \
        ../shared/data/dice/train/labels.json --rendered artifacts/dice_render --out items.json
    # on a GPU (or slowly on the CPU): the folds' readers and the readers to ship
    python -m vision.devtools.dice_reader_gpu train items.json \
        --photos ../shared/data/dice/train --rendered artifacts/dice_render \
        --shares 0,0.3 --finals 2 --minutes 6 --crop 40 --out runs/c40

``train`` writes ``cv.json`` (each recipe's out-of-fold figures: dice read right given the
labelled box and given the detector's box, not-dice refused, photos all read right) and, per
recipe and seed, ``reader_c<crop>_r<share>_s<seed>.onnx`` with its ``.json`` (crop side) for
the table's reader.

The crops are cut on the GPU from a patch around each die (twice the crop's field, at twice
its resolution, cut once with OpenCV) by one affine resampling per crop: the same rotation,
zoom, shift and box-edge jitter as :func:`~vision.devtools.dice_reader_train.augmented`,
followed by the same spoilers (mirror, channel swaps and mixes, swapped brightness, smoke,
marbling, glare, blur, noise), each a batched tensor operation. Readers are judged on the
table's own crops (:func:`~vision.readers.dice_reader.reader_crop`), two views averaged as at
the table.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.devtools.dice_data import load_labels, load_split, read_photo
from vision.devtools.dice_reader_train import (
    MIN_CONTRAST,
    DiceReader,
    WeightAverage,
    detector_items,
    export,
    negatives,
)
from vision.readers.dice_reader import NOT_A_DIE, PAD, READER_PX, reader_crop

FOLDS = 5
FOLD_SEED = 13
OVERSAMPLE = 2
"""Patches are cut at this many times the crop's resolution (less blur from two resamplings)."""
NOT_A_DIE_LABEL = 7


# ---------------------------------------------------------------------------- preparing

def _item(src: str, name: str, box: Sequence[float], label: int, kind: str) -> dict[str, Any]:
    return {"src": src, "name": name, "box": [float(v) for v in box], "label": int(label),
            "kind": kind}


def prepare(labels_path: Path, rendered: Sequence[Path], seed: int = FOLD_SEED
            ) -> dict[str, Any]:
    """Everything the GPU step learns from, as JSON-ready data.

    The labelled dice of the training and tune photos (``die``), the detector's boxes of them
    (``boxed``, IoU >= 0.5, labelled as the die), boxes that are not dice (``not``: the
    detector's at a low heat matching no die, and die-sized boxes clear of every die), and
    the rendered dice whose pips show (``render``); the photos dealt into :data:`FOLDS`
    folds with a fixed seed.

    Raises:
        ValueError: naming the labels, a photo or a render folder that cannot be read.
    """
    labels = load_labels(labels_path)
    split = load_split()
    names = sorted(split["train"] + split["tune"])
    folder = labels_path.parent
    images = {n: read_photo(folder / n) for n in names}
    rng = np.random.default_rng(seed)
    order = [str(n) for n in rng.permutation(names)]
    folds = {n: i % FOLDS for i, n in enumerate(order)}
    items = [_item("photo", n, d.box, d.pips, "die") for n in names for d in labels[n]]
    items += [_item("photo", n, b, v, "boxed")
              for n, b, v in detector_items(labels, images, names)]
    items += [_item("photo", n, b, v, "not") for n, b, v in negatives(labels, images, names, rng)]
    for folder_path in rendered:
        raw = json.loads((folder_path / "labels.json").read_text(encoding="utf-8"))
        for name, dice in sorted(raw.items()):
            for d in dice:
                if d.get("contrast", MIN_CONTRAST) >= MIN_CONTRAST:
                    items.append(_item("render", f"{folder_path.name}/{name}", d["box"],
                                       d["pips"], "render"))
    return {"folds": folds, "items": items, "labels": str(labels_path), "seed": seed}


# ---------------------------------------------------------------------------- the network

def _group(members: int, cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(members * cin, members * cout, 3, 1, 1, groups=members,
                                   bias=False),
                         nn.BatchNorm2d(members * cout), nn.ReLU(inplace=True))


class MultiReader(nn.Module):
    """``members`` independent :class:`DiceReader` networks run as one grouped network.

    Input (N, 3 * members, S, S): member ``g`` reads channels ``3g:3g+3``. Output
    (N, members, 7). Grouped convolutions and per-channel batch norm keep the members
    apart exactly; :meth:`member` copies one out as a plain reader.
    """

    def __init__(self, members: int) -> None:
        super().__init__()
        g = members
        self.members = members
        self.features = nn.Sequential(_group(g, 3, 24), nn.MaxPool2d(2), _group(g, 24, 32),
                                      _group(g, 32, 32), nn.MaxPool2d(2), _group(g, 32, 64),
                                      _group(g, 64, 64), nn.MaxPool2d(2),
                                      nn.Conv2d(g * 64, g * 96, 3, 1, 1, groups=g),
                                      nn.ReLU(inplace=True))
        self.classify = nn.Conv2d(g * 96, g * 7, 1, groups=g)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits (N, members, 7)."""
        pooled = self.features(x).mean(dim=(2, 3), keepdim=True)
        return self.classify(pooled).view(x.shape[0], self.members, 7)

    def member(self, g: int) -> DiceReader:
        """Member ``g`` as a plain :class:`DiceReader` (evaluation mode)."""
        reader = DiceReader()
        state = {}
        for key, value in self.state_dict().items():
            if key.endswith("num_batches_tracked"):
                state[key] = value.clone()
                continue
            per = value.shape[0] // self.members
            part = value[g * per:(g + 1) * per].clone()
            if key.startswith("classify.") and key.endswith("weight"):
                part = part.reshape(7, 96)
            state[key] = part
        reader.load_state_dict(state)
        return reader.eval()


# ---------------------------------------------------------------------------- the crops

def cut_patch(image: np.ndarray, box: Sequence[float], size: int) -> np.ndarray:
    """The die's surroundings as (3, P, P) uint8, P = 2 * size * OVERSAMPLE.

    The patch is centred on the box and spans twice the table's crop (the box grown by
    :data:`PAD`), so any augmented crop lies inside it.
    """
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * (1 + 2 * PAD)
    p = 2 * size * OVERSAMPLE
    s = p / (2 * side)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    # the box's centre at the patch's middle, (p - 1) / 2, where grid_sample's 0 is
    m = np.array([[s, 0, (p - 1) / 2 - s * cx], [0, s, (p - 1) / 2 - s * cy]])
    patch = cv2.warpAffine(image, m, (p, p), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(patch.transpose(2, 0, 1))


def _standardised(x: torch.Tensor) -> torch.Tensor:
    return (x - x.mean(dim=(2, 3), keepdim=True)) / (x.std(dim=(2, 3), keepdim=True) + 0.05)


def _blurred(x: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    """Each image of ``x`` (N, C, H, W) blurred by its own Gaussian ``sigma`` (N,)."""
    n, c, h, w = x.shape
    radius = max(1, math.ceil(3 * float(sigma.max())))
    t = torch.arange(-radius, radius + 1, device=x.device, dtype=x.dtype)
    k1 = torch.exp(-(t[None] ** 2) / (2 * sigma[:, None] ** 2))
    k1 = k1 / k1.sum(1, keepdim=True)
    k2 = (k1[:, :, None] * k1[:, None, :]).repeat_interleave(c, 0)[:, None]
    out = F.conv2d(F.pad(x.reshape(1, n * c, h, w), (radius,) * 4, mode="replicate"), k2,
                   groups=n * c)
    return out.view(n, c, h, w)


def affine_crops(patches: torch.Tensor, shape: torch.Tensor, size: int, jitter: torch.Tensor,
                 angle: torch.Tensor, zoom: torch.Tensor, shift: torch.Tensor,
                 mirror: torch.Tensor) -> torch.Tensor:
    """Crops (N, 3, size, size) in [0, 1] cut from ``patches`` (N, 3, P, P) uint8.

    What :func:`~vision.readers.dice_reader.reader_crop` cuts from the photo for the box
    with its edges moved by ``jitter`` (N, 4, shares of the box's longer side), turned by
    ``angle`` (N, radians), zoomed by ``zoom`` (N), shifted by ``shift`` (N, 2, shares of
    the crop) and mirrored where ``mirror`` (N) is -1. ``shape`` (N, 2) is each box's width
    and height over its longer side.
    """
    n = patches.shape[0]
    w = shape[:, 0] + jitter[:, 2] - jitter[:, 0]
    h = shape[:, 1] + jitter[:, 3] - jitter[:, 1]
    grown = torch.maximum(w, h).clamp(min=0.2)  # the jittered crop's side over the patch's
    a = grown / (2 * zoom)                      # half of it, in the patch's [-1, 1]
    cos, sin = torch.cos(angle) * a, torch.sin(angle) * a
    tx = (jitter[:, 0] + jitter[:, 2]) / 2 / (1 + 2 * PAD) + shift[:, 0] * grown
    ty = (jitter[:, 1] + jitter[:, 3]) / 2 / (1 + 2 * PAD) + shift[:, 1] * grown
    # reader_crop puts the box's centre at pixel size / 2, half a pixel past the middle
    tx = tx - (cos * mirror - sin) / size
    ty = ty - (sin * mirror + cos) / size
    theta = torch.stack([torch.stack([cos * mirror, -sin, tx], 1),
                         torch.stack([sin * mirror, cos, ty], 1)], 1)
    grid = F.affine_grid(theta, [n, 3, size, size], align_corners=False)
    return F.grid_sample(patches.float() / 255.0, grid, mode="bilinear",
                         padding_mode="border", align_corners=False)


def augmented_crops(patches: torch.Tensor, shape: torch.Tensor, size: int,
                    strength: float, gen: torch.Generator) -> torch.Tensor:
    """Spoilt crops (N, 3, size, size) of ``patches`` (N, 3, P, P) uint8, standardised.

    ``shape`` (N, 2) holds each box's width and height over its longer side (the box-edge
    jitter moves edges by a share of that side). The steps and their odds are those of
    :func:`vision.devtools.dice_reader_train.augmented`.
    """
    n, dev = patches.shape[0], patches.device

    def u(lo: float, hi: float, *dims: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand((n, *dims), generator=gen, device=dev)

    def odds(p: float) -> torch.Tensor:
        return torch.rand(n, generator=gen, device=dev) < p

    k = size / READER_PX
    x = affine_crops(patches, shape, size, u(-0.08, 0.08, 4), u(0, 2 * math.pi),
                     u(0.85, 1.15), u(-0.08, 0.08, 2), torch.where(odds(0.5), -1.0, 1.0))
    x = _standardised(x)
    s = strength
    perm = torch.argsort(torch.rand((n, 3), generator=gen, device=dev), dim=1)
    swapped = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    x = torch.where(odds(0.3 * s)[:, None, None, None], swapped, x)
    mix = torch.eye(3, device=dev) + 0.35 * torch.randn((n, 3, 3), generator=gen, device=dev)
    x = torch.where(odds(0.3 * s)[:, None, None, None], torch.einsum("nij,njhw->nihw", mix, x),
                    x)
    x = torch.where(odds(0.25 * s)[:, None, None, None], -x, x)
    smoke = x * u(0.35, 0.8, 1, 1, 1) + 0.3 * torch.randn((n, 3, 1, 1), generator=gen, device=dev)
    x = torch.where(odds(0.25 * s)[:, None, None, None], smoke, x)
    swirl = _blurred(torch.randn((n, 1, size, size), generator=gen, device=dev),
                     k * u(1.5, 4.0))
    swirl = swirl / (swirl.std(dim=(2, 3), keepdim=True) + 1e-6) * u(0.3, 0.9, 1, 1, 1)
    marbled = x + swirl * torch.randn((n, 3, 1, 1), generator=gen, device=dev)
    x = torch.where(odds(0.2 * s)[:, None, None, None], marbled, x)
    yy, xx = torch.meshgrid(torch.arange(size, device=dev, dtype=x.dtype),
                            torch.arange(size, device=dev, dtype=x.dtype), indexing="ij")
    centre = u(8 * k, size - 8 * k, 2)
    r = k * u(3, 9)
    spot = torch.exp(-((xx[None] - centre[:, 0, None, None]) ** 2
                       + (yy[None] - centre[:, 1, None, None]) ** 2)
                     / (2 * r[:, None, None] ** 2))
    glared = x + (u(1.0, 3.0)[:, None, None] * spot)[:, None]
    x = torch.where(odds(0.3 * s)[:, None, None, None], glared, x)
    x = torch.where(odds(0.3 * s)[:, None, None, None], _blurred(x, k * u(0.5, 1.3)), x)
    x = x + torch.randn(x.shape, generator=gen, device=dev) * u(0, 0.15, 1, 1, 1)
    return _standardised(x)


# ---------------------------------------------------------------------------- training

@dataclass(frozen=True)
class Member:
    """One reader of the grouped network: its recipe and the photos it may learn from.

    Attributes:
        share: rendered dice per batch, as a share of its photo dice.
        fold: the fold whose photos it never sees (None: a reader to ship, trained on all).
        seed: tells the readers to ship apart (their batches differ, not their start).
    """

    share: float
    fold: int | None
    seed: int = 0

    @property
    def tag(self) -> str:
        """``r<share>`` then ``f<fold>`` or ``s<seed>``."""
        return f"r{self.share:g}_" + (f"f{self.fold}" if self.fold is not None else
                                      f"s{self.seed}")


def members_for(shares: Sequence[float], finals: int, folds: int = FOLDS) -> list[Member]:
    """For each share: one reader per fold and ``finals`` readers to ship."""
    return [m for s in shares for m in
            [Member(s, f) for f in range(folds)] + [Member(s, None, i) for i in range(finals)]]


@dataclass
class Data:
    """The items on the device: patches, labels, which photo fold each comes from."""

    patches: torch.Tensor        # (N, 3, P, P) uint8
    shape: torch.Tensor          # (N, 2) box width and height over its longer side
    label: torch.Tensor          # (N,) 1-7
    fold: torch.Tensor           # (N,) the photo's fold, -1 for renders
    kind: list[str]
    items: list[dict[str, Any]]


def load_data(prepared: dict[str, Any], photos: Path, rendered: Sequence[Path], size: int,
              device: torch.device) -> tuple[Data, dict[str, np.ndarray]]:
    """Cut every item's patch; returns the data on ``device`` and the images by key."""
    roots = {p.name: p for p in rendered}
    images: dict[str, np.ndarray] = {}
    patches, shapes = [], []
    kept = []
    for it in prepared["items"]:
        key = f"{it['src']}:{it['name']}"
        if key not in images:
            if it["src"] == "photo":
                path = photos / it["name"]
            else:
                folder, _, name = it["name"].partition("/")
                if folder not in roots:
                    continue
                path = roots[folder] / name
            images[key] = read_photo(path)
        x0, y0, x1, y1 = it["box"]
        longer = max(x1 - x0, y1 - y0, 1.0)
        patches.append(cut_patch(images[key], it["box"], size))
        shapes.append(((x1 - x0) / longer, (y1 - y0) / longer))
        kept.append(it)
    folds = prepared["folds"]
    data = Data(torch.from_numpy(np.stack(patches)).to(device),
                torch.tensor(shapes, dtype=torch.float32, device=device),
                torch.tensor([it["label"] for it in kept], device=device),
                torch.tensor([folds[it["name"]] if it["src"] == "photo" else -1 for it in kept],
                             device=device),
                [it["kind"] for it in kept], kept)
    return data, images


def _pools(data: Data, member: Member) -> dict[str, torch.Tensor]:
    kind = np.array(data.kind)
    allowed = (data.fold != member.fold).cpu().numpy() if member.fold is not None else \
        np.ones(len(kind), bool)
    dev = data.label.device
    return {k: torch.from_numpy(np.flatnonzero(allowed & np.isin(kind, kinds))).to(dev)
            for k, kinds in (("dice", ["die", "boxed"]), ("not", ["not"]),
                             ("render", ["render"]))}


def train(data: Data, members: Sequence[Member], size: int, minutes: float, batch: int,
          lr: float, seed: int, average_from: float = 0.4, log_every: int = 500
          ) -> tuple[MultiReader, int]:
    """Train the grouped network for ``minutes``; returns it (weights averaged), steps run.

    Every step each member gets ``batch`` photo dice (fewer by its share of renders, which
    make up the rest) and ``batch // 5`` not-dice. The learning rate falls on a cosine over
    the time, the spoilers grow from mild to full over its first half, and the weights are
    averaged over the time after ``average_from`` of it (about 100 snapshots), as in
    :mod:`vision.devtools.dice_reader_train`: every reader of the group gets the same steps.
    """
    dev = data.patches.device
    torch.manual_seed(seed)
    gen = torch.Generator(device=dev)
    gen.manual_seed(seed)
    g = len(members)
    model = MultiReader(g).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    pools = [_pools(data, m) for m in members]
    average = WeightAverage()
    n_not = batch // 5
    start = time.monotonic()
    budget = minutes * 60
    step = 0
    next_snapshot = average_from
    while (t := (time.monotonic() - start) / budget) < 1.0:
        for group in opt.param_groups:
            group["lr"] = lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * t)))
        picks = []
        for m, pool in zip(members, pools, strict=True):
            n_render = round(batch * m.share) if len(pool["render"]) else 0
            parts = [(pool["dice"], batch - n_render), (pool["not"], n_not),
                     (pool["render"], n_render)]
            picks.append(torch.cat([p[torch.randint(len(p), (c,), generator=gen, device=dev)]
                                    for p, c in parts if c]))
        idx = torch.stack(picks)                          # (G, T)
        flat = idx.reshape(-1)
        crops = augmented_crops(data.patches[flat], data.shape[flat], size,
                                min(1.0, 0.2 + t / 0.5), gen)
        per = idx.shape[1]
        x = crops.view(g, per, 3, size, size).permute(1, 0, 2, 3, 4).reshape(per, g * 3, size,
                                                                              size)
        y = data.label[idx].T - 1                         # (T, G)
        logits = model(x.contiguous())
        loss = lossf(logits.reshape(-1, 7), y.reshape(-1)) * g
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if t >= next_snapshot:
            average.add(model)
            next_snapshot += (1 - average_from) / 100
        if step % log_every == 0:
            print(f"step {step} ({t * minutes:.1f} min) loss {loss.item() / g:.3f}",
                  flush=True)
        step += 1
    if average.count:
        average.into(model)
    model.eval()
    return model, step


def _probabilities(reader: nn.Module, crops: torch.Tensor) -> np.ndarray:
    with torch.no_grad():
        p = (torch.softmax(reader(crops), 1)
             + torch.softmax(reader(torch.rot90(crops, 1, (2, 3))), 1))
    return (p / 2).cpu().numpy()


def table_crops(data: Data, images: dict[str, np.ndarray], size: int, device: torch.device
                ) -> torch.Tensor:
    """Every photo item's crop exactly as the table cuts it (renders get zeros)."""
    crops = [reader_crop(images[f"{it['src']}:{it['name']}"], it["box"], size=size)
             if it["src"] == "photo" else np.zeros((3, size, size), np.float32)
             for it in data.items]
    return torch.from_numpy(np.stack(crops)).to(device)


def out_of_fold(model: MultiReader, members: Sequence[Member], data: Data,
                crops: torch.Tensor) -> dict[str, dict[str, Any]]:
    """Each recipe's figures on the dice its fold readers never saw.

    Per share: dice read right given the labelled box (``die``) and the detector's
    (``boxed``), not-dice refused (``not``), and photos whose labelled dice are all read
    right.
    """
    kind = np.array(data.kind)
    fold = data.fold.cpu().numpy()
    label = data.label.cpu().numpy()
    results: dict[str, dict[str, Any]] = {}
    for share in sorted({m.share for m in members}):
        right = np.zeros(len(kind), bool)
        refused = np.zeros(len(kind), bool)
        for g, m in enumerate(members):
            if m.share != share or m.fold is None:
                continue
            mine = np.flatnonzero(fold == m.fold)
            p = _probabilities(model.member(g).to(crops.device), crops[mine])
            right[mine] = p[:, :6].argmax(1) + 1 == label[mine]
            refused[mine] = p[:, 6] > NOT_A_DIE
        figures: dict[str, Any] = {}
        for k in ("die", "boxed"):
            sel = kind == k
            figures[k] = [int(right[sel].sum()), int(sel.sum())]
        sel = kind == "not"
        figures["not"] = [int(refused[sel].sum()), int(sel.sum())]
        photos: dict[str, bool] = {}
        for i in np.flatnonzero(kind == "die"):
            name = data.items[i]["name"]
            photos[name] = photos.get(name, True) and bool(right[i])
        figures["photos"] = [sum(photos.values()), len(photos)]
        figures["misread"] = [
            {"photo": data.items[i]["name"], "box": data.items[i]["box"],
             "pips": int(label[i])} for i in np.flatnonzero((kind == "die") & ~right)]
        results[f"{share:g}"] = figures
    return results


def _prepare_command(args: argparse.Namespace) -> None:
    prepared = prepare(args.labels, args.rendered)
    args.out.write_text(json.dumps(prepared) + "\n", encoding="utf-8")
    kinds = [it["kind"] for it in prepared["items"]]
    print(f"wrote {args.out}: " + ", ".join(f"{k} {kinds.count(k)}" for k in
                                            ("die", "boxed", "not", "render")))


def _train_command(args: argparse.Namespace) -> None:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.backends.cudnn.benchmark = True
    prepared = json.loads(args.items.read_text(encoding="utf-8"))
    data, images = load_data(prepared, args.photos, args.rendered, args.crop, device)
    members = members_for(args.shares, args.finals)
    print(f"{len(data.items)} items, {len(members)} readers at {args.crop} px on {device}",
          flush=True)
    model, steps = train(data, members, args.crop, args.minutes, args.batch, args.lr,
                         args.seed)
    print(f"{steps} steps in {args.minutes:g} min", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    figures = out_of_fold(model, members, data, table_crops(data, images, args.crop, device))
    report = {"crop": args.crop, "minutes": args.minutes, "steps": steps, "batch": args.batch,
              "lr": args.lr, "seed": args.seed, "out_of_fold": figures}
    (args.out / "cv.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    for share, f in figures.items():
        print(f"share {share}: given the box {f['die'][0]}/{f['die'][1]}, detector's box "
              f"{f['boxed'][0]}/{f['boxed'][1]}, not-dice refused {f['not'][0]}/{f['not'][1]}, "
              f"photos {f['photos'][0]}/{f['photos'][1]}", flush=True)
    for g, m in enumerate(members):
        if m.fold is None:
            export(model.member(g).cpu(), args.out / f"reader_c{args.crop}_{m.tag}.onnx",
                   args.crop)


def main(argv: Sequence[str] | None = None) -> None:
    """``prepare`` (here) or ``train`` (on a GPU); see the module's docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="the items to learn from, as JSON")
    p.add_argument("labels", type=Path)
    p.add_argument("--rendered", type=Path, action="append", default=[])
    p.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("train", help="the folds' readers and the readers to ship")
    t.add_argument("items", type=Path)
    t.add_argument("--photos", type=Path, required=True)
    t.add_argument("--rendered", type=Path, action="append", default=[])
    t.add_argument("--shares", type=lambda s: [float(v) for v in s.split(",")], default=[0.0])
    t.add_argument("--finals", type=int, default=1)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--lr", type=float, default=5e-3)
    t.add_argument("--seed", type=int, default=13)
    t.add_argument("--crop", type=int, default=READER_PX)
    t.add_argument("--minutes", type=float, default=6.0)
    t.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "prepare":
        _prepare_command(args)
    else:
        _train_command(args)


if __name__ == "__main__":
    main()
