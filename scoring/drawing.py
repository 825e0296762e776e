"""Tiles and layouts drawn as inline SVG on the server: no images, no canvas.

Every number written into the markup is an int from the referee and every word
goes through ``escape``, so the SVG is safe to mark safe.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from referee import Layout, Tile
from referee.games.dump_truck import COLS, ROWS, Chain, Truck
from referee.games.havoc import SLOTS, Rack
from referee.layout import END, OpenEnd
from scoring.speech import say

WIDTH = 360
LONG, SHORT, GAP = 56, 28, 4

# Pip positions on a unit square (a 3×3 grid), for 0–9; larger numbers are written.
_PIPS = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)),
    9: tuple((x, y) for x in range(3) for y in range(3)),
}


# Whether this request draws tile halves as numerals rather than pips: each phone chooses
# (numerals by default on sets above double-6, where 9-8 and 8-8 in pips are hard to tell
# apart). Set by the view for the request it renders (scoring.access.numerals).
NUMERALS: ContextVar[bool] = ContextVar("numerals", default=False)


def _half(number: int, x: float, y: float, size: float) -> str:
    if number > 9 or (NUMERALS.get() and number > 0):
        return (
            f'<text x="{x + size / 2:.1f}" y="{y + size * 0.68:.1f}" class="pipnum" '
            f'aria-hidden="true" font-size="{size * 0.55:.1f}" text-anchor="middle">{number}</text>'
        )
    step, r = size / 4, size / 11
    return "".join(
        f'<circle cx="{x + step * (1 + px):.1f}" cy="{y + step * (1 + py):.1f}" '
        f'r="{r:.1f}" class="pip"/>'
        for px, py in _PIPS[number]
    )


def tile_group(first: int, second: int, x: float, y: float, vertical: bool, cls: str = "") -> str:
    """One domino with ``first`` on the left (or top) half."""
    w, h = (SHORT, LONG) if vertical else (LONG, SHORT)
    parts = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="3" class="bone"/>']
    if vertical:
        parts.append(
            f'<line x1="{x + 3}" y1="{y + h / 2}" x2="{x + w - 3}" y2="{y + h / 2}" class="bar"/>'
        )
        parts += [_half(first, x, y, SHORT), _half(second, x, y + SHORT, SHORT)]
    else:
        parts.append(
            f'<line x1="{x + w / 2}" y1="{y + 3}" x2="{x + w / 2}" y2="{y + h - 3}" class="bar"/>'
        )
        parts += [_half(first, x, y, SHORT), _half(second, x + SHORT, y, SHORT)]
    return f'<g class="tile {cls}">' + "".join(parts) + "</g>"


def tile_svg(tile: Tile, label: str | None = None) -> SafeString:
    """A small standalone tile for pickers and lists, with an accessible name."""
    name = escape(say(label or tile.name))
    body = tile_group(tile.high, tile.low, 1, 1, False)
    return mark_safe(
        f'<svg class="tile-svg" viewBox="0 0 {LONG + 2} {SHORT + 2}" role="img" '
        f'aria-label="{name}"><title>{name}</title>{body}</svg>'
    )


@dataclass(frozen=True)
class EndMark:
    letter: str
    end: OpenEnd

    @property
    def value(self) -> str:
        return f"{self.end.on}/{self.end.face}"


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def end_marks(layout: Layout) -> list[EndMark]:
    """Each open end with its letter. A letter stays with its end for as long as that end is
    open (a player who remembers "B" taps the same end next turn); ends that open together
    take the free letters in screen order. Worked out from the order the tiles were placed,
    so every phone and every request agrees."""
    letters: dict[tuple, str] = {}
    table = Layout(layout.rules)
    for placed in layout.placed:
        on = None if placed.on is None else layout.placed[placed.on].tile
        table = table.play(placed.tile, on, placed.face)
        ends = table.open_ends()
        keys = [(end.on, end.face, end.shows) for end in ends]
        letters = {key: letters[key] for key in keys if key in letters}
        free = iter(letter for letter in LETTERS if letter not in letters.values())
        for key in keys:
            if key not in letters:
                letters[key] = next(free, "?")
    return [EndMark(letters[(end.on, end.face, end.shows)], end) for end in layout.open_ends()]


class _Rows:
    """Lays items out left to right, wrapping at the drawing's width."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = 4

    def row(self, label: str, items: list[tuple[str, object]]) -> None:
        if label:
            self.parts.append(
                f'<text x="4" y="{self.y + 10}" class="armlabel">{escape(label)}</text>'
            )
            self.y += 14
        x, line_height = 4, LONG
        for kind, item in items:
            width = self._width(kind, item)
            if x + width > WIDTH - 4:
                x, self.y = 4, self.y + line_height + GAP * 2
            self.parts.append(self._draw(kind, item, x))
            x += width + GAP
        self.y += line_height + GAP * 3

    def _width(self, kind: str, item: object) -> int:
        if kind == "mark":
            return 30
        first, second, _ = item  # type: ignore[misc]
        return SHORT if first == second else LONG

    def _draw(self, kind: str, item: object, x: float) -> str:
        if kind == "mark":
            mark: EndMark = item  # type: ignore[assignment]
            dead = " dead" if mark.end.dead else ""
            return (
                f'<g class="end-marker{dead}" data-end="{mark.letter}">'
                f'<circle cx="{x + 14}" cy="{self.y + LONG / 2}" r="13"/>'
                f'<text x="{x + 14}" y="{self.y + LONG / 2 + 5}" text-anchor="middle">'
                f"{mark.letter}</text></g>"
            )
        first, second, counts = item  # type: ignore[misc]
        vertical = first == second
        top = self.y if vertical else self.y + (LONG - SHORT) / 2
        return tile_group(first, second, x, top, vertical, "counts" if counts else "")


def layout_svg(
    layout: Layout,
    marks: list[EndMark],
    counting: frozenset[Tile] = frozenset(),
    count_shown: bool = True,
) -> SafeString:
    """The layout as rows: the lead, then every arm from where it leaves; the tiles in
    ``counting`` (those that make up the count) are marked. Its name reads every tile, row
    by row, and the count unless ``count_shown`` is off (in Muggins spotting it is the game).

    A phone is too narrow for a true-to-table drawing of long arms, so each arm
    is drawn as its own row, wrapped, with its open end lettered like the buttons.
    """
    if not layout.placed:
        empty = escape(gettext("No tile on the table yet: record the lead."))
        return mark_safe(f'<p class="empty-layout">{empty}</p>')
    by_tile: dict[tuple[Tile, str], list[EndMark]] = {}
    for mark in marks:
        by_tile.setdefault((mark.end.on, mark.end.face), []).append(mark)
    rows = _Rows()
    lead = layout.placed[0]
    lead_items: list[tuple[str, object]] = [
        ("tile", (lead.tile.high, lead.tile.low, lead.tile in counting))
    ]
    lead_items += [
        ("mark", m) for face in ("side", END) for m in by_tile.get((lead.tile, face), [])
    ]
    # The rows' labels are short, with tiles as numerals; the drawing's name reads them out.
    rows.row(gettext("Lead {tile}").format(tile=lead.tile), lead_items)
    spoken = [gettext("lead {tile}").format(tile=say(lead.tile.name))]
    for origin, face, chain in layout.arms()[1:]:
        assert origin is not None
        items: list[tuple[str, object]] = []
        for index in chain:
            placed = layout.placed[index]
            touching = placed.touching if placed.touching is not None else placed.tile.high
            other = placed.tile.other(touching)
            items.append(("tile", (touching, other, placed.tile in counting)))
        last = layout.placed[chain[-1]].tile
        items += [("mark", m) for m in by_tile.get((last, "side"), [])]
        origin_tile = layout.placed[origin].tile
        arm = ", ".join(say(layout.placed[index].tile.name) for index in chain)
        if face == END:
            rows.row(gettext("from {tile} (end)").format(tile=origin_tile), items)
            said = gettext("from {tile} (end): {tiles}")
        else:
            rows.row(gettext("from {tile}").format(tile=origin_tile), items)
            said = gettext("from {tile}: {tiles}")
        spoken.append(said.format(tile=say(origin_tile.name), tiles=arm))
    for placed in layout.placed[1:]:
        for mark in by_tile.get((placed.tile, END), []):
            rows.row(gettext("from {tile} (end)").format(tile=placed.tile), [("mark", mark)])
    height = rows.y + 4
    if count_shown:
        name = gettext("The layout: {tiles}. Count {count}").format(
            tiles="; ".join(spoken), count=layout.count
        )
    else:
        name = gettext("The layout: {tiles}").format(tiles="; ".join(spoken))
    return mark_safe(
        f'<svg class="layout" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label="{escape(name)}">' + "".join(rows.parts) + "</svg>"
    )


@functools.lru_cache(maxsize=256)
def qr_svg(url: str, label: str, scale: int = 4) -> SafeString:
    """A QR code of ``url`` as inline SVG (segno writes only paths and colours, no styles),
    ``scale`` px a module (an event's printed table card draws it larger). Kept: a link
    changes only with new links, and drawing two codes was a third of the full table page's
    time (bench/)."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=scale, dark="#000", light="#fff", svgclass="qr")
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))


@dataclass(frozen=True)
class Picker:
    """The tile picker in two parts: the tiles that can go now, and the rest, folded (each
    tile can still be tapped there, to hear why it cannot go)."""

    go: SafeString
    rest: SafeString
    resting: int  # how many tiles the folded part holds
    open: bool  # the tile chosen is among them


def picker_html(items: list[dict], selected: str | None) -> Picker:
    """The tile picker's radio buttons: built here rather than in the template, since its 28
    to 91 tiles were most of the cost of rendering the table (bench/). A tile can go where
    the server found it fits (``fits``)."""
    go = [item for item in items if item["fits"]]
    rest = [item for item in items if not item["fits"]]
    return Picker(
        _picks(go, selected, rows=False),
        _picks(rest, selected, rows=True),
        len(rest),
        any(selected == str(item["tile"]) for item in rest),
    )


def _picks(items: list[dict], selected: str | None, rows: bool) -> SafeString:
    parts = []
    high = None
    for item in items:
        # Each high number starts a row of its own: the picker reads as the set is sorted.
        # The few tiles that can go stay together.
        starts = rows and item["tile"].high != high
        high = item["tile"].high
        attrs = f'value="{item["tile"]}" data-fits="{escape(item["fits"])}"'
        if item["why"]:  # the referee's reason the tile fits nowhere, and its rule id
            attrs += (
                f' data-why="{escape(say(item["why"].message))}" data-rule="{item["why"].rule}"'
            )
        if item["gains"]:
            attrs += f' data-gains="{escape(item["gains"])}"'
        for name, value in item.get("data", {}).items():
            attrs += f' data-{name}="{escape(value)}"'
        if selected == str(item["tile"]):
            attrs += " checked"
        kind = ("pick" if item["fits"] else "pick nofit") + (" row-start" if starts else "")
        parts.append(
            f'<label class="{kind}"><input type="radio" name="tile" {attrs}>{item["svg"]}</label>'
        )
    return mark_safe("".join(parts))


CELL, BED = 40, 3  # a truck's cell, and the margin round its bed


def truck_svg(
    truck: Truck, chains: tuple[Chain, ...] = (), label: str = "", big: bool = False
) -> SafeString:
    """A truck (``truck.shape``) as 3 × 4 half-domino cells, its dominoes drawn where they
    lie and each scoring chain traced through the cells it uses."""
    width, height = COLS * CELL + 2 * BED, ROWS * CELL + 2 * BED
    parts = [f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" rx="6" class="bed"/>']
    for row in range(ROWS):
        for col in range(COLS):
            x, y = BED + col * CELL, BED + row * CELL
            parts.append(
                f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" '
                'rx="4" class="slot"/>'
            )
    for placed in truck.placed:
        (r1, c1), (r2, c2) = placed.cells
        x, y = BED + min(c1, c2) * CELL + 2, BED + min(r1, r2) * CELL + 2
        w = (abs(c1 - c2) + 1) * CELL - 4
        h = (abs(r1 - r2) + 1) * CELL - 4
        parts.append(
            f'<g class="tile"><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" class="bone"/>'
        )
        if r1 == r2:
            mid = BED + max(c1, c2) * CELL
            parts.append(f'<line x1="{mid}" y1="{y + 4}" x2="{mid}" y2="{y + h - 4}" class="bar"/>')
        else:
            mid = BED + max(r1, r2) * CELL
            parts.append(f'<line x1="{x + 4}" y1="{mid}" x2="{x + w - 4}" y2="{mid}" class="bar"/>')
        for (row, col), value in zip(
            placed.cells, (placed.tile.high, placed.tile.low), strict=True
        ):
            parts.append(_half(value, BED + col * CELL + 2, BED + row * CELL + 2, CELL - 4))
        parts.append("</g>")
    for chain in chains:
        centres = [(BED + c * CELL + CELL / 2, BED + r * CELL + CELL / 2) for r, c in chain.cells]
        points = " ".join(f"{x},{y}" for x, y in centres)
        # Each cell of the chain framed, so the pips stay readable where the count is checked.
        dots = "".join(
            f'<rect x="{x - CELL / 2 + 4}" y="{y - CELL / 2 + 4}" width="{CELL - 8}" '
            f'height="{CELL - 8}" rx="5"/>'
            for x, y in centres
        )
        parts.append(f'<g class="chain {chain.kind}"><polyline points="{points}"/>{dots}</g>')
    held = ", ".join(say(t.name) for t in truck.tiles) or gettext("empty")
    truck_name = say(label) or gettext("A truck")
    name = escape(f"{truck_name}: {held}")
    size = "truck big" if big else "truck"
    return mark_safe(
        f'<svg class="{size}" viewBox="0 0 {width} {height}" role="img" aria-label="{name}">'
        f"<title>{name}</title>" + "".join(parts) + "</svg>"
    )


def train_svg(
    engine: int, tiles: Sequence[Tile], label: str, shown: int, open_double: bool
) -> SafeString:
    """A Mexican Train (``train.trains``): its newest ``shown`` tiles from the hub outward,
    each with the half it matched on the left and its free half on the right; a double
    crosswise, lit while it is open (``train.double``)."""
    end, links = engine, []
    for tile in tiles:
        free = tile.other(end)
        links.append((end, free, tile.is_double))
        end = free
    links = links[-shown:]
    label = say(label)
    if tiles:  # the tiles drawn, named for a screen reader as the picture shows them
        label += ": " + ", ".join(say(t.name) for t in tiles[-shown:])
    x, parts = 2.0, []
    for i, (matched, free, double) in enumerate(links):
        last = i == len(links) - 1
        if double:
            cls = "waiting" if last and open_double else ""
            parts.append(tile_group(matched, free, x, 2, True, cls))
            x += SHORT + GAP
        else:
            parts.append(tile_group(matched, free, x, 2 + (LONG - SHORT) / 2, False))
            x += LONG + GAP
    if not links:  # not started: an empty slot where the first tile goes
        parts.append(
            f'<rect x="2" y="{2 + (LONG - SHORT) / 2}" width="{LONG}" height="{SHORT}" rx="3" '
            'class="slot"/>'
        )
        x += LONG + GAP
    name = escape(label)
    return mark_safe(
        f'<svg class="train" viewBox="0 0 {x:.0f} {LONG + 4}" role="img" aria-label="{name}">'
        f"<title>{name}</title>" + "".join(parts) + "</svg>"
    )


RACK_SLOT = LONG + 4  # a train slot's width in a rack drawing


def rack_svg(rack: Rack, label: str, waiting_double: bool = False) -> SafeString:
    """A Havoc rack (``havoc.setup``): the train's six slots, each tile drawn with the half
    it matched on the left and its free half on the right; below, the discard slot (face up)
    and the tray as face-down tiles, since trays are private."""
    width, row = SLOTS * RACK_SLOT, SHORT + 10
    parts = []
    for i in range(SLOTS):
        x = i * RACK_SLOT + 2
        if i < len(rack.train):
            link = rack.train[i]
            parts.append(tile_group(link.tile.other(link.free), link.free, x, 2, False))
        else:
            parts.append(
                f'<rect x="{x}" y="2" width="{LONG}" height="{SHORT}" rx="3" class="slot"/>'
            )
    y = row + 2
    if rack.slot is not None:
        cls = "waiting" if waiting_double else ""
        parts.append(tile_group(rack.slot.high, rack.slot.low, 2, y, False, cls))
    else:
        parts.append(
            f'<rect x="2" y="{y}" width="{LONG}" height="{SHORT}" rx="3" class="slot discard"/>'
        )
    for i in range(rack.tray):
        parts.append(
            f'<rect x="{RACK_SLOT + 14 + i * 20}" y="{y}" width="16" height="{SHORT}" rx="3" '
            'class="back"/>'
        )
    name = escape(say(label))
    return mark_safe(
        f'<svg class="rack" viewBox="0 0 {width} {y + SHORT + 2}" role="img" '
        f'aria-label="{name}"><title>{name}</title>' + "".join(parts) + "</svg>"
    )


RING = 240  # the table ring's size: seats round the edge, the direction arrow at the centre


def ring_svg(names: tuple[str, ...], direction: int, acting: int | None) -> SafeString:
    """The seats round the table, clockwise as they sit, with a large arrow at the centre
    showing the direction of play (``havoc.direction``); the seat to act is lit."""
    centre, radius, arc = RING / 2, RING / 2 - 30, 44
    parts = []
    for seat, name in enumerate(names):
        # Seat 0 at the bottom; angles grow clockwise on screen (y points down).
        angle = math.radians(90 + seat * 360 / len(names))
        x, y = centre + radius * math.cos(angle), centre + radius * math.sin(angle)
        cls = "ring-seat acting" if seat == acting else "ring-seat"
        short = escape(name if len(name) <= 8 else name[:7] + "…")
        parts.append(
            f'<g class="{cls}"><circle cx="{x:.1f}" cy="{y:.1f}" r="25"/>'
            f'<text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle">{short}</text></g>'
        )
    start, end = math.radians(200), math.radians(480)
    sx, sy = centre + arc * math.cos(start), centre + arc * math.sin(start)
    ex, ey = centre + arc * math.cos(end), centre + arc * math.sin(end)
    tx, ty = -math.sin(end), math.cos(end)  # the way a clockwise arc runs at its end
    nx, ny = math.cos(end), math.sin(end)
    head = " ".join(
        f"{px:.1f},{py:.1f}"
        for px, py in (
            (ex + tx * 14, ey + ty * 14),
            (ex + nx * 11, ey + ny * 11),
            (ex - nx * 11, ey - ny * 11),
        )
    )
    arrow = (
        f'<path d="M {sx:.1f} {sy:.1f} A {arc} {arc} 0 1 1 {ex:.1f} {ey:.1f}" class="arc"/>'
        f'<polygon points="{head}" class="head"/>'
    )
    clockwise = direction > 0
    if not clockwise:
        arrow = f'<g transform="translate({RING} 0) scale(-1 1)">{arrow}</g>'
    parts.append(f'<g class="arrow {"cw" if clockwise else "ccw"}">{arrow}</g>')
    if acting is None:
        said = (
            gettext("Play goes clockwise") if clockwise else gettext("Play goes counter-clockwise")
        )
    elif clockwise:
        said = gettext("Play goes clockwise; {who} acts now")
    else:
        said = gettext("Play goes counter-clockwise; {who} acts now")
    label = escape(said.format(who=names[acting]) if acting is not None else said)
    return mark_safe(
        f'<svg class="ring" viewBox="0 0 {RING} {RING}" role="img" aria-label="{label}">'
        f"<title>{label}</title>" + "".join(parts) + "</svg>"
    )
