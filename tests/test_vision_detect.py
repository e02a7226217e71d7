"""Detection on a generated test set (kept small here; ``bench/bench_vision.py`` runs a larger
one): 1280x720 frames with several marked cards at 0-60 degrees of tilt, turned, blurred, noisy,
unevenly lit and JPEG-compressed, with the truth recorded.  No marker may ever read as another."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import synth
from companion.vision.detect import Detector, Marker, as_grey, cards, detect
from companion.vision.markers import REGISTRY

CI_FRAMES = 40


def test_the_generated_set_is_read_and_no_id_is_wrong() -> None:
    detector = Detector()
    score = synth.Score()
    for scene in synth.scenes(2024, CI_FRAMES, sorted(REGISTRY)):
        assert scene.frame.shape == (720, 1280)
        score.add(scene.truth, [(m.id, m.centre) for m in detector.detect(scene.frame)])
    print(score.report())
    assert score.total >= 100
    assert score.wrong == 0
    assert score.rate >= 0.93, score.report()
    assert set(score.by_tilt) == {0, 10, 20, 30, 40, 50}
    low = [score.by_tilt[t] for t in (0, 10, 20, 30)]
    assert sum(f for f, _n in low) / sum(n for _f, n in low) >= 0.95, score.report()


def test_the_truth_is_where_the_marker_is_drawn() -> None:
    rng = np.random.default_rng(1)
    scene = synth.render_scene(rng, [5, 120], synth.Conditions(max_tilt=0.0, blur=(0.0, 0.0),
                                                                marker_px=(80.0, 80.0)))
    found = {m.id: m for m in detect(scene.frame)}
    for placed in scene.truth:
        m = found[placed.marker]
        for (x, y), (tx, ty) in zip(m.corners, placed.corners, strict=True):
            assert abs(x - tx) < 1.5 and abs(y - ty) < 1.5  # corners in the same order too


def test_an_empty_table_has_no_marker() -> None:
    assert detect(synth.card_frame(None, seed=3, size=(1280, 720))) == []


def test_markers_and_cards() -> None:
    m = Marker(160, ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)))
    assert m.centre == (5.0, 5.0) and m.side == 10.0 and str(m) == "#160 (5.0, 5.0)"
    stray = Marker(240, m.corners)
    assert [(x.id, e.card) for x, e in cards([m, stray])] == [(160, "compagnon-1111")]


def test_any_image_layout_becomes_grey() -> None:
    grey = np.full((4, 6), 100, np.uint8)
    bgr = np.dstack([grey] * 3)
    bgra = np.dstack([grey] * 4)
    for img in (grey, bgr, bgra):
        out = as_grey(img)
        assert out.shape == (4, 6) and out.dtype == np.uint8 and int(out[0, 0]) == 100
    with pytest.raises(ValueError):
        as_grey(np.zeros((2, 2, 2), np.uint8))
