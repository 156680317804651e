"""What the screens share on screen: buttons, the side panel, the status line, dialogs and
questions, the evaluation graph, the animations, the board's geometry and drawing.
"""
