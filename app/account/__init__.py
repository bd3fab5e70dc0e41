"""Account deletion: a resumable, ordered sweep of everything a user left behind."""
