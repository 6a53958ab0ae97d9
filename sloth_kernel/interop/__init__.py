"""Optional bridges to other game frameworks (``pip install sloth-kernel[interop]``).

``actions`` gives every game a fixed global action index and a fixed-size
feature vector of an observation; ``openspiel`` and ``pettingzoo`` build on it.
"""
