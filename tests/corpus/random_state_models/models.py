# Mimics the PATTERN of scikit-learn-style recommender libraries (a model class whose constructor keeps `random_state or np.random.RandomState()` and seeds torch with a draw from it). Independent re-creation for seedlint's test corpus, not its code.

import numpy as np
import torch


class SequenceModel:
    def __init__(self, network, n_iter=10, random_state=None):
        self._network = network
        self._n_iter = n_iter
        self._random_state = random_state or np.random.RandomState()
        torch.manual_seed(self._random_state.randint(-10**8, 10**8))
        self._optimizer = torch.optim.Adam(network.parameters())

    def fit(self, sequences):
        for _ in range(self._n_iter):
            loss = self._network(sequences).pow(2).mean()
            self._optimizer.zero_grad()
            loss.backward()
            self._optimizer.step()
        return self
