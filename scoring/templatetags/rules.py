"""{% rule_link rule game %}: a rule id that opens its text on the game's rules page."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from referee import PRESETS
from scoring.rules_pages import choice_name as named

register = template.Library()


@register.simple_tag
def rule_link(rule: str, game: str) -> str:
    """The link to ``rule`` on ``game``'s page; an action from another game (a roll sent
    to an All Fives table) is refused by that game's rule, found on that game's page."""
    if rule not in PRESETS[game].rules:
        game = next((slug for slug, p in PRESETS.items() if rule in p.rules), game)
    url = reverse("rules_game", args=[game])
    return format_html('<a class="rule" href="{}#{}">{}</a>', url, rule, rule)


@register.filter
def choice_name(value: object, option: str) -> str:
    """``{{ value|choice_name:option.name }}``: a house rule's value in players' words."""
    return named(option, value)
