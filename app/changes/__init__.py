"""changes: the group's change feed (offline sync) and activity feed, read from CHANGE rows"""
