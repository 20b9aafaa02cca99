"""Shared test setup: float64, NumPy floating-point errors raise, small hypothesis budgets."""

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "handformer", max_examples=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("handformer")


@pytest.fixture(autouse=True)
def numpy_errors_raise():
    old = np.seterr(all="raise", under="ignore")
    yield
    np.seterr(**old)
