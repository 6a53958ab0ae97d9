"""Sprint!: co-operative: the table's Tortoise against the Hare. The game's parts, and the spec that names them."""

from sloth_kernel.spec import GameSpec, Notebook

SPEC = GameSpec(
    name="sprint",
    title="Sprint!",
    players=(1, 20),
    default_players=2,
    kind="co-operative: the table's Tortoise against the Hare",
    engine="sloth_kernel.games.sprint.engine:Sprint",
    renderer="sloth_kernel.games.sprint.render:render",
    bots="sloth_kernel.games.sprint.bots:BOTS",
    board="sloth_widgets.sprint.board:SprintBoard",
    lessons="sloth_kernel.games.sprint.lessons:LESSONS",
    variants="sloth_kernel.games.sprint.variants:VARIANTS",
    benchmarks="sloth_kernel.games.sprint.bench:extra_benchmarks",
    cooperative=True,
    max_length=2_000,
    order=40,
    pitch=(
        "The whole table is the Tortoise. Lift exactly as many cards as the Objective says, without counting;"
        " the closer you get, the further the Tortoise runs. The Hare runs on the next card."
    ),
    faces=(("14", "#2b4a7a", "star"), ("4", "#2a9d3a", "runner", "move")),
    play_notebook="play_sprint.ipynb",
    learn_notebook="learn_sprint.ipynb",
    notebooks=(
        Notebook(
            "analysis_sprint.ipynb", "Sprint! in numbers", "Win chance against lifting skill; why aiming low pays."
        ),
    ),
)
