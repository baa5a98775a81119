"""Qt-free infrastructure: paths, settings, secrets, logging, the exception tree."""
