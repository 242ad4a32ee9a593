"""The dashboard and the command line: where scoring, vision and hardware are wired together."""
