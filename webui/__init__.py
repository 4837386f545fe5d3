"""boardref webui package."""
