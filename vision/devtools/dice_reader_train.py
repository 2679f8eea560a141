r"""Training the dice reader (:mod:`vision.dice_reader`) with PyTorch, exported to ONNX.

Training only (``pip install -e .[train]``); the table runs the exported network with
OpenCV's DNN module.

Network: 3x3 convolutions of 24, 32-32, 64-64 and 96 channels (batch norm, ReLU, 2x2 max
pooling between the groups), a global average (pip detectors summed over the face, which is
what counting needs) and a linear layer to the six faces.
Dice: the labelled dice (with the project's corrections) of the training photos of
``vision/models/dice_split.json``; the tune photos say which epoch to keep; the held-out photos
are never read here.
Augmentation, aimed at what was misread: any rotation, zoom 0.85-1.15, shifts of 8 % and box
edges moved by up to 8 % (the detector's boxes are not the labels'), mirror, swapped colour
channels, pips and face swapped in brightness (dark pips on a light face and the reverse),
smoke (the face darkened and its contrast lowered), glare (a bright soft spot), blur and
noise. Cross-entropy with label smoothing, AdamW, cosine schedule, fixed seed.

Usage::

    nice -n 10 .venv/bin/python -m vision.devtools.dice_reader_train \
        ../shared/data/dice/train/labels.json --minutes 40 --out vision/models/dice_reader.onnx
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.dice_data import load_labels, load_split, read_photo
from vision.dice_reader import READER_PX, reader_crop

Item = tuple[str, tuple[int, int, int, int], int]


def _one(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class DiceReader(nn.Module):
    """Input (N, 3, 40, 40) standardised crops, output (N, 6) logits of the faces 1-6."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(_one(3, 24), nn.MaxPool2d(2), _one(24, 32), _one(32, 32),
                                      nn.MaxPool2d(2), _one(32, 64), _one(64, 64),
                                      nn.MaxPool2d(2), nn.Conv2d(64, 96, 3, 1, 1),
                                      nn.ReLU(inplace=True))
        self.classify = nn.Linear(96, 6)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits of the six faces."""
        return self.classify(self.features(x).mean(dim=(2, 3)))


def augmented(image: np.ndarray, box: tuple[int, int, int, int],
              rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """A randomly spoilt crop of one die (see the module's list).

    ``strength`` (0-1) scales how often the colour, smoke, glare and blur spoilers apply:
    training starts mild and ends at full strength.
    """
    side = max(box[2] - box[0], box[3] - box[1])
    jitter = rng.uniform(-0.08, 0.08, 4) * side
    b = tuple(float(v + j) for v, j in zip(box, jitter, strict=True))
    crop = reader_crop(image, b, angle=float(rng.uniform(0, 360)),
                       scale=float(rng.uniform(0.85, 1.15)),
                       shift=(float(rng.uniform(-0.08, 0.08)), float(rng.uniform(-0.08, 0.08))))
    if rng.random() < 0.5:
        crop = crop[:, :, ::-1]
    if rng.random() < 0.3 * strength:
        crop = crop[rng.permutation(3)]
    if rng.random() < 0.25 * strength:
        crop = -crop
    yy, xx = np.mgrid[0:READER_PX, 0:READER_PX]
    if rng.random() < 0.25 * strength:          # smoke: lower contrast, a murky cast
        crop = crop * rng.uniform(0.35, 0.8) + rng.normal(0, 0.3, (3, 1, 1))
    if rng.random() < 0.3 * strength:           # glare
        gx, gy = rng.uniform(8, READER_PX - 8, 2)
        r = rng.uniform(3, 9)
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))
        crop = crop + rng.uniform(1.0, 3.0) * spot
    if rng.random() < 0.3 * strength:
        crop = np.stack([cv2.GaussianBlur(c, (0, 0), rng.uniform(0.5, 1.3)) for c in crop])
    crop = crop + rng.normal(0, rng.uniform(0, 0.15), crop.shape)
    crop = (crop - crop.mean(axis=(1, 2), keepdims=True)) / (
        crop.std(axis=(1, 2), keepdims=True) + 0.05)
    return np.ascontiguousarray(crop, np.float32)


def accuracy(model: nn.Module, images: dict[str, np.ndarray], items: list[Item]) -> float:
    """Share of ``items`` read right, both views averaged as at the table."""
    x = torch.from_numpy(np.stack([reader_crop(images[n], b) for n, b, _ in items]))
    with torch.no_grad():
        p = torch.softmax(model(x), 1) + torch.softmax(model(torch.rot90(x, 1, (2, 3))), 1)
    guess = p.argmax(1).numpy() + 1
    return float((guess == np.array([v for *_, v in items])).mean())


def export(model: nn.Module, path: Path) -> None:
    """Write ``model`` as ONNX for OpenCV's DNN module (evaluation mode, any batch)."""
    was = model.training
    model.eval()
    torch.onnx.export(model, (torch.zeros(1, 3, READER_PX, READER_PX),), str(path),
                      input_names=["crops"], output_names=["logits"], opset_version=13,
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, dynamo=False)
    model.train(was)


def main() -> None:
    """Train, keep the epoch best on the tune photos, export ONNX."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", type=Path)
    parser.add_argument("--minutes", type=float, default=40.0)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=5e-3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("vision/models/dice_reader.onnx"))
    parser.add_argument("--resume", type=Path, help="a checkpoint (.pt) to go on from")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    labels = load_labels(args.labels)
    split = load_split()
    folder = args.labels.parent
    names = split["train"] + split["tune"]
    images = {n: read_photo(folder / n) for n in names}
    items = {part: [(n, d.box, d.pips) for n in split[part] for d in labels[n]]
             for part in ("train", "tune")}
    model = DiceReader()
    if args.resume:
        model.load_state_dict(torch.load(args.resume)["model"])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    budget = args.minutes * 60
    start = time.monotonic()
    best: tuple[float, dict] = (-1.0, {})
    epoch = 0
    train = items["train"]
    while (elapsed := time.monotonic() - start) < budget:
        model.train()
        order = rng.permutation(len(train))
        for s in range(0, len(order), args.batch):
            elapsed = time.monotonic() - start
            for group in opt.param_groups:
                group["lr"] = args.lr * (0.02 + 0.98 * 0.5 * (
                    1 + math.cos(math.pi * min(1.0, elapsed / budget))))
            chosen = [train[i] for i in order[s:s + args.batch]]
            strength = min(1.0, 0.2 + elapsed / (0.5 * budget))
            x = torch.from_numpy(np.stack([augmented(images[n], b, rng, strength)
                                           for n, b, _ in chosen]))
            y = torch.tensor([v - 1 for *_, v in chosen])
            loss = lossf(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        epoch += 1
        model.eval()
        tune = accuracy(model, images, items["tune"])
        if tune >= best[0]:
            best = (tune, {k: v.clone() for k, v in model.state_dict().items()})
            torch.save({"model": best[1], "epoch": epoch}, args.out.with_suffix(".pt"))
            export(model, args.out)
        print(f"epoch {epoch} ({elapsed / 60:.1f} min) loss {loss.item():.3f} tune accuracy "
              f"{tune:.4f} train-view {accuracy(model, images, train[:300]):.4f}", flush=True)
    model.load_state_dict(best[1])
    model.eval()
    print(f"kept tune accuracy {best[0]:.4f}")
    export(model, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
