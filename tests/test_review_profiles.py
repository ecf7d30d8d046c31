"""Review findings: a board profile that cannot be read is a ProfileError, not a traceback."""

import pytest

from companion.board.profiles import load_profile, parse_profile
from companion.errors import ProfileError


def test_a_profile_that_is_not_utf8_is_a_profile_error_naming_the_file(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe[board]\n")
    with pytest.raises(ProfileError, match="binary.toml.*UTF-8"):
        load_profile(path)


def test_an_absurdly_nested_profile_is_a_profile_error():
    with pytest.raises(ProfileError, match="x.toml"):
        parse_profile("a = " + "[" * 100_000 + "\n", "x.toml")
