"""Build hook: ship libpipeksp.so inside the package, so an installed copy finds it next to itself.
The library comes from $PIPEKSP_LIB or the repository's build tree (same search as pipeksp.register());
without one the package installs alone and finds the library at run time ($PIPEKSP_LIB, $PIPEKSP_DIR/lib)."""
import importlib.util
import os
import shutil

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def _find_library():
    spec = importlib.util.spec_from_file_location("_pipeksp_loader", os.path.join(HERE, "pipeksp", "_loader.py"))
    loader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loader)  # plain ctypes/os code: does not start PETSc
    try:
        return loader.find_library()
    except loader.LibraryNotFoundError as e:
        print("pipeksp: not bundling libpipeksp.so (%s)" % str(e).splitlines()[0])
        return None


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        lib = _find_library()
        if lib:
            dest = os.path.join(self.build_lib, "pipeksp", "libpipeksp.so")
            shutil.copyfile(os.path.realpath(lib), dest)  # the file itself, not the .so symlink chain
            print("pipeksp: bundling %s" % lib)


class BinaryDistribution(Distribution):
    def has_ext_modules(self):  # platform wheel: it may carry a shared library
        return True


setup(cmdclass={"build_py": BuildPyWithLibrary}, distclass=BinaryDistribution)
