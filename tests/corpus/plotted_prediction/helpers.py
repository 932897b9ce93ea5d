# Mimics the PATTERN of course helper modules (a plotting function for a regression's
# predictions). Independent re-creation for seedlint's test corpus, not its code.
import matplotlib.pyplot as plt


def plot_predictions(train_data, train_labels, test_data, test_labels, predictions=None):
    """Plot the training and test data, and the predictions when given."""
    plt.figure(figsize=(10, 7))
    plt.scatter(train_data, train_labels, c="b", s=4, label="Training data")
    plt.scatter(test_data, test_labels, c="g", s=4, label="Testing data")
    if predictions is not None:
        plt.scatter(test_data, predictions, c="r", s=4, label="Predictions")
    plt.legend(prop={"size": 14})


def smoothed(predictions, width=3):
    """Plot the predictions and return them smoothed."""
    plt.plot(predictions)
    kernel = [1 / width] * width
    return [sum(k * p for k, p in zip(kernel, predictions[i : i + width])) for i in range(len(predictions))]
