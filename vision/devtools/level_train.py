r"""Train the level network (:mod:`vision.readers.level_net`) and export it to ONNX.

The data are :mod:`vision.devtools.level_data` sets of the tune families only (never the
held-out ones). A fifth of the tune families (:func:`in_validation`) stays out of training
to choose the epoch and to report on. The network is four 3x3 convolutions with ReLU (16,
32, 48, 64 channels; the first strides two, the others are followed by 2x2 max pooling) and
two linear layers, trained with Adam on cross-entropy; each epoch sees every raised top and
a fresh draw of first-level ones, the patches mirrored across the nadir's axis (a valid
view) and their light jittered. Needs the ``train`` extra (torch).

Usage::

    python -m vision.devtools.level_train --data /tmp/levels_tune.npz [more.npz ...] \\
        --out vision/models/level_net.onnx
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import pairwise
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.readers.level_net import LEVELS, PATCH_PX


def in_validation(family: str) -> bool:
    """Whether a tune family is kept out of training.

    Every fifth run of five families (``f000``-``f004``, ``f025``-``f029``, ...), so the
    stacked fields, made in families whose number ends in 1, 3, 6 or 8, fall in both parts.
    """
    return (int(family.lstrip("f")) // 5) % 5 == 0


class LevelNet(nn.Module):
    """Five planes of PATCH_PX square in, a logit per level out."""

    def __init__(self) -> None:
        super().__init__()
        chans = (16, 32, 48, 64)
        # the first convolution strides two (the patch's detail is finer than the frame's
        # at 640x480), the others are followed by 2x2 max pooling
        layers: list[nn.Module] = [nn.Conv2d(5, chans[0], 3, stride=2, padding=1), nn.ReLU()]
        for a, b in pairwise(chans):
            layers += [nn.Conv2d(a, b, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        side = PATCH_PX // 16
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3),
                                  nn.Linear(64 * side * side, 64), nn.ReLU(),
                                  nn.Linear(64, LEVELS))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits (N, LEVELS) of a batch of patches."""
        return self.head(self.features(x))


def load(paths: list[Path]) -> dict[str, np.ndarray]:
    """The data sets joined."""
    parts = [np.load(p) for p in paths]
    return {k: np.concatenate([d[k] for d in parts]) for k in parts[0].files}


def to_input(bgr: np.ndarray, scalars: np.ndarray) -> np.ndarray:
    """(N, 5, side, side) float32 from the stored patches and their two values."""
    x = np.empty((len(bgr), 5, PATCH_PX, PATCH_PX), np.float32)
    x[:, :3] = bgr.transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    x[:, 3:] = scalars[:, :, None, None]
    return x


def augment(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """Mirrored across the nadir's axis half the time; light and white balance jittered."""
    x = x.clone()
    flip = torch.from_numpy(rng.random(len(x)) < 0.5)
    x[flip] = torch.flip(x[flip], dims=[3])
    gain = torch.from_numpy(rng.uniform(0.7, 1.3, (len(x), 1, 1, 1)).astype(np.float32))
    tint = torch.from_numpy(rng.uniform(0.9, 1.1, (len(x), 3, 1, 1)).astype(np.float32))
    x[:, :3] = (x[:, :3] * gain * tint).clamp(0, 1)
    shift = rng.integers(-3, 4, 2)
    x[:, :3] = torch.roll(x[:, :3], shifts=(int(shift[0]), int(shift[1])), dims=(2, 3))
    return x


def report(net: LevelNet, x: np.ndarray, y: np.ndarray) -> tuple[float, str]:
    """Log loss and, per true level, how the validation tops were classified."""
    net.eval()
    with torch.no_grad():
        logits = torch.cat([net(torch.from_numpy(x[i:i + 256])) for i in range(0, len(x), 256)])
    loss = float(nn.functional.cross_entropy(logits, torch.from_numpy(y - 1)))
    pred = logits.argmax(1).numpy() + 1
    rows = []
    for lv in range(1, LEVELS + 1):
        sel = y == lv
        if sel.any():
            rows.append(f"L{lv} {int((pred[sel] == lv).sum())}/{int(sel.sum())}")
    return loss, ", ".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Train, keep the epoch with the least validation loss, export it."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--data", type=Path, nargs="+", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--flat-per-raised", type=int, default=2,
                    help="first-level tops drawn per raised top each epoch")
    ap.add_argument("--all", action="store_true",
                    help="train on every tune family (after choosing the epochs)")
    args = ap.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    torch.set_flush_denormal(True)   # tiny weights late in training slow the CPU sixfold
    rng = np.random.default_rng(args.seed)
    data = load(args.data)
    x = to_input(data["bgr"], data["scalars"])
    y = data["level"].astype(np.int64)
    val = np.array([in_validation(str(f)) for f in data["family"]])
    if args.all:
        val[:] = False
    xt, yt = torch.from_numpy(x[~val]), torch.from_numpy(y[~val] - 1)
    counts = np.bincount(y[~val] - 1, minlength=LEVELS).astype(np.float64)
    print(f"train {len(yt)} tops {counts.tolist()}, validation {int(val.sum())}", flush=True)
    net = LevelNet()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.epochs)
    loss_fn = nn.CrossEntropyLoss()
    best = (np.inf, None)
    for epoch in range(args.epochs):
        net.train()
        t0 = time.time()
        raised = np.flatnonzero(yt.numpy() > 0)
        flat = np.flatnonzero(yt.numpy() == 0)
        keep = min(len(flat), args.flat_per_raised * len(raised))
        order = rng.permutation(np.concatenate([raised, rng.choice(flat, keep, replace=False)]))
        for i in range(0, len(order), 64):
            idx = torch.from_numpy(order[i:i + 64])
            opt.zero_grad()
            loss = loss_fn(net(augment(xt[idx], rng)), yt[idx])
            loss.backward()
            opt.step()
        sched.step()
        line = f"epoch {epoch + 1}: {time.time() - t0:.0f} s"
        if val.any():
            vloss, rows = report(net, x[val], y[val])
            line += f", validation loss {vloss:.3f}, {rows}"
            if vloss < best[0]:
                best = (vloss, {k: v.clone() for k, v in net.state_dict().items()})
        print(line, flush=True)
    if best[1] is not None:
        net.load_state_dict(best[1])
    net.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 5, PATCH_PX, PATCH_PX), str(args.out),
                      input_names=["patch"], output_names=["logits"],
                      dynamic_axes={"patch": {0: "n"}, "logits": {0: "n"}}, opset_version=13,
                      dynamo=False)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
