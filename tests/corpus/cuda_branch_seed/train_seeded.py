# Mimics the PATTERN's correct form (`torch.manual_seed(seed)`, then `torch.cuda.manual_seed_all(seed)` when CUDA is used). Independent re-creation for seedlint's test corpus, not its code.

import torch
from torch import nn

seed = 1
torch.manual_seed(seed)
if torch.cuda.is_available():
    torch.cuda.manual_seed_all(seed)
model = nn.Linear(4, 2)
print(model.weight)
