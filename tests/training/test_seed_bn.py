"""Calibrating the identity BatchNorm of a folded seed keeps what each layer computes."""

from __future__ import annotations

import copy

import numpy as np
import pytest

pytestmark = pytest.mark.train

torch = pytest.importorskip("torch", reason="needs the train extra (pip install 'mjtable[train]')")

from vision.training.seed import BN_EPS, calibrate_identity_bn, identity_bn  # noqa: E402


def folded_net() -> torch.nn.Module:
    """Conv-BN-SiLU twice, BatchNorm at the identity a folded seed loads (bias = folded bias)."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1, bias=False), torch.nn.BatchNorm2d(8, eps=BN_EPS),
        torch.nn.SiLU(),
        torch.nn.Conv2d(8, 4, 3, padding=1, bias=False), torch.nn.BatchNorm2d(4, eps=BN_EPS))
    with torch.no_grad():
        for m in net:
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_var.fill_(1 - BN_EPS)
                m.bias.uniform_(-1, 1)
    return net


def test_calibration_keeps_eval_output_and_makes_train_mode_agree() -> None:
    net = folded_net()
    rng = np.random.default_rng(0)
    batches = [rng.random((8, 3, 16, 16), dtype=np.float32) for _ in range(4)]
    x = torch.from_numpy(rng.random((8, 3, 16, 16), dtype=np.float32))
    net.eval()
    with torch.no_grad():
        before = net(x)
        untouched_train = copy.deepcopy(net).train()(x)  # batch statistics: the folded
        # function is lost
    assert len(identity_bn(net)) == 2
    assert (untouched_train - before).abs().mean() > 0.3
    assert calibrate_identity_bn(net, batches) == 2
    assert identity_bn(net) == []
    with torch.no_grad():
        net.eval()
        assert torch.allclose(net(x), before, atol=1e-4)
        net.train()
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.momentum = 0.0  # a forward pass in train mode must not move the statistics
        assert (net(x) - before).abs().mean() < 0.05
    assert calibrate_identity_bn(net, batches) == 0  # nothing left at identity


@pytest.mark.parametrize("eps", [1e-3, 1e-5])
def test_folded_weights_load_as_identity_whatever_the_batchnorm_eps(eps: float) -> None:
    """A layer's own eps sets the identity variance, so the calibration finds every seeded
    layer (a classifier whose BatchNorm used 1e-5 was left uncalibrated and trained from
    uniform guesses)."""
    from vision.training.seed import load_folded

    class ConvBN(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, 3, padding=1, bias=False)
            self.bn = torch.nn.BatchNorm2d(4, eps=eps)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.bn(self.conv(x))

    holder = torch.nn.Module()
    holder.model = torch.nn.Sequential(ConvBN())
    torch.manual_seed(1)
    w, b = torch.randn(4, 3, 3, 3), torch.randn(4)
    loaded, skipped = load_folded(holder, {"model.0.conv.weight": w.numpy(),
                                           "model.0.conv.bias": b.numpy()})
    assert (loaded, skipped) == (2, 0)
    assert len(identity_bn(holder)) == 1
    x = torch.rand(2, 3, 8, 8)
    holder.eval()
    with torch.no_grad():
        want = torch.nn.functional.conv2d(x, w, padding=1) + b[None, :, None, None]
        assert torch.allclose(holder.model(x), want, atol=1e-4)
