"""The user-facing error of the command line and the dashboard."""


class CommandError(Exception):
    """A failure the user can fix: the message is printed as is (CLI exit status 2)."""
