"""Insight and getting paid: payment methods and pay links, expense search, stats."""
