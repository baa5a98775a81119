"""Every error the LLM layer raises is in the one tree, with words for the lawyer in Chinese and
English; the schema error moved there and keeps its old import path."""

from __future__ import annotations

import inspect
import re

import pytest

from desktop_app.core import errors
from desktop_app.llm import schema as llm_schema

CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]{3}")


def _tree() -> list[type]:
    return [
        cls
        for _, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.LexMemError) or issubclass(cls, errors.LexMemWarning)
    ]


@pytest.mark.parametrize("cls", _tree(), ids=lambda c: c.__name__)
def test_every_class_speaks_both_languages(cls):
    message = cls.default_user_message
    assert CJK.search(message) and LATIN.search(message), message


def test_schema_validation_error_lives_in_the_tree_and_stays_a_value_error():
    assert llm_schema.SchemaValidationError is errors.SchemaValidationError
    err = errors.SchemaValidationError(["$.a: expected integer, got string"])
    assert isinstance(err, errors.BadResponseError) and isinstance(err, ValueError)
    assert err.errors == ["$.a: expected integer, got string"]
    assert "$.a" in str(err) and CJK.search(err.user_message)


def test_new_llm_errors_are_llm_errors():
    for cls in (
        errors.TruncatedResponseError,
        errors.RequestRejectedError,
        errors.ProxyConfigError,
        errors.InvalidAnswerError,
    ):
        assert issubclass(cls, errors.LLMError)
    assert issubclass(errors.TruncatedResponseError, errors.BadResponseError)
    assert issubclass(errors.InvalidAnswerError, ValueError)
