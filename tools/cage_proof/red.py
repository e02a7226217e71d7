"""A plain full-screen red pygame window for the compositor experiments (no companion code)."""

import sys
import time

import pygame

pygame.display.init()
if sys.argv[1:] == ["windowed"]:
    surface = pygame.display.set_mode((800, 480))
else:
    surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
start = time.time()
while time.time() - start < 8:
    pygame.event.get()
    surface.fill((255, 0, 0))
    pygame.display.flip()
    time.sleep(0.1)
