r"""Training the dice network (:mod:`vision.devtools.dice_net`) on labelled tray photos, numpy only.

The photos are split by photo, never by die: every fifth photo (in name order) is held out,
and the accuracy printed is on those only, so it measures dice the network never saw.
Augmentation: any rotation, zoom 0.9-1.1, shifts of 6 %, mirror (brightness and contrast
need none: each crop is standardised).
Adam with a cosine learning-rate schedule, cross-entropy loss.

Usage::

    for seed in 1 2 3; do .venv/bin/python -m vision.devtools.dice_training \
        ../shared/data/dice/train/labels.json --seed $seed \
        --out vision/dice_weights_$seed.json; done

Example:
    >>> split_by_photo(["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg"])
    (['b.jpg', 'c.jpg', 'd.jpg', 'e.jpg'], ['a.jpg', 'f.jpg'])
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.devtools.dice_net import WEIGHTS, DiceNet, die_crop

Item = tuple[str, tuple[int, int, int, int], int]


def split_by_photo(names: list[str], every: int = 5) -> tuple[list[str], list[str]]:
    """``(training, held out)``: every ``every``-th photo in name order is held out."""
    ordered = sorted(names)
    return ([n for i, n in enumerate(ordered) if i % every],
            [n for i, n in enumerate(ordered) if not i % every])


def _augmented(image: np.ndarray, box: tuple[int, int, int, int],
               rng: np.random.Generator) -> np.ndarray:
    crop = die_crop(image, box, angle=float(rng.uniform(0, 360)),
                    scale=float(rng.uniform(0.9, 1.1)),
                    shift=(float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.06, 0.06))))
    if rng.random() < 0.5:
        crop = crop[:, :, ::-1]
    return np.ascontiguousarray(crop, np.float32)


def accuracy(net: DiceNet, images: dict[str, np.ndarray], items: list[Item]) -> float:
    """Share of ``items`` whose pips the network reads right."""
    if not items:
        return 0.0
    x = np.stack([die_crop(images[n], box) for n, box, _ in items])
    guess = np.concatenate([net.probabilities(x[i:i + 256]).argmax(1) + 1
                            for i in range(0, len(x), 256)])
    return float((guess == np.array([p for *_, p in items])).mean())


def train(labels_path: Path, epochs: int = 120, lr: float = 3e-3, seed: int = 0,
          batch: int = 64) -> tuple[DiceNet, float]:
    """Train on the photos beside ``labels_path``; returns the net and held-out accuracy."""
    folder = labels_path.parent
    labels = json.loads(labels_path.read_text(encoding="utf-8"))
    training, held_out = split_by_photo(list(labels))
    images: dict[str, np.ndarray] = {}
    for name in labels:
        image = cv2.imread(str(folder / name))
        if image is None:
            raise ValueError(f"{folder / name}: not a readable image")
        images[name] = image
    items = {part: [(n, tuple(d["box"]), int(d["pips"])) for n in names for d in labels[n]]
             for part, names in (("train", training), ("test", held_out))}
    rng = np.random.default_rng(seed)
    net = DiceNet.random(rng)
    m = {k: np.zeros_like(v) for k, v in net.params.items()}
    v = {k: np.zeros_like(v) for k, v in net.params.items()}
    step = 0
    start = time.monotonic()
    for epoch in range(epochs):
        order = rng.permutation(len(items["train"]))
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        for s in range(0, len(order), batch):
            chosen = [items["train"][i] for i in order[s:s + batch]]
            x = np.stack([_augmented(images[n], box, rng) for n, box, _ in chosen])
            y = np.array([p - 1 for *_, p in chosen])
            logits, cache = net.forward(x)
            p = np.exp(logits - logits.max(1, keepdims=True))
            p /= p.sum(1, keepdims=True)
            p[np.arange(len(y)), y] -= 1
            grads = net.backward((p / len(y)).astype(np.float32), cache)
            step += 1
            for k in net.params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
                net.params[k] -= rate * (m[k] / (1 - 0.9 ** step)) / (
                    np.sqrt(v[k] / (1 - 0.999 ** step)) + 1e-8)
        if epoch % 10 == 9 or epoch == epochs - 1:
            print(f"epoch {epoch + 1}: held-out accuracy "
                  f"{accuracy(net, images, items['test']):.4f} "
                  f"({time.monotonic() - start:.0f} s)", flush=True)
    return net, accuracy(net, images, items["test"])


def main() -> None:
    """Train and write the weights (``--out``, default the shipped file)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", type=Path)
    parser.add_argument("--epochs", type=int, default=120)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    net, held_out = train(args.labels, args.epochs, args.lr, args.seed)
    args.out.write_text(json.dumps(net.to_json()), encoding="utf-8")
    print(f"held-out accuracy {held_out:.4f}; wrote {args.out}")


if __name__ == "__main__":
    main()
