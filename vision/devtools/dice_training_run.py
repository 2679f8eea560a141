"""What both dice trainers share: the command line, the seeds, the labels and the split.

``vision/devtools/dice_detector_train.py`` and ``dice_reader_train.py`` (the ``[train]``
extra) take the same options; only their defaults differ.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from vision.devtools.dice_data import load_labels, load_split


@dataclass
class TrainingRun:
    """One training run's options and data.

    Attributes:
        args: the parsed command line (``labels``, ``minutes``, ``seed``, ``batch``, ``lr``,
            ``threads``, ``out``, ``resume``).
        rng: numpy's generator, seeded from ``--seed`` (torch is seeded too).
        labels: the photos' labels, corrected by the project's overrides.
        split: photo names by part (``train``, ``tune``, ``holdout``).
        folder: where the photos are.
    """

    args: argparse.Namespace
    rng: np.random.Generator
    labels: dict[str, Any]
    split: dict[str, list[str]]
    folder: Path


def start_run(description: str, minutes: float, batch: int, lr: float, out: str,
              options: Callable[[argparse.ArgumentParser], None] | None = None
              ) -> TrainingRun:
    """Read the command line, seed numpy and torch, pin torch's threads, load the data.

    ``options`` adds a trainer's own options to the shared ones.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("labels", type=Path)
    parser.add_argument("--minutes", type=float, default=minutes)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--lr", type=float, default=lr)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(out))
    parser.add_argument("--resume", type=Path, help="a checkpoint (.pt) to go on from")
    if options:
        options(parser)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    return TrainingRun(args, np.random.default_rng(args.seed), load_labels(args.labels),
                       load_split(), args.labels.parent)
