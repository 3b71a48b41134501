"""What Hearth tells its operator about itself: JSON log lines and OpenTelemetry spans."""
