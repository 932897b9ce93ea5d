# Mimics the PATTERN of graph-learning course notebooks (torch seeded, a graph drawn with `nx.spring_layout(G, seed=42)`, node features from NumPy's unseeded global generator). Independent re-creation for seedlint's test corpus, not its code.

import networkx as nx
import numpy as np
import torch

torch.manual_seed(12345)
G = nx.karate_club_graph()
positions = nx.spring_layout(G, seed=42)  # its own RandomState(42): NumPy's global generator untouched
features = torch.tensor(np.random.randn(G.number_of_nodes(), 8), dtype=torch.float)
weights = torch.nn.Linear(8, 2)
optimizer = torch.optim.SGD(weights.parameters(), lr=0.1)
for epoch in range(10):
    optimizer.zero_grad()
    weights(features).sum().backward()
    optimizer.step()
