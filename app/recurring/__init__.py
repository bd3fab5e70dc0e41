"""recurring: templates and the hourly tick that materialises their occurrences."""
