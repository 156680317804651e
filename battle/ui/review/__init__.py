"""The review screen: every move graded against perfect play, the evaluation graph, the
turning points.
"""
