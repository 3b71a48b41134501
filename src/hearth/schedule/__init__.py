"""Work that runs without a person: scheduled jobs, the run queue, the inbox, waking sessions."""
