# Mimics the PATTERN of segmentation repositories (an evaluation script that loads weights and walks the validation set with a `while` loop over a counter that starts at 0; nothing resumes). Independent re-creation for seedlint's test corpus, not its code.

import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
checkpoint = torch.load("best.pkl")
model.load_state_dict(checkpoint["model_state"])
print("trained for", checkpoint["epoch"], "epochs")
i = 0
data = torch.randn(16, 4)
while i < len(data):
    print(model(data[i]))
    i += 1
