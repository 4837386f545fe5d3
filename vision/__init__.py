"""boardref vision package."""
