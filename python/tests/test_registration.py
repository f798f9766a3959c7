"""Ids that import the package themselves work in a fresh process (as a
remote worker is), where nothing imported pbgym before."""

import subprocess
import sys
import textwrap


def run_fresh(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


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


def test_bare_id_without_the_import_is_gymnasiums_namespace_error():
    # What the docs tell users who meet it: the bare id needs `import pbgym`
    # in the same process; "pbgym:pbgym/Pong-v0" imports it.
    proc = run_fresh("""
        import gymnasium as gym
        gym.make("pbgym/Pong-v0")
    """)
    assert proc.returncode != 0
    assert "NamespaceNotFound: Namespace pbgym not found" in proc.stderr


def test_version_is_the_installed_distributions():
    from importlib import metadata

    import pbgym

    assert pbgym.__version__ == metadata.version("pbgym")
    assert pbgym.__version__[0].isdigit()
