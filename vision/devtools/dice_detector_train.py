r"""Training the dice detector (:mod:`vision.readers.dice_detect`) with PyTorch, exported to ONNX.

Training only: PyTorch is not a runtime dependency (``pip install -e .[train]``); the table
runs the exported network with OpenCV's DNN module.

Network: a small encoder-decoder of 3x3 convolutions (strides 2, 2, 2, 2; batch norm, ReLU;
features of 1/8 and 1/16 scale brought back to 1/4), heads for the centre heat (focal loss),
the box's width and height and the centre's offset (L1 at the centres), as in CenterNet.
Scenes: the training photos of ``vision/models/dice_split.json`` and trays composed from them
(:mod:`vision.devtools.dice_synth`); the tune photos pick the heat threshold and say when to
stop; the held-out photos are never read here. Adam, cosine schedule, fixed seed.

Usage::

    nice -n 10 .venv/bin/python -m vision.devtools.dice_detector_train \
        ../shared/data/dice/train/labels.json --minutes 35 --out vision/models/dice_detector.onnx
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.devtools.dice_data import read_photo
from vision.devtools.dice_synth import Photo, compose, prepare
from vision.devtools.dice_training_run import start_run
from vision.readers.dice import box_iou
from vision.readers.dice_detect import (
    INPUT_PX,
    MEAN,
    SCORE,
    STD,
    STRIDE,
    decode,
    letterbox,
    to_blob,
)

WINDOW = 192
"""Training windows: the network is convolutional, so windows of the 320 px view teach it
the same dice for less than half the work."""


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DiceDetector(nn.Module):
    """The detector: input (N, 3, 320, 320), output (N, 5, 80, 80) (heat logit, w, h, dx, dy)."""

    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(_block(3, 16, 2), _block(16, 24, 2), _block(24, 24))
        self.s8 = nn.Sequential(_block(24, 40, 2), _block(40, 40), _block(40, 40, dilation=2))
        self.s16 = nn.Sequential(_block(40, 64, 2), _block(64, 64), _block(64, 64, dilation=2))
        self.up8 = _block(104, 40)
        self.up4 = _block(64, 32)
        self.head = nn.Sequential(_block(32, 32), nn.Conv2d(32, 5, 1))
        last = self.head[-1]
        assert isinstance(last, nn.Conv2d) and last.bias is not None
        nn.init.constant_(last.bias[:1], -2.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Raw outputs; the heat is a logit, sizes and offsets are in cells."""
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        u8 = self.up8(torch.cat([nn.functional.interpolate(f16, scale_factor=2.0), f8], 1))
        u4 = self.up4(torch.cat([nn.functional.interpolate(u8, scale_factor=2.0), f4], 1))
        return self.head(u4)


def targets(boxes: list[tuple[float, float, float, float]], side: int = INPUT_PX
            ) -> tuple[np.ndarray, ...]:
    """Heat (g, g), sizes and offsets (4, g, g) and where they count (g, g), g = side / 4."""
    grid = side // STRIDE
    heat = np.zeros((grid, grid), np.float32)
    reg = np.zeros((4, grid, grid), np.float32)
    where = np.zeros((grid, grid), np.float32)
    yy, xx = np.mgrid[0:grid, 0:grid]
    for x0, y0, x1, y1 in boxes:
        w, h = (x1 - x0) / STRIDE, (y1 - y0) / STRIDE
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        gx, gy = int(cx), int(cy)
        if not (0 <= gx < grid and 0 <= gy < grid) or w < 1 or h < 1:
            continue
        sigma = max(0.5, min(w, h) / 6)
        heat = np.maximum(heat, np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma ** 2)))
        reg[:, gy, gx] = (w, h, cx - gx, cy - gy)
        where[gy, gx] = 1
    return heat, reg, where


def _batch(photos: list[Photo], rng: np.random.Generator, n: int
           ) -> tuple[torch.Tensor, ...]:
    xs, hs, rs, ws = [], [], [], []
    for _ in range(n):
        scene = compose(photos, rng, INPUT_PX, WINDOW)
        xs.append(to_blob(scene.image)[0])
        heat, reg, where = targets(scene.boxes, WINDOW)
        hs.append(heat)
        rs.append(reg)
        ws.append(where)
    return tuple(torch.from_numpy(np.stack(a)) for a in (xs, hs, rs, ws))


def loss_of(out: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, where: torch.Tensor
            ) -> torch.Tensor:
    """Focal loss on the heat plus L1 on sizes (weight 0.1) and offsets at die centres."""
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = (1 - heat) ** 4
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * neg * p ** 2 * torch.log(1 - p))
    n = pos.sum().clamp(min=1)
    m = where[:, None]
    size = (torch.abs(out[:, 1:3] - reg[:, 0:2]) * m).sum() / n
    offset = (torch.abs(out[:, 3:5] - reg[:, 2:4]) * m).sum() / n
    return focal.sum() / n + 0.1 * size + offset


def detect(model: nn.Module, image: np.ndarray, score: float) -> list[tuple[int, ...]]:
    """Boxes in image pixels found by the PyTorch model (as :func:`find_dice_net` would)."""
    square, scale = letterbox(image)
    with torch.no_grad():
        out = model(torch.from_numpy(to_blob(square))).numpy()
    return [tuple(round(v / scale) for v in b[:4]) for b in decode(out, score)]


def scores(found: dict[str, list], gold: dict[str, list]) -> tuple[float, float]:
    """Recall and precision at IoU >= 0.5 (each labelled die matched once)."""
    tp = fn = fp = 0
    for name, dice in gold.items():
        boxes = found[name]
        used: set[int] = set()
        for d in dice:
            best = max(range(len(boxes)), key=lambda i: box_iou(d.box, boxes[i]), default=None)
            if best is not None and best not in used and box_iou(d.box, boxes[best]) >= 0.5:
                tp += 1
                used.add(best)
            else:
                fn += 1
        fp += len(boxes) - len(used)
    return tp / max(1, tp + fn), tp / max(1, tp + fp)


def export(model: nn.Module, path: Path) -> None:
    """Write ``model`` as ONNX for OpenCV's DNN module (evaluation mode)."""
    was = model.training
    model.eval()
    torch.onnx.export(model, (torch.zeros(1, 3, INPUT_PX, INPUT_PX),), str(path),
                      input_names=["image"], output_names=["maps"], opset_version=13,
                      dynamo=False)
    model.train(was)


def main() -> None:
    """Train, pick the threshold on the tune photos, export ONNX."""
    run = start_run(__doc__.splitlines()[0], minutes=35.0, batch=16, lr=3e-3,
                    out="vision/models/dice_detector.onnx")
    args, rng, labels, split, folder = run.args, run.rng, run.labels, run.split, run.folder
    photos = [prepare(read_photo(folder / n), labels[n]) for n in split["train"]]
    tune_images = {n: read_photo(folder / n) for n in split["tune"]}
    tune_gold = {n: labels[n] for n in split["tune"]}
    model = DiceDetector()
    if args.resume:
        model.load_state_dict(torch.load(args.resume)["model"])
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    start = time.monotonic()
    step = 0
    best: tuple[float, dict] = (-1.0, {})
    if args.resume:
        model.eval()
        recall, precision = scores({n: detect(model, im, SCORE) for n, im in
                                    tune_images.items()}, tune_gold)
        best = (2 * recall * precision / max(1e-9, recall + precision),
                {k: v.clone() for k, v in model.state_dict().items()})
        print(f"resumed from {args.resume}: tune recall {recall:.4f} precision "
              f"{precision:.4f}", flush=True)
    while (elapsed := time.monotonic() - start) < budget:
        for group in opt.param_groups:
            group["lr"] = args.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * elapsed / budget)))
        model.train()
        x, heat, reg, where = _batch(photos, rng, args.batch)
        loss = loss_of(model(x), heat, reg, where)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 150 == 0:
            model.eval()
            found = {n: detect(model, im, SCORE) for n, im in tune_images.items()}
            recall, precision = scores(found, tune_gold)
            f = 2 * recall * precision / max(1e-9, recall + precision)
            if f > best[0]:
                best = (f, {k: v.clone() for k, v in model.state_dict().items()})
                torch.save({"model": best[1], "step": step}, args.out.with_suffix(".pt"))
                export(model, args.out)
            print(f"step {step} ({elapsed / 60:.1f} min) loss {loss.item():.3f} tune recall "
                  f"{recall:.4f} precision {precision:.4f}", flush=True)
    if best[1]:  # a run too short to reach a tune check keeps the weights it has
        model.load_state_dict(best[1])
    model.eval()
    for score in (0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
        found = {n: detect(model, im, score) for n, im in tune_images.items()}
        recall, precision = scores(found, tune_gold)
        print(f"tune photos, heat >= {score}: recall {recall:.4f} precision {precision:.4f}")
    export(model, args.out)
    print(f"wrote {args.out} (mean {MEAN}, std {STD}, {INPUT_PX} px)")


if __name__ == "__main__":
    main()
