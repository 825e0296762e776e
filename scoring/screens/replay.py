"""Replay: one round of a match stepped through action by action.

A step is the round's state after its first ``step`` actions, replayed from what is stored:
the round row's leader and carry, the totals the round started from and its log. Only this
round is replayed, and two queries read all of it, however long the match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import IntegerField, Max, QuerySet, Subquery, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils.translation import gettext

from referee import Play, parse_action
from referee.actions import Correct
from referee.document import RoundReplay, play_round
from referee.games import engine
from referee.teams import team_of, teams
from scoring.games import acting, facts
from scoring.models import Action, Match, Round, Seat
from scoring.screens import screen
from scoring.screens.common import Step, moved_words, team_marks
from scoring.services import recorded
from scoring.speech import all_of, say
from scoring.words import describe, describe_log, standing

MOST_ROUNDS = 2**15 - 1  # the round number's column is a small integer


def replay_context(match: Match, number: int, step: str | None) -> dict[str, Any] | None:
    """What the replay screen shows after ``step`` actions of round ``number``; None when
    the match has no such round. A missing, malformed or negative step is the round's
    start, and one past the end is its last action: a hand-edited link still shows a step."""
    if not 1 <= number <= MOST_ROUNDS:
        return None
    seats = len(match.totals)
    row = _round_row(match, number, seats).first()
    if row is None:
        return None
    names = tuple(getattr(row, f"name_{seat}") for seat in range(seats))
    base = [getattr(row, f"before_{seat}") or 0 for seat in range(seats)]
    family = facts(match.game).family
    game_screen = screen(match.game)
    rows = list(row.actions.order_by("seq"))
    logged = [parse_action(entry.payload, family) for entry in rows]
    rules = engine(match.game)
    start = rules.start(
        match.game, match.options, names, leader=row.leader, base=base, carry=row.carry,
        **recorded(match, row),
    )  # fmt: skip
    # The steps are the round as played: with its corrections applied (correct.replay);
    # the corrections themselves are listed apart, with what they replaced (correct.audit).
    whole = play_round(start, logged)
    actions = whole.actions
    shown = _step_asked(step, len(actions))
    played = play_round(start, actions[:shown])
    secret_from = _open_play(whole) if row.result is None else None
    secret = secret_from is not None and shown >= secret_from
    brought = _brought_by_corrections(whole)
    lines = [
        gettext("{line} · corrected").format(line=say(line)) if index in brought else say(line)
        for index, line in enumerate(
            describe_log(
                actions,
                names,
                whole.points,
                whole.worths,
                last_play_open=secret_from is not None,
                family=family,
            )
        )
    ]
    state = played.state
    context: dict[str, Any] = {
        "match": match,
        "number": number,
        "rounds": range(1, row.rounds + 1),
        "names": names,
        # A match that is one game (Dump Truck) is stepped through as "the game".
        "one_game": not facts(match.game).rounds,
        "step": shown,
        "steps": len(actions),
        "before": shown - 1 if shown > 0 else None,
        "after": shown + 1 if shown < len(actions) else None,
        # The step as it was then: the round's log may say it was taken back later.
        "said": say(
            describe_log(
                actions[:shown],
                names,
                whole.points[:shown],
                whole.worths[:shown],
                last_play_open=secret,
                family=family,
            )[-1]
        )
        if shown
        else "",
        "log": lines,
        "lines": list(zip(lines, _fix_targets(whole), strict=True)),
        "corrections": _corrections(whole, names, family, [r.moved for r in rows]),
        "live": row.result is None,
        "state": state,
        "scoreboard": _scoreboard(state, played, names, game_screen.holds),
        "champion": names[state.champion] if state.champion is not None else "",
        "shared": all_of([names[s] for s in state.shared]),
    }
    step_shown = Step(names, number, actions[shown - 1] if shown else None, secret)
    context.update(game_screen.board(state, step_shown))
    return context


def _fix_targets(whole: RoundReplay) -> list[int]:
    """For each action as played, the log entry its Fix corrects: the entry itself, the entry
    a correction replaced with it, or for an inserted action the correction that inserted it
    (a correction of an insert corrects the action it put there)."""
    if whole.log is None:
        return list(range(len(whole.actions)))
    targets: list[int] = []
    for origin in whole.origins:
        entry = whole.log[origin]
        if not isinstance(entry, Correct):
            targets.append(origin)
        else:
            targets.append(entry.at if entry.change == "replace" else origin)
    return targets


def _brought_by_corrections(whole: RoundReplay) -> set[int]:
    """The actions as played that a correction put there (replaced or inserted)."""
    if whole.log is None:
        return set()
    return {i for i, origin in enumerate(whole.origins) if isinstance(whole.log[origin], Correct)}


def _corrections(
    whole: RoundReplay, names: tuple[str, ...], family: str, moved: list[list]
) -> list[str]:
    """Every correction of the round with the entry it fixed, as recorded: nothing erased."""
    if whole.log is None:
        return []
    out = []
    for index, entry in enumerate(whole.log):
        if not isinstance(entry, Correct):
            continue
        fixed = say(describe(whole.log[entry.at], names, family=family))
        said = say(describe(entry, names, family=family))
        counted = whole.entry_points[index]
        gains = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(counted) if p)
        if entry.seat is not None:
            line = gettext(
                "Entry {n} (from {who}'s phone): {said}; the entry said “{fixed}”"
            ).format(n=index + 1, who=names[entry.seat], said=said, fixed=fixed)
        else:
            line = gettext("Entry {n}: {said}; the entry said “{fixed}”").format(
                n=index + 1, said=said, fixed=fixed
            )
        out.append(line + (f" · {gains}" if gains else "") + say(moved_words(moved[index], names)))
    return out


def _round_row(match: Match, number: int, seats: int) -> QuerySet[Round]:
    """The round row with everything else the screen needs read in the same query: the
    players' names, each seat's total before the round and how many rounds there are.

    A seat's total before the round is the sum of what every action of the earlier rounds
    scored for it: right for any round (the match's totals are only the last round's end),
    and summed by the database, so the server reads this round's log and nothing more."""
    earlier = Action.objects.filter(round__match=match, round__number__lt=number).order_by()
    seated = Seat.objects.filter(match=match).order_by()
    fields: dict[str, Any] = {
        "rounds": Subquery(
            Round.objects.filter(match=match)
            .order_by()
            .values("match")
            .annotate(last=Max("number"))
            .values("last")
        )
    }
    for seat in range(seats):
        fields[f"name_{seat}"] = Subquery(seated.filter(number=seat).values("player__name")[:1])
        # An action that scored nothing stores [], whose element is NULL: Sum skips it.
        scored = Cast(KT(f"points__{seat}"), IntegerField())
        fields[f"before_{seat}"] = Subquery(
            earlier.values("round__match").annotate(total=Sum(scored)).values("total")
        )
    return Round.objects.filter(match=match, number=number).annotate(**fields)


def _step_asked(raw: str | None, last: int) -> int:
    """``?step=`` as a number of actions between 0 and ``last``."""
    raw = (raw or "").strip()
    if not (raw.isascii() and raw.isdecimal()):
        return 0  # missing, malformed or negative: the round's start
    return min(int(raw), last) if len(raw) <= 9 else last  # 9 digits: int() stays cheap


def _open_play(played: RoundReplay) -> int | None:
    """Muggins: the step that placed the tile whose points may still be called, while its
    window is open (``fives.muggins``); spotting them is the game, so the replay of a round
    in progress keeps them as quiet as the table does."""
    state = played.state
    if state.pending is None or state.result is not None:
        return None
    plays = [i for i in standing(played.actions) if isinstance(played.actions[i], Play)]
    return plays[-1] + 1 if plays else None


def _scoreboard(
    state: Any, played: RoundReplay, names: tuple[str, ...], holds: Callable[[Any, int], str]
) -> list[dict]:
    """Each seat's total after this step, what the step changed, and what the seat holds
    where the table knows it (``holds``: the game's screen says it)."""
    changed = played.points[-1] if played.points else ()
    to_act = acting(state.game.slug, state)
    marks = team_marks(state.options, len(names))
    winners = team_of(teams(len(names), state.options), state.champion) if (
        state.champion is not None) else ()  # fmt: skip
    rows = []
    for seat, name in enumerate(names):
        delta = changed[seat] if seat < len(changed) else 0
        rows.append(
            {
                "name": name,
                "total": state.totals[seat],
                "delta": f"{delta:+d}" if delta else "",
                "holds": holds(state, seat),
                "acting": seat == to_act and not state.is_over,
                "winner": seat in winners,
                "team": marks[seat],
            }
        )
    return rows
