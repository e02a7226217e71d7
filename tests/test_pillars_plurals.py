"""Counts on the Pillars table read as counts: one free worker is "1 worker", not "1 workers"
(issue 22's "Red: 1 workers free"), in the draft's header and in its help."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.kiosk import ui
from companion.kiosk.screenshots import find_prefixes
from companion.pillars.kiosk.cardhelp import step_now
from tests.kiosk_helpers import handed_out, make_app


@pytest.mark.parametrize("free", [1, 3])
def test_the_drafts_free_workers_are_counted(tmp_path: Path, free: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    setup, actions = find_prefixes("pillars", ["draft"])["draft"]
    app = make_app(tmp_path)
    app.session = app.journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    monkeypatch.setattr(type(app.session.game), "free_workers", lambda self, s, seat: free)
    app.open_game()
    handed_out(app)
    ui.DRAWN = []
    try:
        app.render(force=True)
        drawn = " ".join(str(d) for d in ui.DRAWN)
    finally:
        ui.DRAWN = None
    want = "1 worker free," if free == 1 else f"{free} workers free,"
    assert want in drawn
    assert "1 workers" not in drawn
    text = step_now(app.session.game, app.session.state)
    assert ("1 worker free and" if free == 1 else f"{free} workers free and") in text
