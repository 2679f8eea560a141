r"""Training the dice reader (:mod:`vision.readers.dice_reader`) with PyTorch, exported to ONNX.

Training only (``pip install -e .[train]``); the table runs the exported network with
OpenCV's DNN module.

Network: 3x3 convolutions of 24, 32-32, 64-64 and 96 channels (batch norm, ReLU, 2x2 max
pooling between the groups), a global average (pip detectors summed over the face, which is
what counting needs) and a linear layer to the six faces and "not a die".
Dice: the labelled dice (with the project's corrections) of the training photos of
``vision/models/dice_split.json``, and boxes that are not dice (a seventh class: what the
detector finds there at a low heat that is no labelled die, such as the lid's grey discs,
and die-sized boxes clear of the dice), so the reader can veto the detector's mistakes; the
tune photos say which epoch to keep; the held-out photos are never read here.
Each labelled die is seen through its labelled box and, where the detector finds it (IoU >=
0.5), through the detector's box too: at the table the reader gets the detector's boxes.
With ``--rendered DIR`` (repeatable) every batch also holds rendered dice
(:mod:`vision.devtools.render_dice`: the dark, smoky, marbled, wooden and glaring kinds the
photos have few of), a share ``--rendered-share`` of the batch's photo dice; renders whose
pips do not show (:data:`MIN_CONTRAST`) are left out. ``--crop`` trains on crops of another
side than 40 px; the exported model's ``.json`` says so, and the table's reader crops so.
Augmentation, aimed at what was misread: any rotation, zoom 0.85-1.15, shifts of 8 % and box
edges moved by up to 8 % (the detector's boxes are not the labels'), mirror, swapped or mixed
colour channels (other dye and pip colours), pips and face swapped in brightness (dark pips
on a light face and the reverse), smoke (the face darkened and its contrast lowered), marbling
(smooth swirls of another colour over the face), glare
(a bright soft spot), blur and noise. Cross-entropy with label smoothing, AdamW, cosine
schedule, fixed seed. With ``--average-from F`` the weights are averaged over the epochs
after the share F of the time (batch norm's running statistics with them) and the
average is kept instead of the epoch best on the tune photos: the tune
photos then only measure the run, they choose nothing inside it.

Usage::

    nice -n 10 .venv/bin/python -m vision.devtools.dice_reader_train \
        ../shared/data/dice/train/labels.json --minutes 40 --out vision/models/dice_reader.onnx
    nice -n 10 .venv/bin/python -m vision.devtools.dice_reader_train \
        ../shared/data/dice/train/labels.json --resume reader.pt --minutes 25 --lr 2e-3 \
        --strength 1 --average-from 0.4 --seed 21 --out reader_21.onnx
    nice -n 10 .venv/bin/python -m vision.devtools.render_dice --out artifacts/dice_render \
        --scenes 600 --minutes 30
    nice -n 10 .venv/bin/python -m vision.devtools.dice_reader_train \
        ../shared/data/dice/train/labels.json --resume reader.pt --minutes 33 --lr 2e-3 \
        --strength 1 --average-from 0.4 --rendered artifacts/dice_render --crop 56 \
        --out reader_56.onnx
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.devtools.dice_data import load_labels, read_photo
from vision.devtools.dice_training_run import start_run
from vision.readers.dice import box_iou
from vision.readers.dice_detect import find_dice_net
from vision.readers.dice_reader import NOT_A_DIE, READER_PX, reader_crop

Item = tuple[str, tuple[int, int, int, int], int]
MIN_CONTRAST = 40.0
"""Rendered dice whose pips differ less than this from their body (8-bit colour distance,
:meth:`vision.devtools.render_dice.DiceScene.pip_contrast`) are not trained on."""


def _one(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class DiceReader(nn.Module):
    """Input (N, 3, 40, 40) standardised crops, output (N, 7) logits: faces 1-6, not a die."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(_one(3, 24), nn.MaxPool2d(2), _one(24, 32), _one(32, 32),
                                      nn.MaxPool2d(2), _one(32, 64), _one(64, 64),
                                      nn.MaxPool2d(2), nn.Conv2d(64, 96, 3, 1, 1),
                                      nn.ReLU(inplace=True))
        self.classify = nn.Linear(96, 7)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits of the six faces and of "not a die"."""
        return self.classify(self.features(x).mean(dim=(2, 3)))


def augmented(image: np.ndarray, box: tuple[int, int, int, int],
              rng: np.random.Generator, strength: float = 1.0, size: int = READER_PX
              ) -> np.ndarray:
    """A randomly spoilt crop of one die (see the module's list), ``size`` px square.

    ``strength`` (0-1) scales how often the colour, smoke, glare and blur spoilers apply:
    training starts mild and ends at full strength.
    """
    k = size / READER_PX                        # spoilers' sizes scale with the crop
    side = max(box[2] - box[0], box[3] - box[1])
    jitter = rng.uniform(-0.08, 0.08, 4) * side
    b = tuple(float(v + j) for v, j in zip(box, jitter, strict=True))
    crop = reader_crop(image, b, angle=float(rng.uniform(0, 360)),
                       scale=float(rng.uniform(0.85, 1.15)),
                       shift=(float(rng.uniform(-0.08, 0.08)), float(rng.uniform(-0.08, 0.08))),
                       size=size)
    if rng.random() < 0.5:
        crop = crop[:, :, ::-1]
    if rng.random() < 0.3 * strength:
        crop = crop[rng.permutation(3)]
    if rng.random() < 0.3 * strength:           # another dye: channels mixed
        mix = np.eye(3) + rng.normal(0, 0.35, (3, 3))
        crop = np.einsum("ij,jhw->ihw", mix, crop)
    if rng.random() < 0.25 * strength:
        crop = -crop
    yy, xx = np.mgrid[0:size, 0:size]
    if rng.random() < 0.25 * strength:          # smoke: lower contrast, a murky cast
        crop = crop * rng.uniform(0.35, 0.8) + rng.normal(0, 0.3, (3, 1, 1))
    if rng.random() < 0.2 * strength:           # marbled: swirls of another colour
        swirl = cv2.GaussianBlur(rng.normal(0, 1, (size, size)).astype(np.float32),
                                 (0, 0), k * rng.uniform(1.5, 4.0))
        swirl = swirl / (swirl.std() + 1e-6) * rng.uniform(0.3, 0.9)
        crop = crop + swirl[None] * rng.normal(0, 1, (3, 1, 1))
    if rng.random() < 0.3 * strength:           # glare
        gx, gy = rng.uniform(8 * k, size - 8 * k, 2)
        r = k * rng.uniform(3, 9)
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))
        crop = crop + rng.uniform(1.0, 3.0) * spot
    if rng.random() < 0.3 * strength:
        crop = np.stack([cv2.GaussianBlur(c, (0, 0), k * rng.uniform(0.5, 1.3)) for c in crop])
    crop = crop + rng.normal(0, rng.uniform(0, 0.15), crop.shape)
    crop = (crop - crop.mean(axis=(1, 2), keepdims=True)) / (
        crop.std(axis=(1, 2), keepdims=True) + 0.05)
    return np.ascontiguousarray(crop, np.float32)


def _views(model: nn.Module, images: dict[str, np.ndarray], items: list[Item],
           size: int = READER_PX) -> np.ndarray:
    x = torch.from_numpy(np.stack([reader_crop(images[n], b, size=size) for n, b, _ in items]))
    with torch.no_grad():
        p = torch.softmax(model(x), 1) + torch.softmax(model(torch.rot90(x, 1, (2, 3))), 1)
    return p.numpy() / 2


def accuracy(model: nn.Module, images: dict[str, np.ndarray], items: list[Item],
             size: int = READER_PX) -> float:
    """Share of dice ``items`` whose face is read right from ``size`` px crops.

    The likeliest of the six faces, both views averaged as at the table.
    """
    guess = _views(model, images, items, size)[:, :6].argmax(1) + 1
    return float((guess == np.array([v for *_, v in items])).mean())


def rejected(model: nn.Module, images: dict[str, np.ndarray], items: list[Item],
             size: int = READER_PX) -> float:
    """Share of not-a-die ``items`` the reader calls not a die."""
    if not items:
        return 1.0
    return float((_views(model, images, items, size)[:, 6] > NOT_A_DIE).mean())


def negatives(labels: dict[str, list], images: dict[str, np.ndarray], names: list[str],
              rng: np.random.Generator, per_photo: int = 6) -> list[Item]:
    """Boxes that are not dice, labelled 7.

    What the detector finds at a low heat that matches no labelled die (the lid's discs,
    rims, shadows), and die-sized boxes at random places clear of every die.
    """
    found: list[Item] = []
    for n in names:
        dice = labels[n]
        sides = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice] or [36]
        for b in find_dice_net(images[n], score=0.15):
            if all(box_iou(b, d.box) < 0.2 for d in dice):
                found.append((n, b, 7))
        h, w = images[n].shape[:2]
        for _ in range(per_photo):
            side = int(np.median(sides) * rng.uniform(0.8, 1.2))
            x, y = int(rng.integers(0, w - side)), int(rng.integers(0, h - side))
            b = (x, y, x + side, y + side)
            if all(box_iou(b, d.box) < 0.1 for d in dice):
                found.append((n, b, 7))
    return found


def detector_items(labels: dict[str, list], images: dict[str, np.ndarray], names: list[str]
                   ) -> list[Item]:
    """The labelled dice as the detector boxes them at the table (IoU >= 0.5), labelled."""
    found: list[Item] = []
    for n in names:
        for b in find_dice_net(images[n]):
            best = max(labels[n], key=lambda d: box_iou(b, d.box), default=None)
            if best is not None and box_iou(b, best.box) >= 0.5:
                found.append((n, b, best.pips))
    return found


class WeightAverage:
    """A running average of a model's weights over epochs (stochastic weight averaging)."""

    def __init__(self) -> None:
        self.count = 0
        self.state: dict[str, torch.Tensor] = {}

    def add(self, model: nn.Module) -> None:
        """Take the model's present weights into the average."""
        self.count += 1
        for k, v in model.state_dict().items():
            if k not in self.state or not v.is_floating_point():
                self.state[k] = v.detach().clone()
            else:
                self.state[k] += (v.detach() - self.state[k]) / self.count

    def into(self, model: nn.Module) -> None:
        """Load the average into ``model``, batch norm's running statistics averaged too.

        (Measuring them again on spoilt training crops read the tune photos worse: 150 and
        150 of 158 dice against 152 and 152 for two runs.)
        """
        model.load_state_dict(self.state)
        model.eval()


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--strength", type=float,
                        help="how often the spoilers apply, 0-1 (default: 0.2 rising to 1 over "
                             "half the run, 0.6 when resuming)")
    parser.add_argument("--average-from", type=float,
                        help="average the weights over the epochs after this share of the "
                             "time and keep the average (no epoch chosen on the tune photos)")
    parser.add_argument("--crop", type=int, default=READER_PX,
                        help=f"the crops' side in pixels (default {READER_PX}; written to the "
                             "model's .json for the table)")
    parser.add_argument("--rendered", type=Path, action="append", default=[],
                        help="a folder of rendered dice (vision.devtools.render_dice: "
                             "labels.json and the images); may be repeated")
    parser.add_argument("--rendered-share", type=float, default=0.3,
                        help="rendered dice per batch, as a share of the batch's photo dice")


def export(model: nn.Module, path: Path, size: int = READER_PX) -> None:
    """Write ``model`` as ONNX for OpenCV's DNN module (evaluation mode, any batch).

    Its crop side goes in the ``.json`` beside it (``{"crop_px": size}``), which the table's
    reader (:func:`vision.readers.dice_reader.crop_px`) reads.
    """
    was = model.training
    model.eval()
    torch.onnx.export(model, (torch.zeros(1, 3, size, size),), str(path),
                      input_names=["crops"], output_names=["logits"], opset_version=13,
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, dynamo=False)
    path.with_suffix(".json").write_text(json.dumps({"crop_px": size}) + "\n",
                                         encoding="utf-8")
    model.train(was)


def rendered_items(folders: list[Path], images: dict[str, np.ndarray],
                   min_contrast: float = MIN_CONTRAST) -> list[Item]:
    """The labelled dice of rendered folders whose pips show; their images go into ``images``.

    A rendered die whose pips differ from its body by less than ``min_contrast`` (the
    renderer's ``contrast``, a colour distance in 8-bit units) is left out: nobody could
    read it, so its label would teach noise.

    Raises:
        ValueError: naming the folder whose labels or an image cannot be read.
    """
    found: list[Item] = []
    for folder in folders:
        # a render's labels are right by construction: its own overrides file, if any
        labelled = load_labels(folder / "labels.json", folder / "overrides.json")
        raw = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        for name, dice in labelled.items():
            keep = [d for d, r in zip(dice, raw[name], strict=True)
                    if r.get("contrast", min_contrast) >= min_contrast]
            if keep:
                key = f"{folder}/{name}"
                images[key] = read_photo(folder / name)
                found += [(key, d.box, d.pips) for d in keep]
    return found


def main() -> None:
    """Train, keep the epoch best on the tune photos, export ONNX."""
    run = start_run(__doc__.splitlines()[0], minutes=40.0, batch=64, lr=5e-3,
                    out="vision/models/dice_reader.onnx", options=_options)
    args, rng, labels, split, folder = run.args, run.rng, run.labels, run.split, run.folder
    names = split["train"] + split["tune"]
    images = {n: read_photo(folder / n) for n in names}
    items = {part: [(n, d.box, d.pips) for n in split[part] for d in labels[n]]
             for part in ("train", "tune")}
    neg = {part: negatives(labels, images, split[part], rng) for part in ("train", "tune")}
    print(f"not-a-die boxes: {len(neg['train'])} train, {len(neg['tune'])} tune", flush=True)
    boxed = detector_items(labels, images, split["train"])
    print(f"dice as the detector boxes them: {len(boxed)} train", flush=True)
    rendered = rendered_items(args.rendered, images)
    print(f"rendered dice: {len(rendered)}", flush=True)
    size = args.crop
    model = DiceReader()
    if args.resume:
        state = torch.load(args.resume)["model"]
        if state["classify.weight"].shape[0] == 6:       # a six-face reader: add the 7th
            state["classify.weight"] = torch.cat([state["classify.weight"],
                                                  model.classify.weight.data[6:]])
            state["classify.bias"] = torch.cat([state["classify.bias"],
                                                torch.zeros(1)])
        model.load_state_dict(state)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    budget = args.minutes * 60
    start = time.monotonic()
    best: tuple[float, dict] = (-1.0, {})
    average = WeightAverage()
    epoch = 0
    train = items["train"] + boxed
    per_batch = args.batch // 5
    per_render = round(args.batch * args.rendered_share) if rendered else 0
    while (elapsed := time.monotonic() - start) < budget:
        model.train()
        order = rng.permutation(len(train))
        for s in range(0, len(order), args.batch):
            elapsed = time.monotonic() - start
            for group in opt.param_groups:
                group["lr"] = args.lr * (0.02 + 0.98 * 0.5 * (
                    1 + math.cos(math.pi * min(1.0, elapsed / budget))))
            chosen = [train[i] for i in order[s:s + args.batch]] + [
                neg["train"][i] for i in rng.integers(0, len(neg["train"]), per_batch)] + [
                rendered[i] for i in rng.integers(0, max(1, len(rendered)), per_render)]
            strength = (args.strength if args.strength is not None else 0.6 if args.resume
                        else min(1.0, 0.2 + elapsed / (0.5 * budget)))
            x = torch.from_numpy(np.stack([augmented(images[n], b, rng, strength, size)
                                           for n, b, _ in chosen]))
            y = torch.tensor([v - 1 for *_, v in chosen])
            loss = lossf(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        epoch += 1
        model.eval()
        tune = accuracy(model, images, items["tune"], size)
        refused = rejected(model, images, neg["tune"], size)
        if args.average_from is not None:
            if elapsed >= args.average_from * budget:
                average.add(model)
        elif tune + 0.25 * refused > best[0]:
            best = (tune + 0.25 * refused, {k: v.clone() for k, v in model.state_dict().items()})
            torch.save({"model": best[1], "epoch": epoch}, args.out.with_suffix(".pt"))
            export(model, args.out, size)
        print(f"epoch {epoch} ({elapsed / 60:.1f} min) loss {loss.item():.3f} tune accuracy "
              f"{tune:.4f}, not-a-die refused {refused:.4f}; train-view "
              f"{accuracy(model, images, train[:300], size):.4f}", flush=True)
    if args.average_from is not None:
        average.into(model)
        torch.save({"model": average.state, "epoch": epoch, "averaged": average.count},
                   args.out.with_suffix(".pt"))
        print(f"averaged {average.count} epochs")
    else:
        model.load_state_dict(best[1])
    model.eval()
    print(f"kept tune accuracy {accuracy(model, images, items['tune'], size):.4f}, not-a-die "
          f"refused {rejected(model, images, neg['tune'], size):.4f}")
    export(model, args.out, size)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
