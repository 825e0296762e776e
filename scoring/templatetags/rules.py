"""{% rule_link rule game %}: a rule id that opens its text on the game's rules page."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def rule_link(rule: str, game: str) -> str:
    url = reverse("rules_game", args=[game])
    return format_html('<a class="rule" href="{}#{}">{}</a>', url, rule, rule)
