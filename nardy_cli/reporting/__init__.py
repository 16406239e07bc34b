"""Tables, charts, the HTML report, boards and the words of messages.

The only layer that imports pandas, matplotlib or pyarrow (each module only when it draws or tabulates)."""

COMMAND_PROCESS = False
"""Set by the ``nardy`` command: the process is the command's own, not a library caller's (see
:mod:`nardy_cli.reporting.frames`)."""
