"""The smallest outside bot: it plays the first legal action (docs/interfaces.md, "Outside bots").

    rebelote arena --a heuristic --b "engine:python3 examples/first_legal.py" --deals 20
"""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "act":  # the only lines to answer; ignore any other type
        print(message["legal"][0], flush=True)
