"""The exact strategy engine (work in progress: the public API is documented here when complete)."""
