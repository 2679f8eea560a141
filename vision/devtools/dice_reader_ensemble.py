r"""Several trained dice readers exported as one network: their probabilities averaged.

Readers trained with different seeds (:mod:`vision.devtools.dice_reader_train`, one ``.pt``
checkpoint each) err on different dice; the average of their probabilities errs less than
any one of them. The exported graph runs every member on the same crops and gives
``log(mean of the members' softmax)``, so the table's softmax of it (in
:mod:`vision.readers.dice_reader`) is the members' mean probability, and the runtime is unchanged:
one ONNX file, one OpenCV DNN call. Training only (``pip install -e .[train]``).

Usage::

    .venv/bin/python -m vision.devtools.dice_reader_ensemble reader_21.pt reader_22.pt \
        --out vision/models/dice_reader.onnx
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import torch
from torch import nn

from vision.devtools.dice_reader_train import DiceReader, export


class MeanOfReaders(nn.Module):
    """Input (N, 3, 40, 40) crops, output (N, 7): the log of the members' mean probability."""

    def __init__(self, members: Sequence[nn.Module]) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Log of the members' mean softmax (a softmax of it gives the mean back)."""
        p = torch.stack([torch.softmax(m(x), dim=1) for m in self.members]).mean(dim=0)
        return torch.log(p.clamp_min(1e-12))


def load_reader(path: Path) -> DiceReader:
    """A trained reader from its checkpoint (evaluation mode).

    Raises:
        ValueError: the file is missing or not a reader's checkpoint.
    """
    if not path.is_file():
        raise ValueError(f"{path}: no such checkpoint")
    try:
        state = torch.load(path)["model"]
        model = DiceReader()
        model.load_state_dict(state)
    except (KeyError, RuntimeError) as exc:
        raise ValueError(f"{path}: not a dice reader's checkpoint ({exc})") from exc
    return model.eval()


def main() -> None:
    """Load the checkpoints, export their mean as one ONNX network."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoints", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=Path("vision/models/dice_reader.onnx"))
    args = parser.parse_args()
    try:
        members = [load_reader(p) for p in args.checkpoints]
    except ValueError as exc:
        parser.error(str(exc))
    export(MeanOfReaders(members), args.out)
    print(f"wrote {args.out} ({len(members)} readers)")


if __name__ == "__main__":
    main()
