"""Per-game readers over the runtime pipeline.

- :mod:`~vision.readers.infinifield`: a flat observation as Infinifield's ``Field``;
- :mod:`~vision.readers.field3d` and :mod:`~vision.readers.verify`: the 3D field at set-up,
  and each expected block checked during play, both through :mod:`~vision.readers.table_views`
  (the frame on the table's planes, white-balanced and classified by colour);
- :mod:`~vision.readers.dice`, :mod:`~vision.readers.dice_detect`,
  :mod:`~vision.readers.dice_reader`, :mod:`~vision.readers.dice_tray`,
  :mod:`~vision.readers.tray`: dice in a tray;
- :mod:`~vision.readers.bases`: Infinity's marked miniature bases.
"""
