"""One module per game family; ``line`` serves the presets of RULES.md §2.6."""
