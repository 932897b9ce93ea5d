# Mimics the PATTERN of fine-tuning scripts whose model comes from an installed model zoo (seeded, benchmark mode on, layers the analysis cannot read). Independent re-creation for seedlint's test corpus, not its code.

import torch
import torch.backends.cudnn as cudnn
from model_zoo import build_model


def main():
    torch.manual_seed(0)
    torch.cuda.manual_seed_all(0)
    cudnn.benchmark = True
    model = build_model("tiny").cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for batch in model.dummy_batches():
        loss = model(batch).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
