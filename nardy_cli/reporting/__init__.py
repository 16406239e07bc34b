"""Tables, charts, the HTML report, boards and the words of messages.

The only layer that imports pandas, matplotlib or pyarrow, each only where it is needed: pandas
only for the DataFrames the library gives (the commands print and write their tables without it)."""
