"""The train games (RULES.md §9, §10): Mexican Train and Chicken Foot, one engine each,
and what their rounds share (:mod:`referee.games.trains.rounds`). Chicken Foot's table is a
layout of its own (:mod:`referee.games.trains.foot_layout`)."""
