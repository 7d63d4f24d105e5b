"""Bridge between a Soar kernel (soar-sml) and Skipper's SPS link.

The bridge hosts a Soar kernel in-process, loads an agent, and in the kernel's
after-all-output-phases callback sends the new output-link commands to Skipper,
waits for the statuses and input-link diff, applies them and commits: the reference
SPS timing (output processed, then input updated, in that callback). All semantics
live in Skipper; this side only mirrors working memory.
"""

__version__ = "0.1.0"
