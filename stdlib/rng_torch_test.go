package stdlib_test

import "testing"

// manual_seed makes the random creation functions and nn.Linear's
// initialisation give PyTorch 1.13's values (torch.manual_seed, same calls).
func TestRandomStreamsMatchTorch(t *testing.T) {
	checkPrints(t, []printCase{
		{`manual_seed(0); print(randn(3)); print(rand(3)); print(randint(0, 10, [5])); print(randperm(5))`,
			"tensor([ 1.5410, -0.2934, -2.1788])\ntensor([0.4556, 0.6323, 0.3489])\ntensor([6, 6, 9, 8, 6])\ntensor([1, 0, 4, 2, 3])"},
		{`manual_seed(0); l = nn.Linear(3, 2); print(l.weight.flatten().tolist(), l.bias.tolist())`,
			"[-0.004322517663240433, 0.3097158372402191, -0.4751853346824646, -0.4248946011066437, -0.2223689705133438, 0.15482072532176971] [-0.011439144611358643, 0.45777493715286255]"},
		{`manual_seed(0); x = zeros(3); x.uniform_(-2, 2); print(x.tolist()); x.normal_(1, 2); print(x.tolist())`,
			"[-0.014973640441894531, 1.0728871822357178, -1.6460902690887451]\n[1.728676438331604, 1.2687926292419434, 1.3284324407577515]"},
		{`manual_seed(0); print(randn(4, 5)[3])`, "tensor([-0.8437,  0.9318,  1.2590,  2.0050,  0.0537])"},
	})
}
