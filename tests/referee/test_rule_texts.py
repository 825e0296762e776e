"""The rule texts the referee cites are the rulebook's, word for word (RULES.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from referee.rule_texts import RULE_TEXTS

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT.parent / "shared" / "RULES.md"


def _extract():
    spec = importlib.util.spec_from_file_location(
        "extract_rules", ROOT / "scripts/extract_rules.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.extract


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook lives in ../shared/")
def test_the_generated_texts_match_the_rulebook():
    found = _extract()(RULEBOOK.read_text(encoding="utf-8").splitlines())
    assert found == RULE_TEXTS, "run scripts/extract_rules.py ../shared/RULES.md"


def test_a_bullet_that_is_no_rule_ends_the_rule_before_it():
    lines = [
        "## 3. Cards",
        "- `cards.bonus` — Dropping your last card ends the game.",
        "- Cards are private: the app records which card",
        "  a player drops.",
    ]
    assert _extract()(lines) == {
        "cards.bonus": ("3. Cards", "Dropping your last card ends the game.")
    }


def test_sub_bullets_belong_to_their_rule():
    lines = ["### 2.2 The count", "- `line.count` — The count is:", "  - a blank shows 0."]
    assert _extract()(lines)["line.count"][1] == "The count is: - a blank shows 0."


def test_numbered_steps_and_ids_inside_a_step_are_rules_of_their_own():
    lines = [
        "- `havoc.turn` — A turn:",
        "  1. Draw one tile.",
        "  2. `havoc.drawn-double` — A drawn double goes",
        "     to the discard slot.",
        "  3. Play.",
        "  4. Discard.",
        "     `havoc.discard-back` — your discard goes back.",
        "- `havoc.doubles` — When a double lands:",
        "  - `havoc.direction` — an odd double sets counter-clockwise.",
        "  - The next seat responds.",
    ]
    found = {rule: text for rule, (_, text) in _extract()(lines).items()}
    assert found == {
        "havoc.turn": "A turn: 1. Draw one tile. 3. Play. 4. Discard.",
        "havoc.drawn-double": "A drawn double goes to the discard slot.",
        "havoc.discard-back": "your discard goes back.",
        "havoc.doubles": "When a double lands: - The next seat responds.",
        "havoc.direction": "an odd double sets counter-clockwise.",
    }
