# Mimics the PATTERN of translation projects whose trainer hands a static step method to ignite's `Engine`, which runs it on every batch. Independent re-creation for seedlint's test corpus, not its code.

from ignite.engine import Engine


class StepEngine(Engine):
    def __init__(self, func, model, crit, optimizer):
        self.model, self.crit, self.optimizer = model, crit, optimizer
        super().__init__(func)

    @staticmethod
    def train(engine, batch):
        engine.model.train()
        engine.optimizer.zero_grad()
        loss = engine.crit(engine.model(batch[0]), batch[1])
        loss.backward()
        engine.optimizer.step()
        return loss.item()


class LanguageModelTrainer:
    def train(self, model, crit, optimizer, train_loader, n_epochs):
        trainer = StepEngine(StepEngine.train, model, crit, optimizer)
        trainer.run(train_loader, max_epochs=n_epochs)
        return model
