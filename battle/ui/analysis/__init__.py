"""Analysis mode: every pair's value from live searches, the best line, what a pair opens."""
