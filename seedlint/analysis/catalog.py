"""The PyTorch randomness facts as data: what seeds which generator, and what draws from it.

Every entry agrees with `shared/docs/pytorch-randomness.md`. Names are fully qualified, as
`ModuleIndex.qualify` returns them.
"""

from __future__ import annotations

from dataclasses import dataclass

# The global generators a program can seed.
TORCH_CPU = "torch"
CUDA = "cuda"  # every CUDA device
CUDA_CURRENT = "cuda-current"  # the current CUDA device only
NUMPY = "numpy"
PYTHON_RANDOM = "random"
# Generators the code creates (not global state): what a finding about one concerns.
TORCH_OBJECT = "torch-generator"  # torch.Generator(..)
NUMPY_OBJECT = "numpy-object"  # np.random.default_rng(..), np.random.RandomState(..)
RANDOM_OBJECT = "random-object"  # random.Random(..)

GENERATOR_LABELS = {
    TORCH_CPU: "torch CPU",
    CUDA: "CUDA",
    CUDA_CURRENT: "CUDA",
    NUMPY: "NumPy global",
    PYTHON_RANDOM: "Python `random`",
}


def cuda_as_one(generators: frozenset[str]) -> frozenset[str]:
    """The generators with the current CUDA device's counted as CUDA's (what a seeding or a draw
    concerns)."""
    return frozenset(CUDA if generator == CUDA_CURRENT else generator for generator in generators)


def generators_named(generators: frozenset[str]) -> str:
    """How a message names generators: `the torch CPU and CUDA generators`, `the NumPy global
    generator`."""
    labels = list(
        dict.fromkeys(
            label for generator, label in GENERATOR_LABELS.items() if generator in generators
        )
    )
    named = " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)
    return f"the {named} generator{'s' if len(labels) > 1 else ''}"


ALL_TORCH = frozenset({TORCH_CPU, CUDA})
# seeding any of them is seeding torch
TORCH_GENERATORS = frozenset({TORCH_CPU, CUDA, CUDA_CURRENT})
EVERYTHING = frozenset({TORCH_CPU, CUDA, NUMPY, PYTHON_RANDOM})
CUDA_GENERATORS = frozenset({CUDA, CUDA_CURRENT})

# What a name in `seed-functions` (configuration) may say it seeds.
SEED_TARGETS = {
    "torch": ALL_TORCH,
    "torch-cpu": frozenset({TORCH_CPU}),
    "cuda": frozenset({CUDA}),
    "numpy": frozenset({NUMPY}),
    "random": frozenset({PYTHON_RANDOM}),
}


@dataclass(frozen=True)
class Seeder:
    """A call that seeds global generators with its seed argument."""

    seeds: frozenset[str]
    none_is_random: bool = (
        False  # called with None (or without a seed, unless it has a fixed default), seeds randomly
    )
    fixed_default: bool = False  # called without a seed, it seeds with a fixed default value
    seed_keyword: str | None = (
        "seed"  # None: the seed comes from elsewhere (a Trainer's `args.seed`)
    )


_TORCH_SEED = Seeder(ALL_TORCH)
_HELPER = Seeder(EVERYTHING)
_HELPER_NONE_RANDOM = Seeder(EVERYTHING, none_is_random=True)
_MONAI = Seeder(EVERYTHING, none_is_random=True, fixed_default=True)

# the CPU generator and every CUDA device
TORCH_MANUAL_SEED = (
    "torch.manual_seed",
    "torch.random.manual_seed",
)
# the current device only
CUDA_MANUAL_SEED = (
    "torch.cuda.manual_seed",
    "torch.cuda.random.manual_seed",
)
CUDA_MANUAL_SEED_ALL = ("torch.cuda.manual_seed_all", "torch.cuda.random.manual_seed_all")
CPU_GENERATOR_SEEDERS = (  # the CPU generator only
    "torch.default_generator.manual_seed",
    "torch.random.default_generator.manual_seed",
    "torch._C.default_generator.manual_seed",  # how torch/random.py spells it
)
SEEDERS: dict[str, Seeder] = {
    **dict.fromkeys(TORCH_MANUAL_SEED, _TORCH_SEED),
    **dict.fromkeys(CUDA_MANUAL_SEED, Seeder(frozenset({CUDA_CURRENT}))),
    **dict.fromkeys(CUDA_MANUAL_SEED_ALL, Seeder(frozenset({CUDA}))),
    **dict.fromkeys(CPU_GENERATOR_SEEDERS, Seeder(frozenset({TORCH_CPU}))),
    "numpy.random.seed": Seeder(frozenset({NUMPY}), none_is_random=True),
    "random.seed": Seeder(frozenset({PYTHON_RANDOM}), none_is_random=True, seed_keyword="a"),
    # Third-party helpers, as the facts page lists them.
    "lightning.seed_everything": _HELPER,
    "lightning.pytorch.seed_everything": _HELPER,
    "lightning.fabric.seed_everything": _HELPER,
    "lightning.fabric.utilities.seed.seed_everything": _HELPER,
    "lightning.pytorch.utilities.seed.seed_everything": _HELPER,
    "pytorch_lightning.seed_everything": _HELPER,
    "pytorch_lightning.utilities.seed.seed_everything": _HELPER,
    "lightning.fabric.Fabric().seed_everything": _HELPER,
    "lightning.Fabric().seed_everything": _HELPER,
    "transformers.set_seed": _HELPER,
    "transformers.trainer_utils.set_seed": _HELPER,
    "transformers.enable_full_determinism": _HELPER,
    "transformers.trainer_utils.enable_full_determinism": _HELPER,
    "accelerate.utils.set_seed": _HELPER,
    "accelerate.utils.random.set_seed": _HELPER,
    "mmengine.runner.set_random_seed": _HELPER_NONE_RANDOM,
    "mmengine.runner.utils.set_random_seed": _HELPER_NONE_RANDOM,
    "mmcv.runner.set_random_seed": _HELPER,
    "mmcv.runner.utils.set_random_seed": _HELPER,
    "detectron2.utils.env.seed_all_rng": _HELPER_NONE_RANDOM,
    "fairseq.utils.set_torch_seed": _TORCH_SEED,
    "timm.utils.random_seed": _HELPER,
    "timm.utils.random.random_seed": _HELPER,
    "ignite.utils.manual_seed": _HELPER,
    "catalyst.utils.set_global_seed": _HELPER,
    "catalyst.utils.misc.set_global_seed": _HELPER,
    "ray.train.torch.enable_reproducibility": _HELPER,
    # stable-baselines3 2.x common/utils.py: random.seed, np.random.seed, th.manual_seed.
    "stable_baselines3.common.utils.set_random_seed": _HELPER,
    # MONAI monai/utils/misc.py: torch.manual_seed, random.seed, np.random.seed with `seed` (default
    # np.iinfo(np.uint32).max); seed=None takes torch's seed from `default_generator.seed()`.
    "monai.utils.set_determinism": _MONAI,
    "monai.utils.misc.set_determinism": _MONAI,
    # ColossalAI colossalai/initialize.py: the launchers take `seed: int = 1024` and end with
    # `set_seed(seed)` (random, NumPy, torch, CUDA): a program they start is seeded by default.
    **dict.fromkeys(
        (
            f"colossalai.{module}{launcher}"
            for module in ("", "initialize.")
            for launcher in (
                "launch",
                "launch_from_torch",
                "launch_from_slurm",
                "launch_from_openmpi",
            )
        ),
        Seeder(EVERYTHING, fixed_default=True),
    ),
}
# Library helpers that set `torch.backends.cudnn.benchmark = False` (MONAI's unless given
# `seed=None`).
BENCHMARK_OFF = frozenset(
    {
        "monai.utils.set_determinism",
        "monai.utils.misc.set_determinism",
        "transformers.enable_full_determinism",
        "transformers.trainer_utils.enable_full_determinism",
    }
)
# Library classes whose constructor seeds: `transformers.Trainer.__init__` calls
# `set_seed(args.seed)` (or `enable_full_determinism`), and so do its subclasses (TRL's trainers
# among them).
# Installed libraries that build no model with a convolution or a cuDNN recurrent layer, whose
# import leaves cuDNN's benchmark mode with nothing to choose (SL301). By module prefix; the
# standard library too. Anything else imported (torchvision, timm's models, transformers, a
# library seedlint does not know) may build one.
CONVOLUTION_FREE_LIBRARIES = (
    "numpy",
    "scipy",
    "pandas",
    "sklearn",
    "matplotlib",
    "seaborn",
    "plotly",
    "tqdm",
    "yaml",
    "wandb",
    "tensorboard",
    "tensorboardX",
    "torch.utils.tensorboard",
    "PIL",
    "h5py",
    "tokenizers",
    "sentencepiece",
    "tiktoken",
    "datasets",
    "einops",
    "accelerate",
    "deepspeed",
    "fairscale",
    "apex.normalization",
    "apex.optimizers",
    "apex.amp",
    "apex.parallel",
    "peft",
    "timm.optim",
    "timm.scheduler",
    "timm.utils",
    "timm.loss",
    "nltk",
    "networkx",
    "click",
    "fire",
    "hydra",
    "omegaconf",
    "absl",
    "ml_collections",
    "jsonargparse",
    "typer",
    "loguru",
    "rich",
    "termcolor",
    "tabulate",
    "psutil",
    "requests",
    "safetensors",
    "huggingface_hub",
    "submitit",
)

SEEDING_CLASSES = frozenset(
    {
        "transformers.Trainer",
        "transformers.trainer.Trainer",
        "transformers.Seq2SeqTrainer",
        "transformers.trainer_seq2seq.Seq2SeqTrainer",
        *(
            f"trl.{name}"
            for name in (
                "SFTTrainer",
                "DPOTrainer",
                "RewardTrainer",
                "ORPOTrainer",
                "KTOTrainer",
                "CPOTrainer",
                "GRPOTrainer",
                "PPOTrainer",
                "RLOOTrainer",
                "OnlineDPOTrainer",
                "GKDTrainer",
                "BCOTrainer",
                "PRMTrainer",
            )
        ),
    }
)
# What a module defining a subclass of one of them must contain: the base in a class statement's
# bases.
SEEDING_CONSTRUCTOR = Seeder(EVERYTHING, seed_keyword=None)
SEEDERS.update(dict.fromkeys(SEEDING_CLASSES, SEEDING_CONSTRUCTOR))

# Calls that look like seeding but reseed with a nondeterministic value, and the generators they
# reseed.
RANDOM_RESEEDERS: dict[str, frozenset[str]] = {
    "torch.seed": ALL_TORCH,
    "torch.random.seed": ALL_TORCH,
    "torch.cuda.seed": frozenset({CUDA_CURRENT}),
    "torch.cuda.random.seed": frozenset({CUDA_CURRENT}),
    "torch.cuda.seed_all": frozenset({CUDA}),
    "torch.cuda.random.seed_all": frozenset({CUDA}),
    "torch.Generator().seed": frozenset(),  # a generator object, not global state
    "torch.default_generator.seed": frozenset({TORCH_CPU}),
    "torch.random.default_generator.seed": frozenset({TORCH_CPU}),
    "torch._C.default_generator.seed": frozenset({TORCH_CPU}),
}
# The per-device CUDA generators (`torch.cuda.default_generators[i]`): `.seed()` on one reseeds it
# with a nondeterministic value.
DEVICE_GENERATORS = ("torch.cuda.default_generators", "torch.cuda.random.default_generators")

# Values that differ on every run: a seed derived from one is no seed at all.
NONDETERMINISTIC_SOURCES = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.process_time",
        "time.process_time_ns",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
        "os.getpid",
        "os.urandom",
        "uuid.uuid1",
        "uuid.uuid4",
        "random.SystemRandom",
    }
)
NONDETERMINISTIC_MODULES = ("secrets.",)
# What a random reseed returns is the random seed it chose (`s = torch.seed()`): a seed taken
# from it is random too. The private spelling is how torch/random.py's own `seed()` gets one.
RANDOM_SEED_VALUES = frozenset(RANDOM_RESEEDERS)

# RNG objects that seed themselves from the OS when given no seed, and the kind of generator each
# is.
UNSEEDED_RNG_CONSTRUCTORS = {
    "numpy.random.default_rng": NUMPY_OBJECT,
    "numpy.random.RandomState": NUMPY_OBJECT,
    "random.Random": RANDOM_OBJECT,
}

TORCH_DRAW_FUNCTIONS = frozenset(
    {
        "torch.rand",
        "torch.rand_like",
        "torch.randn",
        "torch.randn_like",
        "torch.randint",
        "torch.randint_like",
        "torch.randperm",
        "torch.normal",
        "torch.bernoulli",
        "torch.multinomial",
        "torch.poisson",
        "torch.dropout",
        "torch.nn.functional.dropout",
        "torch.utils.data.random_split",
        "torch.utils.data.dataset.random_split",
    }
)
TORCH_INIT_DRAWS = frozenset(
    {
        "uniform_",
        "normal_",
        "trunc_normal_",
        "xavier_uniform_",
        "xavier_normal_",
        "kaiming_uniform_",
        "kaiming_normal_",
        "orthogonal_",
        "sparse_",
    }
)
# nn modules whose constructors initialise parameters randomly (BatchNorm/LayerNorm do not).
RANDOM_INIT_MODULES = frozenset(
    {
        "Linear",
        "Bilinear",
        "Conv1d",
        "Conv2d",
        "Conv3d",
        "ConvTranspose1d",
        "ConvTranspose2d",
        "ConvTranspose3d",
        "Embedding",
        "EmbeddingBag",
        "RNN",
        "LSTM",
        "GRU",
        "RNNCell",
        "LSTMCell",
        "GRUCell",
        "MultiheadAttention",
        "Transformer",
        "TransformerEncoder",
        "TransformerDecoder",
        "TransformerEncoderLayer",
        "TransformerDecoderLayer",
    }
)
# In-place tensor methods that fill a tensor from its device's generator.
TENSOR_DRAW_METHODS = frozenset(
    {
        "uniform_",
        "normal_",
        "random_",
        "bernoulli_",
        "exponential_",
        "geometric_",
        "cauchy_",
        "log_normal_",
    }
)
# Library calls that take their randomness from NumPy's global generator unless an argument seeds
# them: name -> the seeding arguments (keyword, position). scikit-learn's `check_random_state(None)`
# is `np.random.mtrand._rand`, the global RandomState (scikit-learn 1.9.1 utils/validation.py).
_RANDOM_STATE = (("random_state", None),)
NUMPY_GLOBAL_CALLS: dict[str, tuple[tuple[str, int | None], ...]] = {
    "sklearn.model_selection.train_test_split": _RANDOM_STATE,
    "sklearn.model_selection._split.train_test_split": _RANDOM_STATE,
    "sklearn.cross_validation.train_test_split": _RANDOM_STATE,
    "sklearn.utils.shuffle": _RANDOM_STATE,
    "sklearn.utils._indexing.shuffle": _RANDOM_STATE,
    "sklearn.utils.resample": _RANDOM_STATE,
    "sklearn.utils._indexing.resample": _RANDOM_STATE,
}
# scikit-learn's splitters: `split()` shuffles with NumPy's global generator when the splitter was
# built without `random_state`: class -> whether it shuffles only when built with `shuffle=True`
# (scikit-learn 1.9.1).
SKLEARN_SPLITTERS = {
    **dict.fromkeys(("KFold", "StratifiedKFold", "StratifiedGroupKFold", "GroupKFold"), True),
    **dict.fromkeys(
        (
            "ShuffleSplit",
            "StratifiedShuffleSplit",
            "GroupShuffleSplit",
            "RepeatedKFold",
            "RepeatedStratifiedKFold",
        ),
        False,
    ),
}
SKLEARN_SPLITTER_MODULES = ("sklearn.model_selection", "sklearn.model_selection._split")
# Functions that split with the splitter given as `cv=` (and so shuffle when it does).
SKLEARN_CV_CALLS = frozenset(
    f"{module}.{name}"
    for module in ("sklearn.model_selection", "sklearn.model_selection._validation")
    for name in ("cross_val_score", "cross_validate", "cross_val_predict")
)
# Hyper-parameter searches: `fit()` splits with the splitter given as `cv=`; the randomized ones
# also sample their candidates with `random_state` (NumPy's global generator when None): class ->
# whether it samples.
SKLEARN_SEARCHES = {"GridSearchCV": False, "RandomizedSearchCV": True}
# Hugging Face `datasets`: methods of a (map-style) Dataset or DatasetDict that, without a seed or
# generator, seed themselves from NumPy's global generator (`np.random.get_state()`, then one step
# of it; datasets 1.18.2 to 5.2.0 arrow_dataset.py): method -> its seeding arguments. A streamed
# IterableDataset's `shuffle()` takes OS entropy instead (not a NumPy draw).
HF_DATASET_DRAWS: dict[str, tuple[tuple[str, int | None], ...]] = {
    "shuffle": (("seed", 0), ("seeds", None), ("generator", None), ("generators", None)),
    "train_test_split": (("seed", 4), ("generator", None)),
}
# What makes a `datasets` object a streamed one.
HF_STREAMED = ("IterableDataset", "to_iterable_dataset", "streaming")

NUMPY_NON_DRAWS = frozenset(
    {
        "seed",
        "get_state",
        "set_state",
        "default_rng",
        "RandomState",
        "Generator",
        "SeedSequence",
        "BitGenerator",
        "PCG64",
        "PCG64DXSM",
        "MT19937",
        "Philox",
        "SFC64",
        "bit_generator",
        "mtrand",
    }
)
PYTHON_RANDOM_DRAWS = frozenset(
    {
        "random",
        "randint",
        "randrange",
        "choice",
        "choices",
        "shuffle",
        "sample",
        "uniform",
        "gauss",
        "normalvariate",
        "triangular",
        "betavariate",
        "expovariate",
        "getrandbits",
        "randbytes",
        "lognormvariate",
        "vonmisesvariate",
        "gammavariate",
        "paretovariate",
        "weibullvariate",
        "binomialvariate",
    }
)

DISTRIBUTED_SAMPLERS = frozenset(
    {
        "torch.utils.data.DistributedSampler",
        "torch.utils.data.distributed.DistributedSampler",
    }
)
# The base classes of map-style and iterable datasets.
DATASET_BASES = frozenset(
    {
        "torch.utils.data.Dataset",
        "torch.utils.data.dataset.Dataset",
        "torch.utils.data.IterableDataset",
        "torch.utils.data.dataset.IterableDataset",
    }
)
DATA_LOADERS = frozenset(
    {
        "torch.utils.data.DataLoader",
        "torch.utils.data.dataloader.DataLoader",
        # PyTorch Geometric's loaders subclass it (`torch_geometric.data` before PyG 2.0)
        *(
            f"torch_geometric.{package}.{name}"
            for package in ("loader", "data")
            for name in ("DataLoader", "DenseDataLoader")
        ),
    }
)
DATA_PARALLEL = frozenset(
    {
        "torch.nn.DataParallel",
        "torch.nn.parallel.DataParallel",
        "torch.nn.parallel.data_parallel.DataParallel",
    }
)
# Base classes of models, and the framework classes whose hooks run once per step or epoch.
NN_MODULES = frozenset(
    {"torch.nn.Module", "torch.nn.modules.Module", "torch.nn.modules.module.Module"}
)
LIGHTNING_MODULES = frozenset(
    {
        "lightning.LightningModule",
        "lightning.pytorch.LightningModule",
        "pytorch_lightning.LightningModule",
        "lightning.pytorch.core.module.LightningModule",
        "pytorch_lightning.core.module.LightningModule",
    }
)
LIGHTNING_CALLBACKS = frozenset(
    {
        "lightning.Callback",
        "lightning.pytorch.Callback",
        "lightning.pytorch.callbacks.Callback",
        "pytorch_lightning.Callback",
        "pytorch_lightning.callbacks.Callback",
    }
)
TRANSFORMERS_CALLBACKS = frozenset(
    {"transformers.TrainerCallback", "transformers.trainer_callback.TrainerCallback"}
)
# Libraries whose agents, built with `seed=`, seed the environment they are given (its spaces and
# its resets): stable-baselines3's `BaseAlgorithm.set_random_seed`.
SEEDING_AGENT_MODULES = ("stable_baselines3.", "sb3_contrib.")
SB3_CALLBACKS = frozenset(
    f"stable_baselines3.common.callbacks.{name}"
    for name in (
        "BaseCallback",
        "EventCallback",
        "EvalCallback",
        "CheckpointCallback",
    )
)
# Context managers that restore generators' states on exit: name -> the generators restored.
# `fork_rng` restores the CPU generator and, by default, every CUDA device's (torch/random.py);
# Lightning's `isolate_rng` also NumPy's and Python's (lightning 2.x utilities/seed.py).
RNG_ISOLATORS = {
    "torch.random.fork_rng": TORCH_GENERATORS,
    **dict.fromkeys(
        (
            "lightning.pytorch.utilities.seed.isolate_rng",
            "pytorch_lightning.utilities.seed.isolate_rng",
        ),
        EVERYTHING | {CUDA_CURRENT},
    ),
}
# Calls that put a generator's saved state back: name -> the generators they restore.
STATE_RESTORERS = {
    **dict.fromkeys(
        ("torch.set_rng_state", "torch.random.set_rng_state", "torch.default_generator.set_state"),
        frozenset({TORCH_CPU}),
    ),
    **dict.fromkeys(
        (
            "torch.cuda.set_rng_state",
            "torch.cuda.random.set_rng_state",
            "torch.cuda.set_rng_state_all",
            "torch.cuda.random.set_rng_state_all",
        ),
        frozenset({CUDA, CUDA_CURRENT}),
    ),
    "numpy.random.set_state": frozenset({NUMPY}),
    "random.setstate": frozenset({PYTHON_RANDOM}),
}
# Calls that save a generator's state (for a restorer to put back): name -> the generators saved.
# Seeding between a save and the restore of the same generator is undone: it controls only the
# draws between them.
STATE_SAVERS = {
    **dict.fromkeys(
        ("torch.get_rng_state", "torch.random.get_rng_state", "torch.default_generator.get_state"),
        frozenset({TORCH_CPU}),
    ),
    **dict.fromkeys(
        (
            "torch.cuda.get_rng_state",
            "torch.cuda.random.get_rng_state",
            "torch.cuda.get_rng_state_all",
            "torch.cuda.random.get_rng_state_all",
        ),
        frozenset({CUDA, CUDA_CURRENT}),
    ),
    "numpy.random.get_state": frozenset({NUMPY}),
    "random.getstate": frozenset({PYTHON_RANDOM}),
}
# Reinforcement learning: what makes an environment (Gymnasium and gym, procgen), and what an action
# space is called. An environment seeds itself from OS entropy on first use unless `reset(seed=..)`
# (gym >= 0.22, Gymnasium) or `env.seed(..)` (gym < 0.26) seeds it; a space unless `space.seed(..)`
# does; procgen unless it is built with `rand_seed=`.
RL_MODULES = ("gym.", "gymnasium.", "procgen.")
RL_ENVIRONMENTS = frozenset(
    {
        *(
            f"{gym}.{name}"
            for gym in ("gym", "gymnasium")
            for name in (
                "make",
                "make_vec",
                "envs.make",  # the same function, exported by `gym.envs`
                "envs.make_vec",
                "envs.registration.make",
                "envs.registration.make_vec",
                "vector.make",
                "vector.SyncVectorEnv",
                "vector.AsyncVectorEnv",
                "vector.sync_vector_env.SyncVectorEnv",
                "vector.async_vector_env.AsyncVectorEnv",
            )
        ),
        "procgen.ProcgenEnv",
        "procgen.ProcgenGym3Env",
        "procgen.env.ProcgenEnv",
        "procgen.env.ProcgenGym3Env",
    }
)
RL_ACTION_SPACES = frozenset({"action_space", "single_action_space"})
CUDNN_MODULE = "torch.backends.cudnn"
CUDNN_FLAGS = frozenset(
    {
        "enabled",
        "benchmark",
        "benchmark_limit",
        "deterministic",
        "allow_tf32",
        "fp32_precision",
        "depthwise_kernel",
    }
)
# Other public names of torch.backends.cudnn: assigning to them is odd but not a typo.
CUDNN_OTHER_ATTRIBUTES = frozenset(
    {
        "conv",
        "rnn",
        "version",
        "is_available",
        "is_acceptable",
        "flags",
        "set_flags",
        "torch",
        "CUDNN_TENSOR_DTYPES",
        "m",
    }
)

# Context managers under which modules are built without drawing (their weights are loaded later).
EMPTY_INIT_CONTEXTS = frozenset(
    {
        "accelerate.init_empty_weights",
        "accelerate.big_modeling.init_empty_weights",
        "transformers.modeling_utils.no_init_weights",
        "transformers.modeling_utils.init_empty_weights",
        "transformers.initialization.no_init_weights",
    }
)
# Context managers that put what is built in them on the device their argument names (`"meta"`: no
# draws).
DEVICE_CONTEXTS = frozenset(
    {"torch.device", "accelerate.init_on_device", "accelerate.big_modeling.init_on_device"}
)
# Fabric's and Trainer's `init_module(empty_init=True)`: a method name distinctive enough to match
# on any receiver.
EMPTY_INIT_METHOD = ("init_module", "empty_init")
# Class methods that build a model and then load every weight (its random initialisation is thrown
# away).
LOADING_CONSTRUCTORS = frozenset({"from_pretrained", "load_from_checkpoint"})
# Functions that load every weight of the model they are given (strict by default):
# name -> (model argument, strict argument).
WEIGHT_LOADERS: dict[str, tuple[tuple[str, int], tuple[str, int]]] = {
    "safetensors.torch.load_model": (("model", 0), ("strict", 2)),
}
# Methods that load every weight of the model they are called on, or given (strict by default):
# name -> (model argument, strict argument).
WEIGHT_LOADING_METHODS: dict[str, tuple[tuple[str, int] | None, tuple[str, int]]] = {
    "load_state_dict": (None, ("strict", 1)),  # on the model itself
    "load_raw": (("obj", 1), ("strict", 2)),  # Fabric().load_raw(path, model)
}

# Library calls that build a model and initialise its weights randomly, from the torch CPU
# generator, unless an argument says its weights are loaded: name -> (argument, position or None,
# its "loaded" test). "given": any value but None (torchvision's `weights=`); "true": a literal True
# (`pretrained=True`).
LIBRARY_DRAWS: dict[str, tuple[tuple[str, int | None, str], ...]] = {
    "peft.get_peft_model": (),  # adapter weights (LoRA's A matrices) are initialised randomly
    "peft.mapping.get_peft_model": (),
    "peft.mapping_func.get_peft_model": (),
    # Pretrained weights load every weight unless `num_classes` asks for a new (random) classifier
    # head.
    "timm.create_model": (("pretrained", 1, "true"),),
    "timm.models.create_model": (("pretrained", 1, "true"),),
    "timm.models._factory.create_model": (("pretrained", 1, "true"),),
}
NEW_HEAD_ARGUMENT = (
    "num_classes"  # with timm's `pretrained=True`, a new head is initialised randomly
)
# torchvision's model builders (`torchvision.models.resnet18(weights=None)`, also in `detection`,
# `segmentation`, `video`, ...) and classes: random unless `weights=` (or the old `pretrained=True`)
# loads them.
TORCHVISION_MODEL_PACKAGES = frozenset(
    {
        "torchvision.models",
        "torchvision.models.detection",
        "torchvision.models.segmentation",
        "torchvision.models.video",
        "torchvision.models.optical_flow",
        "torchvision.models.quantization",
    }
)
TORCHVISION_LOADED = (("weights", None, "given"), ("pretrained", 0, "true"))
# Graph-learning libraries' layers (`dgl.nn.GraphConv`, `torch_geometric.nn.GCNConv`): their
# `*Conv` classes initialise their weights from torch's global generator when built
# (`HeteroGraphConv` only wraps the layers it is given).
GRAPH_LAYER_PACKAGES = frozenset(
    {
        "dgl.nn",
        "dgl.nn.pytorch",
        "dgl.nn.pytorch.conv",
        "torch_geometric.nn",
        "torch_geometric.nn.conv",
    }
)
GRAPH_LAYER_WRAPPERS = frozenset({"HeteroGraphConv"})
TORCHVISION_NOT_BUILDERS = frozenset(
    {"get_model_weights", "get_weight", "list_models", "get_model_builder"}
)
# transformers: `AutoModel*.from_config(config)` and a model class built from a config
# (`GPT2LMHeadModel(config)`).
TRANSFORMERS = "transformers."

# Generators the code makes.
GENERATOR_CONSTRUCTORS = ("torch.Generator", "torch.random.Generator", "torch._C.Generator")
# as `qualify` spells one
TORCH_GENERATOR_OBJECTS = frozenset(f"{constructor}()" for constructor in GENERATOR_CONSTRUCTORS)
# RNG objects, by constructor, and how a `worker_init_fn` gives the worker's copy its own seed.
RNG_CONSTRUCTORS = {
    "numpy.random.default_rng": "info.dataset.{} = np.random.default_rng(info.seed)",
    "numpy.random.Generator": "info.dataset.{} = np.random.default_rng(info.seed)",
    "numpy.random.RandomState": "info.dataset.{} = np.random.RandomState(info.seed % 2**32)",
    "random.Random": "info.dataset.{}.seed(info.seed)",
    "torch.Generator": "info.dataset.{}.manual_seed(info.seed)",
    "torch.random.Generator": "info.dataset.{}.manual_seed(info.seed)",
}
RNG_INSTANCES = {f"{constructor}()": constructor for constructor in RNG_CONSTRUCTORS}
WORKER_INIT_FN_POSITION = 10  # DataLoader(dataset, ..., worker_init_fn, ...)


@dataclass(frozen=True)
class DeterministicSwitch:
    """A torch call that turns deterministic algorithms on (or off)."""

    keyword: str  # the argument that says on or off
    off: frozenset[str]  # its spellings that turn them off
    without: str  # what stays so when the call is not made


DETERMINISTIC_SWITCHES = {
    "torch.use_deterministic_algorithms": DeterministicSwitch(
        "mode", frozenset({"False"}), "deterministic algorithms stay off"
    ),
    "torch.set_deterministic_debug_mode": DeterministicSwitch(
        "debug_mode",
        frozenset({"0", "'default'", '"default"'}),
        "the deterministic debug mode stays as it was",
    ),
}

# Framework runners that seed from their configuration when they start: a program that calls one is
# seeded, whatever its own text says (detectron2's `default_setup` seeds from `cfg.SEED`, mmengine's
# runner from `randomness`, `LightningCLI` runs `seed_everything` by default, ultralytics' `YOLO`
# trainers and fairseq's `main` seed from their config).
SEEDING_RUNNERS = frozenset(
    {
        "detectron2.engine.default_setup",
        "detectron2.engine.defaults.default_setup",
        "mmengine.runner.Runner",
        "mmengine.runner.Runner.from_cfg",
        "mmengine.Runner",
        "lightning.pytorch.cli.LightningCLI",
        "lightning.pytorch.LightningCLI",
        "pytorch_lightning.cli.LightningCLI",
        "pytorch_lightning.utilities.cli.LightningCLI",
        "ultralytics.YOLO",
        "fairseq_cli.train.main",
    }
)
# Command-line runners that call the function they are given, in this process (`fire.Fire(train)`,
# absl's `app.run(main)`, `typer.run(main)`, jsonargparse's `CLI(main)`), and the typer app whose
# `@app.command()` functions run when the app is called.
CLI_RUNNERS = frozenset(
    {
        "fire.Fire",
        "absl.app.run",
        "typer.run",
        "jsonargparse.CLI",
        "jsonargparse.auto_cli",
    }
)
CLI_APPS = frozenset({"typer.Typer()", "typer.main.Typer()"})
# Modules whose calls start processes that run a function they are given (`mp.spawn(worker)`,
# `Process(target=worker)`, a pool's `map`).
PROCESS_MODULES = ("multiprocessing.", "torch.multiprocessing.", "concurrent.futures.")
# torch's calls that start spawned processes: each child is a fresh interpreter that imports the
# module (not its `__main__` block) and runs the function it is given.
SPAWNERS = frozenset(
    {
        "torch.multiprocessing.spawn",
        "torch.multiprocessing.spawn.spawn",
        "torch.multiprocessing.start_processes",
        "torch.multiprocessing.spawn.start_processes",
    }
)
# What makes a program a training run: a backward pass (`catalog.BACKWARD_METHODS`,
# `GRADIENT_CALLS`), or a Lightning trainer's `fit` (which seeds nothing by itself).
LIGHTNING_TRAINERS = frozenset(
    {
        "lightning.Trainer",
        "lightning.pytorch.Trainer",
        "pytorch_lightning.Trainer",
        "lightning.pytorch.trainer.trainer.Trainer",
        "pytorch_lightning.trainer.trainer.Trainer",
        "flash.Trainer",  # lightning-flash's, a subclass
        "flash.core.trainer.Trainer",
    }
)
# skorch's networks: `fit` runs the training loop (backward passes and optimizer steps).
SKORCH_NETS = frozenset(
    f"skorch.{module}{name}"
    for module, names in (
        (
            "",
            ("NeuralNet", "NeuralNetClassifier", "NeuralNetRegressor", "NeuralNetBinaryClassifier"),
        ),
        ("net.", ("NeuralNet",)),
        ("classifier.", ("NeuralNetClassifier", "NeuralNetBinaryClassifier")),
        ("regressor.", ("NeuralNetRegressor",)),
    )
    for name in names
)
# pytest's fixture decorator: a fixture runs before the tests that name it, never called by name.
PYTEST_FIXTURES = frozenset({"pytest.fixture", "_pytest.fixtures.fixture"})
# What changes from run to run in a training program that seeds nothing, by what it calls.
DROPOUT_CALLS = frozenset(
    {
        *(f"torch.nn.{name}" for name in ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d")),
        "torch.nn.AlphaDropout",
        "torch.nn.FeatureAlphaDropout",
        *(
            f"torch.nn.functional.{name}"
            for name in ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout")
        ),
    }
)
AUGMENTATION_MODULES = ("torchvision.transforms.", "torchvision.transforms.v2.")
SHUFFLING_CALLS = frozenset(
    {
        "torch.utils.data.RandomSampler",
        "torch.utils.data.SubsetRandomSampler",
        "torch.utils.data.random_split",
        "torch.utils.data.sampler.RandomSampler",
        "torch.utils.data.sampler.SubsetRandomSampler",
        "torch.utils.data.dataset.random_split",
    }
)

# Helpers that turn deterministic algorithms on: (qualified name, the argument that must be on
# (None: always), its position (None: keyword-only)).
DETERMINISTIC_HELPERS = (
    ("transformers.enable_full_determinism", None, 0),
    ("transformers.trainer_utils.enable_full_determinism", None, 0),
    ("ray.train.torch.enable_reproducibility", None, 0),
    ("transformers.set_seed", "deterministic", 1),
    ("transformers.trainer_utils.set_seed", "deterministic", 1),
    ("accelerate.utils.set_seed", "deterministic", 2),
    ("accelerate.utils.random.set_seed", "deterministic", 2),
    *((trainer, "deterministic", None) for trainer in sorted(LIGHTNING_TRAINERS)),
)

# Libraries whose global seeding the catalog knows in full: a call into them that is not one of
# its seeders seeds no global generator (a generator's own `manual_seed`, a module's `train()`).
KNOWN_LIBRARIES = frozenset(
    {
        "torch",
        "torchvision",
        "torchaudio",
        "numpy",
        "random",
        "gym",
        "gymnasium",
        "sklearn",
        "datasets",
        "builtins",
    }
)
# Libraries whose code a program calls as a library, even where the linted project is the library
# itself (torch's own tree): a program "trains" the project's modules, not theirs.
LIBRARY_PACKAGES = frozenset(
    {
        "torch",
        "torchvision",
        "torchaudio",
        "torchtext",
        "lightning",
        "pytorch_lightning",
        "lightning_fabric",
        "transformers",
        "accelerate",
        "timm",
        "numpy",
    }
)

# Training: calls and methods that compute gradients.
AUTOGRAD_BACKWARD = "torch.autograd.backward"  # `loss.backward()` as a function
GRADIENT_CALLS = ("torch.autograd.grad", AUTOGRAD_BACKWARD)
BACKWARD_METHODS = frozenset({"backward", "manual_backward"})

# File listings in the order of the filesystem (not sorted).
FSSPEC_FILESYSTEMS = (  # fsspec filesystems, as `qualify` spells their instances
    "fsspec.filesystem()",
    "s3fs.S3FileSystem()",
    "gcsfs.GCSFileSystem()",
    "adlfs.AzureBlobFileSystem()",
    "fsspec.implementations.local.LocalFileSystem()",
)
LISTING_FUNCTIONS = frozenset(
    {
        "os.listdir",
        "os.scandir",
        "glob.glob",
        "glob.iglob",
        # its lists of names are `os.scandir`'s order (CPython's os.py): each needs sorting, not the
        # walk
        "os.walk",
        # Wrappers that list in the order of the filesystem (or of an object store).
        "tensorflow.io.gfile.listdir",
        "tensorflow.io.gfile.glob",
        "tensorflow.gfile.ListDirectory",
        "tensorflow.gfile.Glob",
        "tensorflow.compat.v1.gfile.ListDirectory",
        "tensorflow.compat.v1.gfile.Glob",
        # mmcv's and mmengine's `scandir` walk `os.scandir`; mmengine's `list_dir_or_file` too
        "mmcv.scandir",
        "mmcv.utils.scandir",
        "mmcv.utils.path.scandir",
        "mmengine.scandir",
        "mmengine.utils.scandir",
        "mmengine.utils.path.scandir",
        "mmengine.fileio.list_dir_or_file",
        "mmengine.fileio.io.list_dir_or_file",
        # fsspec's `glob` sorts its matches; `ls` and `listdir` do not.
        *(
            f"{filesystem}.{method}"
            for filesystem in FSSPEC_FILESYSTEMS
            for method in ("ls", "listdir")
        ),
    }
)
PATH_LISTING_METHODS = frozenset({"glob", "rglob", "iterdir"})  # of a `pathlib.Path`
# list methods that add items in the order given
COLLECTING_METHODS = frozenset({"append", "extend", "insert"})
