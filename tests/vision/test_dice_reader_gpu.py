"""The GPU trainer of the dice reader (issue 13): what it learns from is what the table sees.

Needs the ``[train]`` extra (PyTorch): skipped without it. Run on the CPU here; the same code
runs on a GPU.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.devtools.dice_reader_gpu import (  # noqa: E402
    Data,
    Member,
    MultiReader,
    affine_crops,
    augmented_crops,
    cut_patch,
    members_for,
    out_of_fold,
    train,
)
from vision.devtools.dice_reader_train import export  # noqa: E402
from vision.dice_render import render_dice_tray  # noqa: E402
from vision.readers.dice_reader import reader_crop  # noqa: E402


def _patches(image: np.ndarray, boxes: list[tuple[int, int, int, int]], size: int
             ) -> tuple[torch.Tensor, torch.Tensor]:
    patches = torch.from_numpy(np.stack([cut_patch(image, b, size) for b in boxes]))
    shape = torch.tensor([((b[2] - b[0]) / max(b[2] - b[0], b[3] - b[1]),
                           (b[3] - b[1]) / max(b[2] - b[0], b[3] - b[1])) for b in boxes],
                         dtype=torch.float32)
    return patches, shape


def _standardised(x: np.ndarray) -> np.ndarray:
    return (x - x.mean(axis=(1, 2), keepdims=True)) / (x.std(axis=(1, 2), keepdims=True)
                                                       + 0.05)


@pytest.mark.parametrize(("jitter", "degrees", "zoom", "shift"), [
    ((0.0, 0.0, 0.0, 0.0), 0.0, 1.0, (0.0, 0.0)),
    ((0.05, -0.03, 0.02, 0.06), 30.0, 1.1, (0.05, -0.04)),
    ((-0.08, 0.08, -0.02, -0.05), 200.0, 0.87, (-0.06, 0.07)),
])
def test_the_crops_cut_on_the_gpu_are_the_tables_crops(jitter: tuple[float, ...],
                                                        degrees: float, zoom: float,
                                                        shift: tuple[float, float]) -> None:
    """A crop cut from a die's patch matches reader_crop of the moved, turned, zoomed box."""
    tray = render_dice_tray((2, 5, 6), seed=4)
    boxes = list(tray.boxes)
    patches, shape = _patches(tray.image, boxes, 40)
    n = len(boxes)
    crops = affine_crops(patches, shape, 40, torch.tensor([jitter] * n),
                         torch.full((n,), math.radians(degrees)), torch.full((n,), zoom),
                         torch.tensor([shift] * n), torch.ones(n)).numpy()
    for crop, box in zip(crops, boxes, strict=True):
        side = max(box[2] - box[0], box[3] - box[1])
        moved = [v + j * side for v, j in zip(box, jitter, strict=True)]
        want = reader_crop(tray.image, moved, angle=degrees, scale=zoom, shift=shift)
        assert np.corrcoef(want.ravel(), _standardised(crop).ravel())[0, 1] > 0.99


def test_a_mirrored_crop_is_the_crop_flipped() -> None:
    tray = render_dice_tray((3,), seed=2)
    patches, shape = _patches(tray.image, list(tray.boxes), 40)
    args = (patches, shape, 40, torch.zeros(1, 4), torch.zeros(1), torch.ones(1),
            torch.zeros(1, 2))
    plain = affine_crops(*args, torch.ones(1))[0].numpy()
    mirrored = affine_crops(*args, -torch.ones(1))[0].numpy()
    # the half-pixel offset of reader_crop's centre moves the mirror axis by one pixel
    assert np.abs(mirrored[:, :, 1:] - plain[:, :, ::-1][:, :, :-1]).mean() < 0.02


def test_spoilt_crops_are_standardised_and_differ() -> None:
    tray = render_dice_tray((1, 4), seed=3)
    patches, shape = _patches(tray.image, list(tray.boxes), 40)
    gen = torch.Generator().manual_seed(0)
    many = augmented_crops(patches.repeat(8, 1, 1, 1), shape.repeat(8, 1), 40, 1.0, gen)
    assert many.shape == (16, 3, 40, 40)
    assert torch.isfinite(many).all()
    assert many.mean(dim=(2, 3)).abs().max() < 1e-4
    assert (many[0] - many[2]).abs().mean() > 0.1       # the same die, spoilt differently


def test_each_member_is_a_reader_of_its_own() -> None:
    """The grouped network's members read exactly as plain readers, and through OpenCV."""
    torch.manual_seed(1)
    group = MultiReader(3).eval()
    for p in group.parameters():       # not the initial weights: batch norm moved too
        p.data += 0.05 * torch.randn_like(p)
    for name, b in group.named_buffers():
        if "running_var" in name:
            b.data = 0.5 + torch.rand_like(b)
    x = torch.randn(4, 9, 40, 40)
    with torch.no_grad():
        together = group(x)
        for g in range(3):
            alone = group.member(g)(x[:, 3 * g:3 * g + 3])
            assert torch.allclose(alone, together[:, g], atol=1e-5)


def test_an_exported_member_reads_the_same_through_opencv(tmp_path: Path) -> None:
    torch.manual_seed(2)
    group = MultiReader(2).eval()
    reader = group.member(1)
    export(reader, tmp_path / "r.onnx", 40)
    x = np.random.default_rng(0).normal(size=(3, 3, 40, 40)).astype(np.float32)
    net = cv2.dnn.readNetFromONNX(str(tmp_path / "r.onnx"))
    net.setInput(x)
    with torch.no_grad():
        want = reader(torch.from_numpy(x)).numpy()
    assert np.allclose(net.forward(), want, atol=1e-4)


def _toy_data(folds: int = 2) -> tuple[Data, torch.Tensor]:
    """Rendered trays standing in for photos: each die an item, its tray its photo."""
    patches, shapes, labels, fold, kinds, items, crops = [], [], [], [], [], [], []
    for seed in range(6):
        values = tuple(1 + (seed + k) % 6 for k in range(4))
        tray = render_dice_tray(values, seed=seed)
        p, s = _patches(tray.image, list(tray.boxes), 40)
        patches.append(p)
        shapes.append(s)
        for v, b in zip(values, tray.boxes, strict=True):
            labels.append(v)
            fold.append(seed % folds)
            kinds.append("die")
            items.append({"src": "photo", "name": f"tray{seed}", "box": list(b), "label": v})
            crops.append(reader_crop(tray.image, b))
    for k in range(4):                                    # plain tray: not dice
        p = patches[0][:1].clone()
        p[:] = torch.tensor([70, 95, 60], dtype=torch.uint8)[:, None, None]
        patches.append(p)
        shapes.append(torch.ones(1, 2))
        labels.append(7)
        fold.append(k % folds)
        kinds.append("not")
        items.append({"src": "photo", "name": f"plain{k}", "box": [0, 0, 40, 40], "label": 7})
        crops.append(np.zeros((3, 40, 40), np.float32))
    data = Data(torch.cat(patches), torch.cat(shapes), torch.tensor(labels),
                torch.tensor(fold), kinds, items)
    return data, torch.from_numpy(np.stack(crops))


def test_out_of_fold_judges_every_die_once_by_a_reader_that_never_saw_it() -> None:
    data, crops = _toy_data()
    members = members_for([0.0], finals=1, folds=2)
    assert members == [Member(0.0, 0), Member(0.0, 1), Member(0.0, None, 0)]
    model, steps = train(data, members, 40, minutes=0.03, batch=8, lr=5e-3, seed=1)
    assert steps >= 1
    figures = out_of_fold(model, members, data, crops)["0"]
    assert figures["die"][1] == 24 and figures["not"][1] == 4
    assert figures["photos"][1] == 6
    assert 0 <= figures["die"][0] <= 24
    assert len(figures["misread"]) == 24 - figures["die"][0]
