"""The most a search bot may spend on one decision (`search:N`, `search:Ts`): more would never end in practice. A
module of its own, with nothing to import, so that the command line names the caps in its help without loading
the bots."""

from __future__ import annotations

MOST_ITERATIONS = 1_000_000  # the most playouts `search:N` may spend on one decision
MOST_SECONDS = 3600.0  # the most CPU seconds `search:Ts` may spend on one decision
