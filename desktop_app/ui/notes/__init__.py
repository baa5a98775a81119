"""The Notes tab: the case's memories in a table or on a timeline, with a detail editor."""
