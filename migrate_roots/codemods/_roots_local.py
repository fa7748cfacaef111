"""The refusals a roots read's own function shows, for every site however its receiver was told (typed, or an
untyped parameter: sweep M, r03, where a helper module without the SDK kept its read in a global cache and the
untyped site skipped this): a local refusal, the roots' names or hosts read, their URI hashed into a key, a
path parameter guarding the read, a fetch-once guard and a once-per-process flag."""

from __future__ import annotations

import os

import libcst as cst

from migrate_roots.codemods import _except_widen
from migrate_roots.codemods._roots_keyed import roots_hashed
from migrate_roots.codemods._roots_model import Site
from migrate_roots.codemods._roots_names import root_names_read
from migrate_roots.codemods._roots_refusals import (
    _declared_global,
    _guarding_param,
    _local_refusal,
    _once_refusal,
)
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import flow


def local_checks(site: Site, call: cst.Call, state: FileState) -> Site:
    site.refusal = _local_refusal(call, state)
    site.caught = _except_widen.shim_caught(call, state)
    named = root_names_read(state.function, state) if state.function is not None else None
    if site.refusal is None and named is not None:
        site.refusal = (
            "MR101" if site.shape == "result" else "MR102",
            f"this function reads the roots' names, `{named[0]}` ({os.path.basename(state.path)}:{named[1]}): "
            "roots made from a path "
            "argument have no name, so that code would never match them; choose the folder by an argument "
            "or by configuration instead of by name, by hand, then run again"
            if named[2] == "name"
            else f"this function makes a path or key of the roots' names, `{named[0]}` "
            f"({os.path.basename(state.path)}:{named[1]}): roots made from a path argument have no name, so "
            "every call with the argument would share the one place named `None`; name that place by the "
            "folder or by configuration instead, by hand, then run again"
            if named[2] == "name-value"
            else f"this function tells roots apart by their URI's host, `{named[0]}` "
            f"({os.path.basename(state.path)}:{named[1]}): roots made from a path argument are `file://` URIs "
            "with no host, so that code would never match them; carry that value by an argument or by "
            "configuration instead, by hand, then run again"
            if named[2] == "host"
            else f"this function uses the roots' URI host as a value, `{named[0]}` "
            f"({os.path.basename(state.path)}:{named[1]}): it carries an id or a key, not a directory, and "
            "roots made from a path argument (or the operator's directories) are `file://` URIs with no "
            "host; carry that value by an argument or by configuration instead, by hand, then run again",
        )
    hashed = (
        roots_hashed(state.function, state) if state.function is not None and site.refusal is None else None
    )
    if hashed is not None:
        site.refusal = (
            "MR101" if site.shape == "result" else "MR102",
            f"this function hashes the roots' URI into a key, `{hashed[0]}` ({os.path.basename(state.path)}:"
            f"{hashed[1]}): the roots choose which stored data the tool reaches, and a path argument would let "
            "the caller choose another project's; keep that choice with the operator (configuration) or migrate "
            "it by hand",
        )
    site.existing, site.loose = _guarding_param(call, state) or (None, False)
    if state.function is not None:
        site.cached = flow.guarding_globals(call, state, _declared_global(state.function, state))
        site.refusal = site.refusal or _once_refusal(call, state.function, state)
    return site
