# The PyTorch peer of bench/index.mjs: times one training step of the same MLP on CPU (forward, the
# cross-entropy of selected actions, backward, Adam) and prints one JSON line. Never a dependency of the
# package: the bench spawns it with Debian's python3-torch when it is there.
#
# Usage: python3 torch-mlp.py '{"sizes": [100, 256, 256, 4], "batch": 256, "steps": 60, "threads": 1}'
import json
import sys
import time

import torch

config = json.loads(sys.argv[1])
sizes = config["sizes"]
batch = config["batch"]
if config.get("threads"):
    torch.set_num_threads(config["threads"])
torch.manual_seed(0)
layers = []
for i in range(len(sizes) - 1):
    layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
    if i + 2 < len(sizes):
        layers.append(torch.nn.ReLU())
model = torch.nn.Sequential(*layers)
adam = torch.optim.Adam(model.parameters(), lr=1e-4)
x = torch.rand(batch, sizes[0]) - 0.5
selected = torch.arange(batch) % sizes[-1]


def step():
    adam.zero_grad(set_to_none=False)
    loss = torch.nn.functional.cross_entropy(model(x), selected)
    loss.backward()
    adam.step()


for _ in range(10):
    step()
times = []
for _ in range(config["steps"]):
    start = time.perf_counter()
    step()
    times.append(time.perf_counter() - start)
times.sort()
print(
    json.dumps(
        {
            "torch": torch.__version__,
            "threads": torch.get_num_threads(),
            "parameters": sum(p.numel() for p in model.parameters()),
            "p50Ms": times[len(times) // 2] * 1e3,
        }
    )
)
