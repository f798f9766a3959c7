"""pbgym's Gymnasium ids, and the hook that registers them in every process.

The ids name their classes by string (``"module:Class"``), so registering
them imports nothing of pbgym: the classes and libpbgym.so load at the
first ``gym.make``. ``import pbgym`` registers them with :func:`register`.

Gymnasium 1.x has no plugin entry points, so a process that never imported
pbgym (a remote worker, a fresh interpreter) would not know the bare id
``"pbgym/Pong-v0"``. The installed package therefore ships
``pbgym-gymnasium-ids.pth`` beside this module (written by python/setup.py);
Python runs its one line, :func:`install`, when it starts. ``install``
imports nothing: it puts a finder at the front of ``sys.meta_path`` that
answers only for ``gymnasium``, hands back the spec the other finders give
(the module loads exactly as it would), and registers the ids right after
gymnasium's ``__init__`` ran; then the finder leaves ``sys.meta_path``.
Where gymnasium is not installed or never imported, nothing else happens.
This module stays outside the ``pbgym`` package because importing anything
inside it runs ``pbgym/__init__.py`` (gymnasium, numpy, the library).
"""

from __future__ import annotations

import sys

# (id, single env class, native vector env class), as "module:Class".
ENV_IDS = (
    ("pbgym/Pong-v0", "pbgym.env:PongEnv", "pbgym.vector:PongVectorEnv"),
    ("pbgym/Breakout-v0", "pbgym.env:BreakoutEnv", "pbgym.vector:BreakoutVectorEnv"),
)


def register(gymnasium) -> None:
    """Registers the ids that `gymnasium` (the imported module) does not hold yet."""
    for env_id, single, vector in ENV_IDS:
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=single, vector_entry_point=vector)


class GymnasiumImportHook:
    """A `sys.meta_path` finder that registers the ids once gymnasium is imported."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "gymnasium":
            return None
        # The spec the rest of sys.meta_path gives, so gymnasium loads as it would without us.
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is cls or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None:
            return spec

        # The loader is this spec's own (a file finder makes one per spec), so
        # only this import runs the wrapper; a find_spec without an import
        # (importlib.util.find_spec) leaves the hook in place for the real one.
        def exec_and_register(module):
            exec_module(module)
            uninstall()
            try:
                register(module)
            except Exception as e:  # never fail gymnasium's own import
                import warnings
                warnings.warn(f"pbgym: could not register {', '.join(i for i, _, _ in ENV_IDS)} with "
                              f"gymnasium {getattr(module, '__version__', '?')}: {e!r}; "
                              "`import pbgym` registers them", RuntimeWarning, stacklevel=2)

        try:
            loader.exec_module = exec_and_register
        except (AttributeError, TypeError):  # a loader without instance attributes: gymnasium loads unhooked
            pass
        return spec


def install() -> None:
    """Called by pbgym-gymnasium-ids.pth at interpreter start (registers at once if gymnasium is imported already)."""
    if "gymnasium" in sys.modules:
        register(sys.modules["gymnasium"])
    elif GymnasiumImportHook not in sys.meta_path:
        sys.meta_path.insert(0, GymnasiumImportHook)


def uninstall() -> None:
    if GymnasiumImportHook in sys.meta_path:
        sys.meta_path.remove(GymnasiumImportHook)
