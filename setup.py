"""pip's build of murmur (pyproject.toml): CMake builds the extension, libmurmur and the murmur
command into build-pip/, installs them into a staging prefix, and the package gets that prefix
inside it: murmur/_murmur*.so (RPATH $ORIGIN/lib), murmur/lib/libmurmur.so.*, murmur/bin/murmur
(the command line, beside the module) and murmur/share/murmur/presets (found from lib/ and bin/ as in any prefix).
Environment: MURMUR_CMAKE_ARGS (more -D options), CMAKE_BUILD_PARALLEL_LEVEL (default: every core)."""
import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def project_version():
    text = open(os.path.join(HERE, "CMakeLists.txt")).read()
    return re.search(r"project\(murmur VERSION ([0-9.]+)", text).group(1)


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        build, stage = os.path.join(HERE, "build-pip"), os.path.join(HERE, "build-pip", "stage")
        launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
        subprocess.check_call(["cmake", "-S", HERE, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DMURMUR_PYTHON_RPATH=$ORIGIN/lib",
                               f"-DPython_EXECUTABLE={sys.executable}", *launcher,
                               *shlex.split(os.environ.get("MURMUR_CMAKE_ARGS", ""))])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)  # every core unless told
        subprocess.check_call(["cmake", "--build", build, "--parallel", jobs, "--target", "murmur_python", "murmur_python_files", "murmur",
                               "murmur_api"])
        shutil.rmtree(stage, ignore_errors=True)
        subprocess.check_call(["cmake", "--install", build, "--prefix", stage])
        package = os.path.join(self.build_lib, "murmur")
        installed = next(root for root, _, files in os.walk(stage) if "__init__.py" in files and root.endswith("murmur"))
        for name in os.listdir(installed):
            if name.startswith("_murmur"):
                shutil.copy2(os.path.join(installed, name), package)
        shutil.rmtree(os.path.join(package, "lib"), ignore_errors=True)  # an earlier build's links would collide (File exists)
        os.makedirs(os.path.join(package, "lib"))
        for root, _, files in os.walk(stage):
            for name in files:
                if name.startswith("libmurmur.so"):
                    shutil.copy2(os.path.join(root, name), os.path.join(package, "lib"), follow_symlinks=False)
        shutil.copytree(os.path.join(stage, "bin"), os.path.join(package, "bin"), dirs_exist_ok=True)
        shutil.copytree(os.path.join(stage, "share"), os.path.join(package, "share"), dirs_exist_ok=True)


setup(version=project_version(), packages=["murmur"], package_dir={"murmur": "python/murmur"},
      cmdclass={"build_py": BuildWithCMake})
