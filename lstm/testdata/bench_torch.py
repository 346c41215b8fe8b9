#!/usr/bin/env python3
"""Times one training step of the paper's text model in PyTorch, the
anchor of twl's LSTM benchmark (`twl bench lstm` and BenchmarkStep run the
same shapes). Run it beside twl's benchmark in one session:

    /usr/bin/python3 lstm/testdata/bench_torch.py --threads 1 [--train-emb]

Shapes as in REFERENCE.md: batch 100, length 200 (every document full
length, so padding costs nothing), embedding dimension 100, LSTM hidden
200, FC 200->200 + ReLU, 147 labels, KL loss against random target
distributions, Adam lr 1e-3, float32, torch.set_flush_denormal(True).
Prints tokens per second of forward + backward + Adam, the best and the
median of --steps timed steps after --warmup.
"""
import argparse
import statistics
import time

import torch

p = argparse.ArgumentParser()
p.add_argument("--threads", type=int, default=1)
p.add_argument("--train-emb", action="store_true")
p.add_argument("--batch", type=int, default=100)
p.add_argument("--len", type=int, default=200)
p.add_argument("--dim", type=int, default=100)
p.add_argument("--hidden", type=int, default=200)
p.add_argument("--labels", type=int, default=147)
p.add_argument("--vocab", type=int, default=20000)
p.add_argument("--steps", type=int, default=6)
p.add_argument("--warmup", type=int, default=1)
a = p.parse_args()
torch.set_num_threads(a.threads)
torch.set_flush_denormal(True)
torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(a.vocab, a.dim)
        self.emb.weight.requires_grad = a.train_emb
        self.lstm = torch.nn.LSTM(a.dim, a.hidden, batch_first=True)
        self.fc = torch.nn.Linear(a.hidden, a.hidden)
        self.out = torch.nn.Linear(a.hidden, a.labels)

    def forward(self, ids):
        _, (h, _) = self.lstm(self.emb(ids))
        return self.out(torch.relu(self.fc(h[0])))


net = Net()
opt = torch.optim.Adam([q for q in net.parameters() if q.requires_grad], lr=1e-3)
ids = torch.randint(0, a.vocab, (a.batch, a.len))
y = torch.softmax(torch.randn(a.batch, a.labels), dim=1)
times = []
for step in range(a.warmup + a.steps):
    t0 = time.perf_counter()
    opt.zero_grad()
    z = net(ids)
    loss = torch.nn.functional.kl_div(torch.log_softmax(z, dim=1), y, reduction="batchmean")
    loss.backward()
    opt.step()
    dt = time.perf_counter() - t0
    if step >= a.warmup:
        times.append(dt)
tokens = a.batch * a.len
print(f"pytorch {torch.__version__} threads={a.threads} train_emb={a.train_emb}: "
      f"best {tokens / min(times):.0f} tokens/s, median {tokens / statistics.median(times):.0f} tokens/s")
