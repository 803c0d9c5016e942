"""The run machinery: campaigns, the ledger, the agent (Inspect AI) and reports.

Everything that calls a model lives here. It asks the trusted core (``putnam_solver.core``) for every
verdict and never decides one itself; the core imports nothing from this package.
"""
