"""Development tools, never used at the table: renderers with ground truth, scoring, training."""
