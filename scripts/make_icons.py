"""Draw Boneyard's app icons: a five-three domino standing on the table's green.

There is no imaging library in the project, so the PNGs are rasterised here with nothing
but the standard library: each shape is a signed distance function, and a pixel's
coverage of a shape is read from its distance to the shape's edge (one sample a pixel,
anti-aliased over one pixel's width). The pips sit where the app's own tiles put them
(``scoring/drawing.py``). Run it after changing the design, and commit what it writes:

    python scripts/make_icons.py            # writes static/icons/

Writes icon.svg (the favicon for browsers that take SVG), favicon-32.png, icon-192.png and
icon-512.png (purpose "any": a rounded square, transparent corners), maskable-512.png
(purpose "maskable": full bleed, the domino inside the central circle of 80 % that every
mask keeps) and apple-touch-icon.png (180 × 180, full bleed and opaque: iOS rounds the
corners itself and shows transparency as black).
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"

FELT = (0x0B, 0x6E, 0x4F)  # --accent, light: the table's green
BONE = (0xFF, 0xFD, 0xF8)  # --bone
PIP = (0x1D, 0x1B, 0x18)  # --pip
EDGE = (0x08, 0x52, 0x3B)  # a darker green: the tile's shadow on the felt

TOP, BOTTOM = 5, 3  # the tile: five-three, high half on top
# Pip positions on a 3 × 3 grid of a half, as in scoring/drawing.py.
PIPS = {
    3: ((0, 0), (1, 1), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
}

Colour = tuple[int, int, int]
Distance = Callable[[float, float], float]


@dataclass(frozen=True)
class Design:
    """One icon's geometry, in units of the icon's side (0 to 1)."""

    corner: float  # the background's corner radius; 0 for full bleed
    width: float  # the domino's width; its height is twice that

    def shapes(self) -> list[tuple[Colour, Distance]]:
        """What to paint, back to front: (colour, signed distance; negative inside)."""
        w, h = self.width, self.width * 2
        x0, y0 = 0.5 - w / 2, 0.5 - h / 2
        radius = w * 0.14
        shapes: list[tuple[Colour, Distance]] = [
            (FELT, rounded_rect(0, 0, 1, 1, self.corner)),
            (EDGE, rounded_rect(x0 + w * 0.05, y0 + w * 0.07, w, h, radius)),
            (BONE, rounded_rect(x0, y0, w, h, radius)),
            (PIP, rounded_rect(x0 + w * 0.12, 0.5 - w * 0.018, w * 0.76, w * 0.036, w * 0.018)),
        ]
        for number, top in ((TOP, y0), (BOTTOM, 0.5)):
            for cx, cy, r in pips(number, x0, top, w):
                shapes.append((PIP, circle(cx, cy, r)))
        return shapes


# The "any" icon fills its rounded square; the maskable and Apple ones keep the domino
# inside the circle of radius 0.4 (half its diagonal: 0.34 × √5 / 2 = 0.38).
ANY = Design(corner=0.22, width=0.40)
FULL_BLEED = Design(corner=0.0, width=0.34)


def pips(number: int, x: float, y: float, size: float) -> list[tuple[float, float, float]]:
    step, r = size / 4, size / 9.5
    return [(x + step * (1 + px), y + step * (1 + py), r) for px, py in PIPS[number]]


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> Distance:
    cx, cy, hx, hy = x + w / 2, y + h / 2, w / 2 - r, h / 2 - r

    def distance(px: float, py: float) -> float:
        qx, qy = abs(px - cx) - hx, abs(py - cy) - hy
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return outside + min(max(qx, qy), 0.0) - r

    return distance


def circle(cx: float, cy: float, r: float) -> Distance:
    return lambda px, py: math.hypot(px - cx, py - cy) - r


def rasterise(design: Design, size: int) -> bytes:
    """Straight-alpha RGBA rows, each led by PNG's filter byte 0."""
    pixel = 1 / size
    shapes = design.shapes()
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        py = (j + 0.5) * pixel
        for i in range(size):
            px = (i + 0.5) * pixel
            red = green = blue = alpha = 0.0
            for (r, g, b), distance in shapes:
                cover = min(max(0.5 - distance(px, py) / pixel, 0.0), 1.0)
                if cover == 0.0:
                    continue
                # "Over", in premultiplied terms.
                keep = 1 - cover
                red, green, blue = (
                    r * cover + red * keep,
                    g * cover + green * keep,
                    b * cover + blue * keep,
                )
                alpha = cover + alpha * keep
            if alpha > 0:
                rows += bytes(round(c / alpha) for c in (red, green, blue))
            else:
                rows += b"\0\0\0"
            rows.append(round(alpha * 255))
    return bytes(rows)


def png(size: int, rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def svg(design: Design) -> str:
    """The same drawing as markup, on a 512 grid; presentation attributes only (the site's
    CSP allows no inline styles, and an icon needs none)."""

    def n(value: float) -> str:
        return f"{value * 512:.1f}".removesuffix(".0")

    def hex_of(colour: Colour) -> str:
        return "#" + "".join(f"{c:02x}" for c in colour)

    w, h = design.width, design.width * 2
    x0, y0 = 0.5 - w / 2, 0.5 - h / 2
    radius = w * 0.14
    parts = [
        f'<rect width="512" height="512" rx="{n(design.corner)}" fill="{hex_of(FELT)}"/>',
        f'<rect x="{n(x0 + w * 0.05)}" y="{n(y0 + w * 0.07)}" width="{n(w)}" height="{n(h)}" '
        f'rx="{n(radius)}" fill="{hex_of(EDGE)}"/>',
        f'<rect x="{n(x0)}" y="{n(y0)}" width="{n(w)}" height="{n(h)}" rx="{n(radius)}" '
        f'fill="{hex_of(BONE)}"/>',
        f'<rect x="{n(x0 + w * 0.12)}" y="{n(0.5 - w * 0.018)}" width="{n(w * 0.76)}" '
        f'height="{n(w * 0.036)}" rx="{n(w * 0.018)}" fill="{hex_of(PIP)}"/>',
    ]
    for number, top in ((TOP, y0), (BOTTOM, 0.5)):
        for cx, cy, r in pips(number, x0, top, w):
            parts.append(f'<circle cx="{n(cx)}" cy="{n(cy)}" r="{n(r)}" fill="{hex_of(PIP)}"/>')
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" role="img" '
        'aria-label="Boneyard: a five-three domino">\n  ' + "\n  ".join(parts) + "\n</svg>\n"
    )


ICONS = {
    "favicon-32.png": (ANY, 32),
    "icon-192.png": (ANY, 192),
    "icon-512.png": (ANY, 512),
    "maskable-512.png": (FULL_BLEED, 512),
    "apple-touch-icon.png": (FULL_BLEED, 180),
}


def main(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, (design, size) in ICONS.items():
        (out / name).write_bytes(png(size, rasterise(design, size)))
        print(f"wrote {out / name}", file=sys.stderr)
    (out / "icon.svg").write_text(svg(ANY))
    print(f"wrote {out / 'icon.svg'}", file=sys.stderr)


if __name__ == "__main__":
    main()
