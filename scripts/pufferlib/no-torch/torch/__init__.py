"""Not torch: what PufferLib 3.0.0's setup.py needs at module level to
give pip the sdist's metadata without torch and without its downloads.
scripts/bench-pufferlib.sh puts this folder on PYTHONPATH for
`pip download` alone; nothing here builds or runs anything.

- `torch.utils.cpp_extension`'s names (utils/cpp_extension.py), imported
  at the top of setup.py.
- `c_extension_paths`, an empty list: setup.py defines it only without
  NO_OCEAN=1 (which skips its downloads of raylib and box2d from GitHub)
  but reads it either way; setup.py looks a name it lacks up in builtins."""
import builtins

builtins.c_extension_paths = []
