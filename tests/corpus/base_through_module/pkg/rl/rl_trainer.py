# Mimics the PATTERN of RLHF trainer packages (a base trainer whose `__init__` calls `set_seed(args.seed)`). Independent re-creation for seedlint's test corpus, not its code.

from transformers import set_seed


class RLTrainer:
    def __init__(self, args, policy):
        self.args, self.policy = args, policy
        set_seed(args.seed)

    def train(self):
        raise NotImplementedError
