"""Turn the table's POSTs into one action of MATCH_FORMAT.md, and read the new-match form.

Nothing here decides legality: a form only says what was tapped; the referee
decides whether it stands.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext, ngettext

from referee import PRESETS, InvalidAction, Option, Tally, preset


def action_from_post(
    post: QueryDict, seats: int, family: str = "line", names: Sequence[str] = ()
) -> dict[str, Any]:
    """The action a table form describes, as a MATCH_FORMAT.md dict (``names``, the seats'
    players, name a hand the form got wrong)."""
    kind = post.get("type", "")
    if kind in _TABLE_KINDS:
        return _about_the_record(kind, post)
    if family == "havoc" and kind in _HAVOC_KINDS:
        return _havoc(kind, post)
    if family in ("train", "foot") and kind in ("engine", "play", "draw"):
        return _train(kind, post, family)
    if kind == "play":
        tile = post.get("tile", "")
        if not tile:
            raise InvalidAction(gettext("Tap a tile first, then the end it goes on."))
        data: dict[str, Any] = {"type": "play", "seat": post.get("seat", ""), "tile": tile}
        target = post.get("target", "")
        if target and target != "lead":
            on, _, face = target.partition("/")
            data["on"] = on
            if face:
                data["face"] = face
        for field in ("card", "drop"):  # Dominards; "none": the table chose to drop nothing
            if post.get(field) and post[field] != "none":
                data[field] = post[field]
        return data
    if kind == "roll":
        return _roll(post)
    if kind == "draw":
        return {"type": "draw", "seat": post.get("seat", ""), "count": post.get("count", "1")}
    if kind == "pass":
        return {"type": "pass", "seat": post.get("seat", "")}
    if kind == "declare":
        return {"type": "declare", "seat": post.get("seat", ""), "points": post.get("points", "")}
    if kind in ("muggins", "challenge"):
        return {"type": kind, "seat": post.get("seat", "")}
    if kind == "undo":
        return {"type": "undo"}
    if family == "line" and kind == "time":  # Dominó (parejas.time): the table's clock ran out
        return {"type": "time"}
    if family == "line" and kind == "redeal":  # Dominó (parejas.redeal): the doubles shown
        doubles = [t for t in post.get("doubles", "").replace(" ", "").split(",") if t]
        return {"type": "redeal", "seat": post.get("seat", ""), "doubles": doubles}
    if kind == "tally":
        return _tally(post, seats, names)
    if kind in _TRUCK_KINDS:
        return _truck(kind, post)
    raise InvalidAction(gettext("This form does not say what happened; reload the page."))


def declaration(post: QueryDict, play: dict[str, Any]) -> dict[str, Any] | None:
    """Muggins (``fives.muggins``): the declaration a phone made with its play, sent in the
    same tap, or None. The referee judges it after the play, in the same transaction."""
    points = post.get("declare", "")
    if play.get("type") != "play" or points == "":
        return None
    return {"type": "declare", "seat": play.get("seat", ""), "points": points}


def _train(kind: str, post: QueryDict, family: str) -> dict[str, Any]:
    """Mexican Train and Chicken Foot: the engine placed, a tile played on a train (or on a
    tile of the foot), a draw of one tile."""
    seat = post.get("seat", "")
    if kind == "draw":
        return {"type": "draw", "seat": seat}
    tile = post.get("tile", "")
    if not tile:
        raise InvalidAction(gettext("Tap a tile first, then where it goes."))
    if kind == "engine":
        return {"type": "engine", "seat": seat, "tile": tile}
    target = post.get("target", "")
    if not target:
        raise InvalidAction(gettext("Tap where the tile goes: a train lit for it."))
    return {
        "type": "play",
        "seat": seat,
        "tile": tile,
        ("on" if family == "foot" else "train"): target,
    }


_TABLE_KINDS = ("adjust", "abandon", "stop")


def _about_the_record(kind: str, post: QueryDict) -> dict[str, Any]:
    """What the table records about its record (RULES.md §7): an adjustment, an abandoned
    round, a stopped match. Every game's table has these forms."""
    reason = post.get("reason", "")
    if kind == "adjust":
        points = post.get("points", "").strip().replace("−", "-")  # a typed minus sign
        if post.get("sign") == "-" and points and not points.startswith("-"):
            points = "-" + points
        return {"type": "adjust", "seat": post.get("seat", ""), "points": points, "reason": reason}
    data: dict[str, Any] = {"type": kind}
    if kind == "stop" and post.get("abandoned") == "1":
        data["abandoned"] = True
    if reason.strip():
        data["reason"] = reason
    return data


_TRUCK_KINDS = ("take", "load", "return", "replace", "shift", "unload", "flip")


def _truck(kind: str, post: QueryDict) -> dict[str, Any]:
    """Dump Truck's taps: cells arrive as "row,col;row,col" in the order tapped (the first
    takes the tile's high half), a claim as "from/tile", a shift as "rows,cols"."""
    seat = post.get("seat", "")
    if kind == "flip":
        # The coin is tossed here, by the server's random generator (truck.draw).
        seats = [seat, post.get("other", "")]
        return Drawn(type="flip", seats=seats, first=_CHANCE.choice(seats))
    if kind == "shift":
        rows, _, cols = post.get("shift", "").partition(",")
        return {"type": "shift", "seat": seat, "rows": rows, "cols": cols}
    if kind == "unload":
        data: dict[str, Any] = {"type": "unload", "seat": seat, "score": post.get("score") != "0"}
        if post.get("blank_as", "") != "":
            data["blank_as"] = post["blank_as"]
        return data
    if kind == "take" and post.get("claim"):
        source, _, tile = post["claim"].partition("/")
        return {"type": "take", "seat": seat, "tile": tile, "from": source}
    data = {"type": kind, "seat": seat, "tile": post.get("tile", "")}
    if kind == "take":
        data["from"] = post.get("from", "")
    if kind in ("load", "replace"):
        # The hidden field the page's script fills, or the cell button tapped without it.
        data["cells"] = _cells(next((c for c in reversed(post.getlist("cells")) if c), ""))
    if kind == "replace":
        data["out"] = post.get("out", "")
        to = post.get("to", "pool")
        data["to"] = to if to == "pool" else _cells(to)
    return data


_HAVOC_KINDS = ("draw", "train", "discard", "respond", "pass")


def _havoc(kind: str, post: QueryDict) -> dict[str, Any]:
    """Double Domino Havoc's taps: a draw names where from ("boneyard", or "seat/tile" for a
    discard) and the tile of a double; a train tile comes written matching half first."""
    seat = post.get("seat", "")
    if kind == "pass":
        return {"type": "pass", "seat": seat}
    if kind == "respond":
        answer = post.get("answer", "")
        if answer in ("take", "pass"):
            return {"type": "respond", "seat": seat, answer: True}
        data: dict[str, Any] = {"type": "respond", "seat": seat, "match": post.get("match", "")}
        source, _, tile = post.get("from", "boneyard").partition("/")
        if source != "boneyard":
            data["from"], data["replacement"] = source, tile
        elif post.get("replacement"):
            data["replacement"] = post["replacement"]
        return data
    data = {"type": kind, "seat": seat}
    if kind == "draw":
        # A discard taken is sent as "seat/tile": the tile the screen showed in that slot.
        source, _, tile = post.get("from", "").partition("/")
        data["from"] = source
        if tile or post.get("tile"):
            data["tile"] = tile or post["tile"]
        return data
    data["tile"] = post.get("tile", "")
    return data


def _cells(raw: str) -> list[list[str]]:
    if not raw:
        raise InvalidAction(gettext("Tap two cells of the truck: first where the high half goes."))
    return [cell.split(",") for cell in raw.split(";")]


def _roll(post: QueryDict) -> dict[str, Any]:
    """Dice entered from the table's own dice, or rolled here by the server's random
    generator (dominards.dice): either way the roll is logged like any action."""
    count = post.get("count")  # only the Roll buttons send it: they roll, whatever is typed
    if count is None:
        entered = [post.get(f"die-{i}", "").strip() for i in range(4)]
        # The referee takes dice as numbers only (MATCH_FORMAT.md): typed digits become
        # numbers here, anything else goes on as typed for the referee to refuse.
        dice = [
            int(d) if d.isascii() and d.isdecimal() and len(d) <= 2 else d for d in entered if d
        ]
        return {"type": "roll", "seat": post.get("seat", ""), "dice": dice}
    if count not in ("2", "4"):
        raise InvalidAction(gettext("Roll 2 dice (multiples) or 4 (a virtual card)."))
    dice = [_CHANCE.randint(1, 6) for _ in range(int(count))]
    return Drawn(type="roll", seat=post.get("seat", ""), dice=dice)


class Drawn(dict):
    """An action the server drew values for by chance: the dice it rolled, the coin it
    tossed. The chance comes from the operating system, never from anything a phone sends
    or can see (a key the desk would roll for could be tried there first, issue 28), so a
    tap sent again draws anew: it is known as the same tap by everything but what chance
    gave (``same_tap``), and the log keeps what was drawn the first time, which is what a
    replay reads."""


_CHANCE = secrets.SystemRandom()


def same_tap(recorded: dict[str, Any], asked: dict[str, Any]) -> bool:
    """Whether ``asked`` (an action as the referee writes it) is the tap recorded as
    ``recorded``: the same action, or, drawn by chance, the same but for what chance gave
    (as many dice, between the same seats)."""
    if not isinstance(asked, Drawn):
        return recorded == asked
    return _but_chance(recorded) == _but_chance(asked)


def _but_chance(action: dict[str, Any]) -> dict[str, Any]:
    if action.get("type") == "roll" and isinstance(action.get("dice"), list):
        return {**action, "dice": len(action["dice"])}
    if action.get("type") == "flip":
        return {**action, "first": None}
    return action


def _tally(post: QueryDict, seats: int, names: Sequence[str] = ()) -> dict[str, Any]:
    """Each seat's tiles tapped, or its pip total typed (``tally.hands``: each seat either
    way, MATCH_FORMAT.md); a seat left blank declares nothing, and the referee says whose
    hand is still missing. A seat both tapped and typed is refused rather than half of it
    dropped."""
    pips = {str(s): post.get(f"pips-{s}", "").strip() for s in range(seats)}
    hands = {str(s): post.getlist(f"hand-{s}") for s in range(seats)}
    typed = {s: v for s, v in pips.items() if v}
    tapped = {s: tiles for s, tiles in hands.items() if tiles}
    # pad.record: a seat said to have played out holds nothing, however it was tallied.
    out = [str(s) for s in range(seats) if post.get(f"out-{s}") == "1"]
    if out and (any(s in typed for s in out) or any(s in tapped for s in out)):
        raise InvalidAction(
            gettext("A seat that played out holds nothing: untick its tiles and clear its pips.")
        )
    both = [s for s in typed if s in tapped]
    if both:
        seat = int(both[0])
        raise InvalidAction(
            gettext(
                "{who}'s hand is both tapped and typed: keep its tiles or its pips, not both."
            ).format(who=names[seat] if seat < len(names) else seat + 1)
        )
    made = _made(post, seats, out)
    if typed and not tapped:
        data: dict[str, Any] = {"type": "tally", "pips": {**typed, **dict.fromkeys(out, "0")}}
    else:
        data = {"type": "tally", "hands": {**tapped, **{s: [] for s in out}}}
        if typed:
            data["pips"] = typed
    if made:
        data["made"] = made
    return data


def _made(post: QueryDict, seats: int, out: list[str]) -> list[dict[str, Any]]:
    """A Dominó score pad's ``made`` (``pad.record``, ``parejas.*``): the bonuses ticked and
    who locked a tranque. A capicúa or chuchazo is made by the seat that played out (the
    locker, or the first seat, when none did: the referee then says why it cannot stand)."""
    locked = post.get("made-locked", "")
    made: list[dict[str, Any]] = []
    if locked:
        made.append({"what": "locked", "seat": locked})
    by = out[0] if out else locked or "0"
    for what in ("capicua", "chuchazo"):
        if post.get(f"made-{what}") == "1":
            made.append({"what": what, "seat": by})
    pase = post.get("made-pase", "")
    if pase:
        double = post.get("made-pase-double") == "1"
        made.append({"what": "pase-double" if double else "pase", "seat": pase})
    for seat in range(seats):
        times = post.get(f"made-paso-{seat}", "").strip()
        if not times:
            continue
        if not times.isascii() or not times.isdecimal() or int(times) > 20:
            raise InvalidAction(
                gettext("Pasos corridos are counted in whole times, 0 to 20: not {times}.").format(
                    times=times
                )
            )
        made += [{"what": "paso-corrido", "seat": seat}] * int(times)
    return made


def tally_form(tally: Tally, pad: bool) -> QueryDict:
    """The tally form filled as ``tally`` was recorded: each hand's tiles ticked or its pips
    typed, and in a score pad the seat that played out (no tiles, or 0 pips) ticked as out.
    A fix of a tally opens with what it corrects."""
    form = QueryDict(mutable=True)
    for seat, held in tally.declared.items():
        if pad and held in ((), 0):
            form[f"out-{seat}"] = "1"
        elif isinstance(held, int):
            form[f"pips-{seat}"] = str(held)
        else:
            form.setlist(f"hand-{seat}", [str(tile) for tile in held])
    pasos: dict[int, int] = {}
    for what, seat in tally.made:  # a Dominó score pad's bonuses, as they were ticked
        if what == "locked":
            form["made-locked"] = str(seat)
        elif what in ("capicua", "chuchazo"):
            form[f"made-{what}"] = "1"
        elif what in ("pase", "pase-double"):
            form["made-pase"] = str(seat)
            if what == "pase-double":
                form["made-pase-double"] = "1"
        else:
            pasos[seat] = pasos.get(seat, 0) + 1
    for seat, times in pasos.items():
        form[f"made-paso-{seat}"] = str(times)
    return form


def parse_version(post: QueryDict) -> int:
    raw = post.get("version", "")
    if not raw.isascii() or not raw.isdecimal() or len(raw) > 9:
        raise InvalidAction(
            gettext("This form has no valid version; reload the page and tap again.")
        )
    return int(raw)


def new_match_from_post(post: QueryDict) -> tuple[str, list[str], dict[str, Any]]:
    """Game, player names (blank rows dropped; in pairs, in the seats the partner chosen
    makes) and the house rules chosen."""
    game = preset(post.get("game", ""))
    names = [n for n in (post.get(f"player-{i}", "").strip() for i in range(8)) if n]
    chosen = {o.name: _option_value(o, post, _field(game.slug, o.name)) for o in game.options}
    if chosen.get("partnerships"):
        if len(names) != 4:
            raise PairsNeedFour(
                ngettext(
                    "Playing in pairs takes four players, two teams of two; {n} name is "
                    "filled in. Name four players, or switch “Play in pairs” off.",
                    "Playing in pairs takes four players, two teams of two; {n} names are "
                    "filled in. Name four players, or switch “Play in pairs” off.",
                    len(names),
                ).format(n=len(names))
            )
        names = seat_order(names, post.get("partner") or "2")
    elif "count_all_hands" in chosen:
        chosen["count_all_hands"] = False  # offered with pairs only: out of sight, not read
    return game.slug, names, {name: value for name, value in chosen.items() if value is not None}


class PairsNeedFour(InvalidAction):
    """Play in pairs chosen with other than four names: said beside the switch."""


#: The games that offer "Play in pairs" (team.seats), whose switch sits with the names.
PAIRS_GAMES = frozenset(
    slug for slug, game in PRESETS.items() if any(o.name == "partnerships" for o in game.options)
)
#: Whom the first name partners with: the second, third or fourth name.
PARTNERS = ("1", "2", "3")


def seat_order[T](names: Sequence[T], partner: str) -> list[T]:
    """Four names in their seats when the first partners with ``names[partner]``: partners
    sit opposite (team.seats), the other two keep their order between them (A, X, partner, Y).

    >>> seat_order(["Ana", "Ben", "Caro", "Dan"], "1")
    ['Ana', 'Caro', 'Ben', 'Dan']
    >>> seat_order(["Ana", "Ben", "Caro", "Dan"], "2"), seat_order("ABCD", "3")
    (['Ana', 'Ben', 'Caro', 'Dan'], ['A', 'B', 'D', 'C'])
    """
    if partner not in PARTNERS:
        raise InvalidAction(
            gettext("Choose who partners with the first player: one of the other three.")
        )
    mate = int(partner)
    first, second = (names[seat] for seat in (1, 2, 3) if seat != mate)
    return [names[0], first, names[mate], second]


def _field(game: str, option: str) -> str:
    """A house rule's field: the game's own, but for the one "Play in pairs" switch that sits
    with the names for every game that offers it."""
    return option if option == "partnerships" else f"{game}.{option}"


def _option_value(option: Option, post: QueryDict, field: str) -> Any:
    """The value chosen, or None to leave it to the referee (a default that follows another
    house rule, as exact_target follows the Fives and Threes mode)."""
    raw = post.get(field)
    if option.is_flag and option.defaults_when:
        return {"on": True, "off": False}.get(raw or "")
    if option.is_flag:
        return raw in ("on", "true", "1")
    if raw is None or raw == "":
        return option.default
    for choice in option.choices:  # a choice as the form writes it (train.rounds: "all", 3)
        if str(choice) == raw:
            return choice
    if isinstance(option.default, int):
        if not raw.isascii() or not raw.lstrip("-").isdecimal() or len(raw) > 4:
            raise InvalidAction(
                gettext("{rule} must be a number.").format(rule=gettext(option.label))
            )
        return int(raw)
    return raw
