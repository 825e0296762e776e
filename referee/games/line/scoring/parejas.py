"""Dominó scoring (RULES.md §11, ``parejas.*``): Block in two fixed pairs as Cuba, Puerto
Rico, the Dominican Republic, Venezuela and Spain play it.

The rules are pure functions over plain values (pips, seats, tiles, the open ends), in
:mod:`referee.games.line.scoring.parejas_rules`, so a second judge can check them without a
round's state; :class:`Parejas` is the family the line
asks, and keeps the hand's own facts in ``RoundState.parejas`` (a :class:`Hand`). This module
does not import the line engine: the state it is handed is read by its public fields only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.actions import Action, Pass, Play, Redeal, Tally, Time
from referee.errors import IllegalAction
from referee.frozen import replace
from referee.games.line.scoring.base import BLOCKED, DOMINO, Family, credit
from referee.games.line.scoring.parejas_rules import (  # noqa: F401 (parejas.records, … are read here)
    RECORDS,
    REDEAL,
    RULE,
    TIME,
    Audit,
    Bonus,
    Earned,
    Hand,
    capicua,
    chuchazo,
    domino_points,
    hand_bonus,
    higher_double,
    lead_refusal,
    outcome,
    pair_of,
    pase_points,
    records,
    tranque_points,
    tranque_winner,
    winning_seat,
)
from referee.round.refusals import match_over
from referee.said import Said, counted, listed
from referee.teams import PAIRS, Team, team_name

# -- the family ----------------------------------------------------------------------------


class Parejas(Family):
    target = "parejas.target"

    def deal(self, seats: int, carry: Mapping[str, Any] | None) -> dict[str, Any]:
        return {"parejas": Hand.from_carry(carry)}

    def carry(self, state: Any) -> dict[str, Any]:
        """What the next hand starts from: a hand not over hands on what it started from, a
        redeal too (the next hand is led as this one would have been)."""
        hand: Hand = state.parejas
        result = state.result
        if result is None or result.reason == REDEAL:
            return hand.as_carry()
        played = result.reason in (DOMINO, BLOCKED)  # a hand that counts for hand_bonus
        won = result.winner
        pair: tuple[int, ...] = ()
        proposed = self.next_leader(state)
        if state.options["next_lead"] == "winning-team" and won is not None:
            pair, proposed = pair_of(won), won
        return replace(
            hand, number=hand.number + played,
            first=hand.first and not played and state.led_by is None,
            pair=pair, proposed=proposed, extra=hand.extra_next, extra_next=False,
        ).as_carry()  # fmt: skip

    def next_leader(self, state: Any) -> int | None:
        """``parejas.lead``: the seat that must lead the next hand (None: the table chooses)."""
        result = state.result
        if result is None or result.reason == REDEAL:
            return state.leader  # led as this hand would have been
        rule = state.options["next_lead"]
        won = result.winner if result.reason in (DOMINO, BLOCKED) else None
        if rule == "winner" and won is not None:
            return won
        if rule == "winning-team" and won is not None:
            return None
        # next, and after a hand nobody won; a score pad's hand was led by the seat it said
        # must lead (the table chose the first leader: unknown, so the table chooses again)
        led = state.led_by if state.led_by is not None else state.leader
        return None if led is None else (led + 1) % 4

    def proposed(self, state: Any) -> int | None:
        """The seat the referee proposes to lead this hand (the table may choose another
        with ``any`` or ``winning-team``)."""
        return state.leader if state.leader is not None else state.parejas.proposed

    # -- plays and knocks --

    def check_play(self, state: Any, action: Play) -> None:
        hand: Hand = state.parejas
        if state.result is not None and state.result.reason in (REDEAL, TIME):
            raise IllegalAction(
                "parejas.redeal" if state.result.reason == REDEAL else "parejas.time",
                Said("This hand is over; the next hand has begun."),
            )
        if state.layout.placed or state.is_over or action.seat >= state.seats:
            return
        who = state.name(action.seat)
        if state.leader is not None and action.seat != state.leader:
            raise IllegalAction(
                "parejas.lead",
                Said(
                    "{leader} leads this hand ({how}); {who} plays in turn after.",
                    leader=state.name(state.leader), who=who, how=_lead_words(state),
                ),
            )  # fmt: skip
        if hand.pair and action.seat not in hand.pair:
            raise IllegalAction(
                "parejas.lead",
                Said(
                    "The pair that won the last hand leads this one: {pair}, not {who}.",
                    pair=team_name(state.names, hand.pair), who=who,
                ),
            )  # fmt: skip
        if hand.first:
            refusal = lead_refusal(
                action.tile, state.top, state.options["first_lead"], who, state.game.named
            )
            if refusal is not None:
                raise refusal

    def play(self, state: Any, action: Play) -> Any:
        """The play's bonuses: a paso corrido owed to the seat, a capicúa or chuchazo on the
        domino (``parejas.pase``, ``.capicua``, ``.chuchazo``)."""
        hand: Hand = replace(state.parejas, locker=action.seat, last_bonus=())
        if len(state.layout.placed) == 1:
            hand = replace(hand, lead_at=state.logged)
        seat, options, scored = action.seat, state.options, []
        if hand.owed is not None and hand.owed[0] == seat:
            bonus = Bonus("paso-corrido", seat, options["paso_corrido_bonus"])
            hand = hand.counted("paso_corrido", seat)
            scored.append(bonus)
            # Kept even at 0 points: a false knock takes back the record too.
            hand = replace(hand, earned=hand.earned + (Earned(bonus, *hand.owed[1:]),))
        hand = replace(hand, owed=None)
        if state.ended == DOMINO:
            ends = ends_before(state.layout)
            if capicua(action.tile, ends):
                hand = hand.counted("capicua", seat)
                scored.append(Bonus("capicua", seat, options["capicua_bonus"]))
            if chuchazo(action.tile):
                hand = hand.counted("chuchazo", seat)
                scored.append(Bonus("chuchazo", seat, options["chuchazo_bonus"]))
        return _scored(replace(state, parejas=hand), [b for b in scored if b.points])

    def knock(self, state: Any, action: Pass) -> Any:
        """A pase de salida on the knock that cannot answer the lead; a paso corrido owed
        once the three others have knocked (scored on the seat's next play)."""
        hand: Hand = replace(state.parejas, last_bonus=())
        scored = []
        knock = state.knocks[-1]
        if len(state.layout.placed) == 1 and state.passes == 1 and state.led_by is not None:
            leader = state.led_by
            hand = hand.counted("pase_given", leader).counted("pase_suffered", action.seat)
            bonus = Bonus("pase", leader, pase_points(state.layout.lead, state.options))
            scored.append(bonus)
            hand = replace(
                hand, earned=hand.earned + (Earned(bonus, (knock.action,), (action.seat,)),)
            )
        if state.passes == 3 and state.ended is None and hand.locker is not None:
            three = state.knocks[-3:]
            hand = replace(
                hand,
                owed=(hand.locker, tuple(k.action for k in three), tuple(k.seat for k in three)),
            )
        if state.ended is not None:
            hand = replace(hand, owed=None)  # the round ended first: no paso corrido
        return _scored(replace(state, parejas=hand), [b for b in scored if b.points])

    # -- Dominó's own actions --

    def table_action(self, state: Any, action: Action) -> Any:
        if isinstance(action, Redeal):
            return _redeal(state, action)
        assert isinstance(action, Time)
        return _time(state)

    # -- the tally and the match --

    def round_end(self, state: Any, pips: tuple[int, ...], winner: int) -> tuple[int, Said]:
        return 0, Said("")  # settle scores the hand

    def settle(self, state: Any, action: Tally, result: Any) -> tuple[Any, Any]:
        """``parejas.domino``, ``.tranque``, ``.tranque-tie``, ``.tranque-bonus``,
        ``.hand-bonus``; a score pad's bonuses; the audit's findings taking back the bonuses
        false knocks earned."""
        hand: Hand = replace(state.parejas, last_bonus=())
        options, pips = state.options, result.pips
        if action.made and not state.pad:
            raise IllegalAction(
                "pad.record",
                Said(
                    "The referee saw every play of this hand and scores its bonuses itself; "
                    "only a score pad says what a hand made."
                ),
            )
        locker = hand.locker
        bonuses: list[Bonus] = []
        if state.pad:
            hand, locker, bonuses = _pad_made(state, hand, action.made)
        points = [0] * 4
        settled = Said("")
        if state.ended == DOMINO:
            seat: int | None = state.hands.index(0)
            assert seat is not None
            points[seat] = domino_points(pips, seat, options["count_all_hands"])
        else:
            pair, how = tranque_winner(pips, locker, options["tranque"], options["tranque_tie"])
            if locker is not None:
                hand = hand.counted("tranque_made", locker)
            seat = None if pair is None else winning_seat(pair, pips, locker)
            settled = _tranque_words(state, pips, pair, how, locker)
            if seat is not None:
                assert pair is not None
                hand = hand.counted("tranque_won", seat)
                points[seat] = tranque_points(pips, pair, options["tranque_count"])
                bonuses.append(Bonus("tranque", seat, options["tranque_bonus"]))
        if seat is not None:
            bonuses.append(Bonus("hand", seat, hand_bonus(hand.number, options["hand_bonus"])))
        findings = list(result.findings)
        false_knocks = {f.action for f in result.findings if f.rule == "tally.audit"}
        for earned in hand.earned:
            if false_knocks & set(earned.knocks):
                hand = _uncount(hand, earned)
                if earned.bonus.points:
                    bonuses.append(replace(earned.bonus, points=-earned.bonus.points))
                    findings.append(_taken_back(state, earned, false_knocks))
        if hand.first and state.layout.placed:
            findings += _lead_audit(state, hand, action)
        bonuses = [b for b in bonuses if b.points]
        for bonus in bonuses:
            points[bonus.seat] += bonus.points
        hand = replace(hand, last_bonus=tuple(bonuses), settled=settled)
        settled_result = replace(
            result, winner=seat, points=tuple(points), findings=tuple(findings), bonus=settled
        )
        return replace(state, parejas=hand), settled_result

    def decide(self, state: Any) -> Any:
        """``parejas.target`` and ``parejas.time``: the pair ahead wins once a pair has
        reached the target (or time was called); level, one more hand; level after it, a
        draw."""
        hand: Hand = state.parejas
        totals = tuple(sum(state.totals[s] for s in pair) for pair in PAIRS)
        verdict, ahead = outcome(totals, state.options["target"], hand.time, hand.extra)
        return _decided(state, verdict, ahead)

    def match_end(self, state: Any) -> tuple[str, Said] | None:
        hand: Hand = state.parejas
        if hand.ended_by == "draw":
            return self.target if not hand.time else "parejas.time", Said(
                "The match is a draw: the pairs were level after the one extra hand"
            )
        if state.champion is None:
            return None
        if hand.ended_by == "time":
            return "parejas.time", Said(
                "The match is over: time was called and {team} finished ahead with {total}",
                team=state.team_name(state.champion),
                total=state.team_total(state.champion),
            )
        return super().match_end(state)


PAREJAS = Parejas()


# -- helpers -------------------------------------------------------------------------------


def scored(before: Any, after: Any, action: Action) -> tuple[Bonus, ...]:
    """The bonuses ``action`` scored, going from ``before`` to ``after``: an undo takes back
    those of the action it undoes; the table's own entries (adjust, abandon, stop) score
    none."""
    if action.kind == "undo":
        return tuple(replace(b, points=-b.points) for b in before.parejas.last_bonus)
    if action.kind in ("play", "pass", "tally", "redeal", "time"):
        return after.parejas.last_bonus
    return ()


def ends_before(layout: Any) -> tuple[int, ...]:
    """The numbers the open ends showed before the last tile: every free face of the tiles
    before it, and the face the last tile covered (a plain line: no spinners)."""
    *before, last = layout.placed
    ends = [face.shows for placed in before for face in placed.free]
    if last.touching is not None:
        ends.append(last.touching)
    return tuple(ends)


def _scored(state: Any, bonuses: list[Bonus]) -> Any:
    """``state`` with ``bonuses`` credited, on top of what the action scored already."""
    hand = replace(state.parejas, last_bonus=state.parejas.last_bonus + tuple(bonuses))
    state = replace(state, parejas=hand)
    if not bonuses:
        return state
    earned: dict[int, int] = {}
    for bonus in bonuses:
        earned[bonus.seat] = earned.get(bonus.seat, 0) + bonus.points
    before = state.last_points or (0,) * state.seats
    after = credit(state, earned)
    return replace(
        after, last_points=tuple(a + b for a, b in zip(before, after.last_points, strict=True))
    )


def _uncount(hand: Hand, earned: Earned) -> Hand:
    """The records without what a false knock earned."""
    bonus = earned.bonus
    if bonus.kind == "pase":
        hand = hand.counted("pase_given", bonus.seat, -1)
        return hand.counted("pase_suffered", earned.knocked[0], -1)
    return hand.counted("paso_corrido", bonus.seat, -1)


def _taken_back(state: Any, earned: Earned, false_knocks: set[int]) -> Audit:
    """The audit's word on a bonus taken back (``parejas.pase``)."""
    index = next(i for i, k in enumerate(earned.knocks) if k in false_knocks)
    knock, seat = earned.knocks[index], earned.knocked[index]
    what = Said("pase de salida") if earned.bonus.kind == "pase" else Said("paso corrido")
    return Audit(
        "parejas.pase",
        knock,
        seat,
        Said(
            "{who}'s knock (action {n}) was false, so the {what} it earned {team} is taken "
            "back: {points}.",
            who=state.name(seat),
            n=knock + 1,
            what=what,
            team=state.team_name(earned.bonus.seat),
            points=-earned.bonus.points,
        ),
    )


def _lead_audit(state: Any, hand: Hand, action: Tally) -> list[Audit]:
    """The first hand's lead (``parejas.lead``) with a double-9 set: a double higher than the
    lead that was dealt after all (played later, or declared in a hand)."""
    if state.options["first_lead"] == "any" or state.top == 6 or state.led_by is None:
        return []
    lead = state.layout.lead
    seen = state.layout.tiles[1:] + tuple(t for _, tiles in action.hands or () for t in tiles)
    higher = higher_double(lead, seen)
    if higher is None:
        return []
    return [
        Audit(
            "parejas.lead",
            hand.lead_at,
            state.led_by,
            Said(
                "{who} led {lead}, but {higher} was dealt too: the highest double dealt leads "
                "the first hand.",
                who=state.name(state.led_by), lead=lead, higher=higher,
            ),
        )
    ]  # fmt: skip


def _tranque_words(state: Any, pips: Sequence[int], pair: Team | None, how: str,
                   locker: int | None) -> Said:  # fmt: skip
    """How a tranque was settled, as the table says it: "Ana & Caro 12, Ben & Dan 19:
    Ana & Caro win"."""
    counts = listed(
        [
            Said("{team} {pips}", team=team_name(state.names, p), pips=sum(pips[s] for s in p))
            for p in PAIRS
        ]
    )
    if how == "locker" and locker is not None:
        answer = (locker + 1) % 4
        counts = Said(
            "{locker} locked it with {mine}, {answer} holds {theirs}",
            locker=state.name(locker), mine=pips[locker], answer=state.name(answer),
            theirs=pips[answer],
        )  # fmt: skip
    elif how == "lowest-hand":
        least = min(pips)
        counts = Said(
            "the lowest hand is {least} ({who})",
            least=least, who=listed([state.name(s) for s in range(4) if pips[s] == least]),
        )  # fmt: skip
    if pair is None:
        return Said("Tranque: {counts}: level, nobody wins the hand", counts=counts)
    if how == "tie":
        return Said(
            "Tranque: {counts}: level, and the pair that locked it wins: {team}",
            counts=counts, team=team_name(state.names, pair),
        )  # fmt: skip
    return Said("Tranque: {counts}: {team} win", counts=counts, team=team_name(state.names, pair))


def _lead_words(state: Any) -> Said:
    rule = state.options["next_lead"]
    if rule == "winner":
        return Said("the winner of the last hand leads")
    return Said("the seat after the last hand's leader leads")


def _redeal(state: Any, action: Redeal) -> Any:
    """``parejas.redeal``: five or more distinct doubles of the set, shown before the first
    play; the hand ends at once, scoring nothing."""
    if action.seat >= state.seats:
        raise IllegalAction(
            "seat.order", Said("There is no seat {seat} at this table.", seat=action.seat)
        )
    _check_on(state)
    who = state.name(action.seat)
    if not state.options["five_doubles"]:
        raise IllegalAction(
            "parejas.redeal",
            Said("This match plays no redeal for five doubles; {who} plays the hand.", who=who),
        )
    if state.layout.placed or state.result is not None:
        raise IllegalAction(
            "parejas.redeal",
            Said(
                "The doubles are shown before the first play; this hand has begun, so {who} "
                "plays it.",
                who=who,
            ),
        )
    doubles = {t for t in action.doubles if t.is_double and t.high <= state.top}
    if len(doubles) < 5 or len(doubles) != len(action.doubles):
        raise IllegalAction(
            "parejas.redeal",
            Said(
                "A hand is dealt again for five or more different doubles of the set; {who} "
                "shows {n}, so {who} plays the hand.",
                who=who,
                n=len(doubles),
            ),
        )
    result = replace(state.abandoned_result(), reason=REDEAL, points=state.scores)
    hand = replace(state.parejas, last_bonus=())
    return replace(state, ended=REDEAL, result=result, turn=None, parejas=hand,
                   last_points=(0,) * state.seats)  # fmt: skip


def _check_on(state: Any) -> None:
    if state.match_end is not None:
        raise match_over(state.match_end)


def _time(state: Any) -> Any:
    """``parejas.time``: the hand in progress is finished and the match ends after it; between
    hands (nothing played yet) it ends at once, or starts the one extra hand when level."""
    _check_on(state)
    hand: Hand = replace(state.parejas, last_bonus=())
    nobody = (0,) * state.seats
    if not state.options["time_limit"]:
        raise IllegalAction(
            "parejas.time", Said("This match has no time limit: it is played to the target.")
        )
    if hand.time:
        raise IllegalAction(
            "parejas.time",
            Said("Time was called already: this is the last hand (or the one extra hand)."),
        )
    if state.result is not None:
        raise IllegalAction(
            "parejas.time", Said("This hand is over; record Time in the next hand.")
        )
    hand = replace(hand, time=True)
    state = replace(state, parejas=hand, last_points=nobody)
    if state.layout.placed or hand.extra or state.pad:
        return state  # the hand in progress is finished first (a score pad records a hand)
    totals = tuple(sum(state.totals[s] for s in pair) for pair in PAIRS)
    verdict, ahead = outcome(totals, state.options["target"], True, False)
    if verdict == "extra":
        return replace(state, parejas=replace(hand, extra=True))  # this is the extra hand
    after = _decided(state, verdict, ahead)
    result = replace(
        state.abandoned_result(), winner=after.champion, reason=TIME, points=state.scores
    )
    return replace(after, ended=TIME, result=result, turn=None)


def time_refused(limit: int, elapsed: float) -> IllegalAction | None:
    """``parejas.time`` on the phone that records ``time``: refused before ``limit`` minutes
    have passed by the server's clock (``elapsed``: seconds since the match began); None once
    they have, or with no limit (``_time`` says why then). The referee keeps no clock: an
    imported document's ``time`` is taken as recorded, so only the app asks this."""
    if not limit or elapsed >= limit * 60:
        return None
    left = max(1, -(-int(limit * 60 - elapsed) // 60))  # whole minutes, rounded up
    return IllegalAction(
        "parejas.time",
        counted(
            "The time limit is {limit} minutes and {n} minute is left: record Time when it "
            "has run out.",
            "The time limit is {limit} minutes and {n} minutes are left: record Time when it "
            "has run out.",
            left,
            limit=limit,
            n=left,
        ),  # fmt: skip
    )


def _decided(state: Any, verdict: str, ahead: int | None) -> Any:
    hand: Hand = state.parejas
    if verdict == "win":
        assert ahead is not None
        how = "time" if hand.time else "target"
        return replace(state, champion=PAIRS[ahead][0], parejas=replace(hand, ended_by=how))
    if verdict == "draw":
        return replace(
            state, champion=None, shared=(0, 1, 2, 3), parejas=replace(hand, ended_by="draw")
        )
    if verdict == "extra":
        return replace(state, champion=None, parejas=replace(hand, extra_next=True))
    return replace(state, champion=None)


def _pad_made(
    state: Any, hand: Hand, made: Sequence[tuple[str, int]]
) -> tuple[Hand, int | None, list[Bonus]]:  # noqa: E501
    """``pad.record`` for Dominó: what the table says the hand made (its bonuses and who
    locked a tranque), checked against how the tally says it ended."""
    options, bonuses, locker = state.options, [], None
    domino = state.ended == DOMINO
    out = state.hands.index(0) if domino else None
    for what, seat in made:
        if seat >= state.seats:
            raise IllegalAction(
                "seat.order", Said("There is no seat {seat} at this table.", seat=seat)
            )
        who = state.name(seat)
        if what in ("capicua", "chuchazo") and seat != out:
            rule = RULE[what]
            raise IllegalAction(
                rule,
                Said(
                    "A capicúa or a chuchazo is made by the seat that dominoes with its last "
                    "tile; by the tally {who} did not.",
                    who=who,
                ),
            )
        if what == "locked":
            if domino or locker is not None:
                raise IllegalAction(
                    "parejas.tranque",
                    Said("Only a tranque is locked, by one seat; by the tally this hand was not."),
                )
            locker = seat
            continue
        if what in ("pase", "pase-double"):
            if any(b.kind == "pase" for b in bonuses):
                raise IllegalAction("parejas.pase", Said("A hand has one pase de salida at most."))
            hand = hand.counted("pase_given", seat)
            points = options["pase_salida_double" if what == "pase-double" else "pase_salida_other"]
            bonuses.append(Bonus("pase", seat, points))
            continue
        key = {"paso-corrido": "paso_corrido"}.get(what, what)
        hand = hand.counted(key, seat)
        bonuses.append(Bonus(what, seat, options[f"{key}_bonus"]))
    return hand, locker, bonuses
