"""Playing for real: official server, ladder and challenges, reconnects (see cli.py)."""
