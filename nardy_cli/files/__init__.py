"""Files: the inputs (paths, archives, encodings) and atomic outputs."""
