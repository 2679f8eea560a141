"""The printable markers sheet: the four table markers (and optional base markers) to scale.

The sheet is an A4 page at 300 dpi. Each table marker is drawn at the layout's size with the
white paper border the detector needs, its id and where it goes (top-left...), and a thin
grey cut line. :func:`write_sheet` writes a PNG (print at 100 %, 300 dpi) or a one-page PDF
whose page size is exactly A4, so printers cannot rescale it by accident.

Example:
    >>> page = sheet_image(dpi=50)
    >>> page.shape
    (585, 413)
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.layout import TableLayout
from vision.markers import TABLE_DICTIONARY, marker_image

A4_MM = (210.0, 297.0)
PAPER_MM = 8.0
"""White paper left around each printed marker (the detector and the white balance use it)."""
SLOTS = ("top-left", "top-right", "bottom-right", "bottom-left")


def _px(mm: float, dpi: int) -> int:
    return round(mm / 25.4 * dpi)


def sheet_image(layout: TableLayout | None = None, base_ids: Sequence[int] = (),
                base_marker_mm: float = 15.0, dpi: int = 300) -> np.ndarray:
    """The A4 page (grey, white paper) with the table markers and any base markers.

    Args:
        layout: the table (marker ids and size).
        base_ids: ids of miniature-base markers to add below the table markers.
        base_marker_mm: side of each base marker.
        dpi: resolution.
    """
    layout = layout or TableLayout()
    w, h = _px(A4_MM[0], dpi), _px(A4_MM[1], dpi)
    page = np.full((h, w), 255, np.uint8)
    side = _px(layout.marker_mm, dpi)
    cell = _px(layout.marker_mm + 2 * PAPER_MM, dpi)
    margin = _px(15.0, dpi)
    for n, marker_id in enumerate(layout.marker_ids):
        x = margin + (n % 2) * (cell + margin)
        y = margin + (n // 2) * (cell + _px(12, dpi))
        cv2.rectangle(page, (x, y), (x + cell, y + cell), 190, 1)
        pad = (cell - side) // 2
        page[y + pad:y + pad + side, x + pad:x + pad + side] = marker_image(
            marker_id, side, TABLE_DICTIONARY)
        cv2.putText(page, f"id {marker_id}: table {SLOTS[n]}", (x, y + cell + _px(5, dpi)),
                    cv2.FONT_HERSHEY_SIMPLEX, dpi / 300 * 0.9, 0, max(1, dpi // 150))
    top = margin + 2 * (cell + _px(12, dpi)) + _px(10, dpi)
    bside = _px(base_marker_mm, dpi)
    bcell = _px(base_marker_mm + 6, dpi)
    per_row = max(1, (w - 2 * margin) // (bcell + _px(4, dpi)))
    for n, marker_id in enumerate(base_ids):
        x = margin + (n % per_row) * (bcell + _px(4, dpi))
        y = top + (n // per_row) * (bcell + _px(8, dpi))
        if y + bcell + _px(6, dpi) > h:
            raise ValueError(f"too many base markers for one page (stopped at id {marker_id})")
        cv2.rectangle(page, (x, y), (x + bcell, y + bcell), 190, 1)
        pad = (bcell - bside) // 2
        page[y + pad:y + pad + bside, x + pad:x + pad + bside] = marker_image(
            marker_id, bside, TABLE_DICTIONARY)
        cv2.putText(page, str(marker_id), (x, y + bcell + _px(4, dpi)),
                    cv2.FONT_HERSHEY_SIMPLEX, dpi / 300 * 0.7, 0, max(1, dpi // 150))
    note = (f"{TABLE_DICTIONARY}, table markers {layout.marker_mm:g} mm: print at 100 % "
            "(no fit-to-page); check one marker with a ruler")
    cv2.putText(page, note, (margin, h - margin), cv2.FONT_HERSHEY_SIMPLEX,
                dpi / 300 * 0.75, 0, max(1, dpi // 150))
    return page


def pdf_bytes(page: np.ndarray, size_mm: tuple[float, float] = A4_MM) -> bytes:
    """A one-page PDF showing the grey ``page`` image over exactly ``size_mm``.

    Example:
        >>> pdf_bytes(np.zeros((2, 2), np.uint8))[:8]
        b'%PDF-1.4'
    """
    h, w = page.shape
    pw, ph = size_mm[0] / 25.4 * 72, size_mm[1] / 25.4 * 72
    data = zlib.compress(np.ascontiguousarray(page, np.uint8).tobytes(), 9)
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
         "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n"
         ).encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n"
            "%%EOF\n").encode()
    return bytes(out)


def write_sheet(path: Path | str, layout: TableLayout | None = None,
                base_ids: Sequence[int] = (), dpi: int = 300) -> Path:
    """Write the markers sheet to ``path`` (``.pdf`` or ``.png``).

    Raises:
        ValueError: the suffix is neither ``.pdf`` nor ``.png``.
    """
    path = Path(path)
    page = sheet_image(layout, base_ids, dpi=dpi)
    if path.suffix.lower() == ".pdf":
        path.write_bytes(pdf_bytes(page))
    elif path.suffix.lower() == ".png":
        if not cv2.imwrite(str(path), page):
            raise OSError(f"{path}: could not write the image")
    else:
        raise ValueError(f"{path}: the sheet is written as .pdf or .png")
    return path
