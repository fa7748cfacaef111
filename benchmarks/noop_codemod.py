"""A codemod that changes nothing: the baseline of libcst's own runner (`python -m libcst.tool codemod -x`)."""

from libcst.codemod import VisitorBasedCodemodCommand


class NoOpCommand(VisitorBasedCodemodCommand):
    DESCRIPTION = "Does nothing (benchmark baseline)."
