"""A session's record and what is derived from it: its state replayed from the stored events,
checkpoints, patches, the carried-over sessions, the export and the one JSON encoding of events."""
