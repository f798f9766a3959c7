"""Stand-ins for torch.utils.cpp_extension (see ../__init__.py): setup.py
subclasses BuildExtension and may describe extensions with CppExtension or
CUDAExtension; reading metadata builds none of them."""
from setuptools import Extension
from setuptools.command.build_ext import build_ext as BuildExtension

CUDA_HOME = None


def CppExtension(name, sources, *args, **kwargs):
    return Extension(name, sources)


CUDAExtension = CppExtension
