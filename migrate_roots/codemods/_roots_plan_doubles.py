"""The plan's part for test doubles: a helper that gains the parameter makes its fakes gain it too, or a note
where the replacement is no plain function (`_roots_plan.plan_package` calls it last)."""

from __future__ import annotations

from collections.abc import Mapping

from migrate_roots.codemods._roots_model import Plan, Summary, import_root

Key = tuple[str, str]  # (import root, module.qualname), as in _roots_plan


def plan_doubles(summaries: Mapping[str, Summary], plans: dict[str, Plan]) -> None:
    """Test doubles of a helper that gains the parameter get it too, or a note when they are not plain functions."""
    threaded: dict[Key, str] = {
        (import_root(summaries[path]), f"{summaries[path].module}.{qualname}"): param
        for path, plan in plans.items()
        for qualname, param in plan.threaded.items()
    }
    shapes: dict[Key, frozenset[str]] = {
        (import_root(summaries[path]), f"{summaries[path].module}.{qualname}"): plan.helper_shapes.get(
            qualname, frozenset({"any"})
        )
        for path, plan in plans.items()
        for qualname in plan.threaded
    }
    if not threaded:
        return
    for path, summary in summaries.items():
        for double in summary.doubles:
            helper = _patched(double.target, import_root(summary), threaded)
            if helper is None:
                continue
            param, short = threaded[helper], helper[1].rpartition(".")[2]
            if double.fake is None:
                plans.setdefault(path, Plan()).double_notes[double.pos] = (param, short)
            elif param not in double.params and not double.kwargs:
                # `root=None` would shadow a `root` the fake reads from its enclosing scope: take **kwargs.
                if param in double.names:
                    param = "**_kwargs" if "kwargs" in double.names else "**kwargs"
                plans.setdefault(path, Plan()).doubles[double.fake] = (param, short)
                plans[path].double_shapes[double.fake] = shapes[helper]


def _patched(target: str, root: str, threaded: Mapping[Key, str]) -> Key | None:
    """The helper a patch target names: exactly, or where a module of the same package imported it; in the
    patching file's own import root first, else in the one other root that has it."""
    last, top = target.rpartition(".")[2], target.split(".")[0]
    exact = [key for key in threaded if key[1] == target]
    found = exact or sorted(
        k for k in threaded if k[1].rpartition(".")[2] == last and k[1].split(".")[0] == top
    )
    mine = [k for k in found if k[0] == root]
    if mine and (exact or len(mine) == 1):
        return mine[0]
    return found[0] if len(found) == 1 else None
