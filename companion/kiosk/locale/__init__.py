"""Translations of the kiosk: one module per language besides English (the source text)."""
