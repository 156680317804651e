"""The online protocol both sides share: the messages as typed values, reading and writing
them, the server's messages, and the codes people read out."""
