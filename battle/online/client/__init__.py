"""The installed clients' side of online play: the session that connects, reconnects and
resends, the seats kept on disk, and what a client reads out of the server's states."""
