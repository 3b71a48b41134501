"""A session's record and what is derived from it: state from events, checkpoints,
patches, the carried-over sessions, the export and the one JSON encoding of events."""
