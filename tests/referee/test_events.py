"""Club nights (RULES.md §12): worked cases of the standings, the byes, the round robin, the
Swiss system, rotating partners, and every refusal of a seating the organizer changed.

Tables are written as one line: the four seats in the order of play (seats 0 and 2 partners
against seats 1 and 3) and, once the match has ended, each side's total (``200-145``; the
higher total wins, ``150=150`` a drawn match, side 0's total first)."""

from __future__ import annotations

import re
from itertools import combinations

import pytest

from referee.errors import IllegalAction, InvalidAction
from referee.events import (
    PAIRS,
    ROTATING,
    ROUND_ROBIN,
    SWISS,
    Event,
    Result,
    Round,
    Table,
    check,
    round_robin_rounds,
    seat,
    series,
    standings,
)

from .conftest import translated_msgids, untranslatable

EIGHT = ("Ana", "Ben", "Caro", "Dan", "Eva", "Fede", "Gil", "Hugo")


def table(line: str) -> Table:
    """``"Ana Ben Caro Dan 200-145"``: Ana & Caro scored 200, Ben & Dan 145."""
    *seats, score = line.split() if re.search(r"\d", line) else (*line.split(), None)
    if score is None:
        return Table(tuple(seats))
    ours, theirs = (int(n) for n in re.split(r"[-=]", score))
    winner = None if "=" in score else 0 if ours > theirs else 1
    return Table(tuple(seats), Result((ours, theirs), winner))


def round_of(*lines: str, byes: tuple = ()) -> Round:
    return Round(tuple(table(line) for line in lines), byes)


def ranked(event: Event) -> list[tuple[int, object, float, int, int]]:
    return [(s.rank, s.entrant, s.wins, s.efectividad, s.points_for) for s in standings(event)]


def refusal(event: Event, round: Round, **how) -> str:
    with pytest.raises(IllegalAction) as caught:
        check(event, round, **how)
    assert caught.value.rule == "event.seat"
    return caught.value.message


def said_in_spanish(said) -> None:
    """A warning is a saying the catalogue can render, as every refusal is (conftest.py)."""
    assert untranslatable(said, translated_msgids()) == []


# -- event.standings -------------------------------------------------------------------------


def test_the_efectividad_of_a_pair_over_three_matches():
    """§12's own numbers: a win 200–145 adds 55, a loss 120–200 adds −80; then a win
    200–190 adds 10."""
    pairs = (("Ana", "Caro"), ("Ben", "Dan"), ("Eva", "Fede"), ("Gil", "Hugo"))
    event = Event(PAIRS, pairs, (
        round_of("Ana Ben Caro Dan 200-145", "Eva Gil Fede Hugo 200-100"),
        round_of("Eva Ana Fede Caro 200-120", "Ben Gil Dan Hugo 200-150"),
        round_of("Gil Ana Hugo Caro 190-200", "Ben Eva Dan Fede 130-200"),
    ))  # fmt: skip
    ana_caro = next(s for s in standings(event) if s.entrant == ("Ana", "Caro"))
    assert (ana_caro.won, ana_caro.lost, ana_caro.played, ana_caro.wins) == (2, 1, 3, 2.0)
    assert (ana_caro.points_for, ana_caro.points_against) == (520, 535)
    assert ana_caro.efectividad == 55 - 80 + 10 == -15
    assert ranked(event) == [
        (1, ("Eva", "Fede"), 3.0, 250, 600),  # +100 +80 +70
        (2, ("Ana", "Caro"), 2.0, -15, 520),
        (3, ("Ben", "Dan"), 1.0, -75, 475),  # -55 +50 -70
        (4, ("Gil", "Hugo"), 0.0, -160, 440),  # -100 -50 -10
    ]


def test_a_tie_is_broken_by_the_results_among_the_tied_as_opponents_only():
    """Ana, Ben and Caro end level: 2 wins, efectividad 70, 500 points for. They met as
    opponents once, Ana & Dan beating Ben & Eva in round 1; Ana partnered Ben in round 2 and
    Caro in round 3, and those matches do not count. Among them: Ana 1 win (+50), Caro
    nothing, Ben 1 loss (−50). Counting the partners' matches would put Ben above Caro.
    Fede and Hugo, level on everything and never opponents, share 7th."""
    event = Event(ROTATING, EIGHT, (
        round_of("Ana Ben Dan Eva 200-150", "Caro Fede Gil Hugo 200-150"),
        round_of("Ana Dan Ben Fede 200-100", "Caro Eva Gil Hugo 200-100"),
        round_of("Ana Dan Caro Eva 100-180", "Ben Fede Gil Hugo 150-130"),
    ))  # fmt: skip
    assert ranked(event)[:6] == [
        (1, "Gil", 3.0, 170, 550),
        (2, "Ana", 2.0, 70, 500),
        (3, "Caro", 2.0, 70, 500),
        (4, "Ben", 2.0, 70, 500),
        (5, "Dan", 2.0, 30, 480),
        (6, "Eva", 1.0, -70, 430),
    ]
    assert sorted(ranked(event)[6:]) == [(7, "Fede", 0.0, -170, 380), (7, "Hugo", 0.0, -170, 380)]


@pytest.mark.parametrize("ana_wins", [True, False])
def test_the_winner_between_two_tied_pairs_goes_above(ana_wins):
    """Ana & Caro and Ben & Dan end level (1 win, efectividad 0, 350 for); whoever won
    their match is placed above, whatever the lot."""
    first = "Ana Ben Caro Dan 200-150" if ana_wins else "Ana Ben Caro Dan 150-200"
    second = "Ana Eva Caro Fede 150-200" if ana_wins else "Ana Eva Caro Fede 200-150"
    third = "Ben Gil Dan Hugo 200-150" if ana_wins else "Ben Gil Dan Hugo 150-200"
    pairs = (("Ana", "Caro"), ("Ben", "Dan"), ("Eva", "Fede"), ("Gil", "Hugo"))
    for seed in range(4):
        event = Event(PAIRS, pairs, (round_of(first), round_of(second, third)), seed=seed)
        tied = [s for s in standings(event) if s.efectividad == 0 and s.wins == 1]
        assert [s.entrant for s in tied] == (
            [("Ana", "Caro"), ("Ben", "Dan")] if ana_wins else [("Ben", "Dan"), ("Ana", "Caro")]
        )
        assert [s.rank for s in tied] == [2, 3]


def test_a_tie_that_remains_is_shared_as_competitions_rank():
    """Two tables, the same score: the four winners never met as opponents, nor did the
    losers. 1, 1, 1, 1, 5, 5, 5, 5."""
    event = Event(
        ROTATING, EIGHT, (round_of("Ana Ben Caro Dan 200-150", "Eva Fede Gil Hugo 200-150"),)
    )
    assert [s.rank for s in standings(event)] == [1, 1, 1, 1, 5, 5, 5, 5]
    assert {s.entrant for s in standings(event)[:4]} == {"Ana", "Caro", "Eva", "Gil"}


def test_a_tie_among_three_is_broken_again_among_those_still_tied():
    """Three pairs level on everything, each beating one of the others by as much (a
    circle): their table among themselves is level too, so all three share 1st. A fourth
    pair, beaten by all, is 4th."""
    pairs = (("Ana", "Caro"), ("Ben", "Dan"), ("Eva", "Fede"), ("Gil", "Hugo"))
    event = Event(PAIRS, pairs, (
        round_of("Ana Ben Caro Dan 200-100", "Eva Gil Fede Hugo 200-100"),
        round_of("Ben Eva Dan Fede 200-100", "Ana Gil Caro Hugo 200-100"),
        round_of("Eva Ana Fede Caro 200-100", "Ben Gil Dan Hugo 200-100"),
    ))  # fmt: skip
    assert [s.rank for s in standings(event)] == [1, 1, 1, 4]


def test_a_drawn_match_counts_half_a_win_to_each_side_and_a_bye_a_win_at_nought():
    event = Event(PAIRS, (("Ana", "Caro"), ("Ben", "Dan"), ("Eva", "Fede")), (
        round_of("Ana Ben Caro Dan 150=150", byes=(("Eva", "Fede"),)),
    ))  # fmt: skip
    rows = {s.entrant: s for s in standings(event)}
    assert rows[("Ana", "Caro")].wins == rows[("Ben", "Dan")].wins == 0.5
    assert rows[("Ana", "Caro")].drawn == 1 and rows[("Ana", "Caro")].played == 1
    bye = rows[("Eva", "Fede")]
    assert (bye.wins, bye.byes, bye.played, bye.efectividad, bye.points_for) == (1.0, 1, 0, 0, 0)
    assert bye.rank == 1


def test_a_table_still_playing_counts_for_nothing_and_a_withdrawn_player_keeps_a_place():
    event = Event(ROTATING, EIGHT[:4], (
        round_of("Ana Ben Caro Dan 200-100", "Eva Fede Gil Hugo"),
    ))  # fmt: skip
    rows = {s.entrant: s for s in standings(event)}
    assert rows["Ana"].wins == 1 and rows["Eva"].played == 0  # Eva withdrew, still ranked
    assert len(rows) == 8


def test_the_series_sums_each_players_events():
    thursday = Event(
        ROTATING, EIGHT, (round_of("Ana Ben Caro Dan 200-150", "Eva Fede Gil Hugo 90-200"),)
    )
    friday = Event(PAIRS, (("Ana", "Ben"), ("Caro", "Dan"), ("Eva", "Fede")), (
        round_of("Caro Ana Dan Ben 200-150", byes=(("Eva", "Fede"),)),
    ))  # fmt: skip
    rows = {s.player: s for s in series([thursday, friday])}
    assert (rows["Ana"].wins, rows["Ana"].efectividad, rows["Ana"].events) == (1.0, 0, 2)
    assert (rows["Caro"].wins, rows["Caro"].efectividad, rows["Caro"].events) == (2.0, 100, 2)
    assert (rows["Eva"].wins, rows["Eva"].byes, rows["Eva"].efectividad) == (1.0, 1, -110)
    assert (rows["Fede"].wins, rows["Fede"].efectividad) == (2.0, 110)  # a win and a bye
    assert rows["Gil"].events == 1 and rows["Hugo"].events == 1
    assert [(s.rank, s.player) for s in series([thursday, friday])] == [
        (1, "Fede"), (2, "Caro"), (3, "Hugo"), (4, "Ana"), (4, "Dan"), (6, "Eva"), (7, "Ben"),
        (8, "Gil"),
    ]  # fmt: skip


# -- event.seat: byes --------------------------------------------------------------------------


def test_nine_players_rotating_each_sit_out_once_the_lowest_placed_first():
    """Nine players, nine rounds, seat 0's side always winning by 50: each round the
    player sitting out is the lowest-placed who has not had a bye, and after nine rounds
    each has had exactly one — and nobody has partnered anyone twice (36 partnerships, as
    many as there are pairs of nine players)."""
    players = ("Ana", "Ben", "Caro", "Dan", "Eva", "Fede", "Gil", "Hugo", "Inés")
    event = Event(ROTATING, players, seed="club")
    had: list[str] = []
    for _ in range(9):
        order = [s.entrant for s in standings(event)]
        proposal = seat(event)
        (bye,) = proposal.round.byes
        assert bye == [p for p in order if p not in had][-1]
        assert proposal.warnings == ()
        had.append(bye)
        ended = tuple(Table(t.seats, Result((200, 150), 0)) for t in proposal.round.tables)
        event = event.with_round(Round(ended, proposal.round.byes))
    assert sorted(had) == sorted(players)
    partners = [frozenset(side) for r in event.rounds for t in r.tables for side in t.sides]
    assert len(partners) == len(set(partners)) == 36


def test_the_first_bye_goes_to_the_last_of_the_lot_and_nobody_sits_out_twice_before_all():
    event = Event(ROTATING, EIGHT[:5], seed=3)
    first = seat(event).round
    assert first.byes == (standings(event)[-1].entrant,)
    ended = tuple(Table(t.seats, Result((200, 100), 0)) for t in first.tables)
    assert seat(event.with_round(Round(ended, first.byes))).round.byes != first.byes


# -- event.seat: round robin -----------------------------------------------------------------

SIX = (("Ana", "Ben"), ("Caro", "Dan"), ("Eva", "Fede"), ("Gil", "Hugo"), ("Inés", "Juan"),
       ("Kai", "Luz"))  # fmt: skip


def play_out(event: Event) -> Event:
    """Seat every round the event's seating allows, seat 0's side winning 200–100."""
    while True:
        try:
            proposal = seat(event).round
        except IllegalAction as done:
            assert done.message.startswith("The round robin is complete")
            return event
        ended = tuple(Table(t.seats, Result((200, 100), 0)) for t in proposal.tables)
        event = event.with_round(Round(ended, proposal.byes))


def meetings(event: Event) -> list[frozenset]:
    return [frozenset((t.seats[0], t.seats[1])) for r in event.rounds for t in r.tables]


def test_a_round_robin_of_six_pairs_meets_every_pair_once_in_five_rounds():
    event = play_out(Event(PAIRS, SIX, pairing=ROUND_ROBIN, seed=1))
    assert len(event.rounds) == round_robin_rounds(6) == 5
    assert all(len(r.tables) == 3 and r.byes == () for r in event.rounds)
    met = meetings(event)
    assert len(met) == len(set(met)) == 15
    for r in event.rounds:  # partners stay together, side by side in seats 0 and 2 or 1 and 3
        for t in r.tables:
            assert {t.sides[0], t.sides[1]} <= set(SIX)


def test_a_round_robin_of_seven_pairs_gives_each_one_bye_lowest_placed_first():
    event = Event(PAIRS, (*SIX, ("Mar", "Nico")), pairing=ROUND_ROBIN, seed=2)
    byes = []
    while len(event.rounds) < 7:
        order = [s.entrant for s in standings(event)]
        proposal = seat(event).round
        (bye,) = proposal.byes
        assert bye == [p for p in order if p not in byes][-1]
        byes.append(bye)
        ended = tuple(Table(t.seats, Result((200, 100 + len(byes)), 0)) for t in proposal.tables)
        event = event.with_round(Round(ended, proposal.byes))
    assert len(set(byes)) == 7 and len(set(meetings(event))) == 21
    with pytest.raises(IllegalAction, match="every pair has met every other"):
        seat(event)


def test_a_round_robin_refuses_a_meeting_twice_even_confirmed():
    event = Event(PAIRS, SIX[:4], pairing=ROUND_ROBIN, seed=1)
    first = seat(event).round
    event = event.with_round(first)
    (a, b, c, d), (e, f, g, h) = (t.seats for t in first.tables)
    again = round_of(f"{a} {b} {c} {d}", f"{e} {f} {g} {h}")
    for confirmed in (False, True):
        message = refusal(event, again, confirmed=confirmed)
        assert message == (
            f"{a} & {c} met {b} & {d} in round 1: in a round robin every pair meets every "
            "other exactly once."
        )


def test_a_round_robin_refuses_a_seating_that_leaves_it_unfinishable():
    """Six pairs, in two halves: if the first three rounds are the three ways the halves
    can meet each other, what is left is each half's triangle, and three pairs cannot all
    meet in the two rounds left (someone would have to sit out while others meet twice)."""
    top, bottom = SIX[:3], SIX[3:]

    def across(turn: int) -> Round:
        return Round(tuple(
            Table((p[0], bottom[(i + turn) % 3][0], p[1], bottom[(i + turn) % 3][1]))
            for i, p in enumerate(top)
        ))  # fmt: skip

    event = Event(PAIRS, SIX, pairing=ROUND_ROBIN, seed=0)
    for turn in range(2):
        assert check(event, across(turn)).round == across(turn)
        event = event.with_round(across(turn))
    assert refusal(event, across(2)) == (
        "With this seating the round robin cannot be finished: the meetings left would not "
        "fit into the 2 rounds left."
    )
    proposal = seat(event).round  # the referee's own seating keeps it finishable
    assert check(event, proposal).round == proposal
    assert len(set(meetings(play_out(event.with_round(proposal))))) == 15


def test_the_organizer_may_change_the_order_of_the_meetings_and_the_round_robin_still_ends():
    event = Event(PAIRS, SIX, pairing=ROUND_ROBIN, seed=4)
    proposal = seat(event).round
    (a, b, c, d), (e, f, g, h), rest = (t.seats for t in proposal.tables)
    mine = Round((table(f"{a} {f} {c} {h}"), table(f"{e} {b} {g} {d}"), Table(rest)))
    assert check(event, mine).warnings == ()
    event = play_out(event.with_round(mine))
    assert len(event.rounds) == 5 and len(set(meetings(event))) == 15


def test_a_pair_cannot_join_a_round_robin_once_it_began():
    event = Event(PAIRS, SIX[:4], pairing=ROUND_ROBIN, seed=1)
    event = event.with_round(seat(event).round)
    later = Event(PAIRS, SIX[:5], event.rounds, pairing=ROUND_ROBIN, seed=1)
    with pytest.raises(IllegalAction) as caught:
        seat(later)
    assert caught.value.message == (
        "Inés & Juan cannot join a round robin that began without them: they could not meet "
        "every other pair once."
    )


def test_a_withdrawn_pairs_opponents_sit_out_and_the_round_robin_goes_on():
    event = Event(PAIRS, SIX, pairing=ROUND_ROBIN, seed=5)
    event = event.with_round(seat(event).round)
    gone = Event(PAIRS, SIX[:5], event.rounds, pairing=ROUND_ROBIN, seed=5)
    event = play_out(gone)
    met = meetings(event)
    assert len(event.rounds) == 5 and len(met) == len(set(met))
    five = {a[0] for a in SIX[:5]}
    assert {m for m in met if m <= five} == {frozenset(m) for m in combinations(five, 2)}


# -- event.seat: Swiss -----------------------------------------------------------------------


def test_swiss_looks_ahead_rather_than_repeat_a_meeting_at_the_bottom():
    """After two rounds: Caro & Dan (2 wins), Ana & Ben (+50), Eva & Fede (+20), Inés & Juan
    (−70), Kai & Luz (−80), Gil & Hugo (no win). Caro & Dan met Eva & Fede and Ana & Ben,
    so they meet Inés & Juan; Ana & Ben's highest unmet, Eva & Fede, would leave Kai & Luz to
    meet Gil & Hugo again: Ana & Ben meet Kai & Luz, Eva & Fede meet Gil & Hugo."""
    pairs = (("Ana", "Ben"), ("Caro", "Dan"), ("Eva", "Fede"), ("Gil", "Hugo"), ("Inés", "Juan"),
             ("Kai", "Luz"))  # fmt: skip
    event = Event(PAIRS, pairs, (
        round_of("Kai Gil Luz Hugo 200-180", "Ana Inés Ben Juan 200-100",
                 "Caro Eva Dan Fede 200-120"),
        round_of("Caro Ana Dan Ben 200-150", "Eva Kai Fede Luz 200-100",
                 "Inés Gil Juan Hugo 200-170"),
    ), pairing=SWISS)  # fmt: skip
    assert [s.entrant[0] for s in standings(event)] == ["Caro", "Ana", "Eva", "Inés", "Kai", "Gil"]
    proposal = seat(event)
    assert [t.seats for t in proposal.round.tables] == [
        ("Caro", "Inés", "Dan", "Juan"),
        ("Ana", "Kai", "Ben", "Luz"),
        ("Eva", "Gil", "Fede", "Hugo"),
    ]
    assert proposal.warnings == ()
    rematch = round_of("Caro Inés Dan Juan", "Ana Eva Ben Fede", "Kai Gil Luz Hugo")
    assert refusal(event, rematch) == (
        "Kai & Luz met Gil & Hugo in round 1, though these pairs can be seated with no pair "
        "meeting another again. Confirm to seat them so anyway."
    )
    warned = check(event, rematch, confirmed=True).warnings
    assert warned == (
        "Kai & Luz meet Gil & Hugo again, as in round 1: the organizer confirmed it.",
    )
    said_in_spanish(warned[0])


def test_swiss_says_who_meets_again_and_why_when_nothing_avoids_it():
    """Two pairs, a second round: they can only meet again."""
    pairs = (("Ana", "Caro"), ("Ben", "Dan"))
    event = Event(PAIRS, pairs, (round_of("Ana Ben Caro Dan 200-100"),), pairing=SWISS)
    proposal = seat(event)
    assert proposal.round.tables == (table("Ana Ben Caro Dan"),)
    assert proposal.warnings == (
        "Ana & Caro meet Ben & Dan again, as in round 1: Ana & Caro have already met every "
        "other pair in this round.",
    )
    said_in_spanish(proposal.warnings[0])
    assert check(event, proposal.round).warnings == proposal.warnings


# -- event.seat: rotating --------------------------------------------------------------------


def test_a_rotating_table_pairs_the_first_with_the_fourth():
    """The first round by lot; the four at the top table, in that order a, b, c, d, sit
    a, b, d, c: a partners d, b partners c."""
    event = Event(ROTATING, EIGHT, seed=11)
    order = [s.entrant for s in standings(event)]
    first = seat(event).round.tables
    a, b, c, d = order[:4]
    assert first[0].seats == (a, b, d, c)
    assert first[1].seats == (order[4], order[5], order[7], order[6])


def test_four_players_partner_again_when_nobody_is_left_to_partner():
    event = Event(ROTATING, EIGHT[:4], (
        round_of("Ana Ben Caro Dan 200-100"), round_of("Ana Caro Ben Dan 200-100"),
        round_of("Ana Ben Dan Caro 200-100"),
    ))  # fmt: skip
    proposal = seat(event)
    assert len(proposal.warnings) == 2
    assert proposal.warnings[0].startswith("Ana and ")
    assert "has already partnered every other player in this round." in proposal.warnings[0]
    for warning in proposal.warnings:
        said_in_spanish(warning)
    assert check(event, proposal.round).warnings == proposal.warnings  # no confirmation asked


def test_a_swap_that_repeats_more_partners_than_needed_is_refused_with_the_fewest():
    """Ana has partnered all seven others, so one partnership must repeat: the proposal
    repeats just that one, and says so; a swap of two seats that repeats one more is
    refused, naming the fewest."""
    others = EIGHT[1:]
    rounds = []
    for n, partner in enumerate(others):
        rest = [p for p in others if p != partner]
        rest = rest[n % 6 :] + rest[: n % 6]
        rounds.append(Round((Table(("Ana", rest[0], partner, rest[1])), Table(tuple(rest[2:])))))
    event = Event(ROTATING, EIGHT, tuple(rounds))
    proposal = seat(event)
    assert (
        len(proposal.warnings) == 1
        and "Ana has already partnered every other" in (proposal.warnings[0])
    )
    assert check(event, proposal.round).warnings == proposal.warnings
    partnered = {frozenset(s) for r in rounds for t in r.tables for s in t.sides}
    seats = [p for t in proposal.round.tables for p in t.seats]
    for i, j in combinations(range(8), 2):
        swapped = list(seats)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        tables = (Table(tuple(swapped[:4])), Table(tuple(swapped[4:])))
        if sum(frozenset(s) in partnered for t in tables for s in t.sides) == 2:
            break
    message = refusal(event, Round(tables))
    assert message.endswith(
        ", though these players can be seated with only 1 partnership repeated. Confirm to "
        "seat them so anyway."
    )
    assert len(check(event, Round(tables), confirmed=True).warnings) == 2


# -- event.seat: the organizer's seating -----------------------------------------------------


@pytest.fixture
def night() -> Event:
    return Event(ROTATING, EIGHT[:5], (round_of("Ana Ben Caro Dan 200-100", byes=("Eva",)),))


@pytest.mark.parametrize(
    ("tables", "byes", "message"),
    [
        (["Ana Ben Caro Dan"], ("Eva", "Ana"), "Ana appears twice in this round."),
        (["Ana Ben Eva Dan"], (), "Caro has no seat and no bye."),
        (["Ana Ben Eva Zoe"], ("Caro",), "Zoe is not entered."),
        (["Ana Ben Eva Dan"], ("Ben",), "Ben appears twice in this round."),
    ],
)
def test_every_entrant_is_seated_once_or_sits_out(night, tables, byes, message):
    assert refusal(night, round_of(*tables, byes=byes)) == message


def test_the_bye_must_go_to_the_lowest_placed_without_one(night):
    due = [s.entrant for s in standings(night) if s.entrant != "Eva"][-1]
    playing = [p for p in EIGHT[:5] if p != "Ana"]
    assert refusal(night, Round((Table(tuple(playing)),), ("Ana",))) == (
        f"The bye goes to the lowest-placed who has not had one: {due} sits out this round."
    )
    full = Event(ROTATING, EIGHT, night.rounds)
    message = refusal(full, round_of("Ana Ben Caro Dan", "Eva Fede Gil Hugo"))
    assert message.startswith("Ana partnered Caro in round 1 and Ben partnered Dan in round 1")
    assert refusal(full, round_of("Ana Ben Eva Dan", byes=("Caro", "Fede", "Gil", "Hugo"))) == (
        "Nobody sits out this round: the tables seat everyone."
    )


def test_pairs_stay_together_at_the_table():
    pairs = (("Ana", "Caro"), ("Ben", "Dan"))
    event = Event(PAIRS, pairs)
    assert refusal(event, round_of("Ana Caro Ben Dan")) == (
        "At table 1, Ana and Ben sit opposite each other but are not a pair."
    )
    assert check(event, round_of("Ben Caro Dan Ana")).warnings == ()


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            Event(ROTATING, ("Ana", "Ben", "Caro")),
            "A table needs four players; only 3 are entered.",
        ),
        (Event(PAIRS, (("Ana", "Ben"),)), "A table needs two pairs; only 1 is entered."),
    ],
)
def test_a_table_needs_four(event, message):
    with pytest.raises(IllegalAction) as caught:
        seat(event)
    assert caught.value.message == message and caught.value.rule == "event.seat"


# -- event.make ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message", "rule"),
    [
        (lambda: Event("teams", ()), "The format of play is pairs or rotating, not 'teams'.",
         "event.make"),
        (lambda: Event(PAIRS, (), pairing="knockout"),
         "The pairing is round-robin or swiss, not 'knockout'.", "event.make"),
        (lambda: Event(PAIRS, (("Ana", "Ana"),)),
         "A pair is two different players, not ('Ana', 'Ana').", "event.make"),
        (lambda: Event(ROTATING, (("Ana", "Ben"),)),
         "An entrant is a player's name, not ('Ana', 'Ben').", "event.make"),
        (lambda: Event(PAIRS, (("Ana", "Ben"), ("Caro", "Ana"))), "Ana is entered twice.",
         "event.make"),
        (lambda: Table(("A", "B", "C")),
         "A table seats four different players, not ('A', 'B', 'C').", "event.seat"),
        (lambda: Result((200, 100), 2),
         "A table's result is each side's total and the winning side, not ((200, 100), 2).",
         "event.round"),
    ],
)  # fmt: skip
def test_what_cannot_be_an_event_is_refused_in_words(make, message, rule):
    with pytest.raises(InvalidAction) as caught:
        make()
    assert caught.value.message == message and caught.value.rule == rule


def test_the_same_event_and_seed_seat_the_same_round():
    event = Event(ROTATING, EIGHT, seed="thursday")
    assert seat(event) == seat(Event(ROTATING, tuple(reversed(EIGHT)), seed="thursday"))
    assert [seat(Event(ROTATING, EIGHT, seed=s)).round for s in range(5)] != [seat(event).round] * 5


def test_a_round_read_from_a_document_is_the_same_value():
    """Lists, as JSON gives them, make the same round and the same event as tuples."""
    listed = Round([Table(["Ana", "Ben", "Caro", "Dan"], Result([200, 150], 0))], [["Eva", "Fede"]])
    assert listed == round_of("Ana Ben Caro Dan 200-150", byes=(("Eva", "Fede"),))
    pairs = [["Ana", "Caro"], ["Ben", "Dan"], ["Eva", "Fede"]]
    assert standings(Event(PAIRS, pairs, [listed]))[0].entrant == ("Ana", "Caro")


def test_entrants_withdraw_and_join_between_rounds():
    """Hugo leaves after round 1, Inés and Juan join: round 2 seats them, not him, and the
    bye goes to the lowest-placed still entered: Fede (lost by 100), below the newcomers'
    nothing. Hugo keeps his place in the standings, last with Fede."""
    event = Event(
        ROTATING, EIGHT, (round_of("Ana Ben Caro Dan 200-150", "Eva Fede Gil Hugo 200-100"),)
    )
    later = Event(ROTATING, (*EIGHT[:7], "Inés", "Juan"), event.rounds)
    proposal = seat(later)
    seated = {p for t in proposal.round.tables for p in t.seats}
    assert "Hugo" not in seated and {"Inés", "Juan"} & (seated | set(proposal.round.byes))
    assert {s.entrant for s in standings(later)[-2:]} == {"Fede", "Hugo"}  # a shared last
    assert proposal.round.byes == ("Fede",)
    assert check(later, proposal.round) == proposal
    assert "Hugo" in {s.entrant for s in standings(later)}
    pairs = (("Ana", "Caro"), ("Ben", "Dan"), ("Eva", "Fede"))
    swiss = Event(PAIRS, pairs, (round_of("Ana Ben Caro Dan 200-150", byes=(("Eva", "Fede"),)),))
    fewer = Event(PAIRS, pairs[1:], swiss.rounds)
    assert seat(fewer).round.tables == (table("Eva Ben Fede Dan"),)
