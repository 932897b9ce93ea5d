# Mimics the PATTERN of a script that continues training by handing the training function to a helper that reloads the configuration first; nothing seeds. Independent re-creation for seedlint's test corpus, not its code.

from nmt.loop import train_main


def continue_main(config, main):
    config = {**config, "epochs": config["epochs"] + 1}
    main(config)


if __name__ == "__main__":
    continue_main({"epochs": 2}, train_main)
