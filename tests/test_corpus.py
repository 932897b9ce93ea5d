"""seedlint on small re-creations of real training scripts (tests/corpus, see its README).

Each program is a directory linted as a user would: `seedlint check --select ALL .` run inside it, so
its helper modules resolve. The expected findings are what a correct linter reports, judged from
docs/pytorch-randomness.md, not from seedlint's output: the four differences this test bed first
found (see the README) were fixed in the linter.
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import pytest
from conftest import run_cli

CORPUS = Path(__file__).parent / "corpus"

Finding = tuple[str, str, int]  # (path inside the program, code, row)

EXPECTED: dict[str, set[Finding]] = {
    "imagenet_ddp": {
        ("main.py", "SL103", 34),  # opt-in convention: torch.manual_seed in a CUDA module
        ("main.py", "SL108", 42),  # mp.spawn target main_worker never seeds
    },
    "moco_spawn": {
        ("main_moco.py", "SL103", 33),  # opt-in convention
        ("main_moco.py", "SL301", 41),  # cudnn.benchmark = True
    },
    "dino_ssl": {("main_dino.py", "SL301", 28)},
    "dino_late_seed": {
        ("main_dino.py", "SL104", 41),  # student built before utils.fix_random_seeds
        ("main_dino.py", "SL104", 42),  # teacher built before utils.fix_random_seeds
    },
    "nanogpt": {("train.py", "SL103", 28)},
    "nanogpt_benchmark": {("train.py", "SL103", 27), ("train.py", "SL301", 30)},
    "mingpt_chargpt": set(),
    "detectron_train": {("d2lite/utils/env.py", "SL304", 20)},
    "mmdet_train": set(),
    "hf_text_classification": set(),
    "timm_train": {("train.py", "SL301", 14)},
    "lightning_mnist": set(),
    "mnist_basic": {("main.py", "SL103", 47)},
    "ddp_no_set_epoch": {("train_ddp.py", "SL201", 58)},
    "folder_dataset": set(),
    "folder_dataset_buggy": {
        ("datasets.py", "SL205", 17),  # unsorted os.listdir stored on the dataset
        ("train.py", "SL203", 26),  # worker_init_fn seeds every worker with args.seed
        ("train.py", "SL202", 35),  # NoisyWaveforms.rng copied into every worker
    },
    "cuda_only_seed": {
        ("train.py", "SL101", 17),  # set_seed seeds CUDA only
        ("utils.py", "SL101", 13),
        ("utils.py", "SL302", 14),  # cudnn.determinstic
    },
    # Issue 9's classes: look-alikes left alone, and misses now found.
    # the seed picked when none is given (drawn as it is passed, named as a seed) is the idiom
    "seed_picked": {("rl/sac.py", "SL104", 23)},  # a noise scale drawn as data before the seed
    "generate_empty_init": set(),  # built on meta / fully loaded before the seed: no draw that matters
    "spawn_top_level_seed": set(),  # spawned children re-run the seeded top level
    "image_lists": set(),  # listings sorted later
    "class_folders": {
        ("datasets.py", "SL205", 24),
        ("datasets.py", "SL205", 54),
    },  # assigned beside a None branch
    "ddp_hardwired": {("train.py", "SL201", 59)},  # set_epoch only under `if args.distributed`
    "spawn_cuda_seed": {("main.py", "SL108", 33)},  # the spawned target seeds only CUDA
    "hf_lora_trainer": {
        ("finetune.py", "SL104", 66)
    },  # adapter drawn before Trainer.__init__ seeds
    # Issue 14: library shuffles and splits without a seed draw from NumPy's global generator.
    "hf_split_torch_seed": {("finetune.py", "SL105", 24)},  # train_test_split: NumPy never seeded
    "sklearn_kfold": {
        ("cross_validate.py", "SL105", 35)
    },  # KFold(shuffle=True).split: NumPy never seeded
    "eval_fixed_seed": {("train_vae.py", "SL110", 29)},  # evaluate() reseeds torch on every epoch
    "augment_item_seed": {
        ("datasets.py", "SL110", 23),  # random.seed(self.seed) in __getitem__
        ("datasets.py", "SL110", 59),  # a per-item seed drawn from the generator it resets
    },
    "lightning_val_seed": {
        ("model.py", "SL110", 23)
    },  # manual_seed(0) in on_validation_epoch_start
    "rl_dqn_eval": {("dqn.py", "SL111", 38)},  # the evaluation env is reset without a seed
    "streaming_shuffle": {
        ("pretrain.py", "SL109", 14),
        ("shards.py", "SL109", 13),
    },  # OS entropy, pid + clock
    "procgen_ppo": {("train_procgen.py", "SL111", 23)},  # ProcgenEnv without rand_seed
    # Issue 25: each function judged where the program runs it, and only what was seen claimed.
    "caller_seeds": {
        ("runner.py", "SL104", 29)
    },  # main.py seeds NumPy before Runner.train; a library function's own late seed
    "caller_leaves_numpy": {("runner.py", "SL105", 15)},  # main.py seeds torch only
    "undone_seeding": {("split.py", "SL105", 13)},
    # a seed option parsed, saved and logged, never read; a launcher beside it that reads its own
    "seed_option_ignored": {("prune_heads.py", "SL113", 27)},
    # a GAN script that trains and seeds nothing; its sampling and profiling scripts beside it
    "unseeded_gan": {("gan.py", "SL112", 29)},
    # the model the seeded CUDA program trains: its upsampling and its blocks' padding
    "trained_model": {
        ("train.py", "SL103", 19),
        ("models/unet.py", "SL303", 20),
        ("models/blocks.py", "SL303", 10),
    },  # NumPy's seed is undone by set_state
    "forked_workers": {("collect.py", "SL105", 13)},  # CPython reseeds random in a forked child
    "derived_model_seed": {
        ("run_regression.py", "SL105", 10)
    },  # the model seeds torch in a base class's constructor; NumPy's split is unseeded
    "notebook_demos": {
        ("tensors_and_training.ipynb", "SL104", 1),  # cell 6
        ("equivariance_checks.ipynb", "SL104", 1),  # cell 8: a kernel copied into the model
    },  # the model trained is built before the seed; demos, a rebuilt model, loaded weights are not
    "eval_loaders": {
        ("train_glue.py", "SL201", 26),  # epoch loop over tqdm(train_dataloader), no set_epoch
        ("validate.py", "SL204", 11),  # the training sampler; the validation one only evaluates
        ("validate.py", "SL112", 22),  # the script trains and seeds nothing
    },
    "one_file_listing": {("datasets.py", "SL205", 14)},  # ids listed; one mask per id found by glob
    "sb3_agent_env": {("train_agent.py", "SL111", 15)},  # the agent built with seed= seeds env
    "early_return_watch": {("main.py", "SL104", 34)},  # watch() returns before the seeding
    "item_index_reseed": {("data.py", "SL110", 30)},  # per item; `if index == 0:` is per pass
    "rng_object_seeded_later": {("sampling.py", "SL106", 10)},  # global_rng.seed(42) seeds it
    "automagic_notebook": {("tutorial.ipynb", "SL000", 3)},  # `pip install`, `cd ..` run in IPython
    "config_choices": {
        ("bench.py", "SL301", 7),  # the helper is not asked to turn benchmark mode off
        ("model.py", "SL401", 17),  # `_mix` gets self.p whatever the mode
    },
    # Issue 38: every finding a chain of links the analysis saw.
    # a project loader returning the iteration; the epoch loop starts from a name computed from it
    "resume_helper": {("train.py", "SL114", 20)},
    # training behind a method returned by a method, and a class named like its module
    "dynamic_dispatch": {("example.py", "SL112", 10), ("example_run.py", "SL112", 9)},
    # an evaluator's result printed is the program's output, not a demo; offsets only printed are
    "eval_shifts": {("test_pretrained.py", "SL105", 12)},
    # `p=self.dropout_prob`: 0 by default and as built (decoder.py), 0.5 as built (encoder.py)
    "dropout_off": {("encoder.py", "SL401", 15)},
    # the mode copied into a local name (`training = self.training`), beside a fixed flag
    "training_flag_local": {("tabular.py", "SL401", 33)},
    # listings indexed only to show images or a video, beside one loaded by index into a dataset
    "listing_for_display": {
        ("homework.ipynb", "SL205", 1),  # cell 3
        ("validation_split.ipynb", "SL205", 4),  # cell 3: the files copied for validation
    },
    # a dataset drawing from its generator only when built with `augment=True`
    "augment_flag_off": {("train.py", "SL202", 14)},
    # a constant CUDA seed in a loader's workers, which never draw from CUDA
    "worker_cuda_seed": {("main.py", "SL203", 28)},
    # a reseed under `if eval_sets is None:` in a helper handed a list built once, beside a loop
    # that lets the helper load (and reseed) each time
    "prefetched_eval": {("train_reload.py", "SL110", 22)},
    # draws that only fill a grid of plotted images, beside draws the training loop uses
    "preview_grid": {("flips.ipynb", "SL105", 6)},  # cell 3
    # a lab skeleton's sys.exit() before the backward pass; the completed lab trains
    "exit_before_training": {("complete.py", "SL112", 12)},
    # a star-imported model module that seeds on import; one that does not
    "star_import_seeds": {("main_layers.py", "SL112", 14)},
    # a tester class no code builds turns benchmark mode on; the built trainer does too
    "unbuilt_tester": {("solver.py", "SL103", 30), ("solver.py", "SL301", 33)},
    # a bicubic interpolation only logged to TensorBoard; one inside the training loss
    "interpolate_for_display": {
        ("solver.py", "SL103", 19),  # opt-in convention
        ("solver_upsampled.py", "SL103", 19),
        ("solver_upsampled.py", "SL303", 26),
    },
    # every weight and bias bound to a constant parameter; one bias left as drawn
    "constant_parameters": {("bias_drawn.py", "SL112", 25)},
    # NumPy seeded for fixed evaluation episodes; torch reseeded before every evaluation
    "eval_episodes_seed": {("train_torch_eval_seed.py", "SL110", 26)},
    # a loop timing four batches is a benchmark; the training after it is reported
    "timing_loop": {("trains_after.py", "SL112", 33)},
    # a `train(epoch)` defined in the `__main__` block, beside another folder's seeding `train`
    "nested_train_function": {("cifar/main.py", "SL112", 16)},
    # a base class's `run` calling `self.batch_update(..)`, which the subclass run overrides
    "overridden_step": {("segmentation.py", "SL112", 26)},
    # a callee whose module seeds torch on import (not one that seeds only NumPy)
    "callee_seeds_on_import": {("numpy_trainer.py", "SL105", 18)},
    # a helper given literals that only plots what it draws (not one that fills a global list)
    "draws_in_a_plotting_helper": {("pool.py", "SL104", 15)},
    # a split bound again before any use: only the second one is reported
    "split_redone": {("fruits.py", "SL204", 12), ("fruits.py", "SL112", 18)},
    # `from model import Transformer` finds the package `model/`, not `model.py` beside it
    "package_beside_module": {("train.py", "SL112", 15)},
    # a backward pass in a closure LBFGS's `step` calls, in the module and in a class's method
    "lbfgs_closure": {("burgers.py", "SL112", 9), ("heat.py", "SL112", 13)},
    # a call runs the definition made before it, not a later one of the same name
    "function_redefined": {("ranker.py", "SL112", 13)},
    # an agent of another module whose `learn()` trains, in a program that names no training
    "agent_learns": {("main.py", "SL112", 11)},
    # a top level that calls the module's own training function (not named `train`)
    "top_level_training_call": {("main.py", "SL112", 17)},
    # a notebook named like its folder imports that folder's seeding helper as a package
    "package_named_like_notebook": {("demo/demo.ipynb", "SL112", 6)},  # cell 3
    # random previews saved as images, logged to TensorBoard or a logger; a subset then trained on
    "logged_previews": {("subset.py", "SL104", 13)},
    # a sampler whose loader nothing iterates draws no order; the training loader's does
    "sampler_never_iterated": {("train.py", "SL204", 8), ("train.py", "SL112", 20)},
    # a seed handed to a helper the linter cannot read may seed; one only logged does not
    "seed_to_unread_helper": {("scripts/train_logged.py", "SL112", 28)},
    # a model whose weights a strict `load_state_dict` replaces; a partial load keeps the head's
    "loaded_weights": {("finetune_head.py", "SL105", 9)},
    # an `mp.spawn` target of another module that seeds itself; one that does not
    "spawn_target_seeds": {
        ("launch_unseeded.py", "SL112", 14),
        ("lib/worker.py", "SL103", 13),  # opt-in convention
    },
    # predictions handed to another module's plotting helper; a helper that returns them
    "plotted_prediction": {("distilled.py", "SL104", 11)},
    # a notebook's own helper that only plots, a product displayed, a loop's draw only plotted
    "shown_by_helper": {
        ("kept.ipynb", "SL105", 1),  # cell 5: the helper returns what trains
        ("kept.ipynb", "SL104", 1),  # cell 6: saved with torch.save
        ("kept.ipynb", "SL104", 3),  # cell 7: kept in a list that training reads
        ("kept.ipynb", "SL104", 2),  # cell 9: displayed, then trained after the seed
    },
    # a skorch network's `fit` trains the module class it is given
    "skorch_net": {("classify.py", "SL112", 23)},
    # a step function handed to an engine; a model class handed to a wrapper that builds it
    "engine_step": {("lm_train.py", "SL112", 13), ("continue_train.py", "SL112", 12)},
    "class_handed": {("mf.py", "SL112", 28)},
    # the step in a closure a factory returns, called through the name it is bound to
    "closure_step": {("train_gat.py", "SL112", 16)},
    # a helper that loads a checkpoint and returns its saved epoch
    "resume_helper_returns": {("train_vae.py", "SL114", 23)},
    # a split in a helper of another module, judged in the programs that call it
    "split_in_helper": {("data.py", "SL204", 9)},
    # a notebook's only seeding in a helper its cells call with `seed=None`
    "seed_none_passed": {
        ("transformer.ipynb", "SL112", 10),  # cell 2
        ("intro_reseeded.ipynb", "SL106", 1),  # cell 3: `torch.seed()`, SL106's, not SL112's
        ("homework_template.ipynb", "SL000", 1),  # cell 3: a seeding cell left to fill in
    },
    # a glob of the exact file name a table gives, beside a folder's wildcard glob
    "exact_glob": {("datasets.py", "SL205", 27)},
    # a subclass's fit runs the epoch its base of another module defines; predict trains nothing
    "inherited_step": {("train_from_folder.py", "SL112", 11)},
    # backward in one helper method, the step in another; not where nothing steps
    "split_step": {("classifier_train.py", "SL112", 14)},
    # a base's constructor builds the model through the subclass's `_build_model`
    "template_method": {("main_forecast.py", "SL112", 14), ("main_classify.py", "SL112", 12)},
    "resume_loads": {
        ("main.py", "SL114", 25),  # one resume loaded from a URL or a file: one finding
        ("distill.py", "SL114", 20),  # not the teacher's weights loaded into the same name
    },
    # the seed picked when none is given, though a Trainer seeds with its default in between
    "seed_picked_trainer": {("pick_late.py", "SL104", 9)},  # a drawn hyperparameter is not a seed
    # tests reseed to compare; a test seeding once after drawing the model it checks
    "reseed_to_compare": {
        ("tests/test_layers.py", "SL104", 33),
        ("tests/test_trainer.py", "SL104", 24),  # the test gives the trainer its seed
    },
    # a listing kept in a dict entry per split, or collected and returned by a helper
    "listing_entries": {("datasets.py", "SL205", 16), ("omniglot.py", "SL205", 11)},
    # what changes is drawn by builders and loaders of other modules; a training script imported
    # only by a test; the command line read and the script's own function called at the top level
    "builders_elsewhere": {
        ("gan/train.py", "SL112", 22),
        ("gan/pretrain_d.py", "SL112", 12),
        ("graphs/main.py", "SL112", 18),
        ("diffusion/ddpm.py", "SL112", 26),
        ("text/classification.py", "SL112", 14),
    },
    # `torch` and the model brought by `from modeling.deeplab import *`
    "star_imports": {
        ("modeling/deeplab.py", "SL303", 16),
        ("train.py", "SL103", 10),
        ("train_strict.py", "SL103", 5),
    },
    # script folders each with its own `utils.py`: each script's bare import finds its own folder's
    "script_folders": {("classifier/train.py", "SL105", 8)},
    # a decoder method no code calls beside one the training loop calls
    "unused_methods": {("model.py", "SL303", 22), ("train.py", "SL103", 6)},
    # a stale script importing a class its project's model module no longer defines
    "stale_scripts": {("train.py", "SL112", 12)},
    # an agent handed to another module's training loop, which calls its `train_step`
    "agents_passed": {("optimize.py", "SL112", 13)},
    # a script's own `train` beside another folder's seeding `train`; a model of DGL layers
    "local_train": {("gcn/train.py", "SL112", 19)},
    # a padding layer picked by a string the generator passes its blocks from its default
    "padding_blocks": {("networks.py", "SL303", 14), ("train.py", "SL103", 6)},
    # the flag set in the parent before mp.spawn never reaches the children that train
    # benchmark mode in a method no code names is left alone; the called `setup` is reported
    "dead_seed_helper": {
        ("train.py", "SL104", 8),  # the runner's convolution is drawn before `setup` seeds
        ("trainer.py", "SL103", 22),  # opt-in convention
        ("trainer.py", "SL103", 35),  # opt-in convention
        ("trainer.py", "SL301", 36),
    },
    # an options module parsing on import, whose seed option no importer reads
    "option_module": {("params.py", "SL113", 11), ("run.py", "SL112", 16)},
    "option_module_read": set(),  # the training script seeds from the option
    # training steps of classes a runner binds to `self.step` on either side of an `if`
    "held_steps": {("main.py", "SL112", 14)},
    # `torch.initial_seed()` only reads the seed
    "logged_start_seed": {("train.py", "SL112", 22)},
    # training five calls down, through a wrapper that builds one of two trainers
    "wrapped_trainer": {("run.py", "SL112", 11)},
    # a script in a package folder imports its own folder's `trainer.py`
    "package_scripts": {("ACGAN/main.py", "SL105", 11), ("StarGAN/main.py", "SL105", 12)},
    # a loader's generator seeded through the trainer that holds the loader
    "held_generators": {("chapter.py", "SL107", 12)},
    "held_generators_seeded": set(),  # the trainer seeds `loader.sampler.generator`
    "spawn_parent_flag": {("train_worker.py", "SL103", 14), ("train_worker.py", "SL301", 18)},
    # the model class picked by name from a dict literal a helper returns
    "model_table": {("models/frrn.py", "SL303", 13), ("train.py", "SL103", 6)},
    # a resume into a `while` counter, and the epoch returned by a project helper
    "resume_counters": {
        ("train_iters.py", "SL114", 13),
        ("train_epochs.py", "SL114", 12),
        ("train_tuple.py", "SL114", 20),  # one resume: not also the helper's own read
        ("train_trange.py", "SL114", 10),  # tqdm's `trange(start, ..)`
    },
    # `trainer` bound to two Lightning trainers; calls named like a test's fixture or mock
    "names_like_helpers": {
        ("hello_world.py", "SL112", 23),
        ("finetune_adapter.py", "SL112", 13),
        ("finetune_config.py", "SL112", 12),
        ("text_generation.py", "SL112", 21),  # `execution` bound alike on both sides of an `if`
        # a test module drawing before another test module's seeding helper: test gates for tests
        ("tests/metaprogramming_utils.py", "SL104", 6),
    },
    # a loader's iterator reseeding only `if shuffle:`, asked with `shuffle=True` and `False`
    "call_literals": {("train.py", "SL110", 15)},
    # a sampler reseeding only `if pid > 0`, called with `pid=0` in the training loop
    "worker_seeding": {("evaluate.py", "SL110", 14)},
    # a top-level `try` around the training loop; a seeding line commented out
    "script_shapes": {("char_rnn.py", "SL112", 15), ("regression.py", "SL112", 17)},
    # benchmark mode in a program that runs no convolution has nothing to time
    "benchmark_no_convolution": {
        ("vision/train.py", "SL301", 12),
        ("lm/finetune_zoo.py", "SL301", 11),  # the model zoo's layers cannot be read
    },
    # a test framework runs the set-up (setUp, fixtures) before the test: what it seeds is seeded
    "test_set_ups": {
        ("tests/test_attributions.py", "SL104", 19),  # the base's setUp seeds nothing
        ("tests/unit/test_adapters.py", "SL104", 22),  # a fixture seeding only at teardown
    },
    # demo cells whose draws only feed plots, asserts and printed values; the data trained on
    "notebook_plots": {
        ("regression_tutorial.ipynb", "SL104", 1),  # cell 10: the features
        ("regression_tutorial.ipynb", "SL104", 4),  # cell 10: a layer added to the trained head
    },
    # a folder without `__init__.py`: the model a program trains, a self-test imported elsewhere
    "namespace_packages": {
        ("tool/train.py", "SL103", 9),
        ("model/pspnet.py", "SL303", 16),
    },
    # `class PPOTrainer(rl_trainer.RLTrainer)` seeds in its base's constructor
    "base_through_module": {("rlhf_ppo.py", "SL104", 14)},  # the policy built before it
    # weights set to fixed values, jitter off by default, a seed given only when asked
    "overwritten_init": {
        ("train.py", "SL104", 14),  # the reward head's weight stays random
        ("sample.py", "SL106", 7),  # the helper takes the clock when given no seed
    },
    # a library module's self-test parses its own option; the program's is never read
    "seed_option_selftest": {("train.py", "SL113", 12)},  # np.random.seed(0) does not read it
    # what can seed: an installed helper named for randomness, a launcher seeding by default
    "installed_helpers": {
        ("train_unseeded.py", "SL112", 13),  # helpers for anything else
        ("layout_plot.py", "SL105", 10),  # networkx's `seed=` seeds its own RandomState
    },
    # a class that trains in `fit` and renders in `render`: the script calling `fit` trains
    "render_only": {("train.py", "SL112", 9)},  # top level, no `__main__` block, no loop
    # only the loss's upsampling backpropagates: not the labels', `validate()`'s or `histc`
    "segmentation_eval": {("train.py", "SL303", 22), ("train.py", "SL103", 41)},
    # a model seeding torch from `random_state or RandomState()`: seeded only when given one
    "random_state_models": {
        ("fit.py", "SL104", 9),  # the network is drawn before the model seeds with RandomState(100)
        (
            "bench.py",
            "SL106",
            9,
        ),  # no random_state: the seed is a draw from an unseeded RandomState
    },
    # what runs: functions a command-line runner starts; a training engine's backward and step
    "cli_runners": {
        ("fire_train.py", "SL112", 14),
        ("typer_train.py", "SL112", 17),
        ("deepspeed_train.py", "SL112", 13),
        ("fire_all.py", "SL112", 12),  # `fire.Fire()`; `DetectorTrainer(model).cuda()`
    },
    # `if cuda: torch.cuda.manual_seed(s) else: torch.manual_seed(s)`: the CUDA path's CPU generator
    "cuda_branch_seed": {("train.py", "SL101", 15), ("train.py", "SL103", 17)},
    # a helper's `seed=None` handed straight to `np.random.seed`, the helper called without it
    "seed_default_none": {("train.py", "SL106", 15)},
    # an environment kept on `self` and reset with the same seed after every episode
    "held_env_reset": {("agent.py", "SL110", 28)},  # not `seed=self.seed + episode`
    # a configuration module seeding NumPy and `random` when imported; torch left unseeded
    "import_time_seed": {("train.py", "SL105", 9)},  # not NumPy in train_seeded.py
    # a trainer picked on a branch, trained through steps inherited from its base class
    "trainer_branches": {("train.py", "SL112", 20)},
    # what can seed: a private generator's seed; `model.train()` beside a project's seeding `train`
    "private_seeding_only": {
        ("split_train.py", "SL112", 14),
        ("finetune.py", "SL112", 12),
        ("train_wrapper.py", "SL112", 11),  # `model.train()` of an installed library's model
    },
    # a loader over a DistributedSampler built in another module, or from its keyword arguments
    "loader_elsewhere": {("train.py", "SL201", 16), ("train_kwargs.py", "SL201", 18)},
    # an upsampling branch only the inference script's constructor flag takes
    "inference_branch": {("models/net.py", "SL303", 11), ("train.py", "SL103", 7)},
    # a seeded CUDA program whose backward pass runs in its agent's method
    "agent_backward": {("agent.py", "SL303", 10), ("main.py", "SL103", 7)},
    # a seeded program whose CUDA use and backward passes are all in a trainer of another module;
    # the look-alikes: a trainer on the CPU, one that turns deterministic algorithms on
    "trainer_on_cuda": {
        ("models/generator.py", "SL303", 9),
        ("engine/loop.py", "SL303", 8),
        ("speech.py", "SL103", 10),
    },
    "trainer_on_cpu": set(),
    # a seeding helper of another module that turns deterministic algorithms on, beside one that
    # does not
    "helper_deterministic": {("refiner.py", "SL303", 9)},
    # a notebook whose only training call is commented out runs no backward pass
    "training_commented_out": {
        ("evaluate.ipynb", "SL103", 4),  # cell 2: opt-in
        ("train.ipynb", "SL103", 4),  # cell 2: opt-in
        ("train.ipynb", "SL303", 3),  # cell 5: CTC loss, trained on CUDA
    },
    # an entry point named `*_test.py` that trains; a test module with a `__main__` block
    "named_like_test": {("gcn_test.py", "SL112", 14), ("vae_train_test.py", "SL112", 13)},
    # layers built by a base class's constructor in another module, through `super().__init__`
    "base_constructor": {("train.py", "SL112", 15), ("late_seed.py", "SL104", 9)},
    # a base trainer of another module resumes for a seeded program; the look-alikes: a program that
    # restores the generator state itself, and one that seeds nothing (SL112 through the template
    # method: `BaseTrainer.train` calls the subclass's `_train_epoch`)
    "trainer_resume": {("base/base_trainer.py", "SL114", 24)},
    "trainer_resume_restored": {("finetune.py", "SL112", 13)},
    # an entry script whose text spells no training word, its update in another module
    "update_elsewhere": {("ppo_gym.py", "SL112", 13)},
    # one epoch routine for training and evaluation, switched by `optimizer=None`
    "shared_epoch": {("train.py", "SL112", 12)},
    # a listing returned (in a tuple) by a helper of another module to a dataset
    "listing_helper": {("data/utils.py", "SL205", 23)},
    # script folders each with their own `dataset.py`, one of which seeds `random` when imported
    "folders_same_module": {("autorec/train.py", "SL112", 15), ("neumf/train.py", "SL105", 9)},
    # listings reaching a dataset through a factory classmethod, or a dataset class of another module
    # `shuffle=False if args.distributed else True`: the data order of the default path
    "conditional_shuffle": {("train.py", "SL112", 23)},
    # training in a spawned worker; a hand-written SGD step
    "spawn_and_scratch": {
        ("main.py", "SL112", 15),
        ("sgd_from_scratch.py", "SL112", 17),
        ("sgd_augmented.py", "SL112", 17),  # `param -= lr * param.grad`: a step
        ("sgd_grad_none.py", "SL112", 17),  # `p.data += -lr * p.grad` after the backward pass
    },  # not autograd_demo.py: a gradient cleared alone is not a step
    # a sampler made only when a flag every caller leaves off; a loop showing one batch at a time
    "sampler_flags": {
        ("train_ddp.py", "SL201", 16),
        ("demo.py", "SL104", 33),  # the model is built before the function it is given seeds
        ("train_ddp.py", "SL104", 25),
    },
    "dataset_factories": {
        ("listing.py", "SL205", 10),
        ("listing.py", "SL205", 10),
        ("pretrain.py", "SL205", 11),
        ("hf_text.py", "SL205", 10),  # files loaded and concatenated in listing order
    },
}


@functools.cache
def findings(program: str) -> frozenset[Finding]:
    """Every finding of `seedlint check --isolated --select ALL .` run inside the program's directory."""
    root = (CORPUS / program).resolve()
    result = run_cli(
        "check", "--isolated", "--output-format", "json", "--select", "ALL", ".", cwd=root
    )
    assert result.returncode in (0, 1), result.stderr.decode()
    return frozenset(
        (
            Path(item["filename"]).resolve().relative_to(root).as_posix(),
            item["code"],
            item["location"]["row"],
        )
        for item in json.loads(result.stdout)
    )


@pytest.mark.parametrize("program", list(EXPECTED))
def test_program_gets_exactly_the_correct_findings(program):
    assert findings(program) == EXPECTED[program]


def test_every_program_has_expectations_and_a_readme_entry():
    programs = {
        path.name
        for path in CORPUS.iterdir()
        if path.is_dir() and not path.name.startswith((".", "_"))
    }
    assert programs == set(EXPECTED)
    readme = (CORPUS / "README.md").read_text()
    assert all(f"`{program}/`" in readme for program in programs)


@pytest.mark.parametrize(
    "path", sorted(CORPUS.rglob("*.py")), ids=lambda path: path.relative_to(CORPUS).as_posix()
)
def test_every_module_says_which_pattern_it_recreates(path):
    lines = path.read_text().splitlines()
    header = " ".join(line.removeprefix("# ") for line in itertools.takewhile(str.strip, lines))
    if lines:
        assert lines[0].startswith("# Mimics") and "Independent re-creation" in header
