"""Playing drills: the exact basic-strategy play, and the Hi-Lo index plays (deviations)."""
