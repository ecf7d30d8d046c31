"""The physical board: the tracker (pure) and the hardware ports and adapters (the edge)."""
