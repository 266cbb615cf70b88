"""The soak: hostile and well-behaved clients at once against a release daemon (`python -m shaked_harness.soak`)."""
