"""What a game's kiosk may use of the kiosk core: its screen, words, panels and scenes import
from here and from nowhere else in ``companion.kiosk`` (``tests/test_architecture.py`` holds
every game to it, the project's own and one written outside it).

The names, by what a game's author builds with them:

**The table screen.** :class:`GameScreen` (generic over the game's state and action types) is
the table screen a game subclasses; it is composed of parts with state of their own (the
hand-out steps, the companion's panel, a card read by a hold, teach mode), which a game's
screen reaches through it and overrides through its hooks (``wants_preview``,
``committed``, ``hand_out_plan``, ``same_visit``...).  :class:`StepPanel` is one panel of it
(the body of one kind of step).  A screen is made with the :class:`Kiosk` (the services it may
ask for: the game on the table, the journal, the messages, the settings, the way to another
screen); a screenshot scene is given a :class:`Stage`.  :func:`open_game` shows the session's
game; :class:`EndScreen` is the end screen a game's own may extend.

**Inputs.** :class:`Role` (the table's buttons), :class:`Input` and its kinds :class:`Press`
and :class:`Card` (a card the camera read).

**Drawing.** :mod:`theme` (colours, :class:`~companion.kiosk.theme.Metrics`), :mod:`icons`
(resource icons and amounts), :mod:`retained` (drawings kept between frames: ``panel``,
``pixels``), :func:`font`, the layout and text helpers of ``ui`` (:func:`draw_text`,
:func:`fits`, :func:`fitting`, :func:`fitted_height`, :func:`text_height`, :func:`min_text`,
:func:`panel`, :func:`grid`, :func:`split_h`, :func:`split_v`, :class:`Button`,
:func:`button_inner`), :func:`wrap` (line breaking), :func:`pages` and :func:`draw_piece` (a
long text paged, never cut), the overlays every game screen shares (:func:`draw_preview`,
:func:`draw_result`, :func:`draw_tableau`, :func:`help_frame`, :func:`paged_help`,
:func:`lines_fit`), and :class:`BoardMap` / :class:`Area` (a drawn map of the board with the
places a step names lit).

**Words.** :func:`_` and :func:`n_` (the table's language, the game's catalogue first),
:func:`language`, :func:`in_table`, :func:`resource_name` and :data:`RESOURCE_CONTEXT`;
:class:`GameWords` (what a game says of its actions, refusals and changes) and
:class:`ModuleWords`; names as the table reads them (:func:`name_of`, :func:`player_name`,
:func:`clean_player_name`, :func:`seat_label`, :func:`card_name`, :func:`short_card_name`,
:func:`colour_word`, :data:`COMPANION_MARK`); the breakdown of a score (:class:`Breakdown`,
:func:`draw_breakdown`, :func:`period_table`, :class:`Lines`, :func:`change_lines`,
:func:`sentences`); a card catalogue laid out as a table (:class:`Table`).

**The table's hands.** Hand-out steps (:class:`HandOut`, :class:`HandOutPlan`,
:class:`HandLine`, :data:`CARD`, :data:`TABLE`, :func:`handout_fits`, :func:`titled`); the
set-up guide's steps (:class:`GuideStep`, :class:`Piece`); the companion's seats
(:class:`Companion`) and a visit of several decisions (:class:`Visit`, :class:`VisitStep`,
:class:`Visiting`); :func:`signed` (an amount with its sign).

**Screenshot scenes.** :func:`enter_position`, :func:`seeded_move`, :func:`find_prefixes`,
:func:`first_game_scenes` (the scenes every game gets, which a game's own add to).
"""

from __future__ import annotations

from . import icons, retained, theme
from .boardmap import Area, BoardMap
from .breakdown import Breakdown, Lines, change_lines, draw_breakdown, period_table, sentences
from .breakdown import player_name as clean_player_name
from .catalogue import Table
from .context import Kiosk, Stage
from .fonts import font
from .guide import GuideStep, Piece
from .handout import CARD, TABLE, HandLine, HandOut, HandOutPlan, handout_fits, titled
from .i18n import RESOURCE_CONTEXT, _, in_table, language, n_, resource_name
from .inputs import Card, Input, Press, Role
from .linebreak import wrap
from .paging import draw_piece, pages
from .screens.base import GameScreen, Screen
from .screens.end import EndScreen
from .screens.game import open_game, signed
from .screens.overlays import (
    draw_preview,
    draw_result,
    draw_tableau,
    help_frame,
    lines_fit,
    paged_help,
)
from .screens.panel import StepPanel
from .screenshots import enter_position, find_prefixes, first_game_scenes, seeded_move
from .seats import Companion
from .ui import (
    Button,
    button_inner,
    draw_text,
    fits,
    fitted_height,
    fitting,
    grid,
    min_text,
    panel,
    split_h,
    split_v,
    text_height,
)
from .visit import Visit, Visiting, VisitStep
from .words import (
    COMPANION_MARK,
    GameWords,
    ModuleWords,
    card_name,
    colour_word,
    name_of,
    player_name,
    seat_label,
    short_card_name,
)

__all__ = [
    "CARD",
    "COMPANION_MARK",
    "RESOURCE_CONTEXT",
    "TABLE",
    "Area",
    "BoardMap",
    "Breakdown",
    "Button",
    "Card",
    "Companion",
    "EndScreen",
    "GameScreen",
    "GameWords",
    "GuideStep",
    "HandLine",
    "HandOut",
    "HandOutPlan",
    "Input",
    "Kiosk",
    "Lines",
    "ModuleWords",
    "Piece",
    "Press",
    "Role",
    "Screen",
    "Stage",
    "StepPanel",
    "Table",
    "Visit",
    "VisitStep",
    "Visiting",
    "_",
    "button_inner",
    "card_name",
    "change_lines",
    "clean_player_name",
    "colour_word",
    "draw_breakdown",
    "draw_piece",
    "draw_preview",
    "draw_result",
    "draw_tableau",
    "draw_text",
    "enter_position",
    "find_prefixes",
    "first_game_scenes",
    "fits",
    "fitted_height",
    "fitting",
    "font",
    "grid",
    "handout_fits",
    "help_frame",
    "icons",
    "in_table",
    "language",
    "lines_fit",
    "min_text",
    "n_",
    "name_of",
    "open_game",
    "paged_help",
    "pages",
    "panel",
    "period_table",
    "player_name",
    "resource_name",
    "retained",
    "seat_label",
    "seeded_move",
    "sentences",
    "short_card_name",
    "signed",
    "split_h",
    "split_v",
    "text_height",
    "theme",
    "titled",
    "wrap",
]
