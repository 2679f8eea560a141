"""``infinite-companion``: the touchscreen app's entry point."""

from __future__ import annotations

import sys


def main() -> int:
    """Start the touchscreen app."""
    print("infinite-companion: the touchscreen app is not built yet (see issue 9); use "
          "`infinite-referee` for the headless referee meanwhile.", file=sys.stderr)
    return 3


if __name__ == "__main__":
    sys.exit(main())
