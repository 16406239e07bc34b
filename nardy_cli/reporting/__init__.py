"""Tables, charts, the HTML report, boards and the words of messages.

The only layer that imports pandas, matplotlib or pyarrow (each module only when it draws or tabulates)."""
