"""Replay a match document (MATCH_FORMAT.md) and compute its export.

An imported document is never trusted: every action is replayed through the
referee, computed fields are ignored and recomputed.

>>> doc = {"format": "boneyard-match/1", "game": "block", "players": ["Ana", "Ben"],
...        "rounds": [{"actions": [{"type": "play", "seat": 0, "tile": "6-6"}]}]}
>>> match = replay(doc)
>>> match.rounds[0].state.layout.count, match.totals
(12, (0, 0))
>>> export(match)["rounds"][0]["actions"]
[{'type': 'play', 'seat': 0, 'tile': '6-6'}]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.actions import Action, Correct, Play, Undo, parse_action
from referee.corrections import as_played, corrects
from referee.errors import InvalidAction, RefereeError, shown
from referee.frozen import replace
from referee.games import engine, line
from referee.games.line.scoring import parejas
from referee.round.refusals import no_such_seat
from referee.rulebook import preset
from referee.said import Said
from referee.teams import team_of, team_totals, teams
from referee.tiles import DominoSet

FORMAT = "boneyard-match/1"
MAX_NAME = 40
# The most rounds a match holds. A real match plays tens (a double-15 Mexican Train 16,
# a Block match to 500 a few dozen); only a hostile one reaches hundreds, and every page
# that lists a match's rounds (the score sheet, its chart and CSV, the replay's list)
# costs in proportion: this bounds what any one request may cost (issue 28).
MOST_ROUNDS = 200
_TOP_FIELDS = {"format", "game", "options", "players", "rounds"}
_COMPUTED_TOP = {"totals", "winner", "teams", "team_totals", "winners", "records", "draw"}
_ROUND_FIELDS = {"actions", "record"}
_COMPUTED_ROUND = {"result"}


class DocumentError(InvalidAction):
    """A document that cannot be replayed; says where (1-based round and action) and why.

    ``message`` is the whole located text, ``round R, action A: rule: why`` (MATCH_FORMAT.md):
    what ``import_match`` prints and the desk shows. It is one template with the round, the
    action, the rule and ``why`` (the refusal's own Said, kept as ``why``) as parameters.

    >>> error = DocumentError(Said("{n} is odd.", n=3), 2, 5, "set.tiles")
    >>> error.message, error.message.template
    ('round 2, action 5: set.tiles: 3 is odd.', 'round {round}, action {action}: {rule}: {why}')
    >>> error.why.template, DocumentError(Said("No."), 2).message
    ('{n} is odd.', 'round 2: No.')
    """

    def __init__(self, message: str, round: int | None = None, action: int | None = None,
                 rule: str | None = None) -> None:  # fmt: skip
        super().__init__(_located(message, round, action, rule), rule)
        self.round, self.action, self.why = round, action, message

    def __str__(self) -> str:
        return self.message  # already names the rule: not a second time

    @classmethod
    def at(cls, error: RefereeError, round: int, action: int | None) -> DocumentError:
        """``error`` located in the document, its rule kept."""
        return cls(error.message, round, action, error.rule)


def _located(why: str, round: int | None, action: int | None, rule: str | None) -> str:
    """``why`` with where it happened and its rule in front: a whole template for each
    combination, so a translation may order and word them its own way. An action counts only
    within a round."""
    if round is None:
        return Said("{rule}: {why}", rule=rule, why=why) if rule else why
    if action is None:
        if rule:
            return Said("round {round}: {rule}: {why}", round=round, rule=rule, why=why)
        return Said("round {round}: {why}", round=round, why=why)
    if rule:
        return Said(
            "round {round}, action {action}: {rule}: {why}",
            round=round,
            action=action,
            rule=rule,
            why=why,
        )
    return Said("round {round}, action {action}: {why}", round=round, action=action, why=why)


@dataclass(frozen=True)
class RoundReplay:
    """A round replayed. ``actions`` is the round as played, ``log`` as recorded: they are
    the same until the table corrects an entry (``correct.record``), and then ``log`` keeps
    the original entry and the correction, while ``actions`` holds what really happened."""

    actions: tuple[Action, ...]
    points: tuple[tuple[int, ...], ...]  # what each action changed, by seat
    state: line.RoundState  # or a dump_truck.TruckState: every engine's state answers alike
    # What each play made, in muggins mode (None for other actions): the log shows it once
    # the play's window has closed.
    worths: tuple[int | None, ...] = ()
    log: tuple[Action, ...] | None = None  # None: the same as ``actions``
    origins: tuple[int, ...] = ()  # for each action as played, the log entry that brought it
    start: Any = None  # the state the round began in (a correction replays from it)
    # Dominó (parejas.*): the bonuses each action scored (a taken-back one negative).
    bonuses: tuple[tuple[Any, ...], ...] = ()

    @property
    def finished(self) -> bool:
        return self.state.result is not None

    @property
    def entries(self) -> tuple[Action, ...]:
        """The log as recorded, corrections included: one entry per row of the app's log."""
        return self.actions if self.log is None else self.log

    @property
    def entry_points(self) -> tuple[tuple[int, ...], ...]:
        """What each entry of the log changed, by seat: an entry's own points, or for a
        correction what the action it brought scored; a corrected entry changed nothing.
        They add up to the round's scores, as the actions' points do."""
        return self.points if self.log is None else self._by_entry(self.points, self._nobody)

    @property
    def _nobody(self) -> tuple[int, ...]:
        return (0,) * self.state.seats

    @property
    def entry_worths(self) -> tuple[int | None, ...]:
        return self.worths if self.log is None else self._by_entry(self.worths, None)

    @property
    def entry_bonuses(self) -> tuple[tuple[Any, ...], ...]:
        """The bonuses each entry of the log scored (Dominó; empty elsewhere): an entry's
        own, or for a correction those of the actions it brought."""
        if not self.bonuses:
            return ((),) * len(self.entries)
        if self.log is None:
            return self.bonuses
        out: list[tuple[Any, ...]] = [()] * len(self.entries)
        for origin, scored in zip(self.origins, self.bonuses, strict=True):
            out[origin] = out[origin] + scored
        return tuple(out)

    def _by_entry(self, values: tuple, empty: Any) -> tuple:
        out: list[Any] = [empty] * len(self.entries)
        given: set[int] = set()
        for origin, value in zip(self.origins, values, strict=True):
            if value is None or value == ():
                continue
            if origin not in given:
                out[origin] = value
                given.add(origin)
            else:  # a correction that inserted more than one action: the sum, seat by seat
                out[origin] = tuple(a + b for a, b in zip(out[origin], value, strict=True))
        return tuple(out)

    def corrected(self) -> frozenset[int]:
        """The entries of the log that a correction replaced or removed."""
        if self.log is None:
            return frozenset()
        return frozenset(e.at for e in self.log if isinstance(e, Correct) and e.change != "insert")


@dataclass(frozen=True)
class MatchReplay:
    game: str
    options: Mapping[str, Any]
    players: tuple[str, ...]
    rounds: tuple[RoundReplay, ...]
    totals: tuple[int, ...]
    winner: int | None
    over: bool = False  # the match has ended (with a winner, or a Dominards tie at the top)
    first: int = 1  # the number of ``rounds[0]``: a replay resumed at a later round


@dataclass(frozen=True)
class Resume:
    """Where a replay may start instead of round 1: a round's number, and what that round
    started from (the totals before it, the seat the game said must lead, the carry). The
    app keeps these for every round it stored, so a correction of round 30 replays round 30
    and no more."""

    number: int
    totals: tuple[int, ...]
    leader: int | None
    carry: Mapping[str, Any] | None


def check_players(players: object, game: str) -> tuple[str, ...]:
    """Display names, one per seat, distinct and short, in Unicode's compatibility form
    (NFKC: a Kelvin sign is a K, a full-width Ａ an A), with nothing invisible in them.

    >>> check_players(["  Ana  María ", "\u212aai"], "draw")
    ('Ana María', 'Kai')
    """
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidAction(Said("players must be a list of names."))
    names = tuple(unicodedata.normalize("NFKC", " ".join(p.split())) for p in players)
    if any(not n or len(n) > MAX_NAME for n in names):
        raise InvalidAction(
            Said("Every player needs a name of 1 to {most} characters.", most=MAX_NAME)
        )
    # A direction mark or a zero-width space shows nothing, so two players could look the
    # same and be told apart by nobody at the table (issue 28).
    if any(unicodedata.category(c) in _UNSEEN for n in names for c in n):
        raise InvalidAction(
            Said(
                "A name holds a character that cannot be seen (a direction mark, a zero-width "
                "space or a control character), so two players could look alike: type the "
                "name again with letters, digits, spaces and punctuation."
            )
        )
    if len({name_key(n) for n in names}) != len(names):
        raise InvalidAction(Said("Two players have the same name; give each seat its own name."))
    return names


# Format (bidi controls, zero-width characters), control, surrogate, private use, unassigned.
_UNSEEN = frozenset({"Cf", "Cc", "Cs", "Co", "Cn"})


def name_key(name: str) -> str:
    """What two names must differ in to be two players: the name case-folded in
    compatibility form, so "Strauß" and "STRAUSS" are one player, as the table hears them.

    >>> name_key("Strauß") == name_key("STRAUSS") == "strauss"
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def play_round(state: line.RoundState, actions: Sequence[Action]) -> RoundReplay:
    """Apply a round's log in order, its corrections applied (``correct.replay``); a
    refusal carries the index of the log entry that fails in ``.index``.

    Every refusal, not only an IllegalAction: a game also refuses input that cannot be an
    action of it (a tile outside its set) as an InvalidAction, and that must be located too.
    """
    if len(actions) > most_actions(state.options.get("set", 6)):
        error = _too_many(state)
        error.index = most_actions(state.options.get("set", 6))  # type: ignore[attr-defined]
        raise error
    log = tuple(actions)
    for index, entry in enumerate(log):
        # A correction says which phone's seat made it (correct.audit); only a seat of this
        # table can have (the log names it, and a seat that is not there names nobody).
        if isinstance(entry, Correct) and entry.seat is not None and entry.seat >= state.seats:
            error = no_such_seat(state.seats, entry.seat)
            error.index = index  # type: ignore[attr-defined]
            raise error
    corrected = corrects(log)
    played_actions, origins = as_played(log) if corrected else (log, ())
    played = RoundReplay((), (), state, (), start=state)
    for index, action in enumerate(played_actions):
        if corrected:  # what the referee numbers (tally.audit's knocks) is the log's entry
            played = replace(played, state=replace(played.state, logged=origins[index]))
        try:
            played = _step(played, action)
        except RefereeError as error:
            error.index = origins[index] if corrected else index  # type: ignore[attr-defined]
            raise
    if not corrected:
        return played
    return replace(played, log=log, origins=origins)


def most_actions(top: int) -> int:
    """The most entries one round may hold with a double-``top`` set, undo pairs included:
    ten for each tile of the set, and a hundred more.

    A real round stays far below it (a double-6 Draw round for four is about a hundred
    entries, a double-12 Havoc round a few hundred), so only churn reaches it: thousands of
    plays taken back, which every phone at the table would pay for in replay time and
    every server in memory.

    >>> most_actions(6), most_actions(9), most_actions(12)
    (380, 650, 1010)
    """
    return 10 * len(DominoSet(top).tiles) + 100


def step(played: RoundReplay, action: Action) -> RoundReplay:
    """``played`` with one more entry in its log: what the app does to the replay it keeps
    after recording one. A correction replays the round from its start."""
    start = played.start if played.start is not None else played.state
    if isinstance(action, Correct):
        return play_round(start, (*played.entries, action))
    if len(played.entries) >= most_actions(played.state.options.get("set", 6)):
        raise _too_many(played.state)
    after = _step(replace(played, start=start), action)
    if played.log is None:
        return after
    return replace(after, log=(*played.log, action), origins=(*played.origins, len(played.log)))


def too_many_rounds() -> Said:
    """What a match beyond ``MOST_ROUNDS`` is told (the app says it of a round not begun)."""
    return Said(
        "A match holds at most {most} rounds, and a real match never needs so many: stop "
        "this one (the totals decide) and start a new match.",
        most=MOST_ROUNDS,
    )


def _too_many(state: Any) -> InvalidAction:
    most = most_actions(state.options.get("set", 6))
    return InvalidAction(
        Said(
            "This round already holds {most} entries, the most a round of this game may hold "
            "(ten for each tile of the set, undo pairs included); a real round never needs "
            "more, so nothing more is recorded in it.",
            most=most,
        )
    )


def _step(played: RoundReplay, action: Action) -> RoundReplay:
    """``played`` with one more action as played."""
    before = played.state
    state = engine(before.game.slug).apply(before, action)
    if isinstance(action, Undo):
        points = tuple(-p for p in before.last_points) if before.last_points else ()
    else:
        points = state.last_points
    pending = state.pending if isinstance(action, Play) else None
    return replace(
        played,
        actions=played.actions + (action,),
        points=played.points + (points,),
        state=state,
        worths=played.worths + (pending.worth if pending is not None else None,),
        bonuses=played.bonuses + (parejas.scored(before, state, action),)
        if getattr(state, "parejas", None) is not None
        else (),
    )


def replay(document: object, resume: Resume | None = None) -> MatchReplay:
    """Check and replay a whole document; the first problem raises DocumentError. With
    ``resume``, the rounds before it are taken as already judged, and not replayed."""
    if not isinstance(document, Mapping):
        raise DocumentError(Said("A match document is a JSON object."))
    unknown = set(document) - _TOP_FIELDS - _COMPUTED_TOP
    if unknown:
        # Quoted before sorting: a document built in Python may mix key types.
        raise DocumentError(
            Said(
                "Unknown field {field} in the match document.",
                field=sorted(map(shown, unknown))[0],
            )
        )
    if document.get("format") != FORMAT:
        raise DocumentError(Said("This is not a {format} document.", format=FORMAT))
    try:
        game = preset(document.get("game"))
        players = check_players(document.get("players"), game.slug)
        rules = engine(game.slug)
        options = rules.options_for(game.slug, document.get("options"), len(players))
    except InvalidAction as error:
        raise DocumentError(error.message, rule=error.rule) from None
    rounds_data = document.get("rounds", [])
    if not isinstance(rounds_data, list):
        raise DocumentError(Said("rounds must be a list."))
    if len(rounds_data) > MOST_ROUNDS:
        raise DocumentError(too_many_rounds(), MOST_ROUNDS + 1)
    rounds: list[RoundReplay] = []
    totals: tuple[int, ...] = (0,) * len(players)
    winner, leader, over, carry = None, None, False, None
    first = 1
    if resume is not None:
        first, totals, leader, carry = resume.number, resume.totals, resume.leader, resume.carry
    for r, round_data in enumerate(rounds_data, start=1):
        if r < first:
            continue
        if over:
            raise _after_the_end(rounds[-1].state, round_data, r)
        if rounds and not rounds[-1].finished:
            raise DocumentError(Said("the round before it was never tallied."), r)
        actions = _parse_round(round_data, r, game.family)
        start = rules.start(
            game.slug, options, players, leader=leader, base=totals, carry=carry,
            **_recorded(options, round_data, r),
        )  # fmt: skip
        try:
            played = play_round(start, actions)
        except RefereeError as error:
            raise DocumentError.at(error, r, error.index + 1) from None  # type: ignore[attr-defined]
        rounds.append(played)
        totals, winner = played.state.totals, played.state.champion
        over, carry = played.state.match_over, played.state.carry
        leader = rules.next_leader(played.state)
    return MatchReplay(game.slug, options, players, tuple(rounds), totals, winner, over, first)


def position_before(document: Mapping[str, Any], number: int, at: int) -> RoundReplay:
    """Round ``number`` (from 1) of a document as played up to its entry ``at`` (from 0):
    the position a correction of that entry is chosen in, its corrections and those of the
    rounds before applied. Raises DocumentError when the document does not replay so far."""
    rounds = document.get("rounds")
    if not isinstance(rounds, list) or not 1 <= number <= len(rounds):
        raise DocumentError(Said("The match has no such round."))
    before = replay({**document, "rounds": rounds[: number - 1]})
    rules = engine(before.game)
    recorded = _recorded(before.options, rounds[number - 1], number)
    start = rules.start(before.game, before.options, before.players, base=before.totals, **recorded)
    if before.rounds:
        last = before.rounds[-1].state
        start = rules.start(
            before.game,
            before.options,
            before.players,
            leader=rules.next_leader(last),
            base=last.totals,
            carry=last.carry,
            **recorded,
        )
    log = _parse_round(rounds[number - 1], number, preset(before.game).family)
    if not 0 <= at < len(log):
        raise DocumentError(Said("The round has no such entry."), number)
    try:
        actions, _ = as_played(log, until=at)
        return play_round(start, actions)
    except RefereeError as error:
        raise DocumentError.at(error, number, getattr(error, "index", 0) + 1) from None


def _after_the_end(last: line.RoundState, data: object, number: int) -> DocumentError:
    """The refusal of round ``number``, played after the match ended: its first action is
    the one refused, under the rule that ended the match (an empty round has no action to
    name, only the round)."""
    ended = last.match_end
    assert ended is not None, "asked only once the match is over"
    rule, why = ended
    actions = data.get("actions") if isinstance(data, Mapping) else None
    first = 1 if isinstance(actions, list) and actions else None
    return DocumentError(
        Said("{why}; nothing more is played after that.", why=why), number, first, rule
    )


def _recorded(options: Mapping[str, Any], data: object, number: int) -> dict[str, Any]:
    """``pad.record``: how a round of a game with a score pad is recorded, for its engine's
    ``start``: a score-pad match's round may say ``"record": "plays"`` to be played tile by
    tile (the only switch there is); other games' rounds say nothing."""
    record = data.get("record") if isinstance(data, Mapping) else None
    if "record" not in options:
        if record is not None:
            raise DocumentError(Said("unknown field 'record': this game has no score pad."), number)
        return {}
    if record not in (None, "plays"):
        raise DocumentError(
            Said(
                'a round\'s record is "plays" (a score-pad match switching to play by play), '
                "not {value}.",
                value=shown(record),
            ),
            number,
        )
    return {"record": record or options["record"]}


def _parse_round(data: object, number: int, family: str) -> list[Action]:
    if not isinstance(data, Mapping) or not isinstance(data.get("actions"), list):
        raise DocumentError(Said("a round is an object with a list of actions."), number)
    unknown = set(data) - _ROUND_FIELDS - _COMPUTED_ROUND
    if unknown:
        raise DocumentError(
            Said("unknown field {field}.", field=sorted(map(shown, unknown))[0]), number
        )
    actions = []
    for a, item in enumerate(data["actions"], start=1):
        try:
            actions.append(parse_action(item, family))
        except RefereeError as error:
            raise DocumentError.at(error, number, a) from None
    return actions


def export(match: MatchReplay) -> dict[str, Any]:
    """The document with what the referee computed (MATCH_FORMAT.md, Export)."""
    rounds = []
    for played in match.rounds:
        actions = []
        entries = zip(played.entries, played.entry_points, played.entry_bonuses, strict=True)
        for action, points, bonuses in entries:
            item = action.to_dict()
            # A declare's own "points" is what it scores, exactly (fives.muggins); the
            # computed field of the same name would overwrite the declaration.
            if any(points) and "points" not in item:
                item["points"] = {str(s): p for s, p in enumerate(points) if p}
            if bonuses:  # parejas.*: a bonus is named on the action that earned it
                item["bonus"] = [bonus.to_dict() for bonus in bonuses]
            actions.append(item)
        out: dict[str, Any] = {"actions": actions}
        if match.options.get("record") == "scores" and not played.state.pad:
            out["record"] = "plays"  # pad.record: this round was played tile by tile
        if played.state.result is not None:
            out["result"] = played.state.result.to_dict()
        rounds.append(out)
    return {
        "format": FORMAT,
        "game": match.game,
        "options": dict(match.options),
        "players": list(match.players),
        "rounds": rounds,
        "totals": {str(s): t for s, t in enumerate(match.totals)},
        "winner": match.winner,
        **_partnerships(match),
        **_domino_fields(match),
    }


def _domino_fields(match: MatchReplay) -> dict[str, Any]:
    """Dominó (``parejas.records``, ``parejas.target``): each seat's records, and whether the
    match ended in a draw."""
    if preset(match.game).scoring != "parejas":
        return {}
    hands = [played.state.parejas for played in match.rounds]
    counts = parejas.records(hands, match.totals, match.winner if match.over else None)
    out: dict[str, Any] = {
        "records": {
            str(seat): dict(zip(parejas.RECORDS, row, strict=True))
            for seat, row in enumerate(counts)
        }
    }
    if hands and hands[-1].ended_by == "draw":
        out["draw"] = True
    return out


def _partnerships(match: MatchReplay) -> dict[str, Any]:
    """MATCH_FORMAT.md, partnerships: the teams, their totals by first seat, and both
    winners (``winner`` is the winning team's first seat already)."""
    if not match.options.get("partnerships"):
        return {}
    sides = teams(len(match.players), match.options)
    by_team = team_totals(match.totals, sides)
    winners = team_of(sides, match.winner) if match.winner is not None else None
    return {
        "teams": [list(team) for team in sides],
        "team_totals": {str(team[0]): t for team, t in zip(sides, by_team, strict=True)},
        "winners": list(winners) if winners is not None else None,
    }
