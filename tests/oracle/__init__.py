"""An independent reading of docs/rules.md, written apart from ``rebelote``'s own code.

The tests compare the implementation with these plain, slow, straightforward functions:
:mod:`oracle.scoring` (deal summaries and games, docs/rules.md sections 6 and 7), :mod:`oracle.play`
(legal cards, trick winners and points, section 3) and :mod:`oracle.gen` (random valid inputs).
Nothing here imports ``rebelote``: the oracle works on the JSON forms of docs/interfaces.md.
Readings of what the specification leaves open are listed in ``READINGS.md`` beside this file.
"""
