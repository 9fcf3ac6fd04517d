"""pytest configuration: the ``slow`` marker (deselect with ``-m "not slow"``)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running test (minutes); deselect with -m \"not slow\"")
