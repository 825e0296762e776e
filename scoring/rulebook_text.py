"""Boneyard's rulebook for players: the text of the rules pages, in our own words.

Pure data. ``GAMES`` holds, for every game of ``referee.rulebook.PRESETS``, a one-line
description, what a table needs, and its rules in the order a game is played: sections,
each a title and entries ``(rule id, text)`` or ``(rule id, text, example)``. A rule id
is the anchor a refusal links to (``/rules/<game>/#<rule id>``), so every rule the game's
preset lists is written up exactly once on its page (tests/scoring/test_rules_pages.py).
In a text a line break starts a new paragraph, and lines starting "- " make a list.

``OPTIONS`` says, for every house rule, what it asks and what each choice means; the
rules page shows it beside the rule it changes, with the game's default. A choice "*"
speaks for every value not named; ``names`` gives a value the name the new-match form
shows for it.

Rules several games share are written once below and reused; where a rule reads
differently from game to game (how many tiles are dealt, whether the lead must be a
double), each game has its own text. A game four players may play as two teams has a
"Playing in pairs" part after the end of the match, built by ``_pairs`` from shared rules.
"""

from __future__ import annotations

from referee.rulebook import PRESETS

# --- What you need ----------------------------------------------------------------------

SET_TILES = (
    "set.tiles",
    "You play with a double-six set unless the table picks a bigger one when making the "
    "match. A double-six set has 28 tiles: every pairing of the numbers 0 (blank) to 6, each "
    "exactly once, the seven doubles 0-0 to 6-6 included. A double-nine set has 55 tiles, a "
    "double-twelve 91. We name a tile high half first, 6-4, and its pips are its two halves "
    "added up: 6-4 has 10 pips. When you type a tile, 4-6, 6|4 and 6:4 are understood too.",
)
SET_UNIQUE = (
    "set.unique",
    "Every tile exists once, so the app always knows where each tile it has heard of is: on "
    "the table, out of play, in a truck or a discard slot, or shown in someone's hand. Name a "
    "tile that is already somewhere else and the app refuses it and says where that tile is. "
    "That is usually the sign of a wrong tap a moment earlier.",
)
INFO_PUBLIC = (
    "info.public",
    "The app is a referee that never sees your hand. It knows what lies face up, how many "
    "tiles each player holds, how many are still face down, and what you tell it. A rule "
    "that hangs on a hidden hand (“you may not knock while you could play”) is checked as far "
    "as the table shows, and again once the hands are shown at the end of the round.",
)

# --- Who starts ---------------------------------------------------------------------------

SEAT_ORDER = (
    "seat.order",
    "Enter the players in the order they sit, going clockwise round the table. Play passes "
    "to the left: the next player is always the one clockwise of you.",
)
ROUND_LEAD = (
    "round.lead",
    "The table decides who leads the first round, as it always does: most tables let the "
    "player holding the highest double lead, others draw a tile each and the highest draw "
    "leads. The app does not need to know how; it records whoever plays the first tile. Each "
    "later round, the table decides again and the app records it.",
)
LEAD_ANY = (
    "line.lead",
    "The first tile of a round is the lead (some call it the set). Any tile from the "
    "leader's hand may lead, unless the table has chosen that the lead must be a double.",
)
LEAD_DOUBLE = (
    "line.lead",
    "The lead must be a double. If nobody holds a double, shuffle and deal again.",
)

# --- A turn ------------------------------------------------------------------------------

TURN_ORDER = (
    "turn.order",
    "Players take turns in seat order, one play, draw or knock at a time. The app takes an "
    "entry only from the player whose turn it is; if the table really did play out of turn, "
    "see “When something goes wrong at the table” below.",
)
ATTACH = (
    "line.attach",
    "After the lead, each tile is laid against a free end of a tile already on the table, "
    "and the two halves that touch must show the same number. The far half of the new tile "
    "becomes the free end of that line. When you tell the app a play, name the tile and the "
    "tile it goes on: “6-3 on 6-6”.",
    "The lead is 5-4, so one end shows 5 and the other 4. Ben plays 4-1 on the 4: the ends "
    "now show 5 and 1.",
)
ATTACH_ON_DOUBLE = (
    ATTACH[0],
    ATTACH[1],
    "6-6 leads. Ben plays 6-4 against one of its long sides: that line now ends in 4, so "
    "4-1 may go there next.",
)
ATTACH_CROSS = (
    ATTACH[0],
    ATTACH[1],
    "The cross is 6-6 with 6-1, 6-2, 6-3 and 6-5 round it, so the arms end in 1, 2, 3 and 5. "
    "Ben plays 4-3 on the 3: that arm now ends in 4.",
)
ATTACH_LOCKED = (
    ATTACH[0],
    ATTACH[1],
    "6-6 leads. Ben plays 6-3 against one of its long sides: that line now ends in 3 (locked "
    "until 3-3 is down, as below).",
)
CROSSWISE = (
    "line.crosswise",
    "A double is laid across the line rather than along it. At the end of a line it is still "
    "an open end, showing its number on the far side: 4-4 laid across a 4 leaves a 4 to "
    "play on.",
)
SPINNER_WHAT = (
    "A spinner is a double that can be played on from all four sides: its long sides carry "
    "the line on, and each of its short ends can start a new line, so the layout grows in "
    "four directions instead of two. A double that does not spin takes tiles on its two long "
    "sides only."
)
SPINNER_NONE = (
    "line.spinner",
    SPINNER_WHAT + "\nUnless the table chooses spinners, no double spins.",
)
SPINNER_FIRST = (
    "line.spinner",
    SPINNER_WHAT + "\nHere the first double played in the round is the spinner, whether it "
    "leads or comes later; every double after it is an ordinary one.",
)
SPINNER_ALL = ("line.spinner", SPINNER_WHAT + "\nIn Doubles every double is a spinner.")
SIDES_FIRST_ON = (
    "line.sides-first",
    "A spinner's short ends open only once both of its long sides hold a tile: until then "
    "nobody may play off its ends.",
)
SIDES_FIRST_OFF = (
    "line.sides-first",
    "Any free side of a spinner may be played on at any time, short ends included. When you "
    "play on a spinner you may say whether your tile goes on a long side or a short end; if "
    "you don't, the app puts it on a free long side first.",
)

# --- When you cannot play ----------------------------------------------------------------

NO_DRAW = (
    "block.no-draw",
    "Nobody draws in this game. The tiles left over after the deal stay face down, out of "
    "the round. If you cannot play, you knock (tap the table, or say “pass”) and the turn "
    "moves on.",
)
MUST_DRAW = (
    "draw.must-draw",
    "If you cannot play, you must draw from the boneyard, the face-down tiles. You may knock "
    "only when there is nothing left you are allowed to draw: the app refuses a knock while a "
    "tile can still be drawn.",
)
DRAW_UNTIL = (
    "draw.until",
    "Keep drawing until you draw a tile that fits, then play it straight away. If the "
    "boneyard runs out first, you knock.",
)
DRAW_ONE = (
    "draw.until",
    "Draw just one tile: play it if it fits, otherwise knock. In this game you never draw a "
    "second tile in the same turn.",
)
RESERVE_NONE = ("draw.reserve", "Every tile of the boneyard may be drawn, down to the last.")
RESERVE_TWO = (
    "draw.reserve",
    "The last two tiles of the boneyard are never drawn: once only two are left, a player "
    "who cannot play simply knocks.",
)
DEAD_END = (
    "line.dead-end",
    "An open end is dead when every tile carrying its number is already accounted for, so "
    "nothing can ever be played there. When all the open ends are dead, nothing more can be "
    "played: the round is blocked, and the app announces it straight away, without waiting "
    "for everyone to knock.",
    "A double-six set has seven tiles with a 2 on them. Once all seven are on the table, an "
    "end showing 2 is dead.",
)

# --- The count ---------------------------------------------------------------------------

COUNT_HOW = (
    "The count is what the open ends add up to. Each end counts the number on its free half; "
    "a double lying across an end counts both halves (5-5 counts 10) until a tile covers its "
    "far side; a lead tile on its own counts both halves; a blank counts nothing, and so "
    "does a spinner's short end with no tile on it yet. The app shows the count under the "
    "layout after every play."
)
COUNT_REFERENCE = (
    "line.count",
    "This game scores nothing during play, but the app shows the count anyway, as a way to "
    "read the table.\n" + COUNT_HOW,
    "6-5 leads: the count is 11. 6-0 goes on the 6: the ends show 5 and 0, so 5.",
)
COUNT_SCORING = (
    "line.count",
    COUNT_HOW,
    "6-5 leads: 11. 6-0 goes on the 6: 5 + 0 = 5. 5-5 goes across the 5: 10 + 0 = 10. 5-0 "
    "goes on the blank: 10 + 5 = 15.",
)
COUNT_SPINNER = (
    "line.count-spinner",
    "A spinner counts both its halves as long as no more than one of its long sides is "
    "covered. Once both long sides hold a tile it counts nothing, and the ends of its lines "
    "count instead.",
    "5-5 leads as a spinner: 10. 5-0 goes on one long side: 10 + 0 = 10. 5-4 goes on the "
    "other: the spinner is covered on both sides, so the count is 0 + 4 = 4.",
)

# --- The end of a round ------------------------------------------------------------------

END_DOMINO = (
    "end.domino",
    "The round ends the moment a player lays their last tile: they have dominoed (or "
    "“chipped out”).",
)
END_BLOCKED_NO_DRAW = (
    "end.blocked",
    "It also ends when the game is blocked: every player has knocked in a row, or every open "
    "end is dead.",
)
END_BLOCKED_DRAW = (
    "end.blocked",
    "It also ends when the game is blocked: nobody can play and nobody may draw, because "
    "every player has knocked in a row or every open end is dead.",
)
TALLY_HANDS = (
    "tally.hands",
    "Then everybody shows what they still hold. Tell the app each player's tiles one by one "
    "(it checks them against the tiles it has seen and the hand sizes it has counted), or "
    "just each player's pip total.",
)
TALLY_ONE_END = (
    "tally.one-end-doubles",
    "A double left in hand counts both halves: 4-4 counts 8.",
)
TALLY_AUDIT = (
    "tally.audit",
    "When hands are shown tile by tile, the app looks back over every knock of the round. "
    "A tile in a player's last hand that would have fitted an open end when that player "
    "knocked shows the knock was wrong: nothing enters a hand after a knock, since you knock "
    "only when there is nothing to draw. The app points it out beside that knock. The table "
    "decides what follows; no score changes unless the table changes it.",
)
TALLY_WINNER = (
    "tally.winner",
    "The round is won by the player who dominoed. In a blocked round it goes to the player "
    "with the fewest pips in hand; if two or more tie for fewest, nobody wins the round.",
    "The game blocks with Ana on 7 pips, Ben on 12 and Caro on 7. Ana and Caro tie for "
    "fewest, so nobody wins this round.",
)


def _block_score(target: str) -> tuple[str, str, str]:
    return (
        "block.score",
        "The winner of the round scores the pips left in every other hand. Scores add up "
        f"from round to round, and the first player whose total reaches {target} at the end "
        "of a round wins the match. If two players are level on the highest total, another "
        "round is played.",
        "Ana dominoes. Ben still holds 6-4 and 2-1 (13 pips) and Caro holds 5-5 (10 pips): "
        "Ana scores 23. With the house rule below, a blocked round works the same way, less "
        "the winner's own pips: if Ana had won a blocked round holding 3 pips, 23 − 3 = 20.",
    )


BLOCK_SCORE = _block_score("100")

# --- All Fives and Muggins ---------------------------------------------------------------

FIVES_SCORE = (
    "fives.score",
    "Whenever your play leaves the count on a multiple of five (5, 10, 15, 20 and so on) "
    "you score the count at once. The lead scores too: leading 5-5 or 6-4 makes 10.",
    "One end shows 5 and 5-5 lies across the other: 5 + 10 = 15, and whoever made it scores 15.",
)
FIVES_MUGGINS_OFF = (
    "fives.muggins",
    "Normally the app scores every play for you. With the Muggins house rule, you must say "
    "what your play scored before the next tile goes down. Claim too little, or nothing, and "
    "any opponent may call “Muggins!” until the next tile goes down; whoever calls first "
    "takes the points you missed. Claim more than the play made and the app refuses the claim and "
    "tells you the true count, unless the table plays that a false claim stands until it is "
    "challenged.",
    "The count is 15 and Ana claims 10. Ben calls “Muggins!” and scores the missing 5.",
)
FIVES_MUGGINS_ON = (
    "fives.muggins",
    "In Muggins you must say what your play scored before the next tile goes down; the app "
    "does not score it for you. Claim too little, or nothing, and any opponent may call "
    "“Muggins!” until the next tile goes down; whoever calls first takes the points you "
    "missed. Claim more than the play made and the app refuses the claim and tells you the "
    "true count, unless the table plays that a false claim stands until it is challenged.",
    "The count is 15 and Ana claims 10. Ben calls “Muggins!” and scores the missing 5.",
)
END_BONUS = (
    "fives.end-bonus",
    "When the round ends, its winner also scores from the hands left. For each opponent, "
    "take their pips less the winner's pips (less nothing if the winner dominoed) and round "
    "it to the nearest five: 1 or 2 over rounds down, 3 or 4 over rounds up. The winner "
    "scores the rounded amounts added together.",
    "The winner holds 3 pips and the others 10 and 11. 10 − 3 = 7 rounds to 5 and 11 − 3 = "
    "8 rounds to 10: the winner scores 15.",
)
FIVES_TARGET = (
    "fives.target",
    "The match is played to 61, one lap of a cribbage board if you keep score on one, unless "
    "the table picks a longer match. It ends the moment a player reaches the target, even in "
    "the middle of a round, and that player wins.",
)

# --- Fives and Threes ---------------------------------------------------------------------

THREES_SCORE = (
    "threes.score",
    "Whenever your play leaves a count that divides by 5 or by 3, you score at once. In pub "
    "scoring you get one point for every five in the count and one for every three, when "
    "they divide it exactly: 3 scores 1, 5 scores 1, 6 scores 2, 9 scores 3, 10 scores 2, "
    "12 scores 4, 15 scores 8 (three fives and five threes), 18 scores 6, 20 scores 4, 30 "
    "scores 16.",
    "One end shows 6 and 3-3 lies across the other: 6 + 6 = 12, which divides by 3 four "
    "times but not by 5, so it scores 4.",
)
CHIP_OUT = (
    "threes.chip-out",
    "In pub scoring, the player who dominoes scores one point more, with the last tile. "
    "Nobody does when the game blocks, and the pips left in hand score nothing, so nobody "
    "counts them: the round ends with its last tile, or its last knock.",
)
THREES_END_BONUS = (
    "fives.end-bonus",
    "Only when counts score at face value (not in pub scoring): the round's winner scores "
    "from the hands left, as in All Fives. For each opponent, take their pips less the "
    "winner's pips (less nothing if the winner dominoed) and round to the nearest five, 1 or "
    "2 over down, 3 or 4 over up; the winner scores the rounded amounts added together.",
    "The winner holds 3 pips and the others 10 and 11: 7 rounds to 5 and 8 to 10, 15 in all.",
)
THREES_TARGET = (
    "threes.target",
    "The first to reach 61 exactly (or 121, if the table plays the long match) wins, the "
    "moment they get there. A score that would take you past the target is not scored at "
    "all: you stay where you were.",
    "Ana is on 57. A count of 12 (4 points) takes her to 61 and wins; a count of 15 "
    "(8 points) would make 65, so it scores nothing and she stays on 57.",
)
THREES_LEAD = (
    "round.lead",
    "The table decides who leads the first round; most tables let the holder of the "
    "highest double lead. After that the lead moves to the left: each round is led by the "
    "player clockwise of the one who led the round before, and the app expects them.",
)

# --- Cross --------------------------------------------------------------------------------

CROSS_LEAD = (
    "line.lead",
    "The lead must be a double: it is the middle of the cross. The table decides who leads, "
    "usually the holder of the highest double. If nobody holds a double, shuffle and deal "
    "again.",
)
CROSS = (
    "line.cross",
    "The game opens with a cross. The next four tiles after the lead double must go on its "
    "four sides, both long sides and both short ends, in any order, and nothing else may be "
    "played until all four are down. After that each arm of the cross is played as an "
    "ordinary line.",
    "6-6 leads. 6-1, 6-2, 6-3 and 6-5 go round it in any order; only then may anyone play on "
    "the 1, 2, 3 or 5.",
)

# --- Playing in pairs --------------------------------------------------------------------

PAIRS = "Playing in pairs"


def _team_seats(slug: str) -> tuple[str, str]:
    """Who partners whom, and the deal in pairs: Block deals the whole set (the referee's
    ``hand_size``), every other game its usual deal for four."""
    if slug == "block":
        deal = (
            "In pairs every tile is dealt: 7 each from a double-six set, so none are left "
            "over, or 10 each from a bigger set."
        )
    else:
        deal = (
            f"The deal is the usual one for four players: {PRESETS[slug].hand_sizes[4]} tiles "
            "each from a double-six set."
        )
    return (
        "team.seats",
        "With the house rule below, four players play as two teams of two, partners sitting "
        "opposite each other. Enter the players in the order they sit, as always: the first "
        "and third make one team, the second and fourth the other. Play still goes round the "
        "table, so the teams take turns and you never play straight after your partner. A "
        "team goes by its players' names: Ana & Caro against Ben & Dan.\n" + deal,
    )


TEAM_MUGGINS = (
    "team.muggins",
    "When players call their own scores, only the other team may call “Muggins!” on a score "
    "you missed, or challenge a claim you made. Your partner may not, not even to win the "
    "missed points back for your team: the app refuses the call.",
    "Ana makes 15 and claims only 10. Caro, her partner, must keep quiet; Ben or Dan may call "
    "“Muggins!” and take the missing 5 for Ben & Dan.",
)
TEAM_TALLY = (
    "team.tally",
    "At the end of a round each player still shows their own hand, and it is entered on its "
    "own, tile by tile or as that player's pip total, never as one sum for the team. That "
    "way the app checks every hand against the tiles it has seen and the tiles that player should "
    "hold, and looks back over each player's knocks, just as it does without partners.",
)
TEAM_BLOCK = (
    "team.block",
    "In pairs a round is won by a team, and it scores what the other team still holds:\n"
    "- A player dominoes: their team scores the pips left in the two opponents' hands. The "
    "partner's tiles score nothing.\n"
    "- The game blocks: add up each team's pips. The team holding fewer wins and scores the "
    "other team's pips (less its own, with the house rule “Blocked winner subtracts own "
    "pips” above); the points go to whichever partner holds fewer. If the teams hold the "
    "same, nobody scores.\n"
    "With the house rule below, the partner's hand counts too: whoever scores for the team "
    "takes the pips in all three other hands.",
    "Ana dominoes while Ben holds 8 pips, Caro 5 and Dan 9: Ana & Caro score 8 + 9 = 17, or "
    "22 counting every hand. The next round blocks with Ana on 3, Ben 4, Caro 10 and Dan 8. "
    "Ana holds the fewest, but Ben & Dan hold 12 between them against 13: they win, and Ben "
    "scores 13 for them (21 counting every hand).",
)
BONUS_IN_PAIRS = (
    "the end-of-round bonus is worked out team against team. The winners are the team of "
    "the player who dominoed or, when the game blocks, the team holding fewer pips between "
    "them (if the teams hold the same, there is no bonus). Take the losers' pips together, "
    "less the winners' pips together, and round to the nearest five. When a winner has "
    "dominoed, the winners count as holding nothing: the partner's tiles are left out."
)
TEAM_FIVES = (
    "team.fives",
    "In pairs " + BONUS_IN_PAIRS,
    "Ana dominoes while Ben holds 12 pips, Caro 9 and Dan 6. Ben & Dan hold 18, which rounds "
    "to 20: Ana & Caro score 20, and Caro's 9 does not count against them. Had the game "
    "blocked with Ana on 4 instead, Ana & Caro would hold 13, and 18 − 13 = 5.",
)
TEAM_THREES = (
    "team.fives",
    "In pub scoring, the extra point for chipping out counts for the team like any other "
    "point. When counts score at face value, " + BONUS_IN_PAIRS,
    "When Ana chips out, Ana & Caro score the extra point. At face value, with Ben holding 12 "
    "pips, Caro 9 and Dan 6, Ana & Caro would score 20 instead: Ben & Dan's 18, rounded, "
    "with Caro's 9 left out.",
)


def _team_score(target: str, example: str) -> tuple[str, str, str]:
    return (
        "team.score",
        "Every point a player scores, during play or at the end of a round, counts for their "
        "team: the team's total is both partners' points added up, though the app still "
        f"shows who made each one. {target} The match is won by a team (“Ana & Caro win”), "
        "and a match the table stops early, letting the totals decide, goes to the team with "
        "more points.",
        example,
    )


TEAM_SCORE_BLOCK = _team_score(
    "The first team whose total reaches the target at the end of a round wins the match; "
    "if both teams are level at the top, another round is played.",
    "After a round Ana has 60 points, Caro 45, Ben 70 and Dan 20. Ana & Caro's 105 beats "
    "Ben & Dan's 90 and wins the match, though Ben has more points than anyone.",
)
TEAM_SCORE_FIVES = _team_score(
    "The match ends when a team's total reaches the target, the moment it gets there "
    "unless the table plays to the end of the round.",
    "Ana & Caro are on 55: Ana 30, Caro 25. Caro's play scores 10, and 65 passes 61: Ana & "
    "Caro win there and then.",
)
TEAM_SCORE_THREES = _team_score(
    "Where the target must be hit exactly, as in pub scoring, it is the team's total that "
    "must land on it: a score that would take the team past the target is not scored.",
    "Ana & Caro are on 59: Ana 31, Caro 28. Caro makes a count of 12, worth 4, but 63 would "
    "pass 61, so it is not scored, though Caro alone is far below 61.",
)


def _pairs(slug: str, end: tuple, score: tuple, during: tuple = ()) -> tuple:
    """The "Playing in pairs" part of a game that offers partnerships, in the order of
    play: who partners whom, calling scores, the hands shown, the round won, the match."""
    return (PAIRS, (_team_seats(slug), *during, TEAM_TALLY, end, score))


def _block_pairs(slug: str) -> tuple:
    return _pairs(slug, TEAM_BLOCK, TEAM_SCORE_BLOCK)


# --- Keeping only the score --------------------------------------------------------------

PAD = "Keeping only the score"


def _pad(scoring: str, checks: str, example: str) -> tuple:
    """The "Keeping only the score" part (``pad.record``) of a game a table may keep as a
    score pad: entering a round's hands, the game's own ``scoring`` of them, what the app
    still ``checks``, and switching back to play by play."""
    return (
        PAD,
        (
            (
                "pad.record",
                "With the house rule below, the table plays with its own tiles and uses the "
                "app as a score pad: nothing is entered while a round is played. When a round "
                "ends, enter what is left in each hand, by tapping the tiles or typing the "
                "pips. A player with no tiles left has played out: type 0 for them, or tap no "
                "tiles.\n"
                f"{scoring} The app still checks what it can: {checks}\n"
                "At the start of any round the table may choose to enter that round play by "
                "play instead, with the app refereeing every tile.",
                example,
            ),
        ),
    )


PAD_BLOCK = _pad(
    "The app then scores the round as above: the player who played out wins it or, when "
    "nobody did, the player with the fewest pips, and the winner scores the pips in the "
    "other hands. In pairs a team wins and scores, as “Playing in pairs” says.",
    "nobody can be left with more tiles than were dealt, and no total can be bigger than "
    "such a hand could hold.",
    "Ana, Ben and Caro keep score on the pad. At the end of a round Ana has no tiles left, "
    "Ben types 13 and Caro taps 5-5: Ana played out and scores 13 + 10 = 23. A total of 60 "
    "would be refused: nobody keeps more than the 5 tiles dealt, and five double-six tiles "
    "hold at most 52 pips (6-6, 6-5, 6-4, 5-5 and 6-3).",
)
PAD_DRAW = _pad(
    "The app then scores the round as above: the player who played out wins it or, when "
    "nobody did, the player with the fewest pips, and the winner scores the pips in the "
    "other hands. In pairs a team wins and scores, as “Playing in pairs” says.",
    "a hand can hold no more tiles than were dealt plus all that were left to draw, and no "
    "total can be bigger than such a hand could hold.",
    "At the end of a round Ana has no tiles left, Ben types 13 and Caro taps 5-5: Ana "
    "played out and scores 13 + 10 = 23. Had the game blocked instead, with Ana on 3 pips, "
    "Ben on 13 and Caro on 10, Ana would still have won, holding the fewest, and scored 23.",
)


# --- When something goes wrong at the table ----------------------------------------------

MISPLAY = (
    "procedure.misplay",
    "A tile played against the rules (a 2 laid on a 3, say) and noticed before anyone lays "
    "the next tile returns to the player's hand, and they must play properly. Noticed later, it "
    "stays, with whatever it scored. In the app, Undo last takes back the last entry until "
    "the next tile is placed. Taking a tile back reopens nothing: any chance to claim or "
    "challenge the score of the play before it stays closed.\nA tile the app was told "
    "wrongly, a wrong tap, is not a misplay: fix it as “When the record is wrong” says.",
)
MISPLAY_MOVE = (
    "procedure.misplay",
    "A move made against the rules and noticed before the next move may be taken back and "
    "made properly; noticed later, it stands, with whatever it scored. In the app, Undo last "
    "takes back the last entry.\nA move the app was told wrongly, a wrong tap, is not a "
    "misplay: fix it as “When the record is wrong” says.",
)
OUT_OF_TURN = (
    "procedure.out-of-turn",
    "A tile played out of turn and noticed before the next play goes back. Noticed later, it "
    "stands and keeps its score. The app itself refuses a play from the wrong seat, so this "
    "only comes up when the table played ahead of the app: record what really happened.",
)
EXPOSED = (
    "procedure.exposed",
    "A tile shown by accident, dropped or turned over while drawing, is shown to everybody, "
    "and play goes on.",
)
OVERDRAW = (
    "procedure.overdraw",
    "Drew too many? The player on your right takes the extra tiles from your hand without "
    "looking and puts them back in the boneyard, which is then mixed. Some tables show the "
    "extra tiles to everyone first. A penalty the table agrees on is recorded as points "
    "taken off (see below).",
)
UNDERDRAW = (
    "procedure.underdraw",
    "Drew too few? Draw the missing tiles as soon as it is noticed.",
)
PROCEDURE = (MISPLAY, OUT_OF_TURN, EXPOSED)
DRAW_PROCEDURE = PROCEDURE + (OVERDRAW, UNDERDRAW)

# --- When the record is wrong ------------------------------------------------------------

CORRECTIONS = (
    (
        "correct.record",
        "A wrong tap is not a misplay, and it can always be put right. Any phone that keeps "
        "score for the table (not one that only watches) can fix any entry of any round of "
        "the match, even a finished round or match: tap Fix beside the entry in the log and "
        "say what really happened. It should "
        "have been something else, it did not happen at all, or something is missing before "
        "it. If instead the move really was made wrongly at the table and the next one is "
        "already down, the app says no: that move stands.",
    ),
    (
        "correct.replay",
        "The app replays the corrected round, and every round after it, through the "
        "referee, and works out all scores, totals and the winner again. If a later entry "
        "stops being legal, the app names it and its rule: fix it in the same go, or leave "
        "the correction. The record never holds an illegal move.",
    ),
    (
        "correct.audit",
        "Nothing is ever erased. Next to the original entry, the log keeps the correction: "
        "what changed, when, which player's phone made it if that is known, and what it did "
        "to each total. You see corrections in the replay, on the score sheet and in the "
        "exported file.",
    ),
    (
        "correct.adjust",
        "Under “Fix the score, abandon, stop…” the table can give points to a player or take "
        "some away, with a reason in words: a penalty you agreed on, a score you worked out "
        "by hand. Such points are part of every total and are listed on the score sheet.",
    ),
    (
        "correct.abandon",
        "A round can be abandoned: nobody scores for it, and play carries on with the next "
        "round. A match can be stopped early: the table either lets the current totals "
        "decide the winner, just as if someone had hit the target, or records the match as "
        "abandoned, won by nobody.",
    ),
)

# --- Shared sections ---------------------------------------------------------------------

NEED = ("What you need", (SET_TILES, SET_UNIQUE, INFO_PUBLIC))
WHO_STARTS = ("Who starts", (SEAT_ORDER, ROUND_LEAD, LEAD_ANY))
AT_THE_TABLE = "When something goes wrong at the table"
RECORD = ("When the record is wrong", CORRECTIONS)
TALLY = (TALLY_HANDS, TALLY_ONE_END, TALLY_AUDIT, TALLY_WINNER)


NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _hands(slug: str) -> str:
    """How many tiles each player takes, from the referee's own table (``hand.count``), so
    the rulebook and the deal can never disagree: "7 for two players, 5 for three or four"."""
    sizes = PRESETS[slug].hand_sizes
    if len(set(sizes.values())) == 1:
        return f"{next(iter(sizes.values()))}, however many play"
    groups: list[tuple[int, list[int]]] = []
    for players, size in sorted(sizes.items()):
        if groups and groups[-1][0] == size:
            groups[-1][1].append(players)
        else:
            groups.append((size, [players]))
    parts = [f"{size} for {' or '.join(NUMBERS[p] for p in players)}" for size, players in groups]
    return parts[0] + " players" + "".join(f", {part}" for part in parts[1:])


def _deal(sizes: str) -> tuple[str, str]:
    return (
        "hand.count",
        "Turn all the tiles face down and mix them. Each player takes " + sizes + " The app "
        "keeps count of every hand: the tiles dealt, less the tiles played, plus any drawn. "
        "A player left with none has dominoed.",
    )


BIG_SETS = "With a bigger set, 7 each for up to four players and 5 each for five to eight."

# --- Mexican Train and Chicken Foot ------------------------------------------------------
# Both play a round per double, lowest total wins; the round's double is found, and the
# rounds begun, the same way, and the hands are shown and kept on a pad alike.


def _train_info(table: str) -> tuple[str, str]:
    return (
        "info.public",
        "The app never sees your hand. It knows every tile on the table" + table + ", how "
        "many tiles each player holds and how many are left in the boneyard, and what you "
        "tell it. Whether you really had nothing to play when you drew or passed is for the "
        "table to watch; the app checks each hand against the tiles it has seen once the "
        "hands are shown at the end of the round.",
    )


def _who_begins(where: str) -> str:
    """Who begins a round and how its double is found: our ruling for both games."""
    return (
        "The table chooses who begins the first round. Each later round begins with the "
        "next player clockwise of the one who began the round before.\n"
        f"Whoever holds the round's double puts it down {where}. If nobody holds it, the "
        "players draw one tile each in turn, starting with the one who begins the round, "
        "until somebody draws it; that player puts it down. Tell the app each of these "
        "draws.\nPutting the double down is not a turn: play begins with the next player "
        "clockwise of whoever put it down."
    )


TRAIN_TALLY = (
    "tally.hands",
    "When a round ends, everybody shows what they still hold. Tell the app each player's "
    "tiles one by one, and it checks them against the tiles on the table and the number "
    "that player should hold; or just type each player's total, counting a 0-0 as the "
    "scoring below says. A player who went out holds nothing.",
)


def _train_score(rule: str, extra: str, example: str) -> tuple[str, str, str]:
    return (
        rule,
        "Once the hands are shown, each player scores the pips left in their own hand, and "
        "those points count against them: the fewer, the better. A player who went out "
        "scores 0. The 0-0 shows no pips, yet left in hand it counts 50 unless the table "
        "chooses otherwise (house rule below). Scores add up from round to round, and "
        "after the last round the lowest total wins" + extra,
        example,
    )


def _train_misplay(example: str) -> tuple[str, str]:
    return (
        "procedure.misplay",
        f"A tile played against the rules, {example}, and noticed before the next tile goes "
        "down returns to the player's hand, and they must play properly. Noticed later, it "
        "stays where it is. In the app, Undo last takes back the last entry until the next "
        "tile is placed.\nA tile the app was told wrongly, a wrong tap, is not a misplay: "
        "fix it as “When the record is wrong” says.",
    )


def _train_pad(example: str) -> tuple:
    return _pad(
        "The app then scores the round as above: each player's own pips count against "
        "them, a 0-0 included.",
        "nobody can be left with more tiles than were dealt plus all that were left to "
        "draw, and no total can be bigger than such a hand could hold, with a 0-0 counted "
        "as the house rule on scoring says.",
        example,
    )


MEXICAN_TRAIN = (
    (
        "What you need",
        (
            (
                "set.tiles",
                "Mexican Train takes a double-twelve set: 91 tiles, every pairing of the "
                "numbers 0 (blank) to 12 once, the thirteen doubles included. The table may "
                "choose a double-nine set (55 tiles) or a double-fifteen (136) instead.\n"
                "Each player also needs a marker, anything small that can sit on a train: a "
                "coin, a button, or one of the little plastic trains many sets come with. A "
                "hub, the round centrepiece with a slot for each train, is handy but not "
                "needed: without one, lay the round's double in the middle of the table and "
                "start the trains around it.\n"
                "We name a tile high half first, 12-7, and its pips are its two halves added "
                "up: 19.",
            ),
            SET_UNIQUE,
            _train_info(", where every train ends and whose marker is out"),
        ),
    ),
    (
        "The deal",
        (
            (
                "train.deal",
                "Turn all the tiles face down and mix them. Each player takes a hand, and "
                "the rest stay face down as the boneyard. How many you take depends on the "
                "set and on how many play:\n"
                "- double-twelve (the usual set): 15 tiles each for two to four players, 12 "
                "for five or six, 10 for seven or eight;\n"
                "- double-nine: 10 each for two to four, 8 for five or six, 6 for seven or "
                "eight;\n"
                "- double-fifteen: 20 each for two to four, 16 for five or six, 12 for seven "
                "or eight.\n"
                "Stand your tiles on edge so only you see them. The app keeps count of every "
                "hand: the tiles taken, less those played, plus those drawn.",
                "Four players with a double-twelve set take 15 tiles each, 60 in all; the "
                "other 31 are the boneyard.",
            ),
        ),
    ),
    (
        "Who starts, and the engine",
        (
            SEAT_ORDER,
            (
                "train.engine",
                "Every round has its own double, the engine: 12-12 in the first round, "
                "11-11 in the second, and so on down (see “The rounds and the end of the "
                "match”). Every train starts from it.\n"
                + _who_begins("in the hub, or in the middle of the table"),
                "Ana, Ben, Caro and Dan sit in that order, and the table chose Ana to begin "
                "round 1, so Ben begins round 2, whose engine is 11-11. Nobody holds it: Ben "
                "draws a tile, then Caro, then Dan, who draws 11-11. Dan puts it in the hub, "
                "and Ana plays first. Round 3 begins with Caro, whoever holds its engine.",
            ),
        ),
    ),
    (
        "Trains and markers",
        (
            (
                "train.trains",
                "Every player builds a train of their own, a line of tiles running out from "
                "the engine towards them. The first tile of a train must show the engine's "
                "number where it meets the hub; after that, each tile is laid against the "
                "open end of the train, and the two halves that touch must show the same "
                "number.\n"
                "There is one more train, the Mexican Train, which belongs to nobody. Any "
                "player may start it on their turn, with a tile showing the engine's number, "
                "and from then on anyone may add to it. There is only one Mexican Train a "
                "round.",
                "The engine is 12-12. Ana starts her train with 12-5: its open end shows 5, "
                "so the next tile there must carry a 5, such as 5-9. Ben starts the Mexican "
                "Train with 12-3, and anyone may now play on its 3.",
            ),
            (
                "train.marker",
                "Your own train is yours alone: nobody else may play on it, unless your "
                "marker is on it. Whenever you pass, your marker goes out on your train (the "
                "one pass that leaves it off ends a first turn of many tiles; see “A "
                "turn”). While it is there, anyone may play on your train. It comes off "
                "when you next lay a tile on your own train. A tile "
                "you lay on the Mexican Train or on someone else's train leaves your marker "
                "where it is.",
                "Ben can play nowhere, draws a tile that fits nowhere either, and passes: "
                "his marker goes out. Caro, whose only tile that fits is 7-3, lays it on "
                "Ben's train, which ends in 7. When Ben next plays on his own train, he "
                "takes his marker back.",
            ),
        ),
    ),
    (
        "A turn",
        (
            (
                "train.turn",
                "On your turn you lay one tile: on your own train, on the Mexican Train, or "
                "on another player's train that has their marker on it. Tell the app the "
                "tile and the train: “5-9 on Ana's train”, “12-3 on the Mexican Train”.\n"
                "Two things change a turn: a double gives you another tile, and a double "
                "left uncovered must be covered before anything else (see “Doubles”). If "
                "you cannot play, you draw (see “When you cannot play”).",
                "With the house rule “First turn” set to “as many as you can”, Ana's first "
                "turn of the round might lay 12-5, 5-9 and 9-1 on her own train. She then "
                "passes to "
                "end her turn, and her marker stays off, since she played.",
            ),
        ),
    ),
    (
        "Doubles",
        (
            (
                "train.double",
                "A double is laid across the end of a train, matching it like any tile: 7-7 "
                "on a train that ends in 7. Whoever lays it plays again at once: one more "
                "tile, anywhere they may play, the double itself included. If nothing fits, "
                "they draw one tile and lay it if it fits; if not, they pass and put out "
                "their marker. If that extra tile is a double too, they play yet another tile.\n"
                "Once that player's turn is over, a double left uncovered is open, and it "
                "must be covered before anything else is played anywhere, whoever's train it "
                "is on: the next player must lay a tile carrying its number against it, and "
                "that tile carries the train on. A player who cannot draws one tile and lays "
                "it on the double if it fits; if not, they pass and put out their marker, "
                "and the next player must try. With several doubles open, the oldest is "
                "covered first.\n"
                "A double that can never be covered, because every other tile carrying its "
                "number is already on the table, blocks the round: it ends there, and the "
                "hands are counted.",
                "Ben lays 7-7 on his own train, which ends in 7. He plays again, but has no "
                "7, so he adds 12-4 to the Mexican Train instead. His turn is over and 7-7 "
                "is open: Caro must cover it before anything else, though it is on Ben's "
                "train. She lays 7-1 on it, and play goes on as usual with Dan. Had Caro "
                "held no 7, she would have drawn one tile: a 7 would go on the double at "
                "once; anything else, and she passes, puts out her marker, and Dan must "
                "cover the 7-7.",
            ),
        ),
    ),
    (
        "When you cannot play",
        (
            (
                "train.draw",
                "If you cannot play, draw one tile from the boneyard. If it fits anywhere "
                "you may play, you may lay it at once; if not, you pass and put out your "
                "marker. A draw is always a single tile, and while the boneyard has tiles "
                "you must draw before you may pass. Once it is empty, a player who cannot "
                "play simply passes, and puts out their marker all the same.",
                "Caro has nothing that fits. She draws 8-2, and the Mexican Train ends in "
                "8: she lays it there. Next time round she draws 4-4, which fits nowhere "
                "she may play, so she passes and her marker goes out.",
            ),
        ),
    ),
    (
        "The end of a round",
        (
            (
                "train.end",
                "The round ends the moment a player lays their last tile, even a double "
                "nobody has covered. It also ends, blocked, when the boneyard is empty and "
                "every player has passed in a row, or when an open double can never be "
                "covered (see “Doubles”).",
                "Ben's last tile is 6-6, and the Mexican Train ends in 6: he lays it there "
                "and the round is over at once. Nobody covers it.",
            ),
            TRAIN_TALLY,
        ),
    ),
    (
        "Scoring",
        (
            _train_score(
                "train.score",
                "; players level on the lowest total share the win.",
                "Ana went out: she scores 0. Ben still holds 12-11 and 0-0: 23 + 50 = 73 "
                "(or 23, if the 0-0 counts nothing). Caro holds 5-2: 7.",
            ),
        ),
    ),
    (
        "The rounds and the end of the match",
        (
            (
                "train.rounds",
                "A match has a round for every double of the set, highest first: the first "
                "round's engine is 12-12, the next 11-11, and so on down to 0-0. That makes "
                "thirteen rounds with a double-twelve set, ten with double-nine and sixteen "
                "with double-fifteen. With the house rule below the table plays fewer "
                "rounds, starting from the highest double. The match ends with its last "
                "round, and the lowest total wins.",
                "Ana, Ben and Caro play three rounds, with 12-12, 11-11 and 10-10 as "
                "engines. Round 1: Ana 0, Ben 73, Caro 7. Round 2: Ana 31, Ben 4, Caro 12. "
                "Round 3: Ana 9, Ben 0, Caro 20. The totals are Ana 40, Ben 77 and Caro 39: "
                "Caro wins with the lowest total, though she never went out.",
            ),
        ),
    ),
    _train_pad(
        "At the end of a round Ana has no tiles left, Ben taps 12-11 and 0-0, and Caro "
        "types 7: the app writes down 0 for Ana, 73 for Ben and 7 for Caro. Had Ben typed "
        "his total instead, he would type 73, the 0-0 counted at 50.",
    ),
    (
        AT_THE_TABLE,
        (
            _train_misplay(
                "a 5 laid on a train that ends in 3, say, or on another player's train "
                "with no marker on it"
            ),
            EXPOSED,
        ),
    ),
    RECORD,
)

CHICKEN_FOOT = (
    (
        "What you need",
        (
            (
                "set.tiles",
                "Chicken Foot takes a double-nine set: 55 tiles, every pairing of the "
                "numbers 0 (blank) to 9 once, the ten doubles included. The table may choose "
                "a double-six set (28 tiles) or a double-twelve (91) instead. Nothing else "
                "is needed. We name a tile high half first, 9-4, and its pips are its two "
                "halves added up: 13.",
            ),
            SET_UNIQUE,
            _train_info(""),
        ),
    ),
    (
        "The deal",
        (
            (
                "foot.deal",
                "Turn all the tiles face down and mix them. Each player takes 7, and the "
                "rest stay face down as the boneyard. The app keeps count of every hand: the "
                "tiles taken, less those played, plus those drawn.\n"
                "A set holds only so many hands of 7: a double-nine set deals seven players "
                "at most (49 of its 55 tiles), a double-six set four (all 28). With more "
                "players, deal fewer tiles each (house rule below) or play with a bigger "
                "set.",
                "Five players with a double-nine set take 35 tiles; the other 20 are the boneyard.",
            ),
        ),
    ),
    (
        "The rounds, and who starts",
        (
            SEAT_ORDER,
            (
                "foot.rounds",
                "A match has a round for every double of the set, highest first: 9-9 in the "
                "first round, then 8-8, and so on down to 0-0. That makes ten rounds with a "
                "double-nine set, seven with double-six and thirteen with double-twelve; "
                "with the house rule below the table plays fewer, starting from the highest "
                "double. The round's double is the centre everything grows from.\n"
                + _who_begins("in the middle of the table"),
                "The table chose Ana to begin round 1, whose double is 9-9. Caro holds it, "
                "so she puts it down and Dan plays first. Round 2, with 8-8, begins with "
                "Ben: if nobody holds 8-8, Ben draws a tile, then Caro, and so on until it "
                "turns up.",
            ),
        ),
    ),
    (
        "The root: the first tiles",
        (
            (
                "foot.root",
                "Each turn you lay one tile. The round opens at its double: before anything "
                "else, it takes six tiles carrying its number, three against each long side, "
                "fanned out like two chicken feet (four, with the house rule below: one on "
                "each long side and one on each short end). Players lay them one a turn, in "
                "turn order; nothing else may be played until they are all down, and a "
                "player without such a tile must draw (see “When you cannot play”).\n"
                "Once the root is complete, each of its tiles starts a line, and the lines "
                "belong to nobody: on your turn, lay a tile against the free end of any "
                "line, the two halves that touch showing the same number. Tell the app the "
                "tile and the tile it goes on: “4-1 on 9-4”.",
                "9-9 lies in the middle. Dan lays 9-4 against it and Ana 9-2; Ben has no 9, "
                "draws one tile, which is no 9 either, and passes; Caro lays 9-7, and so on "
                "until six tiles with a 9 surround the double. Now the lines end in 4, 2, 7 "
                "and the rest, and a tile may go against any of them: 4-1 on 9-4, say.",
            ),
        ),
    ),
    (
        "Doubles and their toes",
        (
            (
                "foot.toes",
                "Every later double is laid across the end of a line it matches, 5-5 on a "
                "line ending in 5, and it becomes a chicken foot: the next three tiles "
                "played, by whoever's turn comes, must be its toes, each carrying its "
                "number, fanned out against its far side. Nothing else may be played "
                "anywhere until the third toe is down, and a player without a tile for it "
                "must draw. Laying a double does not give you another turn. Once the foot "
                "has its three toes, each toe starts a new line.\n"
                "A root or a foot that can never be finished, because too few of the tiles "
                "carrying its number are still in the hands and the boneyard, blocks the "
                "round: it ends there, and the hands are counted.",
                "Ben lays 5-5 on a line ending in 5. Caro lays the first toe, 5-1. Dan has "
                "no 5: he draws 3-0, which is no use, and passes. Ana lays 5-8 and Ben 5-2: "
                "the foot is complete, and new lines end in 1, 8 and 2. A double-nine set "
                "has ten tiles with a 5; had seven of the other nine been on the table "
                "already, 5-5 could never have got three toes, and the round would have "
                "ended blocked.",
            ),
        ),
    ),
    (
        "When you cannot play",
        (
            (
                "foot.draw",
                "If you cannot play, draw one tile from the boneyard: lay it at once if it "
                "fits, otherwise pass. A draw is always a single tile, and while the "
                "boneyard has tiles you must draw before you may pass. Once it is empty, a "
                "player who cannot play simply passes.",
                "Ana can play nowhere. She draws 6-2, and a line ends in 2: she lays it "
                "there. Had it fitted nowhere, she would have passed.",
            ),
        ),
    ),
    (
        "The end of a round",
        (
            (
                "foot.end",
                "The round ends the moment a player lays their last tile, even a double "
                "whose toes are still missing. It also ends, blocked, when nobody can play "
                "and nothing is left to draw, every player having passed in a row, or when "
                "a root or a foot can never be finished (see “Doubles and their toes”).",
            ),
            TRAIN_TALLY,
        ),
    ),
    (
        "Scoring and the end of the match",
        (
            _train_score(
                "foot.score",
                ".",
                "Ana went out: 0. Ben still holds 9-8 and 0-0: 17 + 50 = 67 (or 17, if the "
                "0-0 counts nothing). Caro holds 3-1: 4. In a match of three rounds (9-9, "
                "8-8 and 7-7), Ana scores 0, 22 and 15, Ben 67, 0 and 6, Caro 4, 9 and 30: "
                "Ana wins on 37, ahead of Caro on 43 and Ben on 73.",
            ),
        ),
    ),
    _train_pad(
        "At the end of a round Ana has no tiles left, Ben taps 9-8 and 0-0, and Caro types "
        "4: the app writes down 0 for Ana, 67 for Ben and 4 for Caro. Had Ben typed his "
        "total instead, he would type 67, the 0-0 counted at 50.",
    ),
    (
        AT_THE_TABLE,
        (
            _train_misplay(
                "a 5 laid against a 3, say, or a tile played elsewhere while a foot still "
                "lacks a toe"
            ),
            EXPOSED,
        ),
    ),
    RECORD,
)


# --- The games, in the order of play ----------------------------------------------------

FIVES_NEEDS = "A double-six set of dominoes; a cribbage board to keep score, if you like."


def _fives_sections(spinner: tuple, muggins: tuple) -> tuple:
    """All Fives and Muggins, which differ in their spinner and in who calls the score."""
    return (
        NEED,
        (
            "The deal",
            (
                _deal(
                    _hands("all-fives") + "; the rest stay face down as the boneyard. " + BIG_SETS
                ),
            ),
        ),
        WHO_STARTS,
        ("A turn", (TURN_ORDER, ATTACH, CROSSWISE, spinner, SIDES_FIRST_ON)),
        ("When you cannot play", (MUST_DRAW, DRAW_UNTIL, RESERVE_TWO, DEAD_END)),
        ("Scoring as you play", (COUNT_SCORING, COUNT_SPINNER, FIVES_SCORE, muggins)),
        ("The end of a round", (END_DOMINO, END_BLOCKED_DRAW) + TALLY + (END_BONUS,)),
        ("The end of the match", (FIVES_TARGET,)),
        _pairs("all-fives", TEAM_FIVES, TEAM_SCORE_FIVES, during=(TEAM_MUGGINS,)),
        (AT_THE_TABLE, DRAW_PROCEDURE),
        RECORD,
    )


GAMES: dict[str, dict] = {
    "block": {
        "line": "Match tiles end to end, nobody draws. Go out first, or hold the fewest pips "
        "when the game blocks, and score what the others hold.",
        "needs": "A double-six set of dominoes.",
        "sections": (
            NEED,
            ("The deal", (_deal(_hands("block") + ". " + BIG_SETS),)),
            WHO_STARTS,
            ("A turn", (TURN_ORDER, ATTACH, CROSSWISE, SPINNER_NONE, SIDES_FIRST_ON)),
            ("When you cannot play", (NO_DRAW, DEAD_END)),
            ("The count", (COUNT_REFERENCE, COUNT_SPINNER)),
            ("The end of a round", (END_DOMINO, END_BLOCKED_NO_DRAW) + TALLY),
            ("Scoring and the end of the match", (BLOCK_SCORE,)),
            _block_pairs("block"),
            PAD_BLOCK,
            (AT_THE_TABLE, PROCEDURE),
            RECORD,
        ),
    },
    "draw": {
        "line": "Block with a boneyard: when you cannot play, you draw until you can.",
        "needs": "A double-six set of dominoes.",
        "sections": (
            NEED,
            (
                "The deal",
                (_deal(_hands("draw") + "; the rest stay face down as the boneyard. " + BIG_SETS),),
            ),
            WHO_STARTS,
            ("A turn", (TURN_ORDER, ATTACH, CROSSWISE, SPINNER_NONE, SIDES_FIRST_ON)),
            ("When you cannot play", (MUST_DRAW, DRAW_UNTIL, RESERVE_NONE, DEAD_END)),
            ("The count", (COUNT_REFERENCE, COUNT_SPINNER)),
            ("The end of a round", (END_DOMINO, END_BLOCKED_DRAW) + TALLY),
            ("Scoring and the end of the match", (BLOCK_SCORE,)),
            _block_pairs("draw"),
            PAD_DRAW,
            (AT_THE_TABLE, DRAW_PROCEDURE),
            RECORD,
        ),
    },
    "all-fives": {
        "line": "Make the open ends add up to a multiple of five and score it as you play; "
        "the first double spins.",
        "needs": FIVES_NEEDS,
        "sections": _fives_sections(SPINNER_FIRST, FIVES_MUGGINS_OFF),
    },
    "muggins": {
        "line": "All Fives where you call your own score, and a score you miss can be taken.",
        "needs": FIVES_NEEDS,
        "sections": _fives_sections(SPINNER_NONE, FIVES_MUGGINS_ON),
    },
    "fives-and-threes": {
        "line": "The pub game: counts that divide by five or three score, nobody draws, and "
        "you must land on 61 exactly.",
        "needs": "A double-six set of dominoes; a cribbage board to keep score, if you like.",
        "sections": (
            NEED,
            (
                "The deal",
                (
                    _deal(
                        _hands("fives-and-threes")
                        + "; the rest stay face down, out of the round. "
                        + BIG_SETS
                    ),
                ),
            ),
            ("Who starts", (SEAT_ORDER, THREES_LEAD, LEAD_ANY)),
            ("A turn", (TURN_ORDER, ATTACH, CROSSWISE, SPINNER_NONE, SIDES_FIRST_ON)),
            ("When you cannot play", (NO_DRAW, DEAD_END)),
            ("Scoring as you play", (COUNT_SCORING, COUNT_SPINNER, THREES_SCORE)),
            (
                "The end of a round",
                (END_DOMINO, END_BLOCKED_NO_DRAW) + TALLY + (CHIP_OUT, THREES_END_BONUS),
            ),
            ("The end of the match", (THREES_TARGET,)),
            _pairs("fives-and-threes", TEAM_THREES, TEAM_SCORE_THREES),
            (AT_THE_TABLE, PROCEDURE),
            RECORD,
        ),
    },
    "cross": {
        "line": "Draw that opens with a cross: four tiles round the lead double, then four "
        "ordinary lines.",
        "needs": "A double-six set of dominoes.",
        "sections": (
            NEED,
            (
                "The deal",
                (
                    _deal(
                        _hands("cross") + "; the rest stay face down as the boneyard. " + BIG_SETS
                    ),
                ),
            ),
            ("Who starts, and the cross", (SEAT_ORDER, ROUND_LEAD, CROSS_LEAD, CROSS)),
            (
                "A turn",
                (
                    TURN_ORDER,
                    ATTACH_CROSS,
                    CROSSWISE,
                    (
                        "line.spinner",
                        SPINNER_WHAT + "\nIn Cross only the lead double works like a "
                        "spinner, through the cross. Every later double is laid across its "
                        "line and takes tiles on its long sides only.",
                    ),
                ),
            ),
            ("When you cannot play", (MUST_DRAW, DRAW_UNTIL, RESERVE_NONE, DEAD_END)),
            ("The count", (COUNT_REFERENCE,)),
            ("The end of a round", (END_DOMINO, END_BLOCKED_DRAW) + TALLY),
            ("Scoring and the end of the match", (BLOCK_SCORE,)),
            _block_pairs("cross"),
            (AT_THE_TABLE, DRAW_PROCEDURE),
            RECORD,
        ),
    },
    "cross-spinners": {
        "line": "Cross where every later double spins too, opening new lines from its ends.",
        "needs": "A double-six set of dominoes.",
        "sections": (
            NEED,
            (
                "The deal",
                (
                    _deal(
                        _hands("cross-spinners")
                        + "; the rest stay face down as the boneyard. "
                        + BIG_SETS
                    ),
                ),
            ),
            ("Who starts, and the cross", (SEAT_ORDER, ROUND_LEAD, CROSS_LEAD, CROSS)),
            (
                "A turn",
                (
                    TURN_ORDER,
                    ATTACH_CROSS,
                    CROSSWISE,
                    (
                        "line.spinner",
                        SPINNER_WHAT + "\nIn this game every double spins: the lead double "
                        "through the cross, and every double played after it.",
                    ),
                    SIDES_FIRST_OFF,
                ),
            ),
            ("When you cannot play", (MUST_DRAW, DRAW_UNTIL, RESERVE_NONE, DEAD_END)),
            ("The count", (COUNT_REFERENCE,)),
            ("The end of a round", (END_DOMINO, END_BLOCKED_DRAW) + TALLY),
            ("Scoring and the end of the match", (BLOCK_SCORE,)),
            _block_pairs("cross-spinners"),
            (AT_THE_TABLE, DRAW_PROCEDURE),
            RECORD,
        ),
    },
    "doubles": {
        "line": "Every double spins, and a number stays locked until its double is down. "
        "Stuck? Draw one tile.",
        "needs": "A double-six set of dominoes.",
        "sections": (
            NEED,
            (
                "The deal",
                (
                    _deal(
                        _hands("doubles") + "; the rest stay face down as the boneyard. " + BIG_SETS
                    ),
                ),
            ),
            (
                "Who starts",
                (
                    SEAT_ORDER,
                    (
                        "round.lead",
                        "The player holding the highest double leads: ask who has 6-6, then "
                        "5-5, and so on down. The app records whoever plays the first tile, "
                        "round after round.",
                    ),
                    LEAD_DOUBLE,
                ),
            ),
            (
                "A turn",
                (
                    TURN_ORDER,
                    ATTACH_LOCKED,
                    CROSSWISE,
                    SPINNER_ALL,
                    SIDES_FIRST_OFF,
                    (
                        "line.unlock",
                        "A number is locked until its double is on the table: a tile may go "
                        "on an end showing 3 only once 3-3 has been played somewhere. A "
                        "double can always go on an end that matches it: playing it is what "
                        "opens its number. The number of the lead double is open from the "
                        "start.",
                        "6-6 leads, and 6-3 and 6-2 go on its long sides. The ends show 3 "
                        "and 2, both locked: only 3-3 or 2-2 may go on them, and 3-1 fits "
                        "nowhere until 3-3 is down.",
                    ),
                ),
            ),
            ("When you cannot play", (MUST_DRAW, DRAW_ONE, RESERVE_TWO, DEAD_END)),
            ("The count", (COUNT_REFERENCE, COUNT_SPINNER)),
            ("The end of a round", (END_DOMINO, END_BLOCKED_DRAW) + TALLY),
            ("Scoring and the end of the match", (BLOCK_SCORE,)),
            _block_pairs("doubles"),
            (AT_THE_TABLE, DRAW_PROCEDURE),
            RECORD,
        ),
    },
    "dominards": {
        "line": "Dominoes, cards and dice: bring the total to a card in your hand or to the "
        "dice's target, and be the first to drop all your cards.",
        "needs": "A double-six set of dominoes, a 52-card deck without jokers, and four "
        "six-sided dice (or roll them in the app).",
        "sections": (
            (
                "What you need",
                (
                    (
                        "set.tiles",
                        "You need a double-six set of dominoes (28 tiles: every pairing of "
                        "the numbers 0 to 6 once, doubles included), a standard 52-card deck "
                        "with the jokers taken out, and four ordinary six-sided dice. You can "
                        "roll the dice in the app instead. We name a domino high half first, "
                        "6-4.",
                    ),
                    SET_UNIQUE,
                    (
                        "info.public",
                        "The app never sees your dominoes or your cards. It knows what lies "
                        "face up, how many dominoes and cards each player holds, the dice, "
                        "and what you tell it: when you score off a card, you say which card "
                        "you drop.",
                    ),
                ),
            ),
            (
                "The deal",
                (
                    (
                        "hand.count",
                        "Shuffle the cards and deal 5 to each player; the rest of the deck "
                        "is not used. Turn the dominoes face down, mix them and give each "
                        "player 6; the rest are the pool you draw from. Keep your cards as "
                        "hidden as your dominoes. The app counts each hand of dominoes "
                        "(dealt, less played, plus drawn) and of cards (5, less those "
                        "dropped).",
                    ),
                ),
            ),
            (
                "Who starts",
                (
                    SEAT_ORDER,
                    (
                        "round.lead",
                        "The player holding the highest double leads it: ask who has 6-6, "
                        "then 5-5, and so on down. If nobody holds a double, mix the "
                        "dominoes and deal them again. Every new deal is led the same way.",
                    ),
                    (
                        "line.lead",
                        "The lead must be a double, and it is the spinner of the deal (see below).",
                    ),
                ),
            ),
            (
                "The dice",
                (
                    (
                        "dominards.dice",
                        "The leader starts in control of the dice. At the start of their "
                        "turn, whoever controls the dice rolls either two dice (rolling for "
                        "multiples) or all four (rolling for a virtual card). That roll "
                        "governs the controller's own turn, then a turn for each other "
                        "player, then the controller's next turn. After that the next player "
                        "takes control and rolls "
                        "at the start of their turn. The order of turns never changes. Roll "
                        "in the app, or roll real dice and enter them.",
                        "Ana, Ben and Caro play; Ana leads and rolls. Her roll holds for Ana, "
                        "Ben, Caro and Ana again. Then Ben rolls at the start of his turn, "
                        "and his roll holds for Ben, Caro, Ana and Ben.",
                    ),
                ),
            ),
            (
                "A turn",
                (
                    (
                        "turn.order",
                        "Players take turns in seat order. On your turn you lay one domino "
                        "(drawing first if you must), then score whatever the new total "
                        "makes. The app takes an entry only from the player whose turn it "
                        "is.",
                    ),
                    ATTACH_ON_DOUBLE,
                    CROSSWISE,
                    (
                        "line.spinner",
                        SPINNER_WHAT + "\nIn Dominards the lead double is the only spinner; "
                        "every later double is an ordinary one.",
                    ),
                    SIDES_FIRST_ON,
                    (
                        "dominards.draw",
                        "If none of your dominoes fits, draw from the pool until one does, "
                        "and play it at once. If the pool is empty, you pass.",
                    ),
                    DEAD_END,
                ),
            ),
            (
                "The total",
                (
                    (
                        "line.count",
                        "The total (Dominards' name for the count) is what the open ends "
                        "add up to. Each end counts the number on its free half; a double "
                        "lying across an end counts both halves (4-4 counts 8) until a tile "
                        "covers its far side; a blank counts nothing.",
                    ),
                    (
                        "line.count-spinner",
                        "The spinner counts half by half: each half counts its number until "
                        "the short end beside it is played on, no matter what its long sides "
                        "hold. It stops counting only once all four of its "
                        "sides are taken.",
                        "6-6 leads: the total is 12. 6-4 goes on one long side: 12 + 4 = 16. "
                        "6-3 goes on the other: 12 + 4 + 3 = 19. 6-2 goes on a short end and "
                        "covers one half: 6 + 2 + 4 + 3 = 15.",
                    ),
                    (
                        "dominards.total",
                        "After every play, the new total is worked out this way and checked "
                        "against the targets below. The app shows it under the layout.",
                    ),
                ),
            ),
            (
                "Scoring",
                (
                    (
                        "dominards.card",
                        "If the total after your play equals a card in your hand, you score "
                        "the total and drop that card. Number cards count their "
                        "face value, jack 11, queen 12, king 13, and an ace 1 or 14, as you "
                        "like.",
                        "The total is 12 and Ana holds a queen: she scores 12 and drops the queen.",
                    ),
                    (
                        "dominards.multiple",
                        "While a two-dice roll holds, a total that is a multiple of the two "
                        "dice added together also scores the total.",
                        "The dice show 3 and 4, which make 7: a total of 7, 14 or 21 scores.",
                    ),
                    (
                        "dominards.virtual",
                        "While a four-dice roll holds, the four dice added together make a "
                        "virtual card: a total exactly equal to it scores the total, and you "
                        "may drop any one card you like.",
                        "The dice show 2, 5, 5 and 6: a total of exactly 18 scores 18, and "
                        "the player drops a card of their choice.",
                    ),
                    (
                        "dominards.once",
                        "A play scores its total once, however many targets it meets, but "
                        "every card it earns is still dropped.",
                        "The dice show 3 and 4, the total is 14 and Ben holds an ace. 14 is "
                        "a multiple of 7 and matches the ace as 14: Ben scores 14, once, and "
                        "drops the ace.",
                    ),
                ),
            ),
            (
                "The end of a deal",
                (
                    (
                        "end.domino",
                        "A deal ends the moment a player lays their last domino.",
                    ),
                    (
                        "dominards.domino-bonus",
                        "Playing your last domino scores, on top of what the play itself "
                        "made, 1 point for every domino still in your opponents' hands. Then "
                        "all the dominoes are gathered, mixed and dealt again, 6 each; the "
                        "cards stay in the players' hands.",
                        "Ana plays her last domino while Ben holds 2 and Caro 3: 5 points.",
                    ),
                    (
                        "end.blocked",
                        "A deal also ends when nobody can play and the pool is empty: every "
                        "player has passed in a row, or every open end is dead. Nobody scores "
                        "a domino bonus then, and a new deal begins.",
                    ),
                ),
            ),
            (
                "The end of the game",
                (
                    (
                        "dominards.card-bonus",
                        "Drop your last card and you score 2 points for each card left in "
                        "your opponents' hands, after any domino bonus the same play earned, "
                        "and the game ends at once. The highest total wins.",
                        "Caro drops her last card while Ana holds 1 card and Ben 3: 8 points, "
                        "and the game is over.",
                    ),
                ),
            ),
            (AT_THE_TABLE, DRAW_PROCEDURE),
            RECORD,
        ),
    },
    "dump-truck": {
        "line": "Everyone draws at once and packs dominoes into a small truck, then unloads it "
        "for chains of like numbers and one run.",
        "needs": "A double-six set of dominoes; a paper truck for each player, if you have them.",
        "sections": (
            (
                "What you need",
                (
                    (
                        "set.tiles",
                        "Dump Truck uses one double-six set: 28 dominoes, every pairing of "
                        "the numbers 0 (blank) to 6 once, doubles included. We name a domino "
                        "high half first, 6-4.",
                    ),
                    SET_UNIQUE,
                    (
                        "info.public",
                        "The app knows every domino lying face up (in the trucks, among the "
                        "pool's face-up dominoes, and unloaded) and what each player says "
                        "they drew. A face-down domino stays unknown until someone draws it.",
                    ),
                ),
            ),
            (
                "Setting up",
                (
                    (
                        "truck.shape",
                        "Mix the dominoes face down: that is the pool. Each player's truck is "
                        "a grid three squares high and four wide, each square half a "
                        "domino, so a full truck holds six dominoes. A domino lies across "
                        "two neighbouring squares, side by side or one above the other.",
                    ),
                    (
                        "seat.order",
                        "Enter the players in the order they sit. Everyone plays at the same "
                        "time, so the order only lists them; a quarrel over a domino is "
                        "settled by the scores or a coin, never by the seat.",
                    ),
                ),
            ),
            (
                "A turn",
                (
                    (
                        "truck.draw",
                        "Each turn, every player draws one domino, all together: either a "
                        "face-down one from the pool or one of the pool's face-up dominoes. "
                        "If two want "
                        "the same face-up domino, or only one domino is left, the player with "
                        "the lower score chooses first; if they are level, flip a coin (the "
                        "app can flip it).",
                    ),
                    (
                        "truck.load",
                        "Lay the domino you drew in your truck, face up, on two empty squares "
                        "touching a domino already in it (your first may go anywhere), or "
                        "put it "
                        "back in the pool face up; a domino put back can be taken again from "
                        "the next turn on. A truck holds six dominoes at most.",
                    ),
                    (
                        "truck.replace",
                        "You may instead swap the domino you drew for one in your truck: the "
                        "new one takes its place, and the old one goes back to the pool face "
                        "up or to another empty spot in your truck where it may lie.",
                    ),
                ),
            ),
            (
                "Unloading and scoring",
                (
                    (
                        "truck.unload",
                        "Any time after loading, when your truck suits you, you may unload "
                        "it: the whole load is scored (or, if you prefer, not scored) and "
                        "its dominoes are set aside face up, out of the game. Your truck "
                        "starts again empty.",
                    ),
                    (
                        "truck.segment",
                        "Scoring counts segments. A segment is one square, half a domino. "
                        "Segments link up, down, left and right, never diagonally, and the "
                        "two halves of one domino are linked too.",
                    ),
                    (
                        "truck.like",
                        "A like chain is a path of three or more linked segments all showing "
                        "the same number. Each number may score one like chain per load, one "
                        "point a segment. A chain is a path you could trace without lifting "
                        "your finger or going back: four 1s in a T shape score 3.",
                    ),
                    (
                        "truck.sequence",
                        "A run is a path of three or more linked segments going up by one "
                        "at each step, 1-2-3-4, read either way. Blanks never count in a "
                        "run, and 6 does not wrap round to 1. One run per load scores, one "
                        "point a segment; a segment may count in the run and in a like chain "
                        "at the same time.",
                    ),
                    (
                        "truck.best",
                        "The app scores each load in the best way these rules allow and "
                        "shows which squares count.",
                        "A load holding the like chain 1-1-1-1 (4 points), the run 1-2-3-4 "
                        "(4) and the like chain 3-3-3 (3) scores 11.",
                    ),
                    (
                        "truck.blanks",
                        "Blanks make like chains like any other number, one point a segment.",
                    ),
                ),
            ),
            (
                "The end of the game",
                (
                    (
                        "truck.end",
                        "The game ends when the pool is empty and nobody holds a domino; "
                        "each truck then scores whatever it holds. The app also calls the "
                        "game over when "
                        "a whole turn goes by with the face-down pool empty and nobody "
                        "loading a domino. The highest total wins.",
                    ),
                ),
            ),
            (AT_THE_TABLE, (MISPLAY_MOVE, EXPOSED)),
            RECORD,
        ),
    },
    "havoc": {
        "line": "Draw, play to your six-slot train, discard. A double in a discard slot turns "
        "the table round; lowest total wins.",
        "needs": "A double-nine set (up to six players) or double-twelve (seven or eight), and "
        "a rack for each player: a tray, a train of six slots and a discard slot.",
        "sections": (
            (
                "What you need",
                (
                    (
                        "set.tiles",
                        "Double Domino Havoc takes a big set: double-nine (55 tiles) for up "
                        "to six players, double-twelve (91 tiles) for seven or eight. Each "
                        "player needs a rack, or a patch of table, with three places: a tray "
                        "for up to seven tiles, a train of six slots, and one discard slot. "
                        "We name a tile high half first, 9-4.",
                    ),
                    SET_UNIQUE,
                    (
                        "info.public",
                        "The app never sees your tray. It keeps track of every train and "
                        "discard slot, the direction of play, whose turn it is, who must "
                        "answer a double, and how many tiles each tray holds. Tray tiles are "
                        "checked when they are shown at the end of the round.",
                    ),
                ),
            ),
            (
                "Setting up",
                (
                    (
                        "havoc.setup",
                        "Mix all the tiles face down: that is the boneyard. Play starts "
                        "clockwise. Everyone takes six tiles into their tray; doubles among "
                        "these first six are safe (they set off nothing and may be played or "
                        "discarded later). The first player then takes a seventh tile.",
                    ),
                    (
                        "havoc.invariant",
                        "After every complete turn, each player's tray and train together "
                        "hold exactly six tiles; the discard slot does not count. The app "
                        "checks it.",
                    ),
                ),
            ),
            (
                "Who starts",
                (
                    (
                        "seat.order",
                        "Enter the players in the order they sit, going clockwise. Play "
                        "starts clockwise, but doubles can turn it round: the next player is "
                        "always the next one in the direction of play at that moment.",
                    ),
                    (
                        "round.lead",
                        "The table decides who starts the first round, by drawing for the "
                        "highest tile, say. Each later round starts with the player "
                        "clockwise of the one who started the round before.",
                    ),
                ),
            ),
            (
                "A turn",
                (
                    (
                        "havoc.turn",
                        "A turn has three steps, always in this order:\n"
                        "- Draw: take a tile from the boneyard, or the face-up tile in "
                        "another player's discard slot.\n"
                        "- Play, if you can: move one tile from your tray to the next empty "
                        "slot of your train. The first tile of a train may be anything; each "
                        "later tile must match the open end of the tile before it.\n"
                        "- Discard: put one tray tile face up in your discard slot. The tile "
                        "that was there leaves the game, face up.",
                        "Ben's train ends in 4-2, with the 2 free. He may add 5-2, 2 against "
                        "2, and his train's free end becomes 5.",
                    ),
                    (
                        "havoc.drawn-double",
                        "Always draw before you play. If your draw from the boneyard is a "
                        "double (any time after your first six tiles), it goes straight to "
                        "your own discard slot, and that is the end of your turn.",
                    ),
                    (
                        "havoc.discard-back",
                        "If you took another player's discard, your own discard goes into "
                        "their slot, not yours.",
                    ),
                    (
                        "havoc.boneyard-empty",
                        "When the boneyard is empty you must take a discard; if there is none "
                        "to take, you skip the draw.",
                    ),
                ),
            ),
            (
                "The rule of doubles",
                (
                    (
                        "havoc.doubles",
                        "Any time a double ends up in a discard slot, the next player in the "
                        "direction the double sets (see below) must answer it, trying these "
                        "in order:\n"
                        "- If the free end of their train matches the double, they may take "
                        "the double onto their train, then discard as usual.\n"
                        "- Otherwise, if a tile in their tray carries the double's number, "
                        "they must lay that tile where the double lies, and the double goes "
                        "out of the game. They draw a replacement from the boneyard, and "
                        "play moves on: the double is answered.\n"
                        "- Otherwise they pass, and the next player must answer.\n"
                        "A replacement that is itself a double starts the rule again, from "
                        "the slot of the player who drew it.",
                    ),
                    (
                        "havoc.direction",
                        "The double also sets the direction of play. An odd double (1-1, 3-3, "
                        "5-5, 7-7, 9-9, 11-11) sends play counter-clockwise; an even one "
                        "(0-0, 2-2, 4-4 and so on up to 12-12) sends it clockwise. It sets "
                        "the direction rather than flipping it.",
                        "Play is going clockwise and 4-4 lands in a slot: play stays "
                        "clockwise. Then 3-3 lands: play turns counter-clockwise.",
                    ),
                    (
                        "havoc.dead-double",
                        "If the answer goes all the way round to the player who placed the "
                        "double, it is dead: it leaves the game, the slot stays empty, and "
                        "that player plays a normal turn.",
                    ),
                ),
            ),
            (
                "The end of a round and of the match",
                (
                    (
                        "havoc.win",
                        "The round goes to the first player to fill all six train slots. "
                        "Everyone else adds up the pips left in their tray, and those "
                        "count against them. Play as many rounds as you agreed; the lowest "
                        "total wins.",
                        "Ana fills her train. Ben's tray holds 9-3 and 2-0 (14 pips): 14 is "
                        "added to his total.",
                    ),
                ),
            ),
            (AT_THE_TABLE, (MISPLAY_MOVE, EXPOSED)),
            RECORD,
        ),
    },
    "mexican-train": {
        "line": "Build your own train from the hub, play on the Mexican Train or on any train "
        "whose marker is out, and cover every double. Lowest total after the last round wins.",
        "needs": "A double-twelve set of dominoes (91 tiles), a marker for each player (a coin "
        "will do), and a hub if you have one.",
        "sections": MEXICAN_TRAIN,
    },
    "chicken-foot": {
        "line": "Six tiles round the round's double, three toes on every later double, and "
        "anyone plays on any line. Lowest total after the last round wins.",
        "needs": "A double-nine set of dominoes (55 tiles).",
        "sections": CHICKEN_FOOT,
    },
}

# --- House rules, in players' words ------------------------------------------------------

OPTIONS: dict[str, dict] = {
    "set": {
        "asks": "Which set of dominoes the match is played with.",
        "names": {
            0: "double-9, or double-12 for 7 or 8 players",
            6: "double-6",
            9: "double-9",
            12: "double-12",
            15: "double-15",
        },
        "choices": {
            0: "double-nine for up to six players, double-twelve for seven or eight",
            6: "double-six, 28 tiles",
            9: "double-nine, 55 tiles",
            12: "double-twelve, 91 tiles",
            15: "double-fifteen, 136 tiles",
        },
    },
    "hand_size": {
        "asks": "How many tiles each player is dealt.",
        "names": {0: "as the rulebook deals", "*": ("{n} tile", "{n} tiles")},
        "choices": {
            0: "the number the deal above gives for your set and your number of players",
            "*": "that many tiles each, whatever the number of players",
        },
    },
    "opening": {
        "asks": "Whether the lead must be a double.",
        "names": {"any": "any tile", "double": "a double"},
        "choices": {"any": "any tile may lead", "double": "the lead must be a double"},
    },
    "spinners": {
        "asks": "Which doubles spin.",
        "names": {"none": "none", "first": "the first double", "all": "every double"},
        "choices": {
            "none": "no double spins; every line just grows at its two ends",
            "first": "the first double played in a round is the only spinner",
            "all": "every double is a spinner",
        },
    },
    "sides_first": {
        "asks": "Whether a spinner's long sides must be covered before its ends.",
        "choices": {
            True: "its short ends open only once both long sides hold a tile",
            False: "any free side or end may be played on at any time",
        },
    },
    "spinner_count": {
        "asks": "How a spinner counts in the total of the ends.",
        "names": {
            "while-end": "both halves while a side is open",
            "halves": "each half until its end is covered",
        },
        "choices": {
            "while-end": "both halves, until both its long sides are covered; then nothing",
            "halves": "each half counts until the short end beside it is covered, whatever "
            "its long sides hold",
        },
    },
    "unlock": {
        "asks": "Whether numbers are locked until their double is down.",
        "choices": {
            True: "a tile goes on an end showing n only once n-n is on the table",
            False: "any matching tile may be played on any end",
        },
    },
    "draw_until": {
        "asks": "How much you draw when you cannot play.",
        "names": {"playable": "until a tile fits", "one": "one tile, then play it or pass"},
        "choices": {
            "playable": "keep drawing until a tile fits, then play it",
            "one": "draw one tile; play it if it fits, otherwise knock",
        },
    },
    "reserve": {
        "asks": "How many tiles at the bottom of the boneyard are never drawn.",
        "names": {0: "none: draw them all", "*": ("{n} tile", "{n} tiles")},
        "choices": {0: "every tile may be drawn", "*": "that many tiles stay undrawn"},
    },
    "one_end_doubles": {
        "asks": "How a double left in hand counts at the end of a round.",
        "choices": {True: "one half only: 4-4 counts 4", False: "both halves: 4-4 counts 8"},
    },
    "blocked_minus_own": {
        "asks": "Whether the winner of a blocked round takes off their own pips.",
        "choices": {
            True: "the winner scores the others' pips less their own",
            False: "the winner scores all the others' pips",
        },
    },
    "target": {
        "asks": "How many points win the match.",
        "names": {"*": ("{n} point", "{n} points")},
        "choices": {"*": "the match is played to that many points"},
    },
    "partnerships": {
        "asks": "Whether four players play as two teams.",
        "choices": {
            True: "two teams of two, partners sitting opposite; each team scores and wins together",
            False: "everyone plays for themselves",
        },
    },
    "count_all_hands": {
        "asks": "Whether the team that wins a round also counts the partner's hand.",
        "choices": {
            True: "the winners score the pips in all three other hands, their partner's "
            "included, as Latin American tables count",
            False: "the winners score only what the other team holds",
        },
    },
    "muggins": {
        "asks": "Whether players must call their own scores.",
        "choices": {
            True: "you call your score; an opponent may take what you missed by calling “Muggins!”",
            False: "the app scores every play for you",
        },
    },
    "false_claim_penalty": {
        "asks": "What happens to a claim bigger than the play made.",
        "choices": {
            True: "it stands, unless an opponent challenges it before the next tile; the "
            "challenger then takes the points falsely claimed",
            False: "the app refuses it and tells you the true count",
        },
    },
    "round_combined": {
        "asks": "How the end-of-round bonus is rounded to fives.",
        "choices": {
            True: "add up what every opponent is over the winner, then round once: two "
            "opponents 7 over make 14, which rounds to 15 (rather than 5 + 5 = 10)",
            False: "round each opponent's amount, then add them up",
        },
    },
    "end_at_target": {
        "asks": "When the match ends.",
        "choices": {
            True: "the moment a player reaches the target, even mid-round",
            False: "at the end of the round in which someone reaches the target",
        },
    },
    "threes_scoring": {
        "asks": "What a count that divides by 5 or 3 scores.",
        "names": {
            "pub": "pub: 15 scores 8",
            "face": "the count: 15 scores 15",
            "face-each": "the count per 3 and 5: 15 scores 30",
        },
        "choices": {
            "pub": "one point per five plus one per three in the count: 15 scores 8",
            "face": "the count itself, once: 15 scores 15",
            "face-each": "the count once for each of 5 and 3 that divides it: 15 scores 30",
        },
    },
    "exact_target": {
        "asks": "Whether you must land on the target exactly.",
        "choices": {
            True: "a score that would take you past the target is not scored",
            False: "any score counts; passing the target wins",
        },
    },
    "hints": {
        "asks": "Whether the table screen shows what each play would score.",
        "choices": {
            True: "the app shows each play's score before you make it",
            False: "you must see the count for yourselves, as in competitive play",
        },
    },
    "stack_targets": {
        "asks": "What a play scores when it meets several targets at once.",
        "choices": {
            True: "the total once for every target met (two targets at 14 score 28)",
            False: "the total once, however many targets it meets",
        },
    },
    "truck_template": {
        "asks": "Whether you use paper truck templates.",
        "choices": {
            True: "dominoes stay exactly where they were loaded",
            False: "no one can see the walls, so you may slide your whole load about in the "
            "grid whenever you like; the score is unaffected",
        },
    },
    "no_shift": {
        "asks": "Whether a loaded domino may ever move.",
        "choices": {
            True: "no swapping dominoes and no sliding the load: each stays where it lies",
            False: "dominoes may be swapped and the load slid, as the rules allow",
        },
    },
    "no_replace": {
        "asks": "Whether you may swap a drawn domino for one in your truck.",
        "choices": {True: "no swapping", False: "swapping is allowed"},
    },
    "blanks": {
        "asks": "What a chain of blanks is worth.",
        "names": {
            "normal": "1 a segment, like any number",
            "worthless": "worthless: 0",
            "double": "2 a segment",
            "wild": "wild: whatever scores most",
        },
        "choices": {
            "normal": "1 point a segment, like any other number",
            "worthless": "nothing",
            "double": "2 points a segment",
            "wild": "all the blanks of a load take the one number that scores most, runs included",
        },
    },
    "rounds": {
        "asks": "How many rounds make the match.",
        "names": {0: "until we stop", "all": "one per double", "*": ("{n} round", "{n} rounds")},
        "choices": {
            0: "play until the table stops the match",
            "all": "a round for every double of the set, from the highest down to 0-0",
            "*": "that many rounds",
        },
    },
    "first_turn": {
        "asks": "How many tiles you may lay in your first turn of a round.",
        "names": {"one": "one tile", "many": "as many as you can"},
        "choices": {
            "one": "one tile, like every other turn",
            "many": "tile after tile on your own train, as long as one fits; then you pass "
            "to end the turn, and your marker stays off, since you played",
        },
    },
    "double_blank": {
        "asks": "What a 0-0 left in hand counts against you.",
        "names": {50: "50 points", 0: "nothing"},
        "choices": {
            50: "50 points, though it shows no pips",
            0: "nothing, like the blanks it shows",
        },
    },
    "root_arms": {
        "asks": "How many tiles the round's double takes before anything else.",
        "names": {6: "six: three on each long side", 4: "four: one on each side and end"},
        "choices": {
            6: "three against each long side, fanned out like two chicken feet (the double "
            "chicken foot)",
            4: "one against each long side and one against each short end, like a cross",
        },
    },
    # Dominó (RULES.md §11): the options every style shares, each style with its defaults.
    "five_doubles": {
        "asks": "Whether a player dealt five or more doubles may have the hand dealt again.",
        "choices": {
            True: "show them before anyone plays, and the tiles are shuffled and dealt once "
            "more; that hand scores nothing",
            False: "every hand dealt is played",
        },
    },
    "first_lead": {
        "asks": "Who leads the match's first hand, and with what.",
        "names": {
            "double-six": "the 6-6",
            "highest-double": "the highest double",
            "any": "the table chooses",
        },
        "choices": {
            "double-six": "whoever holds the 6-6 leads it (the 9-9 with a double-9 set, or the "
            "highest double when the 9-9 was not dealt)",
            "highest-double": "whoever holds the highest double dealt leads it",
            "any": "the players agree on who starts, or draw lots, and that player may "
            "start with any tile",
        },
    },
    "next_lead": {
        "asks": "Who leads each later hand.",
        "names": {
            "next": "the next player",
            "winner": "the winner",
            "winning-team": "the winning pair",
        },
        "choices": {
            "next": "the player after the one who led the last hand",
            "winner": "the player who won the last hand",
            "winning-team": "either player of the pair that won the last hand, as they choose",
        },
    },
    "tranque": {
        "asks": "Who wins a blocked hand (a tranque).",
        "names": {
            "teams": "the pair with fewer pips",
            "locker": "locker against the next",
            "lowest-hand": "the lowest single hand",
        },
        "choices": {
            "teams": "the pair whose two hands hold fewer pips",
            "locker": "the player who locked it against the next player, who could not "
            "answer: the lower hand wins for its pair",
            "lowest-hand": "the pair of the player holding fewest pips; partners level win "
            "together, opponents level are a tie",
        },
    },
    "tranque_count": {
        "asks": "What the winners of a tranque score.",
        "names": {"opponents": "the losers' pips", "all": "every pip left"},
        "choices": {
            "opponents": "the pips in the losing pair's hands",
            "all": "every pip left in the four hands, their own included",
        },
    },
    "tranque_tie": {
        "asks": "What happens when a tranque's counts are level.",
        "names": {"none": "nobody wins", "locker": "the locker's pair wins"},
        "choices": {
            "none": "nobody wins the hand and nobody scores; the next player leads",
            "locker": "the pair that locked it wins the hand",
        },
    },
    "capicua_bonus": {
        "asks": "What a capicúa adds to the hand.",
        "names": {0: "no bonus", "*": ("{n} point", "{n} points")},
        "choices": {0: "a capicúa is counted but adds nothing", "*": "that much more"},
    },
    "chuchazo_bonus": {
        "asks": "What a chuchazo (going out with the 0-0) adds to the hand.",
        "names": {0: "no bonus", "*": ("{n} point", "{n} points")},
        "choices": {0: "a chuchazo is counted but adds nothing", "*": "that much more"},
    },
    "pase_salida_double": {
        "asks": "What the leader's pair scores when the next player cannot answer a double lead.",
        "names": {0: "no bonus", "*": ("{n} point", "{n} points")},
        "choices": {0: "nothing", "*": "that much, on the knock"},
    },
    "pase_salida_other": {
        "asks": "What the leader's pair scores when the next player cannot answer any other lead.",
        "names": {0: "no bonus", "*": ("{n} point", "{n} points")},
        "choices": {0: "nothing", "*": "that much, on the knock"},
    },
    "paso_corrido_bonus": {
        "asks": "What a player's pair scores when the three others knock in a row after it plays.",
        "names": {0: "no bonus", "*": ("{n} point", "{n} points")},
        "choices": {0: "nothing", "*": "that much, when the player plays again"},
    },
    "tranque_bonus": {
        "asks": "What the pair that wins a tranque scores on top.",
        "names": {0: "no bonus", "*": ("{n} point", "{n} points")},
        "choices": {0: "nothing more", "*": "that much more"},
    },
    "hand_bonus": {
        "asks": "What the winners of the match's first hands score on top, hand by hand.",
        "names": {
            (): "none",
            (100, 75, 50, 25): "100, 75, 50, 25",
            (100, 50, 25): "100, 50, 25",
            (50, 25): "50, 25",
        },
        "choices": {
            (): "no hand pays more than its pips",
            "*": "the first hand's winners that much more, the second's the next, and so on",
        },
    },
    "time_limit": {
        "asks": "How long the match may last.",
        "names": {0: "no limit", "*": ("{n} minute", "{n} minutes")},
        "choices": {
            0: "play to the target",
            "*": "when time is up the hand in progress is finished and the pair ahead wins; "
            "level, one more hand, then a draw",
        },
    },
    "record": {
        "asks": "What the table enters in the app.",
        "names": {"plays": "every play", "scores": "only the scores"},
        "choices": {
            "plays": "every tile as it is played, and the app referees the round",
            "scores": "only what is left in each hand when a round ends, as on a score pad",
        },
    },
}
