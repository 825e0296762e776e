"""The referee's desk: a position (a match document) kept under a name made from its
content, and the referee's ruling on an action proposed there. Nothing here records an
action: the desk asks the same referee the table does, and keeps only the position."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from referee import (
    DocumentError,
    IllegalAction,
    InvalidAction,
    MatchReplay,
    Play,
    Tally,
    Undo,
    replay,
)  # fmt: skip
from referee.actions import Action as RefAction
from referee.actions import parse_action
from referee.document import FORMAT, step
from referee.games import engine
from referee.rulebook import preset, rule_text
from scoring import services
from scoring.caches import ROUND_BYTES, WeighedCache, round_bytes
from scoring.forms import action_from_post
from scoring.models import Action, Match, Position, Round
from scoring.screens.line import last_scored
from scoring.speech import ended, say, tile_name
from scoring.words import describe, standing

KEY = re.compile(r"[A-Za-z0-9_-]{22}")
KEEP_POSITIONS = timedelta(days=30)  # from the last time a position was kept or asked about
MOST_ALTERNATIVES = 6


def _canonical(checked: MatchReplay) -> dict[str, Any]:
    """The document as the referee read it: the same position always reads the same."""
    return {
        "format": FORMAT,
        "game": checked.game,
        "options": dict(checked.options),
        "players": list(checked.players),
        "rounds": [{"actions": [a.to_dict() for a in r.entries]} for r in checked.rounds],
    }


def keep(document: Any) -> Position:
    """The position of a document, replayed through the referee first (DocumentError says
    where it breaks); stored once, however often it is asked about."""
    canonical = _canonical(replay(document))
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).digest()[:16]
    key = base64.urlsafe_b64encode(digest).decode().rstrip("=")
    now = timezone.now()
    # Positions are kept for a while, not for ever: each keep clears the expired ones.
    Position.objects.filter(kept_at__lt=now - KEEP_POSITIONS).delete()
    kept, made = Position.objects.get_or_create(
        key=key, defaults={"document": canonical, "kept_at": now}
    )
    if not made:  # asked about again: kept for another while from now
        Position.objects.filter(pk=kept.pk).update(kept_at=now)
    return kept


def find(key: str) -> Position | None:
    if not KEY.fullmatch(key):
        return None
    since = timezone.now() - KEEP_POSITIONS
    return Position.objects.filter(key=key, kept_at__gte=since).first()


# A position never changes once kept, so its replay is kept too: a long match takes tens of
# milliseconds to replay, and each proposal at the desk would replay it again. Weighed in
# bytes like the table's replays (scoring.caches): 16 MB a process at most.
REPLAY_BUDGET = 16 * 1024 * 1024
_REPLAYS: WeighedCache[MatchReplay] = WeighedCache(REPLAY_BUDGET)


def match_bytes(checked: MatchReplay) -> int:
    """What a match's replay holds, in bytes (estimated, never less than it holds)."""
    return ROUND_BYTES + sum(round_bytes(played) for played in checked.rounds)


def _replay_of(key: str) -> MatchReplay:
    checked = _REPLAYS.get(key)
    if checked is None:
        checked = replay(Position.objects.get(key=key).document)
        _REPLAYS.put(key, checked, weight=match_bytes(checked))
    return checked


def forget_replays() -> None:
    _REPLAYS.clear()


def table_of(kept: Position) -> services.Table:
    """The table screen's view of a position: unsaved rows standing in for the match's."""
    checked = _replay_of(kept.key)
    match = Match(
        game=checked.game,
        options=dict(checked.options),
        totals=list(checked.totals),
        winner=checked.winner,
        status=Match.FINISHED if checked.over else Match.PLAYING,
        version=sum(len(r.entries) for r in checked.rounds),
    )
    if not checked.rounds:
        return services.table_from(match, checked.players, None, [], None)
    played = checked.rounds[-1]
    rows = [
        Action(seq=n, kind=a.kind, payload=a.to_dict(), points=list(p) if any(p) else [])
        for n, (a, p) in enumerate(zip(played.entries, played.entry_points, strict=True))
    ]
    last = Round(number=len(checked.rounds), leader=played.state.leader)
    return services.table_from(match, checked.players, played, rows, last)


@dataclass(frozen=True)
class Ruling:
    """What the referee says of a proposed action."""

    asked: str  # the action, in words
    legal: bool
    rule: str = ""  # the rule that refuses it
    message: str = ""  # why, in the players' words
    text: str = ""  # the rule's text
    scores: tuple[tuple[str, int], ...] = ()  # who would gain or lose what
    why: tuple[str, ...] = ()  # how the score is made
    why_rule: str = ""
    alternatives: tuple[str, ...] = ()  # what would be legal instead
    action: dict[str, Any] = field(default_factory=dict)  # the proposal, to play it on


def rule(table: services.Table, post: Mapping[str, Any]) -> Ruling:
    """The ruling on the action a table form describes; InvalidAction when the form does
    not describe one."""
    family = preset(table.match.game).family
    data = action_from_post(post, len(table.names), family)  # type: ignore[arg-type]
    action = parse_action(data, family)
    actions = table.played.actions if table.played else ()
    kept = standing(actions)
    undone = actions[kept[-1]] if isinstance(action, Undo) and kept else None
    try:
        asked = say(describe(action, table.names, undone, family=family))
    except IndexError:  # a seat this table does not have: the referee's refusal says so
        asked = json.dumps(action.to_dict())
    try:
        played = step(services.round_for(table, action), action)
    except IllegalAction as refusal:
        return Ruling(
            asked,
            False,
            refusal.rule,
            say(refusal.message),
            gettext(rule_text(refusal.rule)),
            alternatives=_alternatives(table, action, family),
            action=action.to_dict(),
        )
    points = played.points[-1]
    scores = tuple((table.names[s], p) for s, p in enumerate(points) if p)
    why, why_rule = _why(table, played.state, action)
    return Ruling(asked, True, scores=scores, why=why, why_rule=why_rule, action=action.to_dict())


def _why(table: services.Table, after, action: RefAction) -> tuple[tuple[str, ...], str]:
    """How the score is made: the ends that make the count, the chains of a truck, the
    targets hit, the hands tallied; and the rule that scores it."""
    game = after.game
    if isinstance(action, Tally) and after.result is not None:
        scores = ", ".join(f"{table.names[s]} {p}" for s, p in enumerate(after.result.points) if p)
        words = gettext("The round ends ({reason}); {scores}").format(
            reason=ended(after.result.reason), scores=scores
        )
        return (words or gettext("The round ends; nobody scores."),), ""
    if game.family == "truck":
        load = after.last_load
        if load is None:
            return (), "truck.best"
        return (gettext("The load: {load}.").format(load=say(load.words)),), "truck.best"
    if game.family != "line" or not isinstance(action, Play):
        return (), ""
    said = say(last_scored(after, table.names))
    parts = " + ".join(
        gettext("{shows} ({tile})").format(shows=shows, tile=tile_name(tile))
        for tile, shows in after.layout.count_parts()
    )
    if parts:
        count = after.layout.count
        lines = [gettext("The open ends show {parts} = {count}.").format(parts=parts, count=count)]
    else:
        lines = []
    if after.dominards:
        return (*lines, said), "dominards.total"
    if not game.scores_plays:
        return tuple(lines), ""
    if after.muggins and after.pending is not None:
        lines.append(
            gettext(
                "The play makes {worth}; in Muggins the player must declare it, or an "
                "opponent may call Muggins and take it."
            ).format(worth=after.pending.worth)
        )
        return tuple(lines), "fives.muggins"
    if after.last_passed:  # the count would pass the target: not scored, and why
        lines.append(said)
    return tuple(lines), f"{game.scoring}.score"


def _alternatives(table: services.Table, action: RefAction, family: str) -> tuple[str, ...]:
    """Legal actions like the refused one: the same tile elsewhere, or the same seat's."""
    try:
        state = services.round_for(table, action).state
    except IllegalAction:
        return ()
    legal = engine(table.match.game).legal_actions(state)
    tile = getattr(action, "tile", None)
    seat = getattr(action, "seat", None)
    alike = [a for a in legal if tile is not None and getattr(a, "tile", None) == tile]
    alike = alike or [a for a in legal if getattr(a, "seat", None) == seat]
    alike = alike or list(legal)
    said = dict.fromkeys(say(describe(a, table.names, family=family)) for a in alike)
    return tuple(said)[:MOST_ALTERNATIVES]


def played_on(kept: Position, table: services.Table, action: str) -> Position:
    """The position after ``action`` (the ruling's JSON): a new position; this one is kept
    as it is."""
    not_one = gettext("That is not an action: ask the referee again.")
    try:
        proposal = json.loads(action)
    except (ValueError, RecursionError):
        raise InvalidAction(not_one) from None
    if not isinstance(proposal, dict):
        raise InvalidAction(not_one)
    parsed = parse_action(proposal, preset(table.match.game).family)
    document = json.loads(json.dumps(kept.document))
    rounds = document["rounds"]
    if services.round_for(table, parsed) is not table.played:
        rounds.append({"actions": []})  # the action begins the next round
    rounds[-1]["actions"].append(parsed.to_dict())
    try:
        return keep(document)
    except DocumentError as error:  # the ruling said legal: the referee must agree again
        raise IllegalAction(error.rule or "procedure.misplay", error.message) from None
