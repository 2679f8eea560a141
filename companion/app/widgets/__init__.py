"""Reusable widgets: buttons, headers, the verdict banner, the LED ring, dice faces."""
