"""The connections: who may connect, for how long and how fast, what the server holds for each and
the game it is attached to, and the fan-out of a game's news to all its connections. Every feature
speaks to its clients through these; they read the games (``rooms``) and the limits (``limits``),
and no feature.

- ``connections``: who may connect, for how long, how fast they may talk, and what the server
  holds for each;
- ``fan_out``: the connections attached to each game and the messages that go to all of them;
- ``text_frames``: WebSocket text frames built once and written as they are.
"""
