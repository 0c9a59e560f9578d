"""Command-line overrides checked before Hydra composes them: a typo in a config group's
option (``backend=opnejij``), an experiment's name or a setting (``repetitons=1``) is one
``error:`` line naming the nearest valid names, and the app exits with code 2 (Hydra's own
message is 5 to 25 lines)."""

from __future__ import annotations

import contextlib
import difflib
import io
from collections.abc import Sequence
from functools import cache

from omegaconf import DictConfig, OmegaConf

from slitherbench.run.plan import CONF_DIR

GROUPS = ("backend", "experiment", "formulation", "presolve", "puzzle")
# Hydra's command-line flags after which the overrides are not a run's (help, config dumps,
# another config): Hydra handles those alone.
_SPECIAL_FLAGS = (
    "help",
    "hydra_help",
    "cfg",
    "info",
    "config_path",
    "config_name",
    "config_dir",
    "shell_completion",
    "experimental_rerun",
)


@cache  # the package's config files do not change while it runs
def _choices(group: str) -> tuple[str, ...]:  # a tuple: callers cannot change the cache
    return tuple(sorted(p.stem for p in (CONF_DIR / group).glob("*.yaml")))


@cache
def _settings() -> tuple[str, ...]:
    """Every top-level name a run may override: config.yaml's and the experiments' keys, and
    the config groups."""
    names = set(GROUPS)
    for path in [CONF_DIR / "config.yaml", *(CONF_DIR / "experiment").glob("*.yaml")]:
        names |= {str(k) for k in OmegaConf.load(path) if k not in ("defaults", "hydra")}
    return tuple(sorted(names))


def _nearest(name: str, choices: Sequence[str], what: str) -> str:
    near = difflib.get_close_matches(name, choices, n=3, cutoff=0.6)
    if near:
        return f"did you mean {' or '.join(near)}?"
    return f"{what}: {', '.join(choices)}"


def override_problem(argv: list[str]) -> str | None:
    """The first unknown config group option or top-level setting among the command line's
    overrides, as one line naming the nearest valid names; then anything else Hydra would
    refuse to compose (None: nothing found, Hydra takes over)."""
    from hydra._internal.utils import get_args_parser
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import OverrideParseException

    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said):
            args = get_args_parser().parse_args(argv)
    except SystemExit:  # Hydra's flags parser: its usage and its error, made one line
        lines = said.getvalue().strip().splitlines() or ["cannot read the command line"]
        return f"{lines[-1].split('error: ', 1)[-1]} (--help lists the flags)"
    if any(getattr(args, f, None) for f in _SPECIAL_FLAGS) or any(
        o.startswith("hydra.searchpath") for o in args.overrides
    ):
        return None
    try:
        overrides = OverridesParser.create().parse_overrides(args.overrides)
    except OverrideParseException:
        bad = next(o for o in args.overrides if not _parses(o))
        return (
            f"cannot read the override {bad!r} (Hydra's override grammar: quote values with "
            "spaces or special characters; clue rows go on one line joined by '/', e.g. "
            "puzzle.text='.3./2..')"
        )
    settings = _settings()
    for o in overrides:
        key = o.key_or_group
        if key.startswith("hydra") or o.is_add() or o.is_force_add() or o.is_delete():
            continue
        if key in GROUPS:
            values = list(o.sweep_string_iterator()) if o.is_sweep_override() else [o.value()]
            choices = _choices(key)
            for v in values:
                if v is not None and str(v) not in choices:
                    return f"{key}={v}: no such {key}; {_nearest(str(v), choices, f'{key}s')}"
        elif key.split(".")[0] not in settings:
            top = key.split(".")[0]
            return f"{o.input_line}: no setting {top!r}; {_nearest(top, settings, 'settings')}"
    return _compose_problem([o for o in overrides if not o.is_sweep_override()])


def _parses(text: str) -> bool:
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import OverrideParseException

    try:
        OverridesParser.create().parse_overrides([text])
    except OverrideParseException:
        return False
    return True


def _compose_problem(overrides: list) -> str | None:
    """What composing the config with these overrides (Hydra's own ones aside) fails on, in
    one line; a nested setting's typo names the nearest settings of its parent."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    if GlobalHydra.instance().is_initialized():
        return None
    lines = [o.input_line for o in overrides if not o.key_or_group.startswith("hydra")]
    own = [o.input_line for o in overrides if o.key_or_group.startswith("hydra")]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        try:
            # Hydra's own settings (hydra.run.dir=...) are merged into its config here too
            compose(config_name="config", overrides=lines + own, return_hydra_config=bool(own))
            return None
        except (HydraException, OmegaConfBaseException) as exc:
            message = " ".join(
                ln.strip() for ln in str(exc).splitlines() if "HYDRA_FULL_ERROR" not in ln
            )
            if exc.__cause__ is not None and str(exc.__cause__).strip():  # what was wrong
                message += f": {str(exc.__cause__).strip().splitlines()[0]}"
        for o in overrides:  # a nested key that is not there: its parent's settings
            key = o.key_or_group
            if "." not in key or f"'{key}'" not in message:
                continue
            parent, _, leaf = key.rpartition(".")
            rest = [ln for ln in lines if ln != o.input_line]
            try:
                node = OmegaConf.select(compose(config_name="config", overrides=rest), parent)
            except (HydraException, OmegaConfBaseException):
                continue
            if isinstance(node, DictConfig):
                names = sorted(str(k) for k in node if not str(k).startswith("_"))
                return f"{o.input_line}: {parent} has no setting {leaf!r}; " + _nearest(
                    leaf, names, f"{parent}'s settings"
                )
    return message
