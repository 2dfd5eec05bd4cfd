"""A missing or non-JSON map or scenario file is worded as the file's fault, not a field's."""

import pytest

from engine import maps as M
from evaluation import scenarios as S


def test_a_missing_scenario_file_names_the_file_and_the_reason(tmp_path):
    missing = tmp_path / "nofile.json"
    with pytest.raises(S.ScenarioError) as caught:
        S.load_scenario_file(missing)
    assert str(caught.value) == f"{missing}: cannot read the file: No such file or directory"


def test_a_scenario_file_that_is_not_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"id": 1,', encoding="utf-8")
    with pytest.raises(S.ScenarioError) as caught:
        S.load_scenario_file(path)
    assert str(caught.value).startswith(f"{path}: not JSON: Expecting property name")


def test_a_field_problem_still_names_the_field(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1]", encoding="utf-8")
    with pytest.raises(M.MapError) as caught:
        M.load_map_file(path)
    assert str(caught.value) == f"{path}: field '(top level)': expected a JSON object"
