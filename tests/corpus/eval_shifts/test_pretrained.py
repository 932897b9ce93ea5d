# Mimics the PATTERN of source-separation evaluation scripts (torch seeded by the setup helper, the evaluator's random shifts unseeded, the score printed). Independent re-creation for seedlint's test corpus, not its code.

import torch

from sep import evaluate, setup


def main():
    model = setup.get_solver(42)
    tracks = [(torch.zeros(1, 2, 44100), torch.zeros(1, 2, 44100))]
    with torch.no_grad():
        results = evaluate.evaluate(model, tracks, shifts=2)
    print(results)


if __name__ == "__main__":
    main()
