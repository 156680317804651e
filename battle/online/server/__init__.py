"""The game server: the asyncio shell over websockets, the pure ``Room`` of one game, the
SQLite store that commits before anyone is told, and the per-address limits."""
