"""English texts that are not UI strings: the rules help for each kind of Builders action
(translated in this game's catalogue under the context ``builders action help``, see
:mod:`.names`)."""

from __future__ import annotations

# Short rules help for each kind of Builders action (the first words of its notation).
BUILDERS_HELP: dict[str, str] = {
    "start": "1 AP: take a building or machine from the row and open a construction site.",
    "recruit": "1 AP: take a worker from the worker row. It joins your idle workers.",
    "send": (
        "Send an idle worker or finished machine to one of your sites and pay its wage. "
        "In one turn, the 1st worker sent to the same site costs 1 AP, the 2nd 2 AP, the 3rd "
        "3 AP."
    ),
    "coins": "Spend 1, 2 or 3 AP to take 1, 3 or 6 coins.",
    "buy action": "Pay 5 coins for one more action point, as often as you like in your turn.",
    "end turn": "End your turn. Action points left are lost.",
}
