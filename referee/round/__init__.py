"""The round kernel every game shares (issue 30): what a round's state and reducer offer,
the round's result, seats and totals, the reducer's shell, the shared refusals and the
tally's checks. Imports no game: each engine in ``referee.games`` states its differences.
"""
