"""A broad handler around a rewritten roots read that tells the SDK's error apart by `isinstance` (`except
Exception as exc: if isinstance(exc, MCPError): return os.getcwd(); raise`, sweep T, r06): the shim raises
RootsArgumentError where the old call raised the SDK's error, so the test gets it added, as an `except
MCPError:` does; a handler that then reads the SDK error's fields is marked MR105."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = (
    "import os\n\nfrom mcp import MCPError\nfrom mcp.server.mcpserver import Context, MCPServer\n\n"
    "mcp = MCPServer('x')\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
    "    try:\n        result = await ctx.session.list_roots()\n"
)
TAIL = "    return str(result.roots[0].uri)\n"


# Module-level names the handlers above may test with (sweep G r06, r09).
DEFS = (
    "\n\nPARSE_ERRORS: tuple[type[Exception], ...] = (OSError, ValueError)\nParseError = ValueError\n\n\n"
    "def is_missing(exc: BaseException) -> bool:\n    return isinstance(exc, (OSError, ValueError))\n"
)


def _run(tmp_path, handler: str) -> tuple[str, list]:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "server.py").write_text(HEAD + handler + TAIL + DEFS)
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"]) for f in r.findings]
    return (tmp_path / "server.py").read_text(), findings


@pytest.mark.parametrize(
    "handler",
    [
        "    except Exception:\n        return os.getcwd()\n",
        "    except Exception as exc:\n        if isinstance(exc, TimeoutError):\n            return os.getcwd()\n"
        "        raise\n",
        "    except Exception as exc:\n        print(exc)\n        return os.getcwd()\n",
    ],
)
def test_noop_a_broad_handler_without_an_sdk_test_is_left(tmp_path, handler):
    text, findings = _run(tmp_path, handler)
    assert handler in text
    assert "RootsArgumentError" not in text
    assert "MR105" not in helpers.codes(findings)


@pytest.mark.parametrize(
    ("handler", "widened"),
    [
        (
            "    except Exception as exc:\n        if isinstance(exc, MCPError):\n            return os.getcwd()\n"
            "        raise\n",
            "isinstance(exc, (MCPError, RootsArgumentError))",
        ),
        (
            "    except Exception as exc:\n        if not isinstance(exc, (MCPError, TimeoutError)):\n"
            "            raise\n        return os.getcwd()\n",
            "not isinstance(exc, (MCPError, TimeoutError, RootsArgumentError))",
        ),
        (
            "    except BaseException as err:\n        if isinstance(err, MCPError):\n            return os.getcwd()\n"
            "        raise\n",
            "isinstance(err, (MCPError, RootsArgumentError))",
        ),
        (
            "    except Exception as exc:\n        return os.getcwd() if isinstance(exc, MCPError) else 'x'\n",
            "isinstance(exc, (MCPError, RootsArgumentError))",
        ),
    ],
)
def test_an_isinstance_test_of_the_sdk_error_in_a_broad_handler_is_widened(tmp_path, handler, widened):
    text, findings = _run(tmp_path, handler)
    assert widened in text
    assert "import RootsArgumentError, list_roots_compat" in text
    assert "MR105" not in helpers.codes(findings)
    assert not helpers.flakes(text)


def test_a_broad_handler_reading_the_sdk_error_is_marked(tmp_path):
    handler = (
        "    except Exception as exc:\n        if isinstance(exc, MCPError) and exc.error.code == -32601:\n"
        "            return os.getcwd()\n        raise\n"
    )
    text, findings = _run(tmp_path, handler)
    assert helpers.codes(findings) == ["MR105"]
    assert "reads it (`exc.error`)" in findings[0].message
    assert "list_roots_compat" not in text


@pytest.mark.parametrize(
    ("handler", "test"),
    [
        (
            "    except Exception as exc:\n        if isinstance(exc, (OSError, ValueError)):\n"
            "            return os.getcwd()\n        raise\n",
            "isinstance(exc, (OSError, ValueError))",
        ),
        (
            "    except BaseException as err:\n        if isinstance(err, ValueError) and os.sep:\n"
            "            return os.getcwd()\n        raise\n",
            "isinstance(err, ValueError)",
        ),
        (
            "    except Exception as exc:\n        if not isinstance(exc, (ValueError, KeyError)):\n"
            "            raise\n        return os.getcwd()\n",
            "isinstance(exc, (ValueError, KeyError))",
        ),
        # sweep G r06-r09 (session 21): a module constant, an alias, a union, a predicate, a `match`
        (
            "    except Exception as exc:\n        if isinstance(exc, PARSE_ERRORS):\n"
            "            return os.getcwd()\n        raise\n",
            "isinstance(exc, PARSE_ERRORS)",
        ),
        (
            "    except Exception as exc:\n        if isinstance(exc, ParseError):\n"
            "            return os.getcwd()\n        raise\n",
            "isinstance(exc, ParseError)",
        ),
        (
            "    except Exception as exc:\n        if isinstance(exc, OSError | ValueError):\n"
            "            return os.getcwd()\n        raise\n",
            "isinstance(exc, OSError | ValueError)",
        ),
        (
            "    except Exception as exc:\n        if is_missing(exc):\n            return os.getcwd()\n        raise\n",
            "is_missing(exc)",
        ),
        (
            "    except Exception as exc:\n        match exc:\n            case OSError() | ValueError():\n"
            "                return os.getcwd()\n        raise\n",
            "case OSError() | ValueError()",
        ),
    ],
)
def test_an_isinstance_test_that_picks_the_shims_error_out_is_marked(tmp_path, handler, test):
    """The old call's SDK error failed the test and went through; the shim's error, a ValueError, would get
    the fallback instead of naming the argument (sweep F r04)."""
    text, findings = _run(tmp_path, handler)
    assert helpers.codes(findings) == ["MR105"]
    assert f"`except {handler.split('except ')[1].split(':')[0]}` testing `{test}`" in findings[0].message
    assert "list_roots_compat" not in text


@pytest.mark.parametrize(
    "handler",
    [
        # it raises again, as it raises every other error: both reach the client
        "    except Exception as exc:\n        if isinstance(exc, ValueError):\n            raise\n"
        "        print(exc)\n        raise\n",
        # it tells the SDK's error apart too: the fallback was the old call's as well (widened)
        "    except Exception as exc:\n        if isinstance(exc, (MCPError, ValueError)):\n"
        "            return os.getcwd()\n        raise\n",
    ],
)
def test_noop_an_isinstance_test_that_lets_the_shims_error_through_or_met_the_old_one(tmp_path, handler):
    _, findings = _run(tmp_path, handler)
    assert "MR105" not in helpers.codes(findings)


@pytest.mark.parametrize(
    ("handler", "said"),
    [
        (
            "    except Exception as exc:\n        if isinstance(exc, (TypeError, ValueError)):\n            raise\n"
            "        return os.getcwd()\n",
            "`except Exception as exc` testing `isinstance(exc, (TypeError, ValueError))`",
        ),
        (
            "    except Exception as exc:\n        if not isinstance(exc, ValueError):\n            return os.getcwd()\n"
            "        raise\n",
            "`except Exception as exc` testing `isinstance(exc, ValueError)`",
        ),
        (
            "    except (TypeError, ValueError):\n        raise\n    except Exception:\n        return os.getcwd()\n",
            "`except (TypeError, ValueError)`",
        ),
        (
            "    except Exception as exc:\n        match exc:\n            case ValueError():\n                raise\n"
            "        return os.getcwd()\n",
            "`except Exception as exc` testing `case ValueError()`",
        ),
    ],
    ids=["isinstance-raises", "negated-falls-back", "separate-handlers", "match-raises"],
)
def test_the_shims_error_raised_again_where_the_old_one_got_the_fallback_is_marked(tmp_path, handler, said):
    """sweep J r01 (session 21): the old call's SDK error (no ValueError) took the fallback; the shim's error, a
    ValueError, is raised again: a legacy client without roots would get an error instead of that answer."""
    text, findings = _run(tmp_path, handler)
    assert helpers.codes(findings) == ["MR105"], findings
    assert findings[0].message.startswith(said + " around this call raises RootsArgumentError again")
    assert "list_roots_compat" not in text
