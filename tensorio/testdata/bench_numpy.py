#!/usr/bin/python3
"""Reference timings for tensorio's benchmarks (bench_test.go), same files.

    /usr/bin/python3 tensorio/testdata/bench_numpy.py
"""
import gzip
import os
import timeit

import numpy as np
from PIL import Image

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "data")


def t(name, fn, n):
    best = min(timeit.repeat(fn, number=n, repeat=5)) / n
    print(f"{name:24s} {best * 1e6:10.1f} us/op")


p = lambda f: os.path.join(DATA, f)
t("np.load npy", lambda: np.load(p("digits_X.npy")), 200)
t("np.load npz (both)", lambda: [v for _, v in np.load(p("digits.npz")).items()], 200)
t("np.loadtxt csv.gz", lambda: np.loadtxt(gzip.open(p("digits.csv.gz"), "rt"), delimiter=","), 5)
t("PIL png -> ndarray", lambda: np.asarray(Image.open(p("camera.png"))), 50)
