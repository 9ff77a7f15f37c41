"""Bridges to other game libraries: PettingZoo (`interop.pettingzoo`) and OpenSpiel (`interop.openspiel`),
optional extras (`pip install 'ruledeck[pettingzoo]'`, `'ruledeck[openspiel]'`). The numbering of actions
(`catalogue`) and the fixed-size observation vectors (`features`) are shared by both and need neither."""
