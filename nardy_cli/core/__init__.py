"""The rules core: sides, variants, rules, positions, moves, the engine, results and scores.

Standard library only; nothing here imports the rest of nardy_cli."""
