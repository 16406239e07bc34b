"""What nardy computes over replayed games: validation summaries, aggregates, luck, ratings, self-play."""
