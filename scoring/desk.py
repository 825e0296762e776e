"""The referee's desk: positions kept by content, and rulings on proposed actions."""

from __future__ import annotations

from typing import Any


def keep(document: Any):
    raise NotImplementedError


def find(key: str):
    raise NotImplementedError


def render_position(request, kept):
    raise NotImplementedError
