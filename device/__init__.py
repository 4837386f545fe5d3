"""boardref device package."""
