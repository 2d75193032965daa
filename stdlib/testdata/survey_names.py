#!/usr/bin/env python3
"""List the torch names a tsr binary does not know (a survey, not a test).

Enumerates the public callables of torch, torch.Tensor, torch.linalg,
torch.nn.functional, torch.special and torch.fft (PyTorch 1.13), asks the
tsr binary about each name in one program (try { x = NAME } catch ...),
and prints the unknown ones per namespace.

    go build -o /tmp/tsr ./cmd/tsr
    /usr/bin/python3 stdlib/testdata/survey_names.py /tmp/tsr
"""
import re
import subprocess
import sys

import torch
import torch.nn.functional as F


def public(mod):
    return sorted({n for n in dir(mod) if not n.startswith("_") and callable(getattr(mod, n))
                   and not isinstance(getattr(mod, n), type)})


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "/tmp/tsr"
    groups = {"torch": public(torch), "Tensor": [n for n in dir(torch.Tensor) if not n.startswith("_")],
              "linalg": public(torch.linalg), "nn": public(F), "special": public(torch.special),
              "fft": public(torch.fft)}
    ident = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
    lines = ["t_ = zeros(1)"]
    for g, names in groups.items():
        for n in names:
            if ident.match(n):
                expr = {"torch": n, "Tensor": "t_." + n}.get(g, g + "." + n)
                lines.append(f'try {{ x_ = {expr} }} catch e_ {{ print("MISSING {g} {n}") }}')
    with open("/tmp/survey_names.tsr", "w") as f:
        f.write("\n".join(lines) + "\n")
    out = subprocess.run([binary, "/tmp/survey_names.tsr"], capture_output=True, text=True, check=True).stdout
    missing = {}
    for line in out.splitlines():
        _, g, n = line.split()
        missing.setdefault(g, []).append(n)
    for g, names in groups.items():
        print(f"{g}: {len(names)} names, {len(missing.get(g, []))} unknown to tsr")
        print("  " + " ".join(missing.get(g, [])))


if __name__ == "__main__":
    main()
