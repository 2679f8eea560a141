"""Per-game readers over the runtime pipeline: the Infinifield field, dice in a tray, bases."""
