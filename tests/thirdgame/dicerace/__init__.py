"""Dice Race: a third game for the board-game companion, installed as a package of its own.

It is the proof of the companion's game seam: written only against ``companion.engine``'s
public names (its rules) and ``companion.kiosk.words.GameWords`` (its words, loaded by the
kiosk through the spec), with its own zh/ja catalogue, and found through the
``companion.games`` entry point (``pyproject.toml``).  Nothing in the companion names it.
"""
