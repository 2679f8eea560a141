"""Does every label show all its text? (issue 15: "no label may silently drop lines").

A Kivy label whose ``text_size`` height is fixed drops the lines that do not fit, and one
with ``shorten`` cuts its text to "..." - silently. :func:`clipped_labels` re-lays each
visible label's text at its width with no height limit and reports those whose full text
is taller (or, shortened, wider) than the box the label has on screen.
"""

from __future__ import annotations

from typing import Any


def full_text_size(label: Any) -> tuple[float, float]:
    """The size ``label``'s whole text needs at its wrap width, with its font settings."""
    from kivy.core.text import Label as CoreLabel

    width = label.text_size[0]
    core = CoreLabel(text=label.text, font_size=label.font_size, font_name=label.font_name,
                     bold=label.bold, italic=label.italic, markup=False,
                     text_size=(width, None), padding=label.padding,
                     line_height=label.line_height, halign=label.halign)
    if label.markup:
        from kivy.core.text.markup import MarkupLabel

        core = MarkupLabel(text=label.text, font_size=label.font_size,
                           font_name=label.font_name, bold=label.bold, italic=label.italic,
                           text_size=(width, None), padding=label.padding,
                           line_height=label.line_height, halign=label.halign)
    core.refresh()
    return core.content_width, core.content_height


def clipped_labels(root: Any, slack: float = 2.0) -> list[str]:
    """Visible labels under ``root`` whose text does not all fit in their box."""
    from kivy.uix.label import Label

    clipped = []
    for widget in root.walk():
        if not isinstance(widget, Label) or not widget.text.strip() or widget.opacity == 0 \
                or widget.height <= 0 or widget.get_root_window() is None:
            continue
        if widget.size == [100, 100] and widget.parent is None:
            continue
        width, height = full_text_size(widget)
        if height > widget.height + slack:
            clipped.append(f"{widget.text[:40]!r}: needs {height:.0f} px, has "
                           f"{widget.height:.0f}")
        elif widget.shorten and width > widget.width + slack:
            clipped.append(f"{widget.text[:40]!r}: shortened ({width:.0f} > "
                           f"{widget.width:.0f} px)")
    return clipped
