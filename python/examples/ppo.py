"""PPO (CleanRL-style, single file, PyTorch) on pbgym's native vector env.

Trains one policy against the built-in opponent of single-agent Pong (the
`tracker` by default) from the 12 features, or on Breakout from 84x84
pixels (4 stacked frames, the Nature-DQN network):

    .venv-examples/bin/python python/examples/ppo.py --time-limit 600
    .venv-examples/bin/python python/examples/ppo.py --env-id pbgym:pbgym/Breakout-v0 --obs-type pixels

(`make example-ppo` creates .venv-examples with torch and pbgym and runs the
first line.) Every update prints the global step, the wall time, the
steps/s, the mean return of the episodes finished since the last line and,
for Pong, the share of points won against the opponent and the share of
finished games won.

Determinism: numpy, torch and the games are seeded from --seed, torch runs
with --threads threads and deterministic algorithms, so two runs with the
same arguments on the same machine and torch build give the same numbers
(stopping by --time-limit ends a run after a wall-clock-dependent number of
updates; the updates it did make are the same).

The algorithm is CleanRL's ppo.py / ppo_atari.py (GAE, clipped surrogate,
clipped value loss, entropy bonus, advantage normalisation, linear learning
rate annealing over --total-steps). The vector env runs in Gymnasium's
SAME_STEP autoreset mode, so every stored transition is a real one and an
episode's end is seen on the step that ends it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
from gymnasium.vector import AutoresetMode
from torch.distributions.categorical import Categorical

import pbgym  # noqa: F401  (registers pbgym/Pong-v0 and pbgym/Breakout-v0)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env-id", default="pbgym:pbgym/Pong-v0",
                   choices=["pbgym:pbgym/Pong-v0", "pbgym:pbgym/Breakout-v0", "pbgym/Pong-v0", "pbgym/Breakout-v0"])
    p.add_argument("--obs-type", default="features", choices=["features", "pixels"])
    p.add_argument("--opponent", default="tracker", help="Pong only: the opponent's agent spec (tracker, random, ...)")
    p.add_argument("--preset", default=None, help="game preset (default: the game's default)")
    p.add_argument("--config", action="append", default=[], metavar="KEY=VALUE",
                   help="a game config key (gym-train config --reference), e.g. frameSkip=4; repeatable")
    p.add_argument("--clip-rewards", type=int, default=0, choices=[0, 1],
                   help="train on the sign of each reward (Atari practice; the printed returns stay raw)")
    p.add_argument("--life-loss-ends", type=int, default=0, choices=[0, 1],
                   help="Breakout only: a lost life ends the return for training (Atari's EpisodicLifeEnv: "
                        "the game goes on, the advantage estimate stops there)")
    p.add_argument("--net", default="nature", choices=["nature", "small", "mlp"],
                   help="pixels only: the Nature-DQN network, or smaller ones for CPUs "
                        "(SmallPixelAgent, PixelMLPAgent)")
    p.add_argument("--save", default=None, metavar="PATH", help="write the trained network's weights here (torch.save)")
    p.add_argument("--save-every", type=int, default=0, metavar="UPDATES",
                   help="with --save: also write the weights after every UPDATES updates, as PATH with "
                        "-update<N> before its suffix (earlier checkpoints of the run, e.g. for an SPRT)")
    p.add_argument("--init", default=None, metavar="PATH",
                   help="start from these weights (a --save of the same env and network), e.g. a policy "
                        "trained against random, then trained on against the tracker")
    p.add_argument("--eval-only", action="store_true", help="no training: evaluate the --init weights (with --eval-games)")
    p.add_argument("--eval-games", type=int, default=0,
                   help="after training, play this many whole games (episodes) with the final policy "
                        "(sampled actions) on seeds the training never used, and print the result")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2, help="torch intra-op threads")
    p.add_argument("--total-steps", type=int, default=10_000_000, help="agent steps over all games")
    p.add_argument("--time-limit", type=float, default=0.0, help="stop after this many seconds of training (0 = none)")
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--num-steps", type=int, default=128, help="steps per game per rollout")
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--anneal-lr", type=int, default=1, choices=[0, 1])
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.1)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--frame-stack", type=int, default=4, help="pixels only: frames stacked per observation")
    args = p.parse_args(argv)
    args.game_config = {}
    for item in args.config:
        key, sep, value = item.partition("=")
        if not sep or not key:
            p.error(f"--config {item!r} is invalid; allowed: KEY=VALUE (e.g. frameSkip=4)")
        try:
            args.game_config[key] = json.loads(value)
        except json.JSONDecodeError:
            args.game_config[key] = value
    if args.save_every < 0 or (args.save_every and not args.save):
        p.error(f"--save-every={args.save_every} is invalid; allowed: updates >= 0, with --save")
    for name in ("total_steps", "num_envs", "num_steps", "num_minibatches", "update_epochs", "threads", "frame_stack"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')}={getattr(args, name)} is invalid; allowed: an integer >= 1")
    if (args.num_envs * args.num_steps) % args.num_minibatches != 0:
        p.error(f"--num-minibatches={args.num_minibatches} is invalid; allowed: a divisor of "
                f"num-envs x num-steps = {args.num_envs * args.num_steps}")
    if args.time_limit < 0:
        p.error(f"--time-limit={args.time_limit} is invalid; allowed: seconds >= 0")
    return args


def checkpoint_path(save: str, update: int) -> str:
    """--save's path with ``-update<N>`` before its suffix (``ppo.pt`` -> ``ppo-update20.pt``)."""
    stem, dot, suffix = save.rpartition(".")
    return f"{stem}-update{update}.{suffix}" if dot and "/" not in suffix else f"{save}-update{update}"


def layer_init(layer: nn.Module, std: float = np.sqrt(2), bias: float = 0.0) -> nn.Module:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias)
    return layer


class FeatureAgent(nn.Module):
    """Two 64-unit tanh layers for actor and critic (CleanRL's ppo.py)."""

    def __init__(self, n_obs: int, n_actions: int):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(n_obs, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(),
                                    layer_init(nn.Linear(64, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(n_obs, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(),
                                   layer_init(nn.Linear(64, n_actions), std=0.01))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def logits_value(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.actor(x), self.critic(x)


class TrunkAgent(nn.Module):
    """Actor and critic heads over one trunk that both share, fed pixels
    scaled to [0, 1]; the trunk ends in `width` units."""

    def __init__(self, trunk: nn.Module, width: int, n_actions: int):
        super().__init__()
        self.network = trunk
        self.actor = layer_init(nn.Linear(width, n_actions), std=0.01)
        self.critic = layer_init(nn.Linear(width, 1), std=1.0)

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self.network(x / 255.0))

    def logits_value(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.network(x / 255.0)
        return self.actor(h), self.critic(h)


class PixelAgent(TrunkAgent):
    """The Nature-DQN trunk shared by actor and critic (CleanRL's ppo_atari.py)."""

    def __init__(self, frames: int, n_actions: int):
        super().__init__(nn.Sequential(
            layer_init(nn.Conv2d(frames, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(), nn.Flatten(),
            layer_init(nn.Linear(64 * 7 * 7, 512)), nn.ReLU()), 512, n_actions)


class SmallPixelAgent(TrunkAgent):
    """A small network for a CPU: frames max-pooled 2x2 by the observer
    (84x84 to 42x42, so a one-pixel ball survives), one convolution (16
    6x6 stride 3), 128 units; about a twentieth of the Nature network's
    multiply-adds."""

    pool = 2

    def __init__(self, frames: int, n_actions: int):
        super().__init__(nn.Sequential(
            layer_init(nn.Conv2d(frames, 16, 6, stride=3)), nn.ReLU(), nn.Flatten(),
            layer_init(nn.Linear(16 * 13 * 13, 128)), nn.ReLU()), 128, n_actions)


class PixelMLPAgent(nn.Module):
    """The cheapest pixel network here: frames max-pooled 4x4 by the
    observer (84x84 to 21x21; the ball, one or two pixels, survives a max),
    flattened, two 128-unit tanh layers for actor and critic (about 1 % of
    the Nature network's multiply-adds, so a CPU can feed it a million
    steps in minutes)."""

    pool = 4

    def __init__(self, frames: int, n_actions: int):
        super().__init__()
        n = frames * 21 * 21
        self.critic = nn.Sequential(nn.Flatten(), layer_init(nn.Linear(n, 128)), nn.Tanh(),
                                    layer_init(nn.Linear(128, 128)), nn.Tanh(), layer_init(nn.Linear(128, 1), std=1.0))
        self.actor = nn.Sequential(nn.Flatten(), layer_init(nn.Linear(n, 128)), nn.Tanh(),
                                   layer_init(nn.Linear(128, 128)), nn.Tanh(),
                                   layer_init(nn.Linear(128, n_actions), std=0.01))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x / 255.0)

    def logits_value(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = x / 255.0
        return self.actor(x), self.critic(x)


class Observer:
    """Turns the env's observations into the network's input: features scaled
    to [-1, 1] by the space's bounds; pixels as the library stacks them
    (``frame_stack``, channels first: the last frames, a game's stack
    refilled with its first frame when it restarts), max-pooled by ``pool``."""

    def __init__(self, space: gym.spaces.Box, pixels: bool, pool: int = 1):
        self.pixels = pixels
        self.pool = pool
        if pixels:
            _, h, w = space.shape
            self.shape = (h // pool, w // pool)
        else:
            low, high = space.low.astype(np.float64), space.high.astype(np.float64)
            self.mid = ((low + high) / 2).astype(np.float32)
            self.scale = (2 / np.maximum(high - low, 1e-9)).astype(np.float32)

    def __call__(self, obs: np.ndarray) -> torch.Tensor:
        if not self.pixels:
            return torch.from_numpy((obs - self.mid) * self.scale)
        if self.pool > 1:
            h, w = self.shape
            p = self.pool
            n, k = obs.shape[:2]
            obs = obs[:, :, :h * p, :w * p].reshape(n, k, h, p, w, p).max(axis=(3, 5))
        return torch.from_numpy(obs.astype(np.float32))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)

    pong = args.env_id.endswith("pbgym/Pong-v0")
    kwargs = {"obs_type": args.obs_type, "autoreset_mode": AutoresetMode.SAME_STEP}
    if args.obs_type == "pixels":
        kwargs.update(frame_stack=args.frame_stack, channels_order="first")
    if pong:
        kwargs["opponent"] = args.opponent
    if args.preset:
        kwargs["preset"] = args.preset
    kwargs.update(args.game_config)
    envs = gym.make_vec(args.env_id, num_envs=args.num_envs, vectorization_mode="vector_entry_point", **kwargs)
    space = envs.single_observation_space
    n_actions = int(envs.single_action_space.n)
    pixels = args.obs_type == "pixels"
    net = {"nature": PixelAgent, "small": SmallPixelAgent, "mlp": PixelMLPAgent}[args.net]
    pool = getattr(net, "pool", 1) if pixels else 1
    observe = Observer(space, pixels, pool)
    if pixels:
        agent = net(args.frame_stack, n_actions)
    else:
        agent = FeatureAgent(int(np.prod(space.shape)), n_actions)
    if args.init:
        agent.load_state_dict(torch.load(args.init))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    sampler = torch.Generator().manual_seed(args.seed)

    batch = args.num_envs * args.num_steps
    minibatch = batch // args.num_minibatches
    updates = 0 if args.eval_only else max(1, args.total_steps // batch)
    in_shape = (args.frame_stack,) + observe.shape if pixels else (int(np.prod(space.shape)),)
    obs_buf = torch.zeros((args.num_steps, args.num_envs) + in_shape)
    act_buf = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logp_buf = torch.zeros((args.num_steps, args.num_envs))
    rew_buf = torch.zeros((args.num_steps, args.num_envs))
    done_buf = torch.zeros((args.num_steps, args.num_envs))
    val_buf = torch.zeros((args.num_steps, args.num_envs))

    obs_np, _ = envs.reset(seed=args.seed)
    next_obs = observe(obs_np)
    next_done = torch.zeros(args.num_envs)
    ep_return = np.zeros(args.num_envs)
    ep_returns: list[float] = []
    points_won = points_lost = games_won = games_done = 0
    total_won = total_lost = 0
    global_step = 0
    start = time.time()
    print(f"ppo: {args.env_id} obs={args.obs_type}" + (f" opponent={args.opponent}" if pong else "")
          + f" config={args.game_config or '{}'} envs={args.num_envs} batch={batch} updates<={updates}"
          + f" seed={args.seed} threads={args.threads}", flush=True)

    for update in range(1, updates + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = (1.0 - (update - 1.0) / updates) * args.learning_rate
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs_buf[step] = next_obs
            done_buf[step] = next_done
            with torch.no_grad():
                logits, value = agent.logits_value(next_obs)
                dist = Categorical(logits=logits)
                # Sampled from the seeded generator: the run's only random draw.
                action = torch.multinomial(dist.probs, 1, generator=sampler).squeeze(1)
                logp_buf[step] = dist.log_prob(action)
            val_buf[step] = value.flatten()
            act_buf[step] = action
            obs_np, reward, terminated, truncated, infos = envs.step(action.numpy())
            done = np.logical_or(terminated, truncated)
            r = np.asarray(reward, dtype=np.float32)
            rew_buf[step] = torch.from_numpy(np.sign(r) if args.clip_rewards else r)
            next_obs = observe(obs_np)
            cut = done
            if args.life_loss_ends and not pong:
                cut = done | (infos["events"]["lives_lost"] > 0)
            next_done = torch.from_numpy(cut.astype(np.float32))
            ep_return += reward
            if pong:
                points_won += int((reward > 0).sum())
                points_lost += int((reward < 0).sum())
            if done.any():
                ep_returns.extend(ep_return[done].tolist())
                ep_return[done] = 0
                if pong:
                    final = infos["final_info"]
                    games_done += int(done.sum())
                    games_won += int((final["score"][done] > final["opponent_score"][done]).sum())

        with torch.no_grad():
            next_value = agent.value(next_obs).flatten()
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    not_done, nv = 1.0 - next_done, next_value
                else:
                    not_done, nv = 1.0 - done_buf[t + 1], val_buf[t + 1]
                delta = rew_buf[t] + args.gamma * nv * not_done - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + val_buf

        b_obs = obs_buf.reshape((-1,) + in_shape)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret, b_val = advantages.reshape(-1), returns.reshape(-1), val_buf.reshape(-1)
        for _ in range(args.update_epochs):
            order = torch.randperm(batch, generator=sampler)
            for s in range(0, batch, minibatch):
                idx = order[s:s + minibatch]
                logits, value = agent.logits_value(b_obs[idx])
                dist = Categorical(logits=logits)
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                value = value.flatten()
                v_clipped = b_val[idx] + (value - b_val[idx]).clamp(-args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((value - b_ret[idx]) ** 2, (v_clipped - b_ret[idx]) ** 2).mean()
                loss = pg_loss - args.ent_coef * dist.entropy().mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        elapsed = time.time() - start
        line = f"update {update:4d} step {global_step:9d} time {elapsed:7.1f}s sps {global_step / elapsed:7.0f}"
        if ep_returns:
            line += f" episodes {len(ep_returns):4d} return {np.mean(ep_returns):8.2f}"
        if pong:
            total_won += points_won
            total_lost += points_lost
            if points_won + points_lost:
                line += f" points won {points_won / (points_won + points_lost):.3f} ({points_won}:{points_lost})"
            if games_done:
                line += f" games won {games_won}/{games_done}"
        print(line, flush=True)
        ep_returns.clear()
        points_won = points_lost = games_won = games_done = 0
        if args.save_every and update % args.save_every == 0:
            path = checkpoint_path(args.save, update)
            torch.save(agent.state_dict(), path)
            print(f"ppo: weights after update {update} written to {path}", flush=True)
        if args.time_limit and elapsed >= args.time_limit:
            print(f"ppo: time limit {args.time_limit:.0f}s reached after {update} updates", flush=True)
            break
    if pong and total_won + total_lost:
        print(f"ppo: points won over the run {total_won / (total_won + total_lost):.3f} ({total_won}:{total_lost})")
    envs.close()
    if args.save:
        torch.save(agent.state_dict(), args.save)
        print(f"ppo: weights written to {args.save}", flush=True)
    if args.eval_games:
        evaluate(args, agent, kwargs, pong, pixels, pool, sampler)
    return 0


def evaluate(args: argparse.Namespace, agent: nn.Module, kwargs: dict, pong: bool, pixels: bool, pool: int,
             sampler: torch.Generator) -> None:
    """Plays --eval-games whole episodes with the trained policy (sampled
    actions) on seeds 10**6 + seed + i (the training used seed + i), in the
    same env config, and prints the mean return and, for Pong, games and
    points won."""
    n = min(args.eval_games, args.num_envs)
    kw = dict(kwargs, autoreset_mode=AutoresetMode.DISABLED)
    envs = gym.make_vec(args.env_id, num_envs=n, vectorization_mode="vector_entry_point", **kw)
    observe = Observer(envs.single_observation_space, pixels, pool)
    obs_np, _ = envs.reset(seed=10**6 + args.seed)
    obs = observe(obs_np)
    started, finished = n, 0
    live = np.ones(n, dtype=bool)
    ret = np.zeros(n)
    returns: list[float] = []
    won = points_won = points_lost = 0
    while live.any():
        with torch.no_grad():
            logits, _ = agent.logits_value(obs)
            action = torch.multinomial(torch.softmax(logits, 1), 1, generator=sampler).squeeze(1).numpy()
        obs_np, reward, terminated, truncated, infos = envs.step(action)
        reward = np.where(live, reward, 0)
        ret += reward
        points_won += int((reward > 0).sum())
        points_lost += int((reward < 0).sum())
        done = (terminated | truncated) & live
        restart = np.zeros(n, dtype=bool)
        for i in np.flatnonzero(done):
            returns.append(float(ret[i]))
            finished += 1
            if pong:
                won += int(infos["score"][i] > infos["opponent_score"][i])
            ret[i] = 0
            if started < args.eval_games:
                started += 1
                restart[i] = True
            else:
                live[i] = False
        if restart.any():
            obs_np, _ = envs.reset(options={"reset_mask": restart})
        obs = observe(obs_np)
    line = f"ppo: evaluation over {finished} whole episodes: mean return {np.mean(returns):.2f}"
    if pong:
        line += (f", games won {won}/{finished}, points won {points_won / max(1, points_won + points_lost):.3f}"
                 f" ({points_won}:{points_lost})")
    print(line, flush=True)
    envs.close()


if __name__ == "__main__":
    sys.exit(main())
