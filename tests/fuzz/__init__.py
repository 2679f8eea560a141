"""Seeded fuzzing of everything the companion reads: bounded here, a marathon in bench/."""
