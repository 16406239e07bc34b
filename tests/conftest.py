"""Test-wide settings: under CI, hypothesis draws the same examples every run, so a red build
always points at a reproducible case (locally, each run explores new ones)."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
