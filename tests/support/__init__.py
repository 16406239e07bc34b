"""Test support: code only the tests use, kept out of the nardy_cli package."""
