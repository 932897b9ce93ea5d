# Mimics the template PATTERN of cookiecutter project templates (Jinja in a .py file). Independent re-creation for seedlint's test corpus, not its code.
{% if cookiecutter.seed %}
import torch
torch.manual_seed({{ cookiecutter.seed }})
{% endif %}
