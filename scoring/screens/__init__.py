"""The screens: each module turns a replayed table into what its template lays out, one
module per game family (line, havoc, truck) beside what they share (common), the score
sheet (summary) and the replay of a round (replay). Templates only lay it out."""
