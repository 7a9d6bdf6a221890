"""Engine tests never touch the database."""
