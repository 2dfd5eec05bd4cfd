"""Random legal agents through PettingZoo's parallel API: the loop RLlib, TorchRL or Tianshou
users already have. Each agent samples its action space under its observation's action mask.

    python examples/pettingzoo_random.py --games 3 --maps 47 --frames out/   # PNG frames too
"""

import argparse
from pathlib import Path

import numpy as np


def play(env, seed: int) -> dict:
    """One game: score, ticks and the deaths and respawns the infos reported."""
    observations, infos = env.reset(seed=seed)
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed * 100 + i)
    ticks = deaths = respawns = 0
    while env.agents:
        actions = {
            agent: env.action_space(agent).sample(observations[agent]["action_mask"])
            for agent in env.agents
        }
        observations, rewards, terminations, truncations, infos = env.step(actions)
        ticks += 1
        deaths += sum(info["died"] for info in infos.values())
        respawns += sum(info["respawned"] for info in infos.values())
    score = np.asarray(env.game.score).tolist()
    return {"ticks": ticks, "score": score, "deaths": deaths, "respawns": respawns}


def save_png(frame: np.ndarray, path: Path) -> None:
    """(height, width, 3) uint8 -> a new PNG file, written atomically; FileExistsError if the
    file is already there (never overwritten)."""
    import io

    import pygame

    from fileio import write_new_file

    buffer = io.BytesIO()
    pygame.image.save(pygame.surfarray.make_surface(frame.transpose(1, 0, 2)), buffer, "png")
    write_new_file(path, buffer.getvalue())


def checked_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict:
    """The env's keyword arguments from the options; a bad value exits through `parser.error`
    (status 2) naming the option, the value and what is valid, as the `mbg` commands do."""
    from cli.maps import map_specs
    from engine.types import Config

    if args.games < 1:
        parser.error(f"--games {args.games}: expected at least 1 game")
    try:
        Config(horizon=args.horizon)
    except ValueError as error:
        parser.error(f"--horizon {args.horizon}: {error}")
    try:
        maps = map_specs(args.maps, "--maps")  # names the option, the id and the valid ids
    except ValueError as error:  # a bad map file: MapError names the file and the field
        parser.error(f"--maps {args.maps}: {error}" if "--maps" not in str(error) else str(error))
    return {"maps": maps, "horizon": args.horizon}


def main(argv=None) -> list[dict]:
    import adapters

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--maps", default="test", help="map ids, ranges, splits or map files")
    parser.add_argument("--horizon", type=int, default=300, help="ticks a game (RULES 4.3)")
    parser.add_argument("--frames", type=Path, help="write the last frame of each game here")
    args = parser.parse_args(argv)
    env = adapters.parallel_env(render_mode="rgb_array", **checked_options(parser, args))
    results = []
    for game in range(args.games):
        frame = None if args.frames is None else args.frames / f"game_{game:03d}.png"
        if frame is not None and frame.exists():  # before the game: refuse, lose nothing
            raise FileExistsError(f"{frame}: exists; refusing to overwrite it")
        row = play(env, seed=game)
        print(f"game {game}: {row}")
        if frame is not None:
            save_png(env.render(), frame)
        results.append(row)
    env.close()
    return results


if __name__ == "__main__":
    main()
