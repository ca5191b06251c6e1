"""The collectors' user-facing error: the CLI prints it as one line and exits non-zero."""


class HarvestError(Exception):
    """Bad format, unwritable output, a server that refuses battles, inconsistent existing data."""

    exit_code = 2
