"""The CMake build of the C library (CMakeLists.txt): a static and a shared library, an
install of the headers and of a CMake package, and ``find_package(ofc_fast)`` in a
consumer project giving ``ofc_fast::ofc_fast`` and ``ofc_fast::ofc_fast_shared``.

These read the source tree and need cmake (``pip install cmake``, in the ``test`` extra)
and a C compiler: outside a checkout they skip.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from c_programs import COMPILER, INCLUDES, ROOT, compile_library

import ofc_fast as ofc

CMAKE = shutil.which("cmake")
pytestmark = [
    pytest.mark.skipif(
        not (ROOT / "CMakeLists.txt").exists(),
        reason="needs a source checkout (git clone: CMakeLists.txt)",
    ),
    pytest.mark.skipif(CMAKE is None, reason="needs cmake: pip install cmake"),
    pytest.mark.skipif(COMPILER is None, reason="no C compiler: install gcc"),
]

_CONSUMER_C = """\
#include <stdio.h>
#include "ofc_fast.h"

int main(void)
{
    printf("%u %d\\n", (unsigned)ofc_rank5_unchecked(51, 47, 43, 39, 35),
           OFC_VERSION_NUMBER);
    return 0;
}
"""

_CONSUMER_CMAKE = """\
cmake_minimum_required(VERSION 3.16)
project(consumer LANGUAGES C)
find_package(ofc_fast {version} REQUIRED)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE ofc_fast::ofc_fast)
add_executable(app_shared app.c)
target_link_libraries(app_shared PRIVATE ofc_fast::ofc_fast_shared)
"""


def _cmake(*args: str | Path, cwd: Path | None = None) -> str:
    """Run cmake (or ctest) with ``args``; its output, failing the test on an error."""
    env = {**os.environ, "CC": COMPILER or "cc"}
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _header_version() -> str:
    text = (ROOT / "csrc" / "include" / "ofc_fast.h").read_text(encoding="utf-8")
    parts = [
        re.search(rf"#define OFC_VERSION_{p} (\d+)", text).group(1)  # type: ignore[union-attr]
        for p in ("MAJOR", "MINOR", "PATCH")
    ]
    return ".".join(parts)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The library built (Release, strict warnings) and installed under a prefix."""
    return _build_and_install(tmp_path_factory.mktemp("cmake"), "-DOFC_FAST_STRICT=ON")


def _build_and_install(base: Path, *options: str) -> Path:
    """The library configured (Release, no C tests, ``options``) and built in
    ``base/build``, then installed under ``base/prefix``, which is returned."""
    build, prefix = base / "build", base / "prefix"
    _cmake(
        CMAKE or "cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
        "-DOFC_FAST_TESTS=OFF", *options,
    )  # fmt: skip
    _cmake(CMAKE or "cmake", "--build", build, "--parallel", "2")
    _cmake(CMAKE or "cmake", "--install", build, "--prefix", prefix)
    return prefix


def test_install_lays_out_headers_libraries_and_the_package(installed: Path) -> None:
    lib = next(p for p in (installed / "lib", installed / "lib64") if p.is_dir())
    assert (lib / "libofc_fast.a").is_file()
    assert any(p.name.startswith("libofc_fast.so") for p in lib.iterdir())
    package = lib / "cmake" / "ofc_fast"
    for name in (
        "ofc_fastConfig.cmake",
        "ofc_fastConfigVersion.cmake",
        "ofc_fastTargets.cmake",
    ):
        assert (package / name).is_file(), name
    headers = {p.name for p in (installed / "include" / "ofc_fast").iterdir()}
    # every public header (csrc/include/) and the generated tables the inline rankers
    # include, and no private one
    public = {p.name for p in (ROOT / "csrc" / "include").glob("ofc_*.h")} | {
        "ofc_tables.h"
    }
    assert headers == public


def test_installed_package_names_no_path_of_the_build_machine(installed: Path) -> None:
    """The exported targets are relocatable: every path in them is under the install
    prefix (``${_IMPORT_PREFIX}``) and libraries such as libm are linked by name, so
    the package works when copied to a machine whose libm lies elsewhere."""
    package = next(
        p / "cmake" / "ofc_fast"
        for p in (installed / "lib", installed / "lib64")
        if (p / "cmake" / "ofc_fast").is_dir()
    )
    for targets in package.glob("ofc_fastTargets*.cmake"):
        text = targets.read_text(encoding="utf-8")
        for prop in re.findall(r'INTERFACE_[A-Z_]+ "([^"]*)"', text):
            for item in prop.split(";"):
                assert not os.path.isabs(item), f"{targets.name}: {item}"
        assert str(installed) not in text, targets.name


_OLD_CTEST = """\
#!/bin/sh
# ctest as CMake 3.16-3.19 has it: no --test-dir (CTest 3.20), an option it ignores
# without a word; it runs the tests of the current directory (none: success)
pwd >> "$CTEST_LOG"
"""

_QUIET_CMAKE = """\
#!/bin/sh
# cmake that only makes the build directory it is given (-B dir)
while [ $# -gt 0 ]; do
    [ "$1" = -B ] && mkdir -p "$2"
    shift
done
exit 0
"""


def test_c_test_script_runs_with_the_oldest_cmake_it_names(tmp_path: Path) -> None:
    """tests/c/run.sh says it needs cmake >= 3.16: it runs CTest in each build
    directory with the options of that version (``ctest --test-dir`` is CTest 3.20's)."""
    script = ROOT / "tests" / "c" / "run.sh"
    assert "cmake >= 3.16" in script.read_text(encoding="utf-8")
    bin_dir, out = tmp_path / "bin", tmp_path / "out"
    bin_dir.mkdir()
    (bin_dir / "cmake").write_text(_QUIET_CMAKE)
    (bin_dir / "ctest").write_text(_OLD_CTEST)
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    log = tmp_path / "ctest.log"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "CTEST_LOG": str(log),
    }
    done = subprocess.run(
        ["bash", str(script), str(out)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    ran = [Path(line).resolve() for line in log.read_text().split()]
    assert ran == [(out / name).resolve() for name in ("optimised", "asan-ubsan", "tsan")]


def test_every_installed_header_compiles_on_its_own(
    installed: Path, tmp_path: Path
) -> None:
    """A consumer can include any installed header first (each brings what it needs)."""
    include = installed / "include" / "ofc_fast"
    for header in sorted(include.glob("*.h")):
        src = tmp_path / f"{header.stem}.c"
        src.write_text(f'#include "{header.name}"\nint main(void) {{ return 0; }}\n')
        subprocess.run(
            [COMPILER or "cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic",
             f"-I{include}", "-c", str(src), "-o", str(tmp_path / f"{header.stem}.o")],
            check=True,
        )  # fmt: skip


def _cxx() -> str:
    """The C++ compiler the C++ consumer tests use (they skip without one)."""
    cxx = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler: install g++")
    return cxx


def test_every_installed_header_compiles_on_its_own_in_cxx(
    installed: Path, tmp_path: Path
) -> None:
    """A C++ consumer can include any installed header first, under the warnings strict
    C++ projects build with.  ofc_inline.h's static inline rankers are compiled in
    every translation unit that includes it, and ofc_rank5_inline() took the low half
    of its key with a C-style cast: ``-Wold-style-cast -Werror`` refused the header."""
    cxx = _cxx()
    include = installed / "include" / "ofc_fast"
    for header in sorted(include.glob("*.h")):
        src = tmp_path / f"{header.stem}.cpp"
        src.write_text(f'#include "{header.name}"\nint main() {{ return 0; }}\n')
        done = subprocess.run(
            [cxx, "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic",
             "-Wold-style-cast", "-Wcast-qual", "-Wconversion", "-Wsign-conversion",
             "-Wshadow", "-Wzero-as-null-pointer-constant", f"-I{include}",
             "-fsyntax-only", str(src)],
            capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, f"{header.name}:\n{done.stderr}"


def test_find_package_gives_static_and_shared_targets(
    installed: Path, tmp_path: Path
) -> None:
    """A consumer project links both targets; both programs print what the Python API
    gives (same ranker, same version)."""
    src = tmp_path / "consumer"
    src.mkdir()
    (src / "app.c").write_text(_CONSUMER_C)
    (src / "CMakeLists.txt").write_text(_CONSUMER_CMAKE.format(version=_header_version()))
    build = tmp_path / "consumer-build"
    _cmake(CMAKE or "cmake", "-S", src, "-B", build, f"-DCMAKE_PREFIX_PATH={installed}")
    _cmake(CMAKE or "cmake", "--build", build)
    major, minor, patch = (int(x) for x in ofc.__version__.split(".")[:3])
    expected = f"{ofc.rank5('As Ks Qs Js Ts')} {major * 10000 + minor * 100 + patch}"
    for app in ("app_static", "app_shared"):
        out = subprocess.run([str(build / app)], check=True, capture_output=True, text=True)
        assert out.stdout.split() == expected.split(), app
    # The shared program resolves the installed shared library, not a static copy.
    needed = subprocess.run(
        ["ldd", str(build / "app_shared")], capture_output=True, text=True
    )
    if needed.returncode == 0:
        assert "libofc_fast.so" in needed.stdout


_CXX_WITH_C_CMAKE = """\
cmake_minimum_required(VERSION 3.16)
project(consumer LANGUAGES CXX)
add_subdirectory(vendored)
find_package(ofc_fast {version} REQUIRED)
add_executable(app app.cpp)
target_link_libraries(app PRIVATE ofc_fast::ofc_fast vendored)
"""


def test_find_package_from_a_cxx_project_that_enables_c_below(
    installed: Path, tmp_path: Path
) -> None:
    """A C++ project that builds a C library of its own in a subdirectory (a vendored
    zlib, say) and links the installed ofc_fast::ofc_fast did not generate ("No known
    features for C compiler"): the installed targets required c_std_99 of their users,
    which CMake resolves only where C is enabled, not in the C++ project's directory.
    It builds and runs."""
    _cxx()
    src = tmp_path / "consumer"
    (src / "vendored").mkdir(parents=True)
    (src / "vendored" / "CMakeLists.txt").write_text(
        "project(vendored LANGUAGES C)\nadd_library(vendored STATIC vendored.c)\n"
    )
    (src / "vendored" / "vendored.c").write_text("int vendored(void) { return 1; }\n")
    (src / "app.cpp").write_text(_CONSUMER_C)
    (src / "CMakeLists.txt").write_text(_CXX_WITH_C_CMAKE.format(version=_header_version()))
    build = tmp_path / "build"
    _cmake(CMAKE or "cmake", "-S", src, "-B", build, f"-DCMAKE_PREFIX_PATH={installed}")
    _cmake(CMAKE or "cmake", "--build", build)
    out = subprocess.run([str(build / "app")], check=True, capture_output=True, text=True)
    assert out.stdout.split()[0] == str(ofc.rank5("As Ks Qs Js Ts"))


def _documented_pkg_config_command() -> str:
    """The one ``cc app.c $(pkg-config ...`` line of README.md, which docs/c-api.md
    gives too."""
    from scripts import checkout_file

    found = {
        doc: [
            line.strip()
            for line in checkout_file(doc).read_text(encoding="utf-8").splitlines()
            if line.startswith("cc app.c $(pkg-config")
        ]
        for doc in ("README.md", "docs/c-api.md")
    }
    assert len({tuple(lines) for lines in found.values()}) == 1, found
    assert len(found["README.md"]) == 1, found
    return found["README.md"][0]


def test_pkg_config_file_builds_a_consumer(installed: Path, tmp_path: Path) -> None:
    """The install holds lib/pkgconfig/ofc_fast.pc: ``pkg-config --cflags --libs
    ofc_fast`` compiles and links a program that prints what the Python API gives, and
    its version is the header's (the prefix is found from the file's place, so it is
    the one ``cmake --install --prefix`` gave).  The program is built with the README's
    command and runs as built, without LD_LIBRARY_PATH."""
    pkg_config = shutil.which("pkg-config") or shutil.which("pkgconf")
    if pkg_config is None:
        pytest.skip("needs pkg-config: apt-get install pkg-config (or pkgconf)")
    lib = next(p for p in (installed / "lib", installed / "lib64") if p.is_dir())
    assert (lib / "pkgconfig" / "ofc_fast.pc").is_file()
    env = {**os.environ, "PKG_CONFIG_PATH": str(lib / "pkgconfig")}

    def query(*args: str) -> list[str]:
        done = subprocess.run(
            [pkg_config, *args, "ofc_fast"], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert query("--modversion") == [_header_version()]
    flags = query("--cflags", "--libs")
    assert f"-I{(installed / 'include' / 'ofc_fast').resolve()}" in [
        f"-I{Path(f[2:]).resolve()}" for f in flags if f.startswith("-I")
    ]
    assert "-lm" in query("--libs", "--static")
    (tmp_path / "app.c").write_text(_CONSUMER_C)
    # The README's command, as it stands there (and in docs/c-api.md), with this
    # machine's compiler and pkg-config: the program it builds runs without
    # LD_LIBRARY_PATH from a non-system prefix.
    command = _documented_pkg_config_command()
    command = re.sub(r"^cc ", f"{COMPILER or 'cc'} ", command)
    command = command.replace("$(pkg-config ", f"$({pkg_config} ")
    env.pop("LD_LIBRARY_PATH", None)
    subprocess.run(["sh", "-c", command], cwd=tmp_path, env=env, check=True)
    out = subprocess.run(
        [str(tmp_path / "app")], check=True, capture_output=True, text=True, env=env
    )
    major, minor, patch = (int(x) for x in ofc.__version__.split(".")[:3])
    expected = f"{ofc.rank5('As Ks Qs Js Ts')} {major * 10000 + minor * 100 + patch}"
    assert out.stdout.split() == expected.split()


_IMPORT_PROBE = '#include "ofc_export.h"\nOFC_API int probe;\n'
_IMPORT_CMAKE = """\
cmake_minimum_required(VERSION 3.16)
project(probe LANGUAGES C)
find_package(ofc_fast REQUIRED)
foreach(t ofc_fast ofc_fast_shared)
    get_target_property(d ofc_fast::${t} INTERFACE_COMPILE_DEFINITIONS)
    message(STATUS "defines ${t}=${d}")
endforeach()
"""


def _probe_on_windows(flags: list[str]) -> str:
    """An ``OFC_API`` declaration as a Windows compiler given ``flags`` sees it
    (preprocessed here with _WIN32 defined)."""
    done = subprocess.run(
        [COMPILER or "cc", "-E", "-P", "-D_WIN32", *flags, "-x", "c", "-"],
        input=_IMPORT_PROBE,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _cmake_probe(cmake_lists: str, installed: Path, tmp_path: Path) -> str:
    """The output of configuring a project of ``cmake_lists`` that finds the
    installed package."""
    src = tmp_path / "probe"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(cmake_lists)
    return _cmake(
        CMAKE or "cmake", "-S", src, "-B", tmp_path / "b",
        f"-DCMAKE_PREFIX_PATH={installed}",
    )  # fmt: skip


def test_shared_library_consumers_import_the_api_on_windows(
    installed: Path, tmp_path: Path
) -> None:
    """A program built against the shared library with ``pkg-config --cflags
    ofc_fast`` (whose Libs link it) lacked OFC_FAST_SHARED: on Windows its
    declarations were no ``__declspec(dllimport)``, and the tables ofc_inline.h reads
    did not link.  The flags (here with _WIN32 defined, to see what a Windows compiler
    gets) import them, as CMake's ofc_fast::ofc_fast_shared target does; the static
    target does not."""
    lib = next(p for p in (installed / "lib", installed / "lib64") if p.is_dir())
    pc = (lib / "pkgconfig" / "ofc_fast.pc").read_text(encoding="utf-8")
    cflags = next(line for line in pc.splitlines() if line.startswith("Cflags:"))
    include = installed / "include" / "ofc_fast"
    flags = [f.replace("${includedir}", str(include)) for f in cflags.split()[1:]]
    probe = _probe_on_windows(flags)
    assert "__declspec(dllimport) int probe;" in probe, (cflags, probe)
    out = _cmake_probe(_IMPORT_CMAKE, installed, tmp_path)
    assert "defines ofc_fast_shared=OFC_FAST_SHARED" in out
    assert "defines ofc_fast=d-NOTFOUND" in out


_STATIC_CMAKE = """\
cmake_minimum_required(VERSION 3.16)
project(probe LANGUAGES C)
find_package(ofc_fast REQUIRED)
get_target_property(f ofc_fast::ofc_fast IMPORTED_LOCATION_RELEASE)
message(STATUS "static file ${f}")
"""


def test_static_pkg_config_file_links_the_static_library(
    installed: Path, tmp_path: Path
) -> None:
    """``pkg-config --static --libs ofc_fast`` named ``-lofc_fast``, which is the
    import library on Windows (the static one is ofc_fast_static.lib there) and the
    shared library wherever both lie side by side, with Cflags defining
    OFC_FAST_SHARED.  lib/pkgconfig/ofc_fast_static.pc names the file CMake's
    ofc_fast::ofc_fast target installs (whatever its name on the platform) and
    libm, and does not define OFC_FAST_SHARED (no dllimport with _WIN32): the
    program it builds runs without the shared library's directory anywhere."""
    pkg_config = shutil.which("pkg-config") or shutil.which("pkgconf")
    if pkg_config is None:
        pytest.skip("needs pkg-config: apt-get install pkg-config (or pkgconf)")
    lib = next(p for p in (installed / "lib", installed / "lib64") if p.is_dir())
    env = {**os.environ, "PKG_CONFIG_PATH": str(lib / "pkgconfig")}
    env.pop("LD_LIBRARY_PATH", None)

    def query(*args: str) -> list[str]:
        done = subprocess.run(
            [pkg_config, *args, "ofc_fast_static"],
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert query("--modversion") == [_header_version()]
    out = _cmake_probe(_STATIC_CMAKE, installed, tmp_path)
    static = Path(re.search(r"static file (\S+)", out).group(1))  # type: ignore[union-attr]
    libs = query("--libs")
    assert [Path(f).resolve() for f in libs if not f.startswith("-")] == [
        static.resolve()
    ], libs
    assert "-lm" in libs and not any(f.startswith("-lofc") for f in libs), libs
    cflags = query("--cflags")
    assert not any("OFC_FAST_SHARED" in f for f in cflags), cflags
    probe = _probe_on_windows(cflags)
    assert "int probe;" in probe and "dllimport" not in probe, probe
    (tmp_path / "app.c").write_text(_CONSUMER_C)
    subprocess.run(
        [COMPILER or "cc", "app.c", *cflags, *libs, "-o", "app"],
        cwd=tmp_path,
        check=True,
    )
    ran = subprocess.run([str(tmp_path / "app")], capture_output=True, text=True, env=env)
    assert ran.returncode == 0, ran.stderr  # no libofc_fast.so to find: linked in
    assert ran.stdout.split()[0] == str(ofc.rank5("As Ks Qs Js Ts"))


def test_pkg_config_files_name_the_libraries_a_postfix_gives(tmp_path: Path) -> None:
    """A build whose libraries carry a postfix (CMAKE_DEBUG_POSTFIX, or
    CMAKE_<CONFIG>_POSTFIX) installs libofc_fast_r.a and libofc_fast_r.so, but its
    ofc_fast.pc said ``-lofc_fast`` and ofc_fast_static.pc ``libofc_fast.a``: files
    that are not there, so no program linked.  Each .pc file now names the library
    the build installed: a program built with its flags links and runs."""
    pkg_config = shutil.which("pkg-config") or shutil.which("pkgconf")
    if pkg_config is None:
        pytest.skip("needs pkg-config: apt-get install pkg-config (or pkgconf)")
    prefix = _build_and_install(tmp_path, "-DCMAKE_RELEASE_POSTFIX=_r")
    lib = next(p for p in (prefix / "lib", prefix / "lib64") if p.is_dir())
    env = {**os.environ, "PKG_CONFIG_PATH": str(lib / "pkgconfig")}
    env["LD_LIBRARY_PATH"] = env["DYLD_LIBRARY_PATH"] = str(lib)
    (tmp_path / "app.c").write_text(_CONSUMER_C)
    for package in ("ofc_fast", "ofc_fast_static"):
        flags = subprocess.run(
            [pkg_config, "--cflags", "--libs", package],
            env=env, check=True, capture_output=True, text=True,
        ).stdout.split()  # fmt: skip
        done = subprocess.run(
            [COMPILER or "cc", "app.c", *flags, "-o", package],
            cwd=tmp_path, capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, f"{package}: {flags}\n{done.stderr}"
        ran = subprocess.run(
            [str(tmp_path / package)], env=env, check=True, capture_output=True, text=True
        )
        assert ran.stdout.split()[0] == str(ofc.rank5("As Ks Qs Js Ts")), package


def test_pkg_config_files_follow_the_configuration_installed_last(tmp_path: Path) -> None:
    """A multi-configuration generator (Ninja Multi-Config, Visual Studio, Xcode)
    writes every configuration's .pc files in one configure step, within the same
    second; ``cmake --install`` skips a file whose time is that of the one installed
    ("Up-to-date"), so installing Debug (postfix d) and then Release into one prefix
    kept Debug's ofc_fast.pc (``-lofc_fastd``) beside the Release libraries.  The .pc
    files are now those of the configuration installed last, either way round."""
    ninja = shutil.which("ninja")
    if ninja is None:
        pytest.skip("needs ninja (Ninja Multi-Config): pip install ninja")
    build, prefix = tmp_path / "build", tmp_path / "prefix"
    _cmake(
        CMAKE or "cmake", "-S", ROOT, "-B", build, "-G", "Ninja Multi-Config",
        f"-DCMAKE_MAKE_PROGRAM={ninja}", "-DCMAKE_CONFIGURATION_TYPES=Debug;Release",
        "-DCMAKE_DEBUG_POSTFIX=d", "-DOFC_FAST_TESTS=OFF",
    )  # fmt: skip
    for config in ("Debug", "Release"):
        _cmake(CMAKE or "cmake", "--build", build, "--config", config, "--parallel", "2")
    # the library each .pc file must name, by the configuration installed
    expected = {
        "Debug": ("-lofc_fastd", "libofc_fastd.a"),
        "Release": ("-lofc_fast", "libofc_fast.a"),
    }
    for config in ("Debug", "Release", "Debug"):
        _cmake(CMAKE or "cmake", "--install", build, "--config", config, "--prefix", prefix)
        pc = next(p for p in (prefix / "lib", prefix / "lib64") if p.is_dir()) / "pkgconfig"
        libs = {
            name: re.search(r"^Libs:(.*)$", (pc / name).read_text(), re.MULTILINE)
            for name in ("ofc_fast.pc", "ofc_fast_static.pc")
        }
        shared, static = (m.group(1).split() if m else [] for m in libs.values())
        assert expected[config][0] in shared, (config, shared)
        assert any(f.endswith("/" + expected[config][1]) for f in static), (config, static)


def _declared(include: Path) -> set[str]:
    """The functions and data the installed headers declare (comments and
    preprocessor lines aside; static inline definitions are no declarations)."""
    text = ""
    for header in sorted(include.glob("*.h")):
        code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", header.read_text(), flags=re.DOTALL)
        text += "\n".join(
            line for line in code.splitlines() if not line.lstrip().startswith("#")
        )
    functions = re.findall(r"\b(ofc_\w+)\s*\([^;{}]*\)\s*;", text)
    data = re.findall(
        r"\bextern\s+const\s+[\w\s*]+?\b(ofc_\w+)\s*(?:\[[^\]]*\])?\s*;", text
    )
    return set(functions) | set(data)


def test_shared_library_exports_exactly_the_public_api(installed: Path) -> None:
    """The shared library's dynamic symbols are the functions and tables the
    installed headers declare: no internal one (ofc_gm_*, ofc_sx_*, ofc_bnb_* were
    exported), and none of the API missing."""
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("needs nm: apt-get install binutils")
    lib = next(p for p in (installed / "lib", installed / "lib64") if p.is_dir())
    shared = next(p for p in sorted(lib.iterdir()) if p.name.startswith("libofc_fast.so"))
    done = subprocess.run(
        [nm, "-D", "--defined-only", str(shared)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    exported = {
        f[2] for f in (line.split() for line in done.stdout.splitlines()) if len(f) == 3
    }
    exported = {name for name in exported if not name.startswith("_")}
    declared = _declared(installed / "include" / "ofc_fast")
    assert "ofc_status_string" in declared and "ofc_tab_flush" in declared
    assert sorted(exported - declared) == []
    assert sorted(declared - exported) == []


_CXX_CONSUMER = """\
{includes}
#include <cstdio>

static ofc_game_rules rules;
static ofc_game_result result;
static ofc_vmodel model;
static ofc_vecenv_slot slot;
static uint8_t enc[OFC_ENC_SIZE];
static float features[OFC_FEAT_SIZE];

int main()
{{
    ofc_game game;
    ofc_rng rng = {{7, 0}};
    ofc_search_model search = ofc_search_model();
    if (ofc_game_rules_init_pineapple(&rules) != OFC_OK ||
        ofc_game_init(&rules, &game, 3, 0, 0, 42, 0) != OFC_OK ||
        ofc_game_playout(&game, &rng, 0) != OFC_OK ||
        ofc_game_result_get(&rules, &game, 0, 0, &result) != OFC_OK ||
        ofc_search_model_check(&search) != OFC_OK ||
        ofc_vm_parse(0, 0, &model) != OFC_E_MODEL_TRUNCATED ||
        ofc_vecenv_config_check(0) != OFC_E_RULES || ofc_value_ctx_check(0) == OFC_OK ||
        ofc_heur_model_check(0) != OFC_E_VALUE || ofc_fl_rules_check(0) != OFC_E_RULES ||
        ofc_table_rules_init(0) != OFC_E_VALUE ||
        ofc_features_slots(&slot, 0, 0, enc, features) != OFC_OK ||
        ofc_rank5_unchecked(51, 47, 43, 39, 35) == 0)
        return 1;
    std::printf("%d %s\\n", result.net[0] + result.net[1] + result.net[2],
                ofc_natural_name(0));
    return 0;
}}
"""


def test_a_cxx_program_uses_the_installed_headers_and_library(
    installed: Path, tmp_path: Path
) -> None:
    """The headers promise C++ programs too: every installed header in one C++
    translation unit (strict warnings), a call into each header's functions linked
    against the installed static library (C linkage: extern "C" in each header)."""
    cxx = _cxx()
    include = installed / "include" / "ofc_fast"
    lib = next(p for p in (installed / "lib", installed / "lib64") if p.is_dir())
    headers = sorted(h.name for h in include.glob("*.h"))
    src = tmp_path / "app.cpp"
    src.write_text(
        _CXX_CONSUMER.format(includes="\n".join(f'#include "{h}"' for h in headers))
    )
    exe = tmp_path / "app"
    subprocess.run(
        [cxx, "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{include}",
         str(src), str(lib / "libofc_fast.a"), "-lm", "-o", str(exe)],
        check=True,
    )  # fmt: skip
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True)
    assert out.stdout.split()[0] == "0"  # the nets of a deal add up to zero


def test_installed_tables_have_c_linkage_in_cxx(installed: Path, tmp_path: Path) -> None:
    """ofc_tables.h (the tables ofc_inline.h reads) had no extern "C" block: a C++
    program saw them with C++ linkage, whose names MSVC mangles
    (``?ofc_tab_card_key@@3QB_KB``), so it could not link them from the library.
    Each table the installed headers declare, redeclared with C linkage after every
    header, is the same declaration (a conflicting linkage does not compile)."""
    cxx = _cxx()
    include = installed / "include" / "ofc_fast"
    headers = sorted(h.name for h in include.glob("*.h"))
    tables = re.findall(
        r"^OFC_API (extern const \w+ ofc_\w+\[\d+\];)$",
        (include / "ofc_tables.h").read_text(encoding="utf-8"),
        flags=re.MULTILINE,
    )
    assert len(tables) > 5 and "ofc_tab_card_key" in "".join(tables)
    src = tmp_path / "linkage.cpp"
    src.write_text(
        "".join(f'#include "{h}"\n' for h in headers)
        + 'extern "C" {\n'
        + "".join(f"{t}\n" for t in tables)
        + "}\nint main() { return ofc_rank5_inline(51, 47, 43, 39, 35) == 0; }\n"
    )
    done = subprocess.run(
        [cxx, "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{include}",
         "-fsyntax-only", str(src)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_find_package_refuses_an_incompatible_version(
    installed: Path, tmp_path: Path
) -> None:
    src = tmp_path / "consumer"
    src.mkdir()
    (src / "app.c").write_text(_CONSUMER_C)
    (src / "CMakeLists.txt").write_text(_CONSUMER_CMAKE.format(version="99.0"))
    done = subprocess.run(
        [CMAKE or "cmake", "-S", str(src), "-B", str(tmp_path / "b"),
         f"-DCMAKE_PREFIX_PATH={installed}"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode != 0
    assert "ofc_fast" in done.stderr and "99.0" in done.stderr


def _parent_project(tmp_path: Path, language: str, source: str) -> Path:
    """A project of ``language`` (C or CXX) that adds this checkout with
    add_subdirectory() and builds ``source`` (the consumer program, a C or C++ file)
    into app_static and app_shared, linked to the two namespaced targets: built
    (Release), its build directory."""
    src = tmp_path / "consumer"
    src.mkdir()
    (src / source).write_text(_CONSUMER_C)
    (src / "CMakeLists.txt").write_text(
        f"cmake_minimum_required(VERSION 3.16)\nproject(consumer LANGUAGES {language})\n"
        f'add_subdirectory("{ROOT.as_posix()}" ofc_fast)\n'
        + "".join(
            f"add_executable(app_{kind} {source})\n"
            f"target_link_libraries(app_{kind} PRIVATE ofc_fast::{target})\n"
            for kind, target in (("static", "ofc_fast"), ("shared", "ofc_fast_shared"))
        )
    )
    build = tmp_path / "b"
    _cmake(CMAKE or "cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release")
    _cmake(CMAKE or "cmake", "--build", build, "--parallel", "2")
    for app in ("app_static", "app_shared"):
        out = subprocess.run([str(build / app)], check=True, capture_output=True, text=True)
        assert out.stdout.split()[0] == str(ofc.rank5("As Ks Qs Js Ts")), app
    return build


def test_add_subdirectory_gives_the_same_targets(tmp_path: Path) -> None:
    """Without installing: add_subdirectory(ofc-fast) and the namespaced targets (the C
    tests are off by default in a sub-project)."""
    build = _parent_project(tmp_path, "C", "app.c")
    assert not (build / "ofc_fast" / "test_ofc").exists()  # no C tests in a sub-project


def test_add_subdirectory_from_a_cxx_project(tmp_path: Path) -> None:
    """A C++ project (``project(app LANGUAGES CXX)``) that added the checkout with
    add_subdirectory() did not generate: the targets required the C feature
    c_std_99 of their users, which CMake could not resolve in the parent's directory,
    where C is not enabled ("No known features for C compiler").  It builds, and its
    programs link both targets."""
    _cxx()
    _parent_project(tmp_path, "CXX", "app.cpp")


def test_a_build_given_no_build_type_is_optimised(tmp_path: Path) -> None:
    """``cmake -S . -B build && cmake --build build`` (no CMAKE_BUILD_TYPE) compiled the
    library without optimisation (-O0: a deal settled five times slower than in the
    Release build docs/c-api.md shows).  A top-level build given no type is a Release
    build; a type given is kept."""
    for given, expected in (([], "Release"), (["-DCMAKE_BUILD_TYPE=Debug"], "Debug")):
        build = tmp_path / expected
        env = {k: v for k, v in os.environ.items() if k != "CMAKE_BUILD_TYPE"}
        done = subprocess.run(
            [CMAKE or "cmake", "-S", str(ROOT), "-B", str(build), "-DOFC_FAST_TESTS=OFF",
             *given],
            env={**env, "CC": COMPILER or "cc"}, capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        cache = (build / "CMakeCache.txt").read_text(encoding="utf-8")
        assert re.search(rf"^CMAKE_BUILD_TYPE:\w+={expected}$", cache, re.MULTILINE)
        flags = build / "CMakeFiles" / "ofc_fast_objects.dir" / "flags.make"
        if flags.exists():  # the Makefile generator's: the compiler's flags
            assert ("-O3" in flags.read_text()) == (expected == "Release")


def test_c_tests_configure_without_posix_threads(tmp_path: Path) -> None:
    """A top-level build turns the C tests on; where there are no POSIX threads (MSVC;
    here: Threads disabled) it configures and runs every test but those that include
    <pthread.h>, instead of failing on ``find_package(Threads REQUIRED)``."""
    build = tmp_path / "b"
    _cmake(
        CMAKE or "cmake", "-S", ROOT, "-B", build, "-DOFC_FAST_TESTS=ON",
        "-DCMAKE_DISABLE_FIND_PACKAGE_Threads=ON",
    )  # fmt: skip
    ctest = Path(CMAKE).with_name("ctest") if CMAKE else "ctest"
    listed = set(re.findall(r"Test +#\d+: (\w+)", _cmake(ctest, "-N", cwd=build)))
    sources = sorted((ROOT / "tests" / "c").glob("test_*.c"))
    threaded = {p.stem for p in sources if "#include <pthread.h>" in p.read_text()}
    assert {"test_threads", "test_vecenv"} <= threaded
    assert listed == {p.stem for p in sources} - threaded


_MODEL_VALUES_C = """\
#include <stdio.h>
#include "model_file.h"

static uint8_t file[64 + 4 * 5 + 4 * (64 * 32 + 32 + 32 + 1)];
static ofc_vmodel model;
static uint32_t state = 12345;

static float draw(void) /* a float in [-1, 1) */
{
    state = state * 1664525u + 1013904223u;
    return (float)((int32_t)(state >> 8) - (1 << 23)) / (float)(1 << 23);
}

int main(void)
{
    size_t n = put_header(file, 0, 1), i;
    int t;
    n += put32(file + n, 5); /* one net: 5 cards, 64 inputs, 32 hidden units, 1 */
    n += put32(file + n, 2);
    n += put32(file + n, 64);
    n += put32(file + n, 32);
    n += put32(file + n, 1);
    for (i = 0; i < 64 * 32 + 32 + 32 + 1; i++)
        n += putf(file + n, draw());
    if (ofc_vm_parse(file, seal(file, n), &model) != OFC_OK)
        return 1;
    for (t = 0; t < 200; t++) {
        float x[64];
        double v;
        for (i = 0; i < 64; i++)
            x[i] = draw();
        if (ofc_vm_eval(&model, 5, x, &v) != OFC_OK)
            return 2;
        printf("%a\\n", v);
    }
    return 0;
}
"""


def test_c_tests_pass_under_link_time_optimisation(tmp_path: Path) -> None:
    """A packager's flags with link-time optimisation (``-O2 -flto=auto``, the default
    of several distributions) failed test_vecenv under CTest (``rc == -70, expected
    OFC_E_MEMORY``): its allocation failure wraps the library's ofc_bnb_alloc at link
    time (``-Wl,--wrap``), and the optimiser had resolved the solver's call to it
    inside the library, so the solver allocated and played on.  Under LTO that one
    check is left out and the test passes; a build without LTO still makes it."""
    if platform.system() != "Linux":
        pytest.skip("run on Linux (the wrapped allocation is a GNU ld test)")
    flags = "-O2 -flto=auto"
    probe = tmp_path / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    if subprocess.run(
        [COMPILER or "cc", *flags.split(), str(probe), "-o", str(tmp_path / "probe")],
        capture_output=True,
    ).returncode:
        pytest.skip(f"needs a compiler with {flags}: install gcc")
    for given, lto in (("-O2", False), (flags, True)):
        build = tmp_path / ("lto" if lto else "plain")
        _cmake(
            CMAKE or "cmake", "-S", ROOT, "-B", build, "-DOFC_FAST_TESTS=ON",
            "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_C_FLAGS={given}",
            "-DCMAKE_C_FLAGS_RELEASE=-DNDEBUG",
        )  # fmt: skip
        made = build / "CMakeFiles" / "test_vecenv.dir" / "flags.make"
        if made.exists():  # the Makefile generator's: is the allocation failure made?
            assert ("-DOFC_TEST_WRAP_ALLOC" in made.read_text()) == (not lto), given
    _cmake(CMAKE or "cmake", "--build", build, "--target", "test_vecenv", "--parallel", "2")
    ctest = Path(CMAKE).with_name("ctest") if CMAKE else "ctest"
    _cmake(ctest, "-R", "^test_vecenv$", "--output-on-failure", cwd=build)


def test_link_time_optimisation_of_one_configuration_is_detected(tmp_path: Path) -> None:
    """The check that leaves test_vecenv's wrapped allocation out under link-time
    optimisation read the flags of CMAKE_BUILD_TYPE only: a multi-configuration
    generator (Ninja Multi-Config, Visual Studio, Xcode) has no build type, so
    ``-flto`` in CMAKE_C_FLAGS_RELEASE went unseen and the Release test_vecenv failed
    under CTest (``rc == -70, expected OFC_E_MEMORY``), as did a single-configuration
    build given CMAKE_INTERPROCEDURAL_OPTIMIZATION_RELEASE.  Each configuration now
    leaves the check out where it has LTO and keeps it where it has none."""
    ninja = shutil.which("ninja")
    if platform.system() != "Linux" or ninja is None:
        pytest.skip("run on Linux (a GNU ld test) with ninja: pip install ninja")
    # a single-configuration build given LTO for its build type only (configured only)
    single = tmp_path / "single"
    _cmake(
        CMAKE or "cmake", "-S", ROOT, "-B", single, "-DOFC_FAST_TESTS=ON",
        "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_INTERPROCEDURAL_OPTIMIZATION_RELEASE=ON",
    )  # fmt: skip
    made = single / "CMakeFiles" / "test_vecenv.dir" / "flags.make"
    if made.exists():  # the Makefile generator's
        assert "-DOFC_TEST_WRAP_ALLOC" not in made.read_text()
    build = tmp_path / "multi"
    _cmake(
        CMAKE or "cmake", "-S", ROOT, "-B", build, "-G", "Ninja Multi-Config",
        f"-DCMAKE_MAKE_PROGRAM={ninja}", "-DCMAKE_CONFIGURATION_TYPES=Debug;Release",
        "-DCMAKE_C_FLAGS_RELEASE=-O2 -flto=auto -DNDEBUG", "-DOFC_FAST_TESTS=ON",
    )  # fmt: skip
    for config, wrapped in (("Debug", True), ("Release", False)):
        rules = (build / "CMakeFiles" / f"impl-{config}.ninja").read_text()
        assert ("-DOFC_TEST_WRAP_ALLOC" in rules) == wrapped, config
        assert ("--wrap=ofc_bnb_alloc" in rules) == wrapped, config
    _cmake(
        CMAKE or "cmake", "--build", build, "--config", "Release",
        "--target", "test_vecenv", "--parallel", "2",
    )  # fmt: skip
    ctest = Path(CMAKE).with_name("ctest") if CMAKE else "ctest"
    _cmake(ctest, "-C", "Release", "-R", "^test_vecenv$", "--output-on-failure", cwd=build)


def test_model_values_do_not_depend_on_the_c_dialect(tmp_path: Path) -> None:
    """ofc_model.h promises the forward pass the same bits on every CPU: no fused
    multiply-add.  Only Clang was told so (its pragma); GCC was trusted not to contract
    in ISO C99, but the library compiled in GCC's default GNU dialect (the cc command
    of docs/c-api.md without -std=c99, cgo, a caller's own build) with FMA at hand
    (every arm64 CPU; x86-64 with -mfma or -march=native) fused the products and sums
    of the hidden layers: other values than the package's.  ofc_model.c built so
    gives the bits of the C99 build."""
    if COMPILER is None or platform.machine().lower() not in ("x86_64", "amd64"):
        pytest.skip("needs an x86-64 C compiler (-mfma): run on x86-64 with gcc or clang")
    cpuinfo = Path("/proc/cpuinfo")
    if not (cpuinfo.exists() and " fma" in cpuinfo.read_text(encoding="utf-8")):
        pytest.skip(
            "needs a CPU with FMA (Linux /proc/cpuinfo): run on an x86-64 CPU with FMA"
        )
    objects = compile_library(tmp_path)
    model = ROOT / "csrc" / "src" / "ofc_model.c"
    gnu = tmp_path / "ofc_model_gnu_fma.o"
    subprocess.run(
        [COMPILER, "-O2", "-mfma", *INCLUDES, "-c", str(model), "-o", str(gnu)],
        check=True,
    )
    (tmp_path / "values.c").write_text(_MODEL_VALUES_C, encoding="utf-8")
    printed = []
    for name, parts in (
        ("c99", objects),
        ("gnu_fma", [o for o in objects if not o.endswith("ofc_model.o")] + [str(gnu)]),
    ):
        exe = tmp_path / name
        subprocess.run(
            [COMPILER, "-std=c99", *INCLUDES, f"-I{ROOT / 'tests' / 'c'}",
             str(tmp_path / "values.c"), *parts, "-lm", "-o", str(exe)],
            check=True,
        )  # fmt: skip
        done = subprocess.run([str(exe)], check=True, capture_output=True, text=True)
        printed.append(done.stdout.split())
    assert len(printed[0]) == 200
    assert printed[1] == printed[0]


_OVERFLOW_C = """\
#include <stdio.h>
#include <stdlib.h>
#include "ofc_model.h"

int main(void)
{
    uint8_t *bytes = calloc(8, 1);
    /* one byte past the buffer, read inside the library */
    printf("%llu\\n", (unsigned long long)ofc_vm_checksum(bytes, 9));
    free(bytes);
    return 0;
}
"""


def test_sanitize_option_instruments_the_library_for_its_users(tmp_path: Path) -> None:
    """``OFC_FAST_SANITIZE=address`` with GCC or Clang: the library is compiled with
    AddressSanitizer and a program that links it (add_subdirectory) gets its runtime:
    a read past a buffer inside the library is reported, not run through."""
    if shutil.which(COMPILER or "cc") is None or platform.system() != "Linux":
        pytest.skip("run on Linux with gcc or clang: install gcc (AddressSanitizer)")
    src = tmp_path / "consumer"
    src.mkdir()
    (src / "app.c").write_text(_OVERFLOW_C)
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\nproject(consumer LANGUAGES C)\n"
        f'add_subdirectory("{ROOT.as_posix()}" ofc_fast)\n'
        "add_executable(app app.c)\ntarget_link_libraries(app PRIVATE ofc_fast::ofc_fast)\n"
    )
    build = tmp_path / "b"
    _cmake(
        CMAKE or "cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Debug",
        "-DOFC_FAST_SANITIZE=address",
    )  # fmt: skip
    _cmake(CMAKE or "cmake", "--build", build, "--target", "app", "--parallel", "2")
    env = {**os.environ, "ASAN_OPTIONS": "detect_leaks=0"}
    ran = subprocess.run([str(build / "app")], capture_output=True, text=True, env=env)
    assert ran.returncode != 0, ran.stdout
    assert "AddressSanitizer: heap-buffer-overflow" in ran.stderr, ran.stderr
    assert "ofc_vm_checksum" in ran.stderr


_SANITIZE_PROBE = """\
include("{module}")
ofc_fast_sanitize_flags("${{S}}" "${{ID}}" "${{FE}}" compile link)
message(STATUS "compile=[${{compile}}] link=[${{link}}]")
"""


def _sanitize_flags(
    tmp_path: Path, sanitizers: str, compiler: str, frontend: str
) -> tuple[int, str]:
    """What cmake/ofc_fast_sanitize.cmake (CMakeLists.txt's) gives for
    ``OFC_FAST_SANITIZE=sanitizers`` and a C compiler (CMAKE_C_COMPILER_ID ``compiler``,
    CMAKE_C_COMPILER_FRONTEND_VARIANT ``frontend``), run in script mode: CMake's exit
    status and its output (``compile=[...] link=[...]`` or the error)."""
    probe = tmp_path / "sanitize_probe.cmake"
    module = (ROOT / "cmake" / "ofc_fast_sanitize.cmake").as_posix()
    probe.write_text(_SANITIZE_PROBE.format(module=module))
    done = subprocess.run(
        [CMAKE or "cmake", f"-DS={sanitizers}", f"-DID={compiler}", f"-DFE={frontend}",
         "-P", str(probe)],
        capture_output=True, text=True,
    )  # fmt: skip
    return done.returncode, " ".join((done.stdout + done.stderr).split())


def test_sanitize_option_gives_each_compiler_its_own_flags(tmp_path: Path) -> None:
    """Regression: ``OFC_FAST_SANITIZE`` under MSVC put GCC's ``-fsanitize=...`` on
    the libraries' link lines (and compiled nothing instrumented): MSVC gets
    ``/fsanitize=address``, and any sanitizer it lacks, or a compiler with neither
    command line (clang-cl), is an error naming what is supported."""
    assert _sanitize_flags(tmp_path, "address", "MSVC", "MSVC") == (
        0, "-- compile=[/fsanitize=address] link=[]"
    )  # fmt: skip
    assert _sanitize_flags(tmp_path, "address,undefined", "GNU", "GNU") == (
        0,
        "-- compile=[-fsanitize=address,undefined;-fno-omit-frame-pointer;-g;"
        "-fno-sanitize-recover=all] link=[-fsanitize=address,undefined]",
    )
    assert _sanitize_flags(tmp_path, "thread", "AppleClang", "GNU") == (
        0, "-- compile=[-fsanitize=thread;-fno-omit-frame-pointer;-g] link=[-fsanitize=thread]"
    )  # fmt: skip
    for off in ("", "OFF", "0", "FALSE"):  # (none: as `if(OFC_FAST_SANITIZE)` read it)
        assert _sanitize_flags(tmp_path, off, "GNU", "GNU") == (0, "-- compile=[] link=[]")
    assert _sanitize_flags(tmp_path, "", "MSVC", "MSVC") == (0, "-- compile=[] link=[]")
    for sanitizers, compiler, frontend in (
        ("address,undefined", "MSVC", "MSVC"),
        ("thread", "MSVC", "MSVC"),
        ("address", "Clang", "MSVC"),
        ("address", "SunPro", ""),
    ):
        code, said = _sanitize_flags(tmp_path, sanitizers, compiler, frontend)
        assert code != 0 and f"OFC_FAST_SANITIZE={sanitizers}: " in said, said
        assert "MSVC's cl (address only: /fsanitize=address)" in said, said
