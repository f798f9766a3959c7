"""The ids work in a fresh process (as a remote worker is), where nothing
imported pbgym before: "pbgym:pbgym/Pong-v0" imports it, and the bare
"pbgym/Pong-v0" is registered by the installed package's .pth hook
(python/_pbgym_registration.py) as soon as gymnasium is imported."""

import subprocess
import sys
import textwrap


def run_fresh(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True)


def test_module_prefixed_ids_work_in_a_fresh_process():
    proc = run_fresh("""
        import sys
        import gymnasium as gym
        assert "pbgym" not in sys.modules
        env = gym.make("pbgym:pbgym/Pong-v0", maxScore=1)
        obs, info = env.reset(seed=0)
        vec = gym.make_vec("pbgym:pbgym/Breakout-v0", num_envs=3, vectorization_mode="vector_entry_point")
        obs, infos = vec.reset(seed=0)
        print(type(env.unwrapped).__name__, type(vec).__name__, len(obs))
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["PongEnv", "BreakoutVectorEnv", "3"]


def test_bare_ids_work_in_a_fresh_process_that_never_imports_pbgym():
    # The installed package's .pth hook registers them when gymnasium is
    # imported; pbgym itself loads only at gym.make (the string entry point).
    proc = run_fresh("""
        import importlib.util
        import sys
        assert importlib.util.find_spec("gymnasium") is not None   # a look that imports nothing keeps the hook
        import gymnasium as gym
        assert "pbgym" not in sys.modules
        assert type(gym.__spec__.loader).__name__ == "SourceFileLoader"   # gymnasium loaded as usual
        assert gym.spec("pbgym/Pong-v0").entry_point == "pbgym.env:PongEnv"
        env = gym.make("pbgym/Pong-v0", maxScore=1)
        obs, info = env.reset(seed=0)
        vec = gym.make_vec("pbgym/Breakout-v0", num_envs=2, vectorization_mode="vector_entry_point")
        obs, infos = vec.reset(seed=0)
        print(type(env.unwrapped).__name__, type(vec).__name__, len(obs))
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["PongEnv", "BreakoutVectorEnv", "2"]


def test_interpreter_start_imports_neither_gymnasium_nor_pbgym():
    # The hook is installed (its module loaded), nothing heavy is.
    proc = run_fresh("""
        import sys
        print(*(name in sys.modules for name in ("_pbgym_registration", "gymnasium", "numpy", "pbgym")))
        import _pbgym_registration as r
        print(r.GymnasiumImportHook in sys.meta_path)
        import gymnasium
        print(r.GymnasiumImportHook in sys.meta_path)
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "False", "False", "False", "True", "False"]


def test_hook_without_gymnasium_leaves_the_usual_import_error():
    # Gymnasium out of reach (its site-packages off sys.path): the import
    # fails as it would without the hook, and nothing else does.
    proc = run_fresh("""
        import sys
        sys.path[:] = [p for p in sys.path if "site-packages" not in p]
        import json
        try:
            import gymnasium
        except ModuleNotFoundError as e:
            print(e)
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "No module named 'gymnasium'"


def test_hook_ships_in_the_installed_distribution():
    # In the distribution's RECORD, so pip uninstall removes it with the package.
    from importlib import metadata

    files = {str(f) for f in metadata.files("pbgym")}
    assert {"pbgym-gymnasium-ids.pth", "_pbgym_registration.py"} <= files
    pth = next(f for f in metadata.files("pbgym") if str(f) == "pbgym-gymnasium-ids.pth")
    assert pth.read_text().strip() == "import _pbgym_registration; _pbgym_registration.install()"


def test_version_is_the_installed_distributions():
    from importlib import metadata

    import pbgym

    assert pbgym.__version__ == metadata.version("pbgym")
    assert pbgym.__version__[0].isdigit()
