"""Training, export and data preparation for the recognition models (torch imported lazily)."""
