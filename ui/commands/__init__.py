"""One module per ``mjtable`` subcommand; each exposes ``register(subparsers)``.

The CLI discovers the modules here, so adding a subcommand touches no shared file.
"""
