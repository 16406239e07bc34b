"""What nardy computes over replayed games: validation summaries, aggregates, luck, ratings, self-play."""
from nardy_cli.core.sides import BLACK, WHITE

SIDE_KEYS = {WHITE: "white", BLACK: "black"}
"""Per-side column suffixes and label keys (here, so that a text board does not load the aggregates)."""
