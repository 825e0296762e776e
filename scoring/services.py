"""The only code that writes game state: create a match, record an action, import.

Recording follows one path: load the round's log → replay it through the
referee → apply the new action → append it, all in one transaction that first
claims the version the form was drawn from. A stale form, an illegal action or
a malformed one changes nothing.
"""

from __future__ import annotations

import copy
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils.translation import gettext

from referee import (
    Action as RefAction,
)
from referee import (
    DocumentError,
    IllegalAction,
    InvalidAction,
    MatchReplay,
    Undo,
    corrections,
    line,
    parse_action,
    replay,
)
from referee.actions import INSERT, Adjust, Correct, Draw, Stop
from referee.document import (
    MOST_ROUNDS,
    Resume,
    RoundReplay,
    check_players,
    export,
    name_key,
    play_round,
    position_before,
    step,
    too_many_rounds,
)
from referee.games import engine
from referee.rulebook import preset
from referee.teams import Team, team_name, team_of, team_totals, teams
from scoring import domino, live
from scoring.caches import ROUND_BYTES, ROW_BYTES, WeighedCache, round_bytes
from scoring.forms import Drawn, same_tap
from scoring.games import facts
from scoring.models import Action, Match, Player, Round, Seat, new_token, shared_seats
from scoring.speech import all_of, say
from scoring.words import describe


class Stale(Exception):
    """The form was drawn from an older version of the table."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Table:
    """A match as the table screen needs it, at one version."""

    match: Match
    names: tuple[str, ...]
    number: int  # the round being played, or about to start
    state: line.RoundState  # that round's state
    played: RoundReplay | None  # the last round row replayed (None before round 1)
    rows: list[Action] = field(default_factory=list)  # the log of the last round row
    last_row: Round | None = None

    @property
    def between_rounds(self) -> bool:
        """The last round is tallied and the next has no action yet."""
        return self.played is not None and self.played.finished

    @property
    def undo_state(self) -> line.RoundState | None:
        """The state an undo applies to: the last round that has actions."""
        return self.played.state if self.played is not None else None

    @property
    def over(self) -> bool:
        return self.match.status == Match.FINISHED


def new_key() -> str:
    """An idempotency key: one intended action (a form), recorded at most once."""
    return uuid.uuid4().hex


def create_match(game: str, names: list[str], options: dict[str, Any]) -> Match:
    """A new match; raises InvalidAction for a bad game, player list or house rule."""
    players = check_players(names, game)
    checked = engine(game).options_for(game, options, len(players))
    with transaction.atomic():
        match = Match.objects.create(game=game, options=checked, totals=[0] * len(players))
        for number, name in enumerate(players):
            Seat.objects.create(match=match, number=number, player=player_named(name))
    return match


def player_named(name: str) -> Player:
    """The player of this name (as the table hears it: ``name_key``), made if new. Two
    phones may make the same new name at once: on PostgreSQL the second insert waits for
    the first and then fails, so it is tried in a savepoint and the player read again."""
    key = name_key(name)
    for _ in range(3):
        found = Player.objects.filter(key=key).first()
        if found is not None:
            return found
        try:
            with transaction.atomic():
                return Player.objects.create(name=name, key=key)
        except IntegrityError:
            continue  # made a moment ago by another phone: read it
    raise InvalidAction(
        gettext("The name {name} could not be stored just now; try again.").format(name=name)
    )


def play_again(match: Match) -> Match:
    """A new match of the same game, with the same players in the same seats and the same
    house rules ("Play again" from a finished match)."""
    names = list(
        Seat.objects.filter(match=match).order_by("number").values_list("player__name", flat=True)
    )
    return create_match(match.game, names, dict(match.options))


@dataclass(frozen=True)
class Replayed:
    """The last round of a match replayed at one version: what every request needs."""

    names: tuple[str, ...]
    last_row: Round | None
    rows: tuple[Action, ...]
    played: RoundReplay | None


# Replays by (match, version, created_at). A version names one log content for good
# (every action bumps it, nothing else writes the log), so an entry is never stale;
# created_at keeps a reused primary key apart. Entries are added only after the transaction
# that wrote them commits. The benchmark (bench/) showed why: without it, recording in a
# round of 60 actions cost 1.5 times a fresh round's. Bounded by the bytes the entries hold,
# estimated (scoring.caches): 32 MB a process at most.
REPLAY_BUDGET = 32 * 1024 * 1024
_REPLAYED: WeighedCache[Replayed] = WeighedCache(REPLAY_BUDGET)


def replayed_bytes(replayed: Replayed) -> int:
    """What a kept table holds, in bytes (estimated, never less than it holds): the last
    round's replay and its rows of the log."""
    played = round_bytes(replayed.played) if replayed.played is not None else ROUND_BYTES
    return played + ROW_BYTES * len(replayed.rows)


def _remember(key: tuple, replayed: Replayed) -> None:
    _REPLAYED.put(key, replayed, weight=replayed_bytes(replayed))


def forget_replays() -> None:
    """Empty the cache (tests compare a cached table with a fresh replay)."""
    _REPLAYED.clear()


def recorded(match: Match, row: Round | None) -> dict[str, Any]:
    """``pad.record``: how the round of ``row`` (None: the next round, not begun) is
    recorded, for its engine's ``start``; nothing for the games without a score pad."""
    if "record" not in match.options:
        return {}
    return {"record": (row.record if row is not None else "") or match.options["record"]}


def _replayed(match: Match, version: int) -> Replayed:
    key = (match.pk, version, match.created_at)
    hit = _REPLAYED.get(key)
    if hit is not None:
        return hit
    names = tuple(
        Seat.objects.filter(match=match).order_by("number").values_list("player__name", flat=True)
    )
    last = Round.objects.filter(match=match).order_by("-number").first()
    if last is None:
        replayed = Replayed(names, None, (), None)
    else:
        rows = tuple(last.actions.order_by("seq"))
        # The totals before this round: the match's totals less what this round's log
        # scored (both are written in the same transaction as every action).
        scored = [sum(r.points[seat] for r in rows if r.points) for seat in range(len(names))]
        base = [total - points for total, points in zip(match.totals, scored, strict=True)]
        start = engine(match.game).start(
            match.game, match.options, names, leader=last.leader, base=base, carry=last.carry,
            **recorded(match, last),
        )  # fmt: skip
        family = preset(match.game).family
        played = play_round(start, [parse_action(r.payload, family) for r in rows])
        replayed = Replayed(names, last, rows, played)
    # Outside a transaction another tap may have committed since ``match`` was read: the
    # log read here may be a newer version's. Kept only when it is the version asked for.
    if Match.objects.filter(pk=match.pk, version=version).exists():
        _remember(key, replayed)
    return replayed


def load_table(match: Match, version: int | None = None) -> Table:
    """The table at ``version`` (the match's own by default)."""
    replayed = _replayed(match, match.version if version is None else version)
    return table_from(
        match, replayed.names, replayed.played, list(replayed.rows), replayed.last_row
    )


def table_from(
    match: Match,
    names: tuple[str, ...],
    played: RoundReplay | None,
    rows: list[Action],
    last: Round | None,
) -> Table:
    """The table after the last round row's replay ``played``: that round, or the next one
    once it is tallied (the referee's desk builds one from a document, unsaved)."""
    rules = engine(match.game)
    if last is None or played is None:
        first = rules.start(
            match.game, match.options, names, base=match.totals, **recorded(match, None)
        )
        return Table(match, names, 1, first, None)
    if played.finished and not played.state.match_over:
        fresh = rules.start(
            match.game,
            match.options,
            names,
            leader=rules.next_leader(played.state),
            base=played.state.totals,
            carry=played.state.carry,
            **recorded(match, None),
        )
        return Table(match, names, last.number + 1, fresh, played, rows, last)
    return Table(match, names, last.number, played.state, played, rows, last)


def record(
    match_id: int,
    data: dict[str, Any],
    version: int,
    key: str,
    retried: bool = False,
    then: dict[str, Any] | None = None,
) -> bool:
    """Append one action (and ``then``, the action that goes with it); True if recorded,
    False if this key was recorded before.

    ``then`` is a Muggins declaration made on the phone that entered the play
    (``fives.muggins``: "the app records a play and its declaration together, in one step"):
    both are written in this transaction, so no phone ever sees the play without it.

    Raises Match.DoesNotExist, Stale, InvalidAction or IllegalAction, and then
    nothing was written.
    """
    _check_key(key, 64)
    try:
        with transaction.atomic():
            if _recorded_before(key, match_id, data):
                return False
            # Claim the version first: on PostgreSQL this row lock serialises
            # writers to one match; on SQLite the IMMEDIATE transaction already has.
            # One version for each entry written: a version names one log for good.
            written = 1 if then is None else 2
            if not _claim(match_id, version, written):
                match = Match.objects.get(pk=match_id)
                raise Stale(_what_happened(match, version))
            match = Match.objects.get(pk=match_id)
            # Read in the game's own action language; malformed input rolls the claim back.
            family = preset(match.game).family
            action = parse_action(data, family)
            replayed = _append(load_table(match, version), action, key)
            if then is not None:
                # Its own key: the play's key is what a tap sent again is known by.
                after = table_from(match, *_replayed_parts(replayed))
                replayed = _append(after, parse_action(then, family), new_key())
            key_after = (match.pk, version + written, match.created_at)
            transaction.on_commit(lambda: _remember(key_after, replayed))
            return True
    except IntegrityError:
        # Two copies of one tap raced; the other one was recorded.
        if _recorded_before(key, match_id, data):
            return False
        raise
    except Stale:
        if _recorded_before(key, match_id, data):
            return False
        # Dump Truck's seats draw and load at once, so another seat's tap often lands first:
        # the tap is then judged on the table as it now is (an undo never: it would take back
        # something other than what the player saw). Once: a second loss is refused.
        match = Match.objects.get(pk=match_id)
        if retried or not facts(match.game).all_at_once or data.get("type") == "undo":
            raise
        return record(match_id, data, match.version, key, retried=True, then=then)


def _replayed_parts(replayed: Replayed) -> tuple:
    """What ``table_from`` takes after the match: the names, the replay, its rows, its round."""
    return replayed.names, replayed.played, list(replayed.rows), replayed.last_row


def keep_round(match_id: int, how: str, version: int, key: str) -> bool:
    """``pad.record``: the table says how the round about to begin is kept: tile by tile
    ("plays") or, again, as a score pad ("scores"). Only in a score-pad match, and only
    before the round's first entry: a round is never half pad, half play. True if made,
    False if this key made it before (a switch sent twice). Raises Stale, InvalidAction or
    IllegalAction, and then nothing was written."""
    if how not in ("plays", "scores"):
        raise InvalidAction(
            gettext("A round is kept tile by tile or as a score pad, not {how}.").format(
                how=repr(how)
            )
        )
    _check_key(key, 64)
    record = "plays" if how == "plays" else ""
    with transaction.atomic():
        claimed = _claim(match_id, version)
        match = Match.objects.get(pk=match_id)
        if not claimed:
            if Round.objects.filter(match=match, switch_key=key, record=record).exists():
                return False  # this very switch, made already: its answer was lost
            raise Stale(_what_happened(match, version))
        table = load_table(match, version)
        if match.options.get("record") != "scores":
            raise IllegalAction(
                "pad.record",
                gettext("This match is recorded tile by tile already; it has no score pad."),
            )
        begun = table.last_row is not None and table.last_row.number == table.number
        if table.over or (begun and table.rows):
            raise IllegalAction(
                "pad.record",
                gettext(
                    "Round {number} has begun: how a round is kept is chosen before its first "
                    "entry. Fix its entries instead, or choose again for the next round."
                ).format(number=table.number),
            )
        if not begun and table.number > MOST_ROUNDS:
            raise InvalidAction(too_many_rounds())
        if begun:
            Round.objects.filter(pk=table.last_row.pk).update(
                record=record, switches=F("switches") + 1, switch_key=key
            )
        else:
            state = table.state
            Round.objects.create(
                match=match, number=table.number, leader=state.leader, carry=state.carry,
                record=record, switches=1, switch_key=key,
            )  # fmt: skip
    return True


# A form's key: what new_key() makes, or a phone's own of letters, digits, - and _. Never a
# dot: a correction of several entries keys its rows K, K.1, K.2 (correct.audit), and a tap
# must never take one of those.
KEY = re.compile(r"[A-Za-z0-9_-]+")


def _check_key(key: object, most: int) -> None:
    if not isinstance(key, str) or not 8 <= len(key) <= most or not KEY.fullmatch(key):
        raise InvalidAction(gettext("This form has no valid key; reload the page and tap again."))


def _used_for_another() -> Stale:
    return Stale(
        gettext(
            "This screen was already used for another tap, so this one was not recorded. "
            "Here is the table now: tap again if it is still needed."
        )
    )


def _claim(match_id: int, version: int, steps: int = 1) -> bool:
    """Move the match on from ``version``, the form's (every write claims it first), and
    announce the new version to every open screen of the table once the transaction commits
    (scoring.live): the one place a version moves."""
    claimed = Match.objects.filter(pk=match_id, version=version).update(
        version=F("version") + steps
    )
    if claimed:
        live.publish(live.table_topic(match_id), version + steps)
    return bool(claimed)


def _recorded_before(key: str, match_id: int, data: dict[str, Any]) -> bool:
    """True when ``key`` already recorded this very action (a tap sent twice); raises Stale
    when it recorded another one. A key names one intended action: answering a different
    tap with "recorded" would drop it without a word (two buttons of one screen, the Back
    button, a page restored from the browser's cache)."""
    row = (
        Action.objects.filter(idempotency_key=key)
        .values_list("payload", "round__match_id", "round__match__game")
        .first()
    )
    if row is None:
        return False
    payload, recorded_in, game = row
    try:
        asked = parse_action(data, preset(game).family).to_dict()
    except InvalidAction:
        raise _used_for_another() from None
    if recorded_in == match_id and same_tap(
        payload, Drawn(asked) if isinstance(data, Drawn) else asked
    ):
        return True
    raise _used_for_another()


def _corrected_before(key: str, match_id: int, fixes: tuple[Fix, ...]) -> bool:
    """True when ``key`` already recorded these very corrections, each in its round (a
    confirmation sent twice); raises Stale when it recorded anything else: more fixes or
    fewer, another fix, the same fix in another round, or a tap."""
    rows = Action.objects.filter(
        Q(idempotency_key=key) | Q(idempotency_key__startswith=f"{key}.")
    ).values_list("idempotency_key", "round__match_id", "round__number", "payload")
    if not rows:
        return False
    recorded = sorted(
        ((0 if k == key else int(k.rpartition(".")[2]), m, n, p) for k, m, n, p in rows),
        key=lambda row: row[0],
    )
    asked = [(n, match_id, number, fix) for n, (number, fix) in enumerate(fixes)]
    if recorded == asked:
        return True
    raise _used_for_another()


def _append(table: Table, action: RefAction, key: str) -> Replayed:
    """Apply ``action`` to the table and write it; the last round's replay afterwards."""
    match = table.match
    if isinstance(action, Adjust) and table.over and table.played is not None:
        # correct.adjust after the match ended: the points belong to the last round, so they
        # go in before the entry that ended it, and the end is judged again with them.
        last = len(table.played.entries) - 1
        action = Correct(last, INSERT, action, action.reason)
    played = round_for(table, action)
    round_row = table.last_row if played is table.played else None  # None: a new round
    if round_row is None and table.number > MOST_ROUNDS:
        raise InvalidAction(too_many_rounds())
    before = played.state
    played = step(played, action)  # IllegalAction leaves the transaction to roll back
    after, points = played.state, list(played.entry_points[-1])
    if round_row is None:
        round_row = Round.objects.create(
            match=match, number=table.number, leader=before.leader, carry=before.carry,
            record=_switched(match, before),
        )  # fmt: skip
        rows: list[Action] = []
    else:
        rows = list(table.rows)
        if isinstance(action, Correct):
            rows = _recount(rows, played.entry_points)
    rows.append(
        Action.objects.create(
            round=round_row,
            seq=len(rows),
            kind=action.kind,
            payload=action.to_dict(),
            points=points if any(points) else [],
            idempotency_key=key,
        )
    )
    result = after.result.to_dict() if after.result is not None else None
    counted = domino.hand_records(after)
    if (result, counted) != (round_row.result, round_row.records):
        # Written with an update, and the kept round copied: a kept object belongs to a
        # version that is already committed, and this transaction may still roll back.
        Round.objects.filter(pk=round_row.pk).update(result=result, records=counted)
        round_row = copy.copy(round_row)
        round_row.result, round_row.records = result, counted
    _settle_match(match, after)
    return Replayed(table.names, round_row, tuple(rows), played)


def _recount(rows: list[Action], points: tuple[tuple[int, ...], ...]) -> list[Action]:
    """The rows of a round with their computed points as the corrected replay has them:
    the entries themselves never change, what they count for may (a replaced entry now
    counts for nothing, its correction for what the real action scored)."""
    kept = []
    for row, counted in zip(rows, points, strict=False):
        now = list(counted) if any(counted) else []
        if row.points != now:
            Action.objects.filter(pk=row.pk).update(points=now)
            row = copy.copy(row)
            row.points = now
        kept.append(row)
    return kept


def round_for(table: Table, action: RefAction) -> RoundReplay:
    """The round ``action`` goes into: the last round row's replay, or a fresh round (no
    actions yet) when that one is tallied and the action begins the next."""
    if isinstance(action, Undo):
        # An undo reaches back into the last round that has actions, even a tallied one.
        if table.played is None:
            raise IllegalAction("procedure.misplay", gettext("There is nothing to take back yet."))
        return table.played
    if isinstance(action, Stop | Correct) and table.between_rounds:
        return table.played  # a match stopped after a tallied round: logged in that round
    if table.played is not None and not table.between_rounds:
        return table.played
    return RoundReplay((), (), table.state, ())


# A correction as the app carries it until it is confirmed: the round it fixes (from 1) and
# the `correct` entry of MATCH_FORMAT.md. A table may correct several entries in one go.
Fix = tuple[int, dict[str, Any]]
MOST_CORRECTIONS = 20  # in one go: a table fixes a few entries, never a round's worth


@dataclass(frozen=True)
class Correction:
    """What corrections would do, before the table confirms them: the match replayed with
    them, or the referee's refusal (located at the entry that fails)."""

    fixes: tuple[Fix, ...]
    names: tuple[str, ...]
    before: tuple[int, ...]  # the totals now
    after: tuple[int, ...] = ()  # the totals with the corrections
    winner_after: int | None = None
    over_after: bool = False
    refusal: IllegalAction | None = None
    failing: tuple[int, int] | None = None  # (round from 1, entry from 0) that fails
    checked: MatchReplay | None = field(default=None, repr=False, compare=False)
    sides: tuple[Team, ...] | None = None  # the teams, in partnerships (team.score)
    shared_after: tuple[int, ...] = ()  # the seats that would share the win

    @property
    def moves(self) -> list[str]:
        """ "Ben 45 → 38": each total the corrections move; in partnerships each team's
        ("Ana & Caro 45 → 38"), as the strip speaks of them."""
        if self.sides is None or not self.after:
            return [
                f"{name} {a} → {b}"
                for name, a, b in zip(self.names, self.before, self.after, strict=True)
                if a != b
            ]
        before, after = team_totals(self.before, self.sides), team_totals(self.after, self.sides)
        return [
            f"{say(team_name(self.names, team))} {a} → {b}"
            for team, a, b in zip(self.sides, before, after, strict=True)
            if a != b
        ]

    @property
    def winners(self) -> str:
        """Who would win the match: the player, or in partnerships the team; "" if nobody."""
        if self.winner_after is None:
            return ""
        if self.sides is None:
            return self.names[self.winner_after]
        return say(team_name(self.names, team_of(self.sides, self.winner_after)))

    @property
    def sharing(self) -> str:
        """Who would share the win ("Ana, Ben and Caro"), as the table says it."""
        return all_of([self.names[seat] for seat in self.shared_after])


def read_fixes(data: object, family: str) -> tuple[Fix, ...]:
    """Corrections as a form carries them (a list of [round, correct entry]), each read in
    the game's action language; InvalidAction for anything else."""
    unreadable = gettext("This form does not say what to correct; reload the page.")
    if not isinstance(data, list) or not 1 <= len(data) <= MOST_CORRECTIONS:
        raise InvalidAction(unreadable)
    fixes = []
    for item in data:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise InvalidAction(unreadable)
        fix = parse_action(item[1], family)
        if not isinstance(fix, Correct):
            raise InvalidAction(unreadable)
        fixes.append((item[0], fix.to_dict()))
    return tuple(fixes)


def with_fixes(match: Match, fixes: tuple[Fix, ...]) -> dict[str, Any]:
    """The match document with ``fixes`` appended to the logs of their rounds."""
    document = document_of(match)
    for number, fix in fixes:
        if not 1 <= number <= len(document["rounds"]):
            raise InvalidAction(gettext("This match has no such round."))
        document["rounds"][number - 1]["actions"].append(fix)
    return document


def correction(match: Match, fixes: tuple[Fix, ...]) -> Correction:
    """The match as it would be with ``fixes`` (``correct.replay``); nothing is written.
    Only the rounds from the first one corrected are replayed: each stored round keeps what
    it started from, and every earlier round stands as it is."""

    def read() -> tuple[Match, dict[str, Any], Resume]:
        now = Match.objects.get(pk=match.pk)
        return now, with_fixes(now, fixes), _resume(now, min(n for n, _ in fixes))

    match, document, resume = steady(match.pk, read)
    players = tuple(document["players"])
    sides = teams(len(players), match.options) if match.options.get("partnerships") else None
    now = Correction(fixes, players, tuple(match.totals), sides=sides)
    try:
        checked = replay(document, resume=resume)
    except DocumentError as error:
        where, message = None, error.message
        if error.round is not None and error.action is not None:
            where = (error.round, error.action - 1)
            message = gettext("Round {number}, entry {entry}: {why}").format(
                number=error.round, entry=error.action, why=say(error.why)
            )
        refusal = IllegalAction(error.rule or "correct.replay", message)
        return replace(now, refusal=refusal, failing=where)
    return replace(
        now,
        after=checked.totals,
        winner_after=checked.winner,
        over_after=checked.over,
        checked=checked,
        shared_after=tuple(checked.rounds[-1].state.shared) if checked.rounds else (),
    )


def _resume(match: Match, number: int) -> Resume:
    """What round ``number`` started from, as stored: its leader and carry, and the totals
    before it (the match's totals less what that round and the later ones scored)."""
    row = Round.objects.get(match=match, number=number)
    since = [0] * len(match.totals)
    for points in (
        Action.objects.filter(round__match=match, round__number__gte=number)
        .exclude(points=[])
        .values_list("points", flat=True)
    ):
        since = [a + b for a, b in zip(since, points, strict=True)]
    totals = tuple(t - s for t, s in zip(match.totals, since, strict=True))
    return Resume(number, totals, row.leader, row.carry)


def correct(match_id: int, fixes: tuple[Fix, ...], version: int, key: str) -> bool:
    """Append ``fixes`` to the logs of their rounds in one transaction, and bring every
    computed fact from the first round corrected on into line with the replay: True if
    recorded, False if this key recorded them before. Raises Stale or IllegalAction, and
    then nothing was written."""
    _check_key(key, 56)  # room for the rows' ".n"
    try:
        with transaction.atomic():
            if _corrected_before(key, match_id, fixes):
                return False
            if not _claim(match_id, version, len(fixes)):
                raise Stale(_what_happened(Match.objects.get(pk=match_id), version))
            match = Match.objects.get(pk=match_id)
            judged = correction(match, fixes)
            if judged.refusal is not None:
                raise judged.refusal
            _write(match, judged, key)
            return True
    except IntegrityError:
        # The same confirmation raced itself (one of them recorded it), or a key of its rows
        # was taken by something else: either way nothing of this one was written.
        if _corrected_before(key, match_id, fixes):
            return False
        raise _used_for_another() from None
    except Stale:
        if _corrected_before(key, match_id, fixes):
            return False
        raise


def _write(match: Match, judged: Correction, key: str) -> None:
    """The corrections' rows, and every computed fact from their first round on."""
    checked = judged.checked
    assert checked is not None, "written only once the referee accepted it"
    first = min(number for number, _ in judged.fixes)
    round_rows = {
        row.number: row
        for row in Round.objects.filter(match=match, number__gte=first).order_by("number")
    }
    counts = {row.number: row.actions.count() for row in round_rows.values()}
    made = []
    for n, (number, fix) in enumerate(judged.fixes):
        made.append(
            Action(
                round=round_rows[number],
                seq=counts[number],
                kind="correct",
                payload=fix,
                points=[],
                moved=[list(judged.before), list(judged.after)] if n == 0 else [],
                idempotency_key=key if n == 0 else f"{key}.{n}",
            )
        )
        counts[number] += 1
    Action.objects.bulk_create(made)
    carried = _carried(checked, round_rows[first].carry)
    logs: dict[int, list[Action]] = {}
    for action in Action.objects.filter(round__in=round_rows.values()).order_by("seq"):
        logs.setdefault(action.round_id, []).append(action)
    for number, row in round_rows.items():
        played = checked.rounds[number - first]
        result = played.state.result.to_dict() if played.finished else None
        facts = {
            "result": result,
            "leader": played.state.leader,
            "carry": carried[number - first],
            "records": domino.hand_records(played.state),
        }
        if any(getattr(row, name) != value for name, value in facts.items()):
            Round.objects.filter(pk=row.pk).update(**facts)
        _recount(logs.get(row.pk, []), played.entry_points)
    match.totals, match.winner = list(checked.totals), checked.winner
    match.shared = _shared(checked)
    match.status = Match.FINISHED if checked.over else Match.PLAYING
    match.save(update_fields=["totals", "winner", "shared", "status", "updated_at"])


def _entries(match: Match, fixes: tuple[Fix, ...], number: int) -> tuple[list, Any]:
    document = with_fixes(match, fixes)
    rounds = document["rounds"]
    if not 1 <= number <= len(rounds):
        raise InvalidAction(gettext("This match has no such round."))
    family = preset(match.game).family
    return [parse_action(a, family) for a in rounds[number - 1]["actions"]], document


def entries_in(match: Match, number: int) -> int:
    """How many entries round ``number``'s log holds."""
    return Action.objects.filter(round__match=match, round__number=number).count()


def entry_words(match: Match, fixes: tuple[Fix, ...], number: int, seq: int) -> str:
    """Entry ``seq`` of round ``number``, as the log says it."""
    entries, document = _entries(match, fixes, number)
    if not 0 <= seq < len(entries):
        raise InvalidAction(gettext("This round has no such entry."))
    family = preset(match.game).family
    return say(describe(entries[seq], document["players"], family=family))


def entry(match: Match, fixes: tuple[Fix, ...], number: int, seq: int) -> RefAction:
    """Entry ``seq`` of round ``number`` as recorded (the corrections chosen applied)."""
    entries, _ = _entries(match, fixes, number)
    if not 0 <= seq < len(entries):
        raise InvalidAction(gettext("This round has no such entry."))
    return entries[seq]


def fixes_words(match: Match, fixes: tuple[Fix, ...]) -> list[str]:
    names = list(
        Seat.objects.filter(match=match).order_by("number").values_list("player__name", flat=True)
    )
    family = preset(match.game).family
    return [
        gettext("Round {number}: {what}").format(
            number=number, what=say(describe(parse_action(fix, family), names, family=family))
        )
        for number, fix in fixes
    ]


def misplay(match: Match, number: int, seq: int) -> IllegalAction:
    """The refusal when the table says entry ``seq`` was really played wrong: Undo while it
    is the last entry and can still be taken back, else it stands (``procedure.misplay``)."""
    table = load_table(match)
    undoable = (
        table.last_row is not None
        and table.last_row.number == number
        and seq == len(table.rows) - 1
        and table.played is not None
        and engine(match.game).check(table.played.state, Undo()) is None
    )
    return corrections.misplay(seq, undoable)


def fix_table(match: Match, fixes: tuple[Fix, ...], number: int, seq: int) -> Table:
    """The table as it was just before entry ``seq`` of round ``number`` (the corrections
    already chosen applied): the position whose buttons say what really happened."""
    document = with_fixes(match, fixes)
    try:
        played = position_before(document, number, seq)
    except DocumentError as error:
        # The corrections chosen so far (one the referee refused, kept so the table can fix
        # the entry it broke in the same go) make an entry before this one illegal.
        raise IllegalAction(
            error.rule or "correct.replay",
            gettext(
                "With the corrections chosen so far, an entry before this one is no longer "
                "legal ({why}). Fix that entry first, or start again from the log."
            ).format(why=say(error.message)),
        ) from None
    rows = [
        Action(seq=n, kind=a.kind, payload=a.to_dict(), points=list(p) if any(p) else [])
        for n, (a, p) in enumerate(zip(played.entries, played.entry_points, strict=True))
    ]
    last = Round(number=number, leader=played.state.leader)
    return Table(match, tuple(document["players"]), number, played.state, played, rows, last)


def _settle_match(match: Match, state: line.RoundState) -> None:
    """Totals, winner and status follow the state of the last round played."""
    status = Match.FINISHED if state.match_over else Match.PLAYING
    now = (list(state.totals), state.champion, shared_seats(state.shared), status)
    if now != (match.totals, match.winner, match.shared, match.status):
        match.totals, match.winner, match.shared, match.status = now
        match.save(update_fields=["totals", "winner", "shared", "status", "updated_at"])


def recorded_words(table: Table, entries: int = 1) -> str:
    """The entries just recorded, said back ("Recorded: Caro drew 3 tiles: 8 in hand"; "Recorded:
    Ana led 5-5; Ana declared 10")."""
    played = table.played
    if played is None or not played.entries:
        return ""
    family = preset(table.match.game).family
    last = played.entries[-1]
    what = "; ".join(
        say(describe(entry, table.names, family=family)) for entry in played.entries[-entries:]
    )
    seat = getattr(last, "seat", None)
    hands = getattr(played.state, "hands", None)
    # Dominó (parejas.*): a bonus the tap earned is said back with it ("¡Capicúa! ...").
    cried = " ".join(
        domino.bonus_words(bonus, table.names)["text"]
        for scored in getattr(played, "entry_bonuses", ())[-entries:]
        for bonus in scored
    )
    if isinstance(last, Draw) and hands is not None and seat is not None:
        said = gettext("Recorded: {what}: {n} in hand.").format(what=what, n=hands[seat])
    else:
        said = gettext("Recorded: {what}.").format(what=what)
    return f"{said} {cried}" if cried else said


def _what_happened(match: Match, version: int) -> str:
    """Why a stale form lost: the action recorded since it was drawn."""
    names = tuple(
        Seat.objects.filter(match=match).order_by("number").values_list("player__name", flat=True)
    )
    latest = Action.objects.filter(round__match=match).order_by("-round__number", "-seq").first()
    if latest is None:
        return gettext("The table changed since this screen was drawn; your tap was not recorded.")
    family = preset(match.game).family
    done = say(describe(parse_action(latest.payload, family), names, family=family))
    return gettext("{done} meanwhile; your tap was not recorded. Here is the table now.").format(
        done=done
    )


def poll_row(pk: int) -> tuple[int, str, str] | None:
    """(version, keep token, watch token) of a match, or None: the poll's one indexed query.
    Written as SQL because every phone asks every 2 seconds, and building this query through
    the ORM cost ten times running it (bench/: 164 µs against 12 µs)."""
    if not 0 < pk < 2**63:  # the URL's int converter takes any length; the column does not
        return None
    table = Match._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT version, keep_token, watch_token FROM {table} WHERE id = %s",  # noqa: S608
            [pk],
        )
        return cursor.fetchone()


def new_links(match: Match, held: str) -> Match | None:
    """Both share links replaced at once, provided the Keep score link is still ``held``,
    the one this phone holds: one conditional update, so of two keepers who press at once
    exactly one makes the links and the other is told (None), never locked out unawares."""
    keep_token, watch_token = new_token(), new_token()
    made = Match.objects.filter(pk=match.pk, keep_token=held).update(
        keep_token=keep_token, watch_token=watch_token
    )
    if not made:
        return None
    live.publish(live.table_topic(match.pk), live.LINKS)  # each open screen checks its link
    match.keep_token, match.watch_token = keep_token, watch_token
    return match


def match_replay(match: Match) -> MatchReplay:
    """The whole match replayed from its log (export, and the checks of tests)."""
    return replay(document_of(match))


def document_of(match: Match) -> dict[str, Any]:
    """The match document as recorded, without computed fields."""
    names = list(
        Seat.objects.filter(match=match).order_by("number").values_list("player__name", flat=True)
    )
    # One query of plain values: building a model object for each of a long match's
    # actions cost most of a correction's time (bench/). One statement, too, so the rounds
    # and their logs are one snapshot: a tap that begins a round between two reads left a
    # log with no round (issue 28), and a round with no entry yet still comes (a null).
    rows = (
        Round.objects.filter(match=match)
        .order_by("number", "actions__seq")
        .values_list("number", "record", "actions__payload")
    )
    switched: set[int] = set()
    logs: dict[int, list] = {}
    for number, record, payload in rows:
        log = logs.setdefault(number, [])
        if payload is not None:
            log.append(payload)
        if record:
            switched.add(number)
    rounds = [
        {"actions": log, **({"record": "plays"} if number in switched else {})}
        for number, log in logs.items()
    ]
    return {
        "format": "boneyard-match/1",
        "game": match.game,
        "options": match.options,
        "players": names,
        "rounds": rounds,
    }


def steady[T](pk: int, read: Callable[[], T], tries: int = 5) -> T:
    """What ``read()`` reads of match ``pk`` in several statements, as one snapshot: read
    again while a write landed in between. Every write to a match's log, rounds or totals
    bumps its version in the same transaction, so a version the same before and after says
    nothing was written meanwhile, on any database and without holding a transaction (on
    SQLite, the write lock) open while reading. Raises Stale when the table never stood
    still long enough (a few taps in the time of one read, five times over)."""
    version = Match.objects.filter(pk=pk).values_list("version", flat=True)
    for _ in range(tries):
        before = version.first()
        try:
            result = read()
        except Exception:
            if version.first() == before:
                raise  # what is stored says so: not a read torn by a write
            continue  # a torn read may fail any way (a log without its round): read again
        if version.first() == before:
            return result
    raise Stale(gettext("The table kept changing while it was read; try again in a moment."))


def verify(match: Match) -> list[str]:
    """Every way the stored match differs from a replay of its log through the referee
    (``manage.py verify_matches``); empty when it is consistent. What is stored is read as
    one snapshot (a live server's taps go on meanwhile); raises Stale when the table never
    stood still long enough to be read."""
    return steady(match.pk, lambda: _verify(Match.objects.get(pk=match.pk)))


def _verify(match: Match) -> list[str]:
    problems: list[str] = []
    rounds = list(Round.objects.filter(match=match).order_by("number").prefetch_related("actions"))
    if [r.number for r in rounds] != list(range(1, len(rounds) + 1)):
        problems.append(f"round numbers {[r.number for r in rounds]} are not 1, 2, ...")
    for r in rounds:
        seqs = [a.seq for a in r.actions.all()]
        if seqs != list(range(len(seqs))):
            problems.append(f"round {r.number}: action numbers {seqs} are not 0, 1, ...")
    try:
        replayed = replay(document_of(match))
    except DocumentError as error:
        return [*problems, error.message]
    for r, played in zip(rounds, replayed.rounds, strict=True):
        for n, (row, points) in enumerate(
            zip(r.actions.all(), played.entry_points, strict=True), 1
        ):
            stored = list(row.points) or [0] * len(replayed.players)
            if stored != list(points):
                problems.append(
                    f"round {r.number}, action {n}: stored points {stored}, replayed {list(points)}"
                )
        result = played.state.result.to_dict() if played.state.result else None
        if r.result != result:
            problems.append(f"round {r.number}: stored result {r.result}, replayed {result}")
        counted = domino.hand_records(played.state)
        if r.records and r.records != counted:  # [] on rows kept before they held records
            problems.append(f"round {r.number}: stored records {r.records}, replayed {counted}")
        if r.leader != played.state.leader:
            problems.append(
                f"round {r.number}: stored leader {r.leader}, replayed {played.state.leader}"
            )
    for r, carry in zip(rounds, _carried(replayed), strict=True):
        if r.carry != carry:
            problems.append(f"round {r.number}: stored carry {r.carry}, replayed {carry}")
    status = Match.FINISHED if replayed.over else Match.PLAYING
    facts = [
        ("totals", match.totals, list(replayed.totals)),
        ("winner", match.winner, replayed.winner),
        ("shared win", match.shared, _shared(replayed)),
        ("status", match.status, status),
        # Every entry bumps the version, and so does every switch of how a round is kept.
        (
            "version",
            match.version,
            sum(len(p.entries) for p in replayed.rounds) + sum(r.switches for r in rounds),
        ),
    ]
    problems += [f"stored {name} {a}, replayed {b}" for name, a, b in facts if a != b]
    return problems


def export_match(match: Match) -> dict[str, Any]:
    """The match document with what the referee computed (MATCH_FORMAT.md, Export), read
    from what recording stored: each entry as the referee wrote it with the points it
    counts for, each round's result, the match's totals and winner. It is what exporting a
    replay of the log gives (``verify_matches`` checks they agree, and so do the tests),
    without replaying the whole match on a GET: a long match cost seconds (issue 28).
    Dominó is exported from its replay: its records (``parejas.records``) are counted from
    each hand's own state, which recording does not store; its matches are short (a target
    of at most 500, four seats, no boneyard)."""
    if preset(match.game).scoring == "parejas":
        return export(match_replay(match))

    def read() -> tuple[Match, list[str], list[tuple]]:
        now = Match.objects.get(pk=match.pk)
        names = Seat.objects.filter(match=now).order_by("number")
        rows = (
            Round.objects.filter(match=now)
            .order_by("number", "actions__seq")
            .values_list("number", "record", "result", "actions__payload", "actions__points")
        )
        return now, list(names.values_list("player__name", flat=True)), list(rows)

    match, names, rows = steady(match.pk, read)
    rounds: dict[int, dict[str, Any]] = {}
    for number, record, result, payload, points in rows:
        out = rounds.setdefault(number, {"actions": []})
        if payload is not None:
            item = dict(payload)
            # A declare's own "points" is what it scores, exactly (fives.muggins).
            if points and any(points) and "points" not in item:
                item["points"] = {str(s): p for s, p in enumerate(points) if p}
            out["actions"].append(item)
        if record and match.options.get("record") == "scores":
            out["record"] = "plays"  # pad.record: this round was played tile by tile
        if result is not None:
            out["result"] = result
    document = {
        "format": "boneyard-match/1",
        "game": match.game,
        "options": dict(match.options),
        "players": names,
        "rounds": [
            {k: r[k] for k in ("actions", "record", "result") if k in r} for r in rounds.values()
        ],  # fmt: skip
        "totals": {str(s): t for s, t in enumerate(match.totals)},
        "winner": match.winner,
    }
    if match.options.get("partnerships"):  # MATCH_FORMAT.md, partnerships
        sides = teams(len(names), match.options)
        document["teams"] = [list(team) for team in sides]
        document["team_totals"] = {
            str(team[0]): t for team, t in zip(sides, team_totals(match.totals, sides), strict=True)
        }
        won = team_of(sides, match.winner) if match.winner is not None else None
        document["winners"] = list(won) if won is not None else None
    return document


def import_match(document: Any) -> Match:
    """Store a document after replaying every action; raises DocumentError and stores nothing."""
    checked = replay(document)
    with transaction.atomic():
        match = create_match(checked.game, list(checked.players), dict(checked.options))
        carried = _carried(checked)
        for number, played in enumerate(checked.rounds, start=1):
            round_row = Round.objects.create(
                match=match,
                number=number,
                leader=played.state.leader,
                carry=carried[number - 1],
                result=played.state.result.to_dict() if played.finished else None,
                records=domino.hand_records(played.state),
                record=_switched(match, played.state),
            )
            Action.objects.bulk_create(
                Action(
                    round=round_row,
                    seq=seq,
                    kind=action.kind,
                    payload=action.to_dict(),
                    points=list(points) if any(points) else [],
                    idempotency_key=new_key(),
                )
                for seq, (action, points) in enumerate(
                    zip(played.entries, played.entry_points, strict=True)
                )
            )
        match.version = sum(len(p.entries) for p in checked.rounds)
        match.totals, match.winner = list(checked.totals), checked.winner
        match.shared = _shared(checked)
        match.status = Match.FINISHED if checked.over else Match.PLAYING
        match.save(update_fields=["version", "totals", "winner", "shared", "status"])
    return match


def _shared(checked: MatchReplay) -> str:
    """``Match.shared`` of a replayed match: the seats that share its win, if any."""
    return shared_seats(checked.rounds[-1].state.shared if checked.rounds else ())


def _switched(match: Match, state: Any) -> str:
    """What a round's row says of how it is recorded (``pad.record``): "plays" for a round
    of a score-pad match played tile by tile, else nothing (the match's option says)."""
    return "plays" if match.options.get("record") == "scores" and not state.pad else ""


def _carried(match: MatchReplay, before: Any = None) -> list[dict[str, Any]]:
    """What each round started from besides the totals, as its row stores it: the state a
    fresh round starts in says it, given the round before (``before``: what the first
    round replayed started from)."""
    carried = []
    for played in match.rounds:
        start = engine(match.game).start(match.game, match.options, match.players, carry=before)
        carried.append(start.carry)
        before = played.state.carry
    return carried
