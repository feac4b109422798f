"""The club tournament on the web: its service (concours stored, tables counted on phones
through counter games), its JSON API, its pages (the organiser's, the room screen) and its
PDFs."""
