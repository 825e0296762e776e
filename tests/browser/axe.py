"""Accessibility checks run inside a page: axe-core's rules, the size of every tap target,
and the names a screen reader gives the tiles.

axe-core is vendored for the tests only (``vendor/axe-core/``, see its README) and is
never served by the app. It is evaluated through the DevTools protocol
(``page.evaluate``): the site's CSP refuses an injected ``<script>`` (it has no nonce),
and evaluation from the protocol is not subject to the page's CSP, so the policy under
test stays exactly the one the app sends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page

from referee.tiles import Tile

AXE_VERSION = "4.14.1"
AXE_SOURCE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
# WCAG 2.0, 2.1 and 2.2, levels A and AA, and Deque's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
FAIL_ON = ("serious", "critical")
COLOUR_RULES = ["color-contrast", "link-in-text-block"]  # what the colour scheme can change
MIN_TARGET = 44  # CSS px: Apple's and Android's guidance for a fingertip, at 390 x 844

TILE_NAMES = sorted(
    {Tile(a, b).name for a in range(19) for b in range(a + 1)}, key=len, reverse=True
)


def inject(page: Page) -> None:
    """Load axe into the page once (an htmx swap keeps it; a navigation needs it again)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # A function body, so Playwright runs the file as statements; axe's UMD wrapper
        # sets window.axe when there is no module system.
        page.evaluate("() => {" + AXE_SOURCE + "\n}")
        assert page.evaluate("() => window.axe && window.axe.version") == AXE_VERSION


def axe_violations(page: Page, rules: list[str] | None = None) -> list[dict]:
    """axe's violations of the WCAG 2 A/AA and best-practice rules (or only ``rules``)."""
    inject(page)
    options = (
        {"runOnly": {"type": "rule", "values": rules}}
        if rules
        else {"runOnly": {"type": "tag", "values": TAGS}}
    )
    return page.evaluate(
        """async (options) => {
            const result = await axe.run(document, {...options, resultTypes: ["violations"]});
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
                nodes: v.nodes.map((n) => ({
                    target: n.target.join(" "), impact: n.impact,
                    summary: n.failureSummary || "", html: n.html.slice(0, 200),
                })),
            }));
        }""",
        options,
    )


def describe(violation: dict, limit: int = 6) -> str:
    lines = [
        f"{violation['id']} ({violation['impact']}): {violation['help']} "
        f"<{violation['helpUrl'].split('?')[0]}>"
    ]
    for node in violation["nodes"][:limit]:
        summary = " ".join(node["summary"].split())
        lines.append(f"    {node['target']}  {node['html']!r}  {summary[:240]}")
    if len(violation["nodes"]) > limit:
        lines.append(f"    … and {len(violation['nodes']) - limit} more")
    return "\n".join(lines)


# Elements a finger taps. A radio or checkbox is measured by its label (the pickers hide
# the input and make the label the target); a link set in running text is exempt, as
# WCAG 2.5.8 allows, and so is an SVG end marker, which repeats a button (the
# "equivalent" exception).
_TARGETS_JS = """(least) => {
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" &&
      el.checkVisibility({contentVisibilityAuto: true});
  };
  const inText = (a) => {
    if (getComputedStyle(a).display !== "inline") return false;
    let block = a.parentElement;
    while (block && getComputedStyle(block).display.startsWith("inline")) {
      block = block.parentElement;
    }
    const all = (block ? block.textContent : "").replace(/\\s+/g, " ").trim();
    return all !== a.textContent.replace(/\\s+/g, " ").trim();
  };
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    for (const c of el.classList) s += "." + c;
    for (const attr of ["name", "value", "href", "type"]) {
      if (el.hasAttribute(attr)) s += `[${attr}="${el.getAttribute(attr).slice(0, 40)}"]`;
    }
    const text = (el.getAttribute("aria-label") || el.textContent).replace(/\\s+/g, " ").trim();
    return s + (text ? ` "${text.slice(0, 50)}"` : "");
  };
  const targets = new Set();
  const selector = 'a[href], button, [role=button], input:not([type=hidden]), select, ' +
    'textarea, summary, label.pick, label.pill, label.choice, [tabindex]:not([tabindex="-1"])';
  for (const el of document.querySelectorAll(selector)) {
    let target = el;
    if (el.matches("input[type=radio], input[type=checkbox]")) {
      const byFor = el.id && document.querySelector(`label[for="${el.id}"]`);
      target = el.closest("label") || byFor || el;
    }
    if (target.closest("svg") || target.closest("[hidden], [inert]")) continue;
    if (target.matches("a") && inText(target)) continue;
    if (shown(target)) targets.add(target);
  }
  const small = [];
  for (const el of targets) {
    const box = el.getBoundingClientRect();
    if (box.width < least - 0.5 || box.height < least - 0.5) {
      small.push(`${describe(el)}: ${box.width.toFixed(0)} x ${box.height.toFixed(0)}`);
    }
  }
  return small;
}"""


def small_targets(page: Page) -> list[str]:
    """Every visible tap target smaller than 44 x 44 CSS px, described."""
    return page.evaluate(_TARGETS_JS, MIN_TARGET)


# A drawn tile is <g class="tile"> inside an SVG. Where the SVG is one image (role=img),
# its name must say each of its tiles; where the SVG sits in a control (a picker label, a
# button, a link), the control's name must say the tile it stands for.
_TILES_JS = """(names) => {
  const said = (text) => {
    let count = 0;
    let rest = " " + text.toLowerCase() + " ";
    for (const name of names) {
      const parts = rest.split(new RegExp(`(?<![a-z-])${name}(?![a-z-])`));
      count += parts.length - 1;
      rest = parts.join(" | ");
    }
    return count;
  };
  const plural = (n) => `${n} tile${n > 1 ? "s" : ""}`;
  axe.setup(document);
  try {
    const nameOf = (el) => axe.commons.text.accessibleText(el) || "";
    const missing = [];
    for (const svg of document.querySelectorAll("svg")) {
      const tiles = svg.querySelectorAll("g.tile").length;
      // Not drawn: hidden, or in a closed <details> (which keeps its content's boxes).
      const drawn = svg.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true});
      if (!tiles || !drawn) continue;
      const control = svg.closest("label, button, a, [role=button]");
      let named, what;
      if (control) {
        named = control.matches("label") ? control.querySelector("input") || control : control;
        what = [control.tagName.toLowerCase(), ...control.classList].join(".");
        if (named.value) what += `[value="${named.value}"]`;
        else if (control.getAttribute("href")) what += `[href="${control.getAttribute("href")}"]`;
        const name = nameOf(named);
        if (said(name) < tiles) {
          missing.push(`${what} shows ${plural(tiles)}; its name says ${said(name)}: ` +
            `"${name.slice(0, 160)}"`);
        }
        continue;
      }
      // One image named for all its tiles, or a drawing whose tiles are images named each.
      const whole = svg.getAttribute("role") === "img";
      const name = whole ? nameOf(svg) : "";
      let each = 0;
      if (!whole) {
        for (const g of svg.querySelectorAll("g.tile")) if (said(nameOf(g)) > 0) each += 1;
      }
      what = `svg.${[...svg.classList].join(".")}`;
      if (said(name) + each < tiles) {
        missing.push(`${what} draws ${plural(tiles)}; its name says ${said(name) + each}: ` +
          `"${name.slice(0, 160)}"`);
      }
    }
    return missing;
  } finally {
    axe.teardown();
  }
}"""


def unnamed_tiles(page: Page) -> list[str]:
    """Every drawn tile whose accessible name does not say it ("six-four", "double five")."""
    inject(page)
    return page.evaluate(_TILES_JS, TILE_NAMES)


@dataclass
class Audit:
    """Problems found screen by screen; a test fails once, at its end, with all of them.
    With ``screens``, each screen is also kept there as a full-page PNG in the dark
    scheme, to look at (the other browser tests keep the light ones)."""

    screens: Path | None = None
    problems: dict[str, list[str]] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)

    def check(self, page: Page, screen: str) -> None:
        """axe in light (every rule) and dark (the colour rules), tap targets and tile names,
        on the page as it is now."""
        found: list[str] = []
        try:
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                if scheme == "dark" and self.screens is not None:
                    name = re.sub(r"[^a-z0-9]+", "-", screen.lower()).strip("-")
                    page.screenshot(path=self.screens / f"a11y-{name}-dark.png", full_page=True)
                # The dark scheme changes colours and nothing else a rule reads: there it runs
                # the rules that read colours (the whole set in the dark cost about a third of
                # the browser leg's Chromium time, for the same verdicts).
                rules = COLOUR_RULES if scheme == "dark" else None
                for violation in axe_violations(page, rules):
                    if violation["impact"] in FAIL_ON:
                        found.append(f"{scheme}: " + describe(violation))
                    elif scheme == "light":  # the same in both but for colours
                        self.notes.setdefault(screen, []).append(describe(violation, 2))
        finally:
            page.emulate_media(color_scheme="light")
        found += [f"tap target under {MIN_TARGET} px: {s}" for s in small_targets(page)]
        found += [f"tile without its name: {s}" for s in unnamed_tiles(page)]
        if found:
            self.problems[screen] = found

    def report(self) -> str:
        lines = []
        for screen, found in self.problems.items():
            lines.append(f"\n== {screen}")
            lines += [f"  - {line}" for line in found]
        return "\n".join(lines)

    def assert_clean(self) -> None:
        for screen, notes in self.notes.items():
            print(f"\n(minor or moderate, not failing) {screen}:")
            for note in notes:
                print("  " + note)
        assert not self.problems, "Accessibility problems:" + self.report()
