"""``{{ refusal|say }}``: one of the referee's sayings in the phone's language."""

from django import template
from django.utils.translation import gettext

from scoring import speech

register = template.Library()
register.filter("say", speech.say)


@register.filter
def translated(text: object) -> str:
    """``{{ game.title|translated }}``: a declared text (scoring/declared.py) through the
    catalogue; its English text is its msgid."""
    return gettext(str(text)) if text else ""
