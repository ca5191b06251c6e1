"""The one error type of the set database: a message a user can act on."""


class SetDBError(Exception):
    """Unknown format, or a data file that is missing, corrupt or hand-edited into inconsistency."""

    exit_code = 2
