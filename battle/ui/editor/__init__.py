"""The position editor: any layout, scores and player to move, checked as it is built."""
