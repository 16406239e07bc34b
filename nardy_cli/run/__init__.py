"""Running over inputs: cutting them into games, the process pool, Dask, progress."""
