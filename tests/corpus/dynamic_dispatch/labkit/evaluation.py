# Mimics the PATTERN of an evaluation class whose `evaluate` trains a classifier chosen at run time (`self.get_clf()` returning `self.log_reg`). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn


class NodeUnsupervised:
    def __init__(self, classifier="LogReg"):
        self.classifier = classifier

    def get_clf(self):
        if self.classifier == "LogReg":
            return self.log_reg
        return None

    def log_reg(self, embeddings, labels):
        classifier = nn.Linear(embeddings.shape[1], 2)
        optimizer = torch.optim.Adam(classifier.parameters())
        for _ in range(10):
            loss = nn.functional.cross_entropy(classifier(embeddings), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return loss.item()

    def evaluate(self, encoder, features, labels):
        return self.get_clf()(encoder(features).detach(), labels)
