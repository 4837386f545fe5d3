"""boardref hardware package."""
