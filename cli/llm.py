"""`mbg llm prompt`: print the exact prompt an LLM agent gets (policies.llm_view).

mbg llm prompt --map 47 --slot A0 --tick 0
mbg llm prompt --replay runs/x/game0000_map47_Awest.mbgr --slot B2 --tick 40
mbg llm prompt --map 47 --slot A0 --config my_llm.json --json

Without --replay the game is the map's tick 0 (roster, spawn end and information regime from the
options); with --replay it is the replay's state at --tick, observed as the agent observed it
(the relay from the tick before, RULES 5.7). --config applies an LLM config's prompt options
(history is empty here: only the current tick is shown, as in a game's first decision).
"""

import argparse
import json


def register(subparsers) -> None:
    """Adds the `llm` subcommand group (`mbg llm prompt`)."""
    parser = subparsers.add_parser(
        "llm", help="the LLM-agent API: show prompts", description=__doc__
    )
    commands = parser.add_subparsers(dest="llm_command", metavar="COMMAND", required=True)
    prompt = commands.add_parser(
        "prompt",
        help="print the exact prompt of one agent at one tick",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    prompt.add_argument("--map", help="map id or map file (47); not with --replay")
    prompt.add_argument("--slot", required=True, help="the agent: A0-A4 or B0-B4")
    prompt.add_argument("--tick", type=int, default=0, help="tick (0); > 0 needs --replay")
    prompt.add_argument("--replay", metavar="FILE", help="take the game state from a replay")
    prompt.add_argument("--roster", help="roster (MWHRP/MWHRP); not with --replay")
    prompt.add_argument("--spawn-end", type=int, choices=(0, 1), help="0: A west (0)")
    prompt.add_argument("--info-regime", choices=("shared_obs", "no_shared_obs"), default=None)
    prompt.add_argument("--config", metavar="JSON", help="an LLM config file (prompt options)")
    prompt.add_argument("--json", action="store_true", help="print the messages as JSON")
    prompt.set_defaults(func=run_prompt)


# The options that describe a game without --replay: (argparse name, flag).
GAME_OPTIONS = (
    ("map", "--map"),
    ("roster", "--roster"),
    ("spawn_end", "--spawn-end"),
    ("info_regime", "--info-regime"),
)


def _slot(text: str) -> int:
    text = text.strip().upper()
    if len(text) != 2 or text[0] not in "AB" or text[1] not in "01234":
        raise ValueError(f"--slot {text!r}: use A0-A4 or B0-B4")
    return "AB".index(text[0]) * 5 + int(text[1])


def _observation(args):
    """(Config, host Obs) of the chosen game state."""
    import jax

    import engine
    from engine.types import Config
    from policies.system import to_host

    observe = jax.jit(engine.observe, static_argnums=0)  # eager, it costs seconds of dispatch
    if args.replay:
        from evaluation.record import replay_config, state_at
        from evaluation.replay import read_replay

        replay = read_replay(args.replay)
        config = replay_config(replay.header)
        index = args.tick - int(replay.states["tick"][0])
        if not 0 <= index <= replay.ticks:
            first = int(replay.states["tick"][0])
            raise ValueError(
                f"--tick {args.tick}: {args.replay} holds ticks {first}-{first + replay.ticks}"
            )
        previous = state_at(replay, index - 1) if index > 0 else None
        return config, to_host(observe(config, state_at(replay, index), previous))
    if args.tick != 0:
        raise ValueError(f"--tick {args.tick}: ticks after 0 need --replay FILE")
    from cli.maps import map_specs
    from engine.pool import parse_roster
    from evaluation.match import GameSetup, initial_state

    config = Config(shared_obs=args.info_regime != "no_shared_obs")
    spec = map_specs(args.map or "47", "--map")[0]
    roster = parse_roster(args.roster or "MWHRP/MWHRP")
    setup = GameSetup(map=spec, roster=roster, spawn_end=args.spawn_end or 0, seed=0)
    return config, to_host(observe(config, initial_state(config, setup)))


def run_prompt(args) -> int:
    """Print the prompt (messages as `### role` sections, or JSON); returns the exit code."""
    from policies import llm_view

    slot = _slot(args.slot)
    if args.replay:  # the replay fixes the game: an option that would be ignored is refused
        given = [flag for name, flag in GAME_OPTIONS if getattr(args, name) is not None]
        if given:
            raise ValueError(f"{given[0]} goes without --replay (a replay has its own)")
    options = llm_view.ViewOptions()
    if args.config:
        from policies.llm_config import load_config

        config = load_config(args.config)
        options = llm_view.ViewOptions(
            history=config.history, thinking=config.thinking, system_prompt=config.system_prompt()
        )
    _, obs = _observation(args)
    if int(obs.class_id[slot]) == 0:
        raise ValueError(f"--slot {args.slot}: that slot is empty in this roster")
    chat = llm_view.messages(obs, slot, options)
    print(json.dumps(chat, indent=1) if args.json else llm_view.prompt_text(chat))
    return 0
