"""Analysis mode, the game screen's study mode: every pair's value from live searches, the best line,
what a pair opens, variations played beside the waiting game."""
