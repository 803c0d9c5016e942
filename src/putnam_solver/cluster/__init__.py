"""Gate work on other machines: a Ray cluster as a ``verifier.dispatch.Verifier`` (``--ray ADDRESS``).

Outside the trusted core: it imports Ray (network code) only when a ``RayVerifier`` is made. What the
head accepts from a node, and why that keeps the core's guarantees, is in ``cluster.ray``'s docstring.
``cluster.settings`` holds what the flags say (``RaySettings``), importable without the cluster's code.
"""
