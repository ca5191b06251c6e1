from randbot.accounts import MAX_NAME_LENGTH, unique_username


def test_names_are_unique_short_and_valid():
    names = [unique_username("SimpleHeuristicsPlayer") for _ in range(500)]
    assert len(set(names)) == len(names)
    assert all(len(n) <= MAX_NAME_LENGTH and n.isalnum() and n.islower() for n in names)


def test_names_differ_between_processes():
    import subprocess
    import sys

    code = "from randbot.accounts import unique_username; print(unique_username('x'))"
    runs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
        for _ in range(3)
    }
    assert len(runs) == 3
