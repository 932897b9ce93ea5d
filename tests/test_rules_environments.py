"""SL111 unseeded-environment: RL environments, action spaces and procgen levels no seed reaches.

Every source starts on row 1 (the `\\` after the opening quotes), so rows can be read off the snippet.
"""

from __future__ import annotations

import textwrap

import pytest
from conftest import lint

from seedlint.analysis.context import AnalysisSettings
from seedlint.analysis.project import ProjectIndex


def findings(source: str) -> list[tuple[int, int]]:
    return [(d.start.row, d.start.column) for d in lint(source, {"SL111"}).diagnostics]


def fixed(source: str) -> str:
    return lint(source, {"SL111"}, fix="unsafe").source.text


class TestFlagged:
    @pytest.mark.parametrize(
        "imports, make",
        [
            ("import gymnasium as gym", 'gym.make("CartPole-v1")'),
            ("import gym", 'gym.make("CartPole-v1")'),
            ("from gymnasium import make", 'make("CartPole-v1")'),
            ("import gymnasium", 'gymnasium.make_vec("CartPole-v1", num_envs=2)'),
            (
                "import gymnasium as gym",
                'gym.vector.SyncVectorEnv([lambda: gym.make("CartPole-v1")] * 2)',
            ),
            ("import gym", 'gym.envs.make("LunarLander-v2")'),
        ],
        ids=["gymnasium", "gym", "from-import", "make_vec", "vector-env", "envs-make"],
    )
    def test_an_environment_reset_without_a_seed(self, imports, make):
        source = f"""\
            {imports}
            import torch

            torch.manual_seed(0)
            env = {make}
            obs, info = env.reset()
            """
        assert findings(source) == [(6, 13)]

    def test_only_the_first_reset_is_reported_and_wrappers_keep_the_environment(self):
        source = """\
            import gymnasium as gym
            import torch

            torch.manual_seed(0)
            env = gym.make("CartPole-v1")
            env = gym.wrappers.RecordEpisodeStatistics(env)
            obs, info = env.reset()
            for step in range(10):
                obs, reward, terminated, truncated, info = env.step(0)
                if terminated:
                    obs, info = env.reset()
            """
        assert findings(source) == [(7, 13)]

    def test_an_action_space_sampled_but_never_seeded(self):
        source = """\
            import gymnasium as gym
            import numpy as np

            np.random.seed(0)
            env = gym.make("CartPole-v1")
            obs, info = env.reset(seed=0)
            action = env.action_space.sample()
            """
        assert findings(source) == [(7, 10)]

    @pytest.mark.parametrize(
        "make",
        [
            'ProcgenEnv(num_envs=4, env_name="coinrun")',
            'ProcgenEnv(num_envs=4, env_name="coinrun", rand_seed=None)',
            'gym.make("procgen:procgen-coinrun-v0")',
        ],
    )
    def test_procgen_without_rand_seed(self, make):
        source = f"""\
            import gym
            import torch
            from procgen import ProcgenEnv

            torch.manual_seed(1)
            venv = {make}
            """
        assert findings(source) == [(6, 8)]

    def test_the_fixes_seed_the_first_reset_and_the_space(self):
        source = """\
            import gymnasium as gym
            import torch


            def main(seed):
                torch.manual_seed(seed)
                env = gym.make("CartPole-v1")
                obs, info = env.reset()
                for step in range(10):
                    obs, *_ = env.step(env.action_space.sample())
                    obs, info = env.reset()
            """
        result = fixed(source)
        assert (
            'env = gym.make("CartPole-v1")\n    env.action_space.seed(seed)\n    obs, info = env.reset(seed=seed)'
            in result
        )
        assert result.count("reset(seed=seed)") == 1  # the resets in the loop are left as they are
        assert findings(result) == []
        assert fixed(result) == result

    def test_procgen_gets_the_scripts_seed(self):
        source = """\
            import torch
            from procgen import ProcgenEnv

            seed = 3
            torch.manual_seed(seed)
            venv = ProcgenEnv(num_envs=4, env_name="coinrun", rand_seed=None)
            """
        assert 'ProcgenEnv(num_envs=4, env_name="coinrun", rand_seed=seed)' in fixed(source)

    @pytest.mark.parametrize(
        "resets",
        [
            "obs, info = env.reset()\nfor step in range(3):\n    obs, info = env.reset()",  # first reset not in a loop
            "while True:\n    obs, info = env.reset()",
        ],  # a reset per episode: seeding it would repeat episodes
    )
    def test_no_fix_for_legacy_gym_or_a_reset_in_an_episode_loop(self, resets):
        body = "".join(f"    {line}\n" for line in resets.splitlines())
        for library, fixable in (("gym", False), ("gymnasium", "while" not in resets)):
            source = (
                f"import {library}\nimport torch\n\ntorch.manual_seed(0)\nenv = {library}.make('Pong')\n"
                "if True:\n" + body
            )
            (diagnostic,) = lint(source, {"SL111"}).diagnostics
            assert diagnostic.fixable(unsafe=True) is fixable, (library, resets)


class TestLeftAlone:
    @pytest.mark.parametrize(
        "seeding",
        [
            "obs, info = env.reset(seed=0)",
            "obs, info = env.reset(seed=args.seed, options={})",
            "env.seed(42)",
            "obs, info = env.reset(**reset_kwargs)",
        ],
    )
    def test_a_seeded_environment(self, seeding):
        source = f"""\
            import gym
            import torch

            torch.manual_seed(0)
            env = gym.make("CartPole-v1")
            {seeding}
            for step in range(10):
                if env.step(0)[2]:
                    env.reset()
            """
        assert findings(source) == []

    @pytest.mark.parametrize(
        "escape",
        ["return env", "self.env = env", "run_episodes(env)", "yield env", "envs.append(env)"],
    )
    def test_an_environment_that_leaves_the_code_that_made_it(self, escape):
        source = f"""\
            import gymnasium as gym
            import torch


            def build(self):
                torch.manual_seed(0)
                env = gym.make("CartPole-v1")
                env.reset()
                {escape}
            """
        assert findings(source) == []

    def test_cleanrl_thunks_seed_the_action_space_shared_by_the_vector_env(self):
        source = """\
            import gymnasium as gym
            import torch


            def make_env(env_id, seed):
                def thunk():
                    env = gym.make(env_id)
                    env = gym.wrappers.RecordEpisodeStatistics(env)
                    env.action_space.seed(seed)
                    return env
                return thunk


            torch.manual_seed(1)
            envs = gym.vector.SyncVectorEnv([make_env("CartPole-v1", 1 + i) for i in range(4)])
            obs, _ = envs.reset(seed=1)
            actions = envs.single_action_space.sample()
            """
        assert findings(source) == []

    def test_an_environment_made_by_an_imported_helper(self):
        source = """\
            import gymnasium as gym
            import torch
            from envs import make_env

            torch.manual_seed(1)
            envs = gym.vector.SyncVectorEnv([make_env(i) for i in range(4)])
            obs, _ = envs.reset()
            action = envs.single_action_space.sample()
            """
        assert findings(source) == []

    def test_code_that_seeds_nothing(self):
        source = """\
            import gymnasium as gym
            from procgen import ProcgenEnv

            env = gym.make("CartPole-v1")
            obs, info = env.reset()
            action = env.action_space.sample()
            venv = ProcgenEnv(num_envs=1, env_name="coinrun")
            """
        assert findings(source) == []

    def test_look_alike_methods_of_other_objects(self):
        source = """\
            import torch

            torch.manual_seed(0)
            env = make_my_simulator()
            state = env.reset()
            action = env.action_space.sample()
            optimizer.zero_grad(); dataset.reset()
            """
        assert findings(source) == []


class TestEnvironmentsPassedToModuleFunctions:
    SOURCE = """\
        import gymnasium as gym
        import torch


        def evaluate(env):
            {body}


        torch.manual_seed(0)
        env = gym.make("MountainCarContinuous-v0")
        obs, info = env.reset()
        evaluate(env)
        """

    def test_a_function_that_only_runs_episodes_does_not_seed_it(self):
        assert findings(self.SOURCE.format(body="obs, info = env.reset()")) == [(11, 13)]

    @pytest.mark.parametrize(
        "body", ["env.reset(seed=1)", "env.action_space.seed(1)", "env.seed(1)"]
    )
    def test_a_function_that_seeds_it(self, body):
        assert findings(self.SOURCE.format(body=body)) == []


class TestEnvironmentsKeptByAnObject:
    """Distilled from cart-pole-rl: `DQLearner(env)` keeps the environment as `self.env`; `train()` resets it."""

    SOURCE = """\
        import gymnasium as gym
        import torch
        import torch.nn as nn


        class Learner{bases}:
            def __init__(self, env, gamma=0.99):
                self.env = env
                self.gamma = gamma

            def episode(self):
                state, info = self.env.reset()
                return state

            def train(self, episodes):
                {train}


        torch.manual_seed(0)
        env = gym.make("CartPole-v1")
        learner = Learner(env)
        learner.train(100)
        """

    @staticmethod
    def diagnostics(tmp_path, source):
        """The findings with the project index (what follows the environment into the class's methods)."""
        (tmp_path / "train.py").write_text(textwrap.dedent(source))
        return lint(
            source, {"SL111"}, settings=AnalysisSettings(project=ProjectIndex([tmp_path]))
        ).diagnostics

    @pytest.mark.parametrize("bases", ["", "(nn.Module)", "(object)"])
    def test_a_method_that_resets_it_without_a_seed(self, tmp_path, bases):
        source = self.SOURCE.format(
            bases=bases, train="return [self.episode() for _ in range(episodes)]"
        )
        (diagnostic,) = self.diagnostics(tmp_path, source)
        assert (diagnostic.start.row, diagnostic.start.column) == (21, 11)
        assert diagnostic.message.startswith(
            "`Learner(..)` keeps the environment made on line 20, which its `episode()` resets without `seed=`"
        )

    @pytest.mark.parametrize(
        "bases, train",
        [
            ("", "self.env.reset(seed=0)"),
            ("", "self.env.action_space.seed(0)"),
            ("", "run_elsewhere(self.env)"),  # handed to code seedlint cannot read
            ("(gym.Wrapper)", "pass"),  # a wrapper's methods pass the seed on
            ("(Base)", "pass"),  # a base class of another module may seed it
        ],
    )
    def test_look_alikes_are_left_alone(self, tmp_path, bases, train):
        source = self.SOURCE.format(bases=bases, train=train).replace(
            "import torch.nn as nn\n",
            "import torch.nn as nn\n        from agents import Base, run_elsewhere\n",
        )
        assert self.diagnostics(tmp_path, source) == []

    def test_a_seed_given_to_the_environment_in_the_script(self, tmp_path):
        source = self.SOURCE.format(bases="", train="pass").replace(
            "learner = Learner(env)", "env.reset(seed=0)\n        learner = Learner(env)"
        )
        assert self.diagnostics(tmp_path, source) == []


class TestEnvironmentsAnObjectMakes:
    """An agent that makes its environment in `__init__` (`self.env = gym.make(..)`) and resets it in a method."""

    SOURCE = """\
        import gymnasium as gym
        import torch
        from agents import Base, run_elsewhere


        class Agent{bases}:
            def __init__(self, env_id):
                self.env = gym.make(env_id)

            def train(self, episodes):
                for _ in range(episodes):
                    state, info = self.env.reset()
                    action = self.env.action_space.sample()
                    {extra}


        torch.manual_seed(0)
        agent = Agent("CartPole-v1")
        agent.train(10)
        {outside}
        """

    def test_its_unseeded_reset_and_space_are_flagged(self):
        source = self.SOURCE.format(bases="", extra="pass", outside="")
        assert findings(source) == [(12, 27), (13, 22)]

    @pytest.mark.parametrize(
        "bases, extra, outside",
        [
            ("", "self.env.reset(seed=0)", ""),
            ("", "self.env.seed(0)", ""),
            ("", "pass", "agent.env.reset(seed=0)"),
            ("", "run_elsewhere(self.env)", ""),
            ("", "return self.env", ""),
            (
                "",
                "self.env.reset(**self.reset_kwargs)",
                "",
            ),  # forwards what it is given, a seed maybe
            ("(Base)", "pass", ""),
        ],
        ids=[
            "seeded-reset",
            "legacy-seed",
            "seeded-from-outside",
            "handed-to-unread-code",
            "returned",
            "base-out-of-view",
            "reset-with-forwarded-keywords",
        ],
    )
    def test_look_alikes_are_left_alone(self, bases, extra, outside):
        source = self.SOURCE.format(bases=bases, extra=extra, outside=outside)
        assert (12, 27) not in findings(source)

    def test_code_that_seeds_nothing(self):
        source = self.SOURCE.format(bases="", extra="pass", outside="").replace(
            "torch.manual_seed(0)", ""
        )
        assert findings(source) == []

    @pytest.mark.parametrize(
        "other, flagged",
        [
            (
                "class Other:\n            def go(self):\n                self.env.reset(seed=0)",
                True,
            ),  # its own env
            (
                "class Sub(Agent):\n            def go(self):\n                self.env.reset(seed=0)",
                False,
            ),  # ours
        ],
        ids=["another-class", "a-subclass"],
    )
    def test_another_class_with_an_env_attribute(self, other, flagged):
        source = self.SOURCE.format(bases="", extra="pass", outside="").replace(
            "        torch.manual_seed(0)", f"        {other}\n\n\n        torch.manual_seed(0)"
        )
        assert ((12, 27) in findings(source)) is flagged


class TestSpacesOfAnEnvironmentGivenToAnObject:
    """Distilled from rainbow's 01_dqn.py: `DQNAgent(env, seed)` stores `self.env = env`, seeds its resets, and
    explores with `self.env.action_space.sample()`, whose generator nothing seeds."""

    SOURCE = """\
        import gymnasium as gym
        import torch
        from agents import Base


        class DQNAgent{bases}:
            def __init__(self, env, seed):
                self.env = env
                self.seed = seed

            def train(self, frames):
                state, _ = self.env.reset(seed=self.seed)
                for _ in range(frames):
                    state, *_ = self.env.step(self.env.action_space.sample())


        torch.manual_seed(0)
        env = gym.make("CartPole-v1")
        {seeding}
        DQNAgent(env, 0).train(100)
        """

    def test_the_unseeded_space_is_flagged_and_seeded_where_the_environment_is_made(self):
        source = self.SOURCE.format(bases="", seeding="")
        assert findings(source) == [(14, 39)]
        assert 'env = gym.make("CartPole-v1")\nenv.action_space.seed(0)\n' in fixed(source)

    @pytest.mark.parametrize(
        "bases, seeding",
        [
            ("", "env.action_space.seed(0)"),
            ("(Base)", ""),
        ],
        ids=["space-seeded", "base-out-of-view"],
    )
    def test_look_alikes_are_left_alone(self, bases, seeding):
        assert findings(self.SOURCE.format(bases=bases, seeding=seeding)) == []


def test_a_first_reset_in_a_loops_else_clause_runs_once_and_gets_the_fix():
    source = """\
        import gymnasium as gym
        import torch

        torch.manual_seed(0)
        env = gym.make("CartPole-v1")
        for attempt in range(3):
            pass
        else:
            obs, info = env.reset()
        """
    (diagnostic,) = lint(source, {"SL111"}).diagnostics
    assert diagnostic.fixable(unsafe=True)
    assert "env.reset(seed=0)" in fixed(source)
