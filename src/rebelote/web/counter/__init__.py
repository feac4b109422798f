"""The point counter on the web: its service (games kept, deals scored), its JSON API, its
pages, live sheets, printables and statistics."""
