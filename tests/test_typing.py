"""The typed face of the package as its users see it: ``mypy --strict`` on the user
scripts of tests/typing_scripts/ (the README's and docs' calls, with ``assert_type`` on the
return types users rely on), ofc_fast read as an installed package is (its own
errors are not the user's: ``mypy --strict ofc_fast`` checks those)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import pkgutil
import re
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ofc_fast

SCRIPTS = Path(__file__).parent / "typing_scripts"
ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): error: (?P<text>.*)$")
EXTRAS = {"user_sb3.py": "sb3_contrib"}
"""The user scripts that import an extra's module themselves: checked and run where
it is installed (``pip install ".[rl-train]"``), skipped elsewhere."""


def _skip_without_extra(script: str) -> None:
    """Skip a test of user script ``script`` where the extra it imports is missing."""
    module = EXTRAS.get(script)
    if module is not None and importlib.util.find_spec(module) is None:
        pytest.skip(f'{script} needs {module}: pip install ".[rl-train]"')


def _checked_scripts() -> list[Path]:
    """The user scripts whose modules are installed (:data:`EXTRAS`)."""
    return [
        p
        for p in sorted(SCRIPTS.glob("*.py"))
        if p.name not in EXTRAS or importlib.util.find_spec(EXTRAS[p.name]) is not None
    ]


@pytest.fixture(scope="session")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """One ``mypy --strict`` run over every user script (about 25 s, a fresh cache):
    script name -> its ``LINE: error`` lines."""
    api = pytest.importorskip("mypy.api", reason='pip install ".[test]" (mypy)')
    tmp = tmp_path_factory.mktemp("mypy")
    package_root = Path(ofc_fast.__file__).resolve().parents[1]
    # (a checkout's own package; an installed one, in site- or dist-packages, mypy finds)
    checkout = (package_root / "pyproject.toml").is_file()
    config = tmp / "mypy.ini"
    config.write_text(
        "[mypy]\nstrict = True\n"
        + (f"mypy_path = {package_root}\n" if checkout else "")
        + "[mypy-ofc_fast.*]\nignore_errors = True\n",
        encoding="utf-8",
    )
    stdout, stderr, _ = api.run(
        [
            "--config-file",
            str(config),
            "--cache-dir",
            str(tmp / "cache"),
            "--no-error-summary",
            "--show-absolute-path",
            *map(str, _checked_scripts()),
        ]
    )
    assert not stderr, stderr
    errors: dict[str, list[str]] = {}
    for line in stdout.splitlines():
        found = ERROR.match(line)
        assert found, line  # (only the scripts' own errors: none from ofc_fast)
        errors.setdefault(Path(found["file"]).name, []).append(
            f"{found['line']}: {found['text']}"
        )
    return errors


def _errors_in(errors: dict[str, list[str]], script: str, function: str) -> list[str]:
    """The mypy errors of ``function`` in user script ``script``."""
    tree = ast.parse((SCRIPTS / script).read_text(encoding="utf-8"))
    node = next(
        n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function
    )
    lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
    return [e for e in errors.get(script, []) if int(e.split(":")[0]) in lines]


def _functions(script: str) -> list[str]:
    """The functions user script ``script`` defines, in order."""
    tree = ast.parse((SCRIPTS / script).read_text(encoding="utf-8"))
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]


@pytest.mark.parametrize(
    ("script", "function"),
    [(p.name, f) for p in sorted(SCRIPTS.glob("*.py")) for f in _functions(p.name)],
)
def test_user_script_runs(script: str, function: str) -> None:
    """Each user script's function runs (the types it asserts are those of working
    calls, not of code that fails)."""
    if script == "user_api.py":  # (its AEC functions; user_numpy.py needs no extra)
        pytest.importorskip("pettingzoo", reason='pip install ".[test]" (pettingzoo)')
    _skip_without_extra(script)
    from scripts import load_script

    getattr(load_script(SCRIPTS / script, f"typing_{script[:-3]}"), function)()


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.py")))
def test_user_script_type_checks(mypy_errors: dict[str, list[str]], script: str) -> None:
    """A user's code calling the API as the README does passes ``mypy --strict``, each
    ``assert_type`` included."""
    _skip_without_extra(script)
    assert mypy_errors.get(script, []) == []


def test_pettingzoo_env_is_typed_as_its_environment(
    mypy_errors: dict[str, list[str]],
) -> None:
    """Regression: ``ofc_fast.env.pettingzoo_env()`` was typed as returning ``Any``, so
    a user's ``aec.reset()``, ``aec.step()`` and typos in them went unchecked; it is
    an :class:`~ofc_fast.env.aec.OfcAECEnv`."""
    assert _errors_in(mypy_errors, "user_api.py", "pettingzoo_environment") == []


def test_batch_arrays_are_typed_with_their_dtype(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``rank5_batch``, ``rank3_batch``, ``score_pairs`` and
    ``eval_boards``' ``BoardBatch`` arrays were typed as bare ``np.ndarray`` (dtype
    ``Any``), so ``assert_type(..., npt.NDArray[np.int32])`` failed and a user's
    float array annotation passed; they are ``NDArray[np.int32]`` (fouls
    ``NDArray[np.bool_]``) and take ``NDArray[np.uint8]``, as they check at run time."""
    assert _errors_in(mypy_errors, "user_numpy.py", "batches") == []


def test_encodings_are_typed_with_their_dtype(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``ofc_fast.encoding``'s ``encode_bytes``, ``encode``,
    ``encode_game``, ``features``, ``features_of_encoding``, ``action_mask`` and
    ``planes`` were typed as returning a bare ``np.ndarray`` (dtype ``Any``), so a
    policy's input annotation went unchecked; they give ``NDArray`` of the dtype they
    return at run time (``planes``: its input's)."""
    assert _errors_in(mypy_errors, "user_numpy.py", "encodings") == []


def test_vector_env_arrays_are_typed_with_their_dtype(
    mypy_errors: dict[str, list[str]],
) -> None:
    """Regression: ``VectorEnv.reset()`` and ``step()`` were typed as returning bare
    ``np.ndarray`` arrays (dtype ``Any``), as were ``observations_float()``,
    ``encode()`` and ``final_observations()``, so a user's training loop went
    unchecked; rewards are ``NDArray[np.float32]``, terminations and truncations
    ``NDArray[np.bool_]``, observations uint8 encodings or float32 features."""
    assert _errors_in(mypy_errors, "user_numpy.py", "vector_env") == []


def test_aec_last_is_typed_by_its_observe_flag(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``OfcAECEnv.last()`` was typed as giving an ``Any`` observation, so
    the README's ``o["action_mask"]`` went unchecked; it is the observation dict
    (``dict[str, NDArray[Any]]``), None for ``last(observe=False)`` (overloads on the
    flag's literal)."""
    assert _errors_in(mypy_errors, "user_api.py", "pettingzoo_loop") == []


def test_match_bots_are_typed_as_bots(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``Match.play_hand()``, ``Match.play()`` and ``game.play_out()``
    typed their bots as ``Sequence[Any]``, so a seat given a bot's name or None passed
    the checker and failed only when run; they take ``Sequence[Bot]``."""
    assert _errors_in(mypy_errors, "user_api.py", "match_bots") == []


def test_model_setting_is_typed(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``ofc_fast.learned.ModelSpec``, the type of the bots' and
    ``advise()``'s ``model=``, was ``Any``, so ``ValueBot(model=1)`` passed the checker
    and failed only when run; it is ``str | os.PathLike[str] | ValueModel |
    Mapping[str, str] | None``."""
    assert _errors_in(mypy_errors, "user_api.py", "model_settings") == []


def test_policies_are_typed(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``ofc_fast.bots.policy.Policy`` was ``Callable[[ndarray, ndarray],
    Any]`` and ``load_policy()`` returned it, so the action a loaded policy gave was
    ``Any`` and ``PolicyBot(lambda x: 0)`` passed the checker; a policy returns an
    action id (``SupportsInt``; a loaded one ``int``) and takes the features and the
    bool mask."""
    assert _errors_in(mypy_errors, "user_numpy.py", "policies") == []


def test_sb3_models_are_typed(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``ofc_fast.env.sb3.load_ppo()`` was typed as returning ``Any`` and
    ``frozen_policy()`` as giving ``Any`` actions (its model ``Any`` too), so a user's
    training script went unchecked past them; ``load_ppo()`` returns a
    ``MaskablePPO``, ``frozen_policy()``, ``export_policy()`` take an SB3 model
    (``BaseAlgorithm``) and the frozen copy gives ``NDArray[np.int64]`` actions."""
    _skip_without_extra("user_sb3.py")
    assert _errors_in(mypy_errors, "user_sb3.py", "saved_model") == []


def test_sb3_action_masks_are_typed_with_their_dtype(
    mypy_errors: dict[str, list[str]],
) -> None:
    """Regression: the SB3 adapter's ``VecEnv.action_masks()`` was typed as returning
    a bare ``np.ndarray`` (dtype ``Any``), so a user's mask annotation went
    unchecked; it is ``NDArray[np.bool_]``, the booleans it returns at run time."""
    _skip_without_extra("user_sb3.py")
    assert _errors_in(mypy_errors, "user_sb3.py", "vec_env_arrays") == []


def test_encode_game_takes_a_game(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``ofc_fast.encoding.encode_game()`` typed its game as ``Any``, so
    ``encode_game(observation, seat)`` passed the checker and failed only when run;
    it takes a :class:`~ofc_fast.Game`."""
    assert _errors_in(mypy_errors, "user_numpy.py", "game_encoding") == []


def test_gymnasium_arrays_are_typed_with_their_dtype(
    mypy_errors: dict[str, list[str]],
) -> None:
    """Regression: the Gymnasium ``OfcVectorEnv.step()`` was typed as returning bare
    ``np.ndarray`` rewards, terminations and truncations (dtype ``Any``), as were the
    envs' ``action_masks()``, so a user's training loop went unchecked; rewards are
    ``NDArray[np.float64]``, the others ``NDArray[np.bool_]``."""
    assert _errors_in(mypy_errors, "user_numpy.py", "gymnasium_envs") == []


def test_sb3_adapter_arrays_are_typed_with_their_dtype(
    mypy_errors: dict[str, list[str]],
) -> None:
    """Regression: the SB3 adapter's ``VecEnv.reset()`` and ``step_wait()`` were typed
    as returning bare ``np.ndarray`` arrays (dtype ``Any``); observations are uint8
    encodings or float32 features, rewards float32, dones bool."""
    _skip_without_extra("user_sb3.py")
    assert _errors_in(mypy_errors, "user_sb3.py", "vec_env_arrays") == []


def _public_modules() -> list[str]:
    """Every public module of the package (no ``_``-named part), the package first."""
    return ["ofc_fast"] + [
        m.name
        for m in pkgutil.walk_packages(ofc_fast.__path__, "ofc_fast.")
        if not any(part.startswith("_") for part in m.name.split(".")[1:])
    ]


def _hint_targets(module: str) -> Iterator[tuple[str, object]]:
    """The functions and classes of ``module``'s ``__all__``, and each such class's
    own methods, ``__init__`` and property getters: what ``get_type_hints`` reads."""
    mod = importlib.import_module(module)
    for name in getattr(mod, "__all__", ()):
        obj = getattr(mod, name)
        if not (inspect.isclass(obj) or inspect.isroutine(obj)):
            continue
        yield f"{module}.{name}", obj
        if inspect.isclass(obj):
            for key, value in vars(obj).items():
                member = value.fget if isinstance(value, property) else value
                member = getattr(member, "__func__", member)  # class- and staticmethods
                if inspect.isfunction(member) and (key == "__init__" or key[0] != "_"):
                    yield f"{module}.{name}.{key}", member


def _upstream_base_fails(cls: type) -> bool:
    """Whether a base of ``cls`` from another package fails ``get_type_hints`` on its
    own (gymnasium's ``Env``: its ``spec: EnvSpec`` names a TYPE_CHECKING import)."""
    for base in cls.__mro__[1:]:
        if base.__module__.split(".")[0] in ("ofc_fast", "builtins", "typing"):
            continue
        try:
            typing.get_type_hints(base)
        except NameError:
            return True
    return False


def _own_annotations(obj: Any) -> type:
    """A class of ``obj``'s own annotations, in ``obj``'s module, without its bases."""
    shell = type(obj.__name__, (), {"__annotations__": inspect.get_annotations(obj)})
    shell.__module__ = obj.__module__
    return shell


def _unresolved(obj: object) -> str:
    """Why ``typing.get_type_hints(obj)`` fails ("" when it works); a class whose base
    from another package fails on its own is checked on its own annotations."""
    try:
        typing.get_type_hints(obj)
        return ""
    except NameError as exc:
        if not (isinstance(obj, type) and _upstream_base_fails(obj)):
            return str(exc)
    return _unresolved(_own_annotations(obj))


@pytest.mark.parametrize("module", _public_modules())
def test_type_hints_resolve_at_run_time(module: str) -> None:
    """Regression: ``typing.get_type_hints(ofc_fast.env.sb3.load_ppo)`` (and of
    ``Match.play``, ``play_out``, ``replay``, ``Settlement``, ``match_report``,
    ``pettingzoo_env``) raised NameError, their annotations naming a TYPE_CHECKING
    import, so pydantic, typer, sphinx-autodoc and beartype failed on them; every
    public function and class of every public module resolves its hints (an extra a
    hint names is imported then, not when the module is)."""
    try:
        targets = list(_hint_targets(module))
    except ModuleNotFoundError as exc:  # an optional extra's module
        pytest.skip(f"{module} needs {exc.name}: pip install {exc.name}")
    problems = [f"{name}: {text}" for name, obj in targets if (text := _unresolved(obj))]
    assert problems == []


def test_carried_rule_set_is_typed(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: an observation's ``rule_set`` (a game of rules that are not
    exactly a preset) was typed ``dict[str, Any]``, so every rule a user read from it
    went unchecked; it is a :class:`~ofc_fast.game.RuleSetDict`, typed field by
    field (its parts too)."""
    assert _errors_in(mypy_errors, "user_api.py", "carried_rule_set") == []


def test_vector_env_infos_are_typed(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``VectorEnv.reset()``, ``step()`` and ``infos()`` typed their infos
    ``dict[str, Any]`` (and ``step()`` its actions ``Any``), so the actions a training
    loop picked from ``infos["legal_actions"]`` and a misspelt key went unchecked;
    the infos are a :class:`~ofc_fast.env.VectorInfos` of typed arrays."""
    assert _errors_in(mypy_errors, "user_numpy.py", "vector_env_infos") == []


def test_made_observation_is_typed(mypy_errors: dict[str, list[str]]) -> None:
    """Regression: ``ofc_fast.search.make_observation()`` was typed as returning
    ``dict[str, Any]``, so every field a user read from the position went unchecked;
    it returns an :class:`~ofc_fast.game.Observation`, as a game's."""
    assert _errors_in(mypy_errors, "user_api.py", "made_position") == []


def _bare_ndarrays(tree: ast.AST) -> Iterator[int]:
    """The lines of ``tree``'s annotations that name ``np.ndarray`` (or ``ndarray``)
    without its type arguments."""
    for node in ast.walk(tree):
        notes: list[ast.expr | None] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            args = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
            notes += [x.annotation for x in args if x is not None]
            notes.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            notes.append(node.annotation)
        for note in filter(None, notes):
            typed = {id(s.value) for s in ast.walk(note) if isinstance(s, ast.Subscript)}
            for part in ast.walk(note):
                named = isinstance(part, ast.Name) and part.id == "ndarray"
                named |= isinstance(part, ast.Attribute) and part.attr == "ndarray"
                if named and id(part) not in typed:
                    yield part.lineno


def test_no_annotation_of_the_package_is_a_bare_ndarray() -> None:
    """Regression: ``mypy --strict ofc_fast`` on Python 3.10 with NumPy 2.2 reported
    135 errors "Missing type arguments for generic type 'ndarray'" (NumPy 2.2 gives
    ndarray's type parameters no defaults; CI type-checks on 3.11 with a newer NumPy
    only): every array annotation names its arguments (``npt.NDArray[...]``)."""
    root = Path(ofc_fast.__file__).parent
    bare = [
        f"{path.relative_to(root)}:{line}"
        for path in sorted(root.rglob("*.py"))
        for line in _bare_ndarrays(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert bare == [], bare


def _holds_a_bare_array(hint: object, names: dict[str, Any]) -> bool:
    """Whether the resolved type ``hint`` holds an array type without its arguments:
    ``np.ndarray`` itself, or ``npt.NDArray`` left open (its dtype NumPy's own type
    variable), in any part (a union, a Callable's arguments, a dict's values...).  A
    part left a string (Python 3.10's ``get_type_hints`` leaves the strings of a
    ``collections.abc.Callable``'s arguments as they are) is read in ``names``, the
    hint's module's globals."""
    if isinstance(hint, (str, typing.ForwardRef)):
        text = hint if isinstance(hint, str) else hint.__forward_arg__
        hint = eval(text, names)  # (a hint of the package's own source: trusted)
    alias_type = getattr(typing, "TypeAliasType", None)  # (Python 3.12+)
    if alias_type is not None and isinstance(hint, alias_type):  # npt.NDArray of NumPy
        if hint.__module__.split(".")[0] == "numpy" and hint.__type_params__:  # 2.3+,
            return True  # left open (its type variable's __module__ is "typing")
        return _holds_a_bare_array(hint.__value__, names)
    if hint is np.ndarray:
        return True
    if isinstance(hint, typing.TypeVar):
        return hint.__module__.split(".")[0] == "numpy"
    if typing.get_origin(hint) is typing.Literal:  # (its strings are values)
        return False
    parts: list[object] = []
    for arg in typing.get_args(hint):
        parts += arg if isinstance(arg, list) else [arg]  # (a Callable's arguments)
    return any(_holds_a_bare_array(p, names) for p in parts)


def _bare_array_hints(module: str) -> list[str]:
    """The hints of ``module``'s public functions, classes and methods
    (:func:`_hint_targets`) and type aliases, resolved by ``typing.get_type_hints``
    in their module's globals (aliases and string annotations read as what they
    name), that hold a bare array type (:func:`_holds_a_bare_array`)."""
    mod = importlib.import_module(module)
    found = []
    for name in getattr(mod, "__all__", ()):
        obj = getattr(mod, name)
        alias = typing.get_origin(obj) is not None or isinstance(obj, typing.TypeVar)
        if alias and _holds_a_bare_array(obj, vars(mod)):
            found.append(f"{module}.{name}")
    for name, obj in _hint_targets(module):
        try:
            hints = typing.get_type_hints(obj)
        except NameError:  # an upstream base's own (see _unresolved)
            hints = typing.get_type_hints(_own_annotations(obj))
        names = vars(sys.modules[getattr(obj, "__module__", module)])
        found += [f"{name}: {k}" for k, h in hints.items() if _holds_a_bare_array(h, names)]
    return found


@pytest.mark.parametrize("module", _public_modules())
def test_no_public_hint_resolves_to_a_bare_ndarray(module: str) -> None:
    """Regression: :func:`test_no_annotation_of_the_package_is_a_bare_ndarray` reads
    the annotations' source, so a bare array behind a type alias (``Array =
    np.ndarray``, then ``x: Array``) or in a string annotation (``"np.ndarray"``)
    passed it unseen, and reached users as ``Any`` dtypes: every public function's,
    class's, method's and type alias's hints, resolved as ``typing.get_type_hints``
    resolves them, name their arrays' arguments."""
    try:
        found = _bare_array_hints(module)
    except ModuleNotFoundError as exc:  # an optional extra's module
        pytest.skip(f"{module} needs {exc.name}: pip install {exc.name}")
    assert found == []


def test_the_resolved_check_finds_an_alias_and_a_string_annotation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check itself: a bare array behind an alias, in a string annotation, inside
    a Callable's arguments, an open ``npt.NDArray`` and an alias of ``__all__`` are
    found; ``npt.NDArray[np.uint8]`` is not (so the test above can fail)."""
    probe = types.ModuleType("ofc_fast_probe")
    exec(
        "import numpy as np\n"
        "import numpy.typing as npt\n"
        "from collections.abc import Callable\n"
        "Array = np.ndarray\n"
        "Pair = tuple[int, np.ndarray]\n"
        "def aliased(x: Array) -> None: ...\n"
        "def quoted(x: 'dict[str, np.ndarray]') -> 'npt.NDArray[np.uint8]': ...\n"
        "def called(f: Callable[['np.ndarray'], int]) -> None: ...\n"
        "def opened(x: npt.NDArray) -> None: ...\n"
        "def fine(x: npt.NDArray[np.uint8]) -> None: ...\n"
        "__all__ = ['Pair', 'aliased', 'quoted', 'called', 'opened', 'fine']\n",
        probe.__dict__,
    )
    monkeypatch.setitem(sys.modules, probe.__name__, probe)
    assert _bare_array_hints(probe.__name__) == [
        "ofc_fast_probe.Pair",
        "ofc_fast_probe.aliased: x",
        "ofc_fast_probe.quoted: x",
        "ofc_fast_probe.called: f",
        "ofc_fast_probe.opened: x",
    ]
