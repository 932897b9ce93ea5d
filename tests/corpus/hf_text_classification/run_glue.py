# Mimics the seeding PATTERN of huggingface/transformers examples/pytorch/text-classification/run_glue.py
# (set_seed from transformers before the model is created, a few random training samples logged, the
# Trainer doing the shuffling). Independent re-creation for seedlint's test corpus, not its code.
import logging
import random
import sys

from datasets import load_dataset
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    HfArgumentParser,
    Trainer,
    TrainingArguments,
    set_seed,
)

logger = logging.getLogger(__name__)


def get_label_list(labels):
    unique_labels = set()
    for label in labels:
        unique_labels = unique_labels | set(label)
    label_list = list(unique_labels)
    label_list.sort()
    return label_list


def main():
    parser = HfArgumentParser(TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    set_seed(training_args.seed)

    raw_datasets = load_dataset("nyu-mll/glue", "mrpc")
    label_list = raw_datasets["train"].unique("label")
    label_list.sort()
    tokenizer = AutoTokenizer.from_pretrained("bert-base-cased")
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased", num_labels=len(label_list))

    def preprocess(examples):
        return tokenizer(examples["sentence1"], examples["sentence2"], truncation=True, max_length=128)

    train_dataset = raw_datasets["train"].map(preprocess, batched=True)
    eval_dataset = raw_datasets["validation"].map(preprocess, batched=True)
    if training_args.do_train:
        train_dataset = train_dataset.shuffle(seed=training_args.seed).select(range(1000))
        for index in random.sample(range(len(train_dataset)), 3):
            logger.info(f"Sample {index} of the training set: {train_dataset[index]}.")

    trainer = Trainer(model=model, args=training_args, train_dataset=train_dataset, eval_dataset=eval_dataset)
    if training_args.do_train:
        trainer.train()
    metrics = trainer.evaluate()
    trainer.log_metrics("eval", metrics)


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stdout, level=logging.INFO)
    main()
