"""The rules quiz: questions generated from a rule set's data and its seed's procedures."""
