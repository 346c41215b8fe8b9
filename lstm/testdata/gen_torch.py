#!/usr/bin/env python3
"""Writes torch.json: a small LSTM classifier computed by PyTorch, the
independent reference of lstm's TestPyTorch.

The model is twl's (package lstm): embedding -> one nn.LSTM layer (gates
i, f, g, o) -> the hidden state at each document's last token -> Linear
H->H + ReLU -> Linear H->L, with loss sum_rows KL(y || softmax(z)). The
parameters are drawn here with numpy, rounded to float32, and PyTorch
computes in float64 from those float32 values. twl's single bias per gate
is PyTorch's b_ih with b_hh = 0. Documents of length 0 have no packed
sequence in PyTorch; their final state is 0, as in twl.

Run with Debian's python3-torch (1.13): /usr/bin/python3 gen_torch.py
"""
import json

import numpy as np
import torch

torch.set_flush_denormal(True)
rng = np.random.default_rng(20261123)
V, D, H, L = 11, 6, 9, 7
docs = [[1, 2, 3, 4, 5, 6], [7, 0, 2], [], [10, 9, 8, 7, 6, 5], [3]]


def f32(shape, scale):
    return rng.normal(0, scale, size=shape).astype(np.float32)


params = {
    "emb": f32((V, D), 0.5),
    "wx": f32((4 * H, D), 0.5),
    "wh": f32((4 * H, H), 0.5),
    "b": f32((4 * H,), 0.5),
    "w1": f32((H, H), 0.5),
    "b1": f32((H,), 0.5),
    "w2": f32((L, H), 0.5),
    "b2": f32((L,), 0.5),
}
y = rng.dirichlet(np.ones(L), size=len(docs))

t = {k: torch.tensor(v.astype(np.float64), requires_grad=True) for k, v in params.items()}
lstm = torch.nn.LSTM(D, H, batch_first=True).double()
with torch.no_grad():
    lstm.weight_ih_l0.copy_(t["wx"])
    lstm.weight_hh_l0.copy_(t["wh"])
    lstm.bias_ih_l0.copy_(t["b"])
    lstm.bias_hh_l0.zero_()

nonempty = [i for i, d in enumerate(docs) if d]
lengths = torch.tensor([len(docs[i]) for i in nonempty])
T = max(len(d) for d in docs)
ids = torch.zeros((len(nonempty), T), dtype=torch.long)
for k, i in enumerate(nonempty):
    ids[k, : len(docs[i])] = torch.tensor(docs[i])
x = t["emb"][ids]
packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
_, (hn, _) = lstm(packed)
hfin = torch.zeros((len(docs), H), dtype=torch.float64)
hfin = hfin.index_copy(0, torch.tensor(nonempty), hn[0])
a1 = torch.relu(hfin @ t["w1"].T + t["b1"])
z = a1 @ t["w2"].T + t["b2"]
yt = torch.tensor(y)
loss = (yt * (torch.log(yt) - torch.log_softmax(z, dim=1))).sum()
loss.backward()

grads = {k: t[k].grad.numpy().ravel().tolist() for k in ("emb", "w1", "b1", "w2", "b2")}
grads["wx"] = lstm.weight_ih_l0.grad.numpy().ravel().tolist()
grads["wh"] = lstm.weight_hh_l0.grad.numpy().ravel().tolist()
grads["b"] = lstm.bias_ih_l0.grad.numpy().ravel().tolist()

out = {
    "generator": "gen_torch.py, PyTorch " + torch.__version__ + ", float64",
    "config": {"vocab": V, "dim": D, "hidden": H, "labels": L},
    "docs": docs,
    "params": {k: v.ravel().astype(float).tolist() for k, v in params.items()},
    "targets": y.ravel().tolist(),
    "logits": z.detach().numpy().ravel().tolist(),
    "loss": loss.item(),
    "grads": grads,
}
with open("torch.json", "w") as f:
    json.dump(out, f, indent=1)
