"""The headless referee (``infinite-referee``): one sub-command per game."""
