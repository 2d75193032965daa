package stdlib_test

import "testing"

// nn.interpolate / upsample, nn.pad's reflect/replicate/circular modes,
// Conv padding_mode and padding="same", ConvTranspose1d/2d, Upsample,
// Unflatten and the containers against PyTorch 1.13 through
// testdata/gen_widen_nn.py (testdata/widen_nn.json): values, gradients,
// grad_fn names and errors; and the gradients against central finite
// differences.

func loadWidenNN(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/widen_nn.json", 229, 12, 69)
}

func TestWidenNNGolden(t *testing.T) { checkTorchCases(t, loadWidenNN(t)) }
func TestWidenNNGradFn(t *testing.T) { checkTorchGradFns(t, loadWidenNN(t)) }
func TestWidenNNErrors(t *testing.T) { checkTorchErrors(t, loadWidenNN(t)) }

// TestWidenNNFiniteDifference checks the resampling backwards, and
// solve_triangular(unitriangular=true) and vector_norm(dtype=), against
// central differences (f64).
func TestWidenNNFiniteDifference(t *testing.T) {
	x := fdLeaf{"x", "1, 1, 2, 3", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1}}
	v := fdLeaf{"v", "1, 2, 3", []float64{0.5, -1.5, 2, 0.25, 1.1, -0.4}}
	a := fdLeaf{"a", "3, 3", []float64{2, 0.5, -1, 3, -4, 0.25, 1.5, 2, 0.7}}
	b := fdLeaf{"b", "3, 2", []float64{1, -2, 2, 0.5, -1, 3}}
	checkFiniteDifferences(t, []fdCase{
		{`nn.interpolate(x, size=(3, 5), mode="bilinear")`, []fdLeaf{x}},
		{`nn.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=true)`, []fdLeaf{x}},
		{`nn.interpolate(x, size=(5, 2))`, []fdLeaf{x}},
		{`nn.interpolate(v, size=7, mode="linear")`, []fdLeaf{v}},
		{`nn.pad(x, (2, 1, 1, 0), mode="reflect")`, []fdLeaf{x}},
		{`nn.pad(v, (3, 2), mode="replicate")`, []fdLeaf{v}},
		{`nn.pad(x, (3, 1, 1, 2), mode="circular")`, []fdLeaf{x}},
		{`linalg.solve_triangular(a, b, upper=false, unitriangular=true)`, []fdLeaf{a, b}},
		{`linalg.solve_triangular(a, b.t(), upper=true, left=false, unitriangular=true)`, []fdLeaf{a, b}},
		{`linalg.vector_norm(v, ord=3, dim=1, dtype=f64)`, []fdLeaf{v}},
	})
}

// TestWidenNNProgram runs the containers, nn.Parameter, the new layers'
// reprs and a scheduled training loop as a user writes them (reprs as
// PyTorch 1.13's, with tsr's true/false).
func TestWidenNNProgram(t *testing.T) {
	checkPrints(t, []printCase{
		// reprs printed by PyTorch 1.13 (True spelled true)
		{`print(nn.ELU(0.5, true))
print(nn.CELU())
print(nn.SELU())
print(nn.Softplus(2, 10))
print(nn.Mish())
print(nn.ReLU6(true))
print(nn.Hardswish())
print(nn.Hardtanh(-2, 2))
print(nn.Hardtanh())
print(nn.Softshrink())
print(nn.Hardshrink(0.3))
print(nn.GLU())
print(nn.Threshold(0.1, 20))
print(nn.Softmin(1))
print(nn.PReLU(3, 0.1))
print(nn.BCEWithLogitsLoss())
print(nn.KLDivLoss(reduction="batchmean"))
print(nn.GroupNorm(2, 4, affine=false))
print(nn.InstanceNorm2d(3, affine=true, track_running_stats=true))
print(nn.ZeroPad2d(2))
print(nn.ConstantPad1d(2, 3.5))
print(nn.ReflectionPad2d((1, 1, 2, 0)))
print(nn.ReplicationPad1d(3))
print(nn.PixelShuffle(2))
print(nn.PixelUnshuffle(3))
print(nn.Dropout2d(0.2))
print(nn.AdaptiveMaxPool1d(3))
print(nn.Softmax2d())`, `ELU(alpha=0.5, inplace=true)
CELU(alpha=1.0)
SELU()
Softplus(beta=2, threshold=10)
Mish()
ReLU6(inplace=true)
Hardswish()
Hardtanh(min_val=-2, max_val=2)
Hardtanh(min_val=-1.0, max_val=1.0)
Softshrink(0.5)
Hardshrink(0.3)
GLU(dim=-1)
Threshold(threshold=0.1, value=20.0)
Softmin(dim=1)
PReLU(num_parameters=3)
BCEWithLogitsLoss()
KLDivLoss()
GroupNorm(2, 4, eps=1e-05, affine=false)
InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=true, track_running_stats=true)
ZeroPad2d((2, 2, 2, 2))
ConstantPad1d(padding=(2, 2), value=3.5)
ReflectionPad2d((1, 1, 2, 0))
ReplicationPad1d((3, 3))
PixelShuffle(upscale_factor=2)
PixelUnshuffle(downscale_factor=3)
Dropout2d(p=0.2, inplace=false)
AdaptiveMaxPool1d(output_size=3)
Softmax2d()`},
		{`ml = nn.ModuleList([nn.Linear(2, 3), nn.ReLU()])
ml.append(nn.Linear(3, 1))
ml.insert(0, nn.Tanh())
print(ml)
print(len(ml), [n for n, p in ml.named_parameters()], type(ml[1:]), len(ml[1:]))
try { ml(1) } catch e { print(e.kind + ": " + e.message) }
try { ml[7] } catch e { print(e.kind + ": " + e.message) }`, `ModuleList(
  (0): Tanh()
  (1): Linear(in_features=2, out_features=3, bias=true)
  (2): ReLU()
  (3): Linear(in_features=3, out_features=1, bias=true)
)
4 ['1.weight', '1.bias', '3.weight', '3.bias'] ModuleList 3
NotImplementedError: Module [ModuleList] is missing the required "forward" function
IndexError: index 7 is out of range`},
		{`md = nn.ModuleDict({"enc": nn.Linear(2, 2), "act": nn.Tanh()})
md["out"] = nn.Linear(2, 1, bias=false)
print(md)
print("enc" in md, "zz" in md, md.keys(), [k for k in md], md.act, list(md.state_dict().keys()))
md.pop("enc")
print(len(md), md.items()[0][0])
try { md["zz"] } catch e { print(e.kind + ": " + e.message) }`, `ModuleDict(
  (enc): Linear(in_features=2, out_features=2, bias=true)
  (act): Tanh()
  (out): Linear(in_features=2, out_features=1, bias=false)
)
true false ['enc', 'act', 'out'] ['enc', 'act', 'out'] Tanh() ['enc.weight', 'enc.bias', 'out.weight']
2 act
KeyError: 'zz'`},
		{`p = nn.Parameter(tensor([1., 2.]))
print(p)
print(p.requires_grad, p.is_leaf, p * 2)
print(nn.Parameter(tensor([1, 2]), requires_grad=false).requires_grad, nn.Parameter().shape)
m = nn.Linear(2, 2)
m.scale = nn.Parameter(ones(2))
m.head = nn.Linear(2, 1)
print([n for n, q in m.named_parameters()], m.head)
pl = nn.ParameterList([ones(2), zeros(2, 3, dtype=f64)])
print(pl)
print(len(pl), pl[1].requires_grad)`, `Parameter containing:
tensor([1., 2.], requires_grad=true)
true true tensor([2., 4.], grad_fn=<MulBackward0>)
false [0]
['weight', 'bias', 'scale', 'head.weight', 'head.bias'] Linear(in_features=2, out_features=1, bias=true)
ParameterList(
    (0): Parameter containing: [f32 of size 2]
    (1): Parameter containing: [f64 of size 2x3]
)
2 true`},
		{`print(nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1))
print(nn.ConvTranspose1d(2, 4, 3, groups=2, bias=false, dilation=2))
print(nn.Conv2d(2, 3, 3, padding="same", padding_mode="reflect"))
print(nn.Upsample(scale_factor=2, mode="bilinear"), nn.Upsample(size=(3, 4)), nn.Upsample(scale_factor=(2, 3)))
print(nn.UpsamplingBilinear2d(scale_factor=2), nn.UpsamplingNearest2d(size=3), nn.Unflatten(1, (2, 3)))`,
			`ConvTranspose2d(2, 3, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), output_padding=(1, 1))
ConvTranspose1d(2, 4, kernel_size=(3,), stride=(1,), dilation=(2,), groups=2, bias=false)
Conv2d(2, 3, kernel_size=(3, 3), stride=(1, 1), padding=same, padding_mode=reflect)
Upsample(scale_factor=2.0, mode=bilinear) Upsample(size=(3, 4), mode=nearest) Upsample(scale_factor=(2.0, 3.0), mode=nearest)
UpsamplingBilinear2d(scale_factor=2.0, mode=bilinear) UpsamplingNearest2d(size=3, mode=nearest) Unflatten(dim=1, unflattened_size=(2, 3))`},
		{`m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 2), nn.BatchNorm1d(2)))
print([n for n, c in m.named_children()], len(m.children()), len(m.modules()), [n for n, c in m.named_modules()])
print([n for n, b in m.named_buffers()], len(m.buffers()))
seen = []
m.apply(fn(mod) { seen.append(type(mod)) })
print(seen)
m[0].register_buffer("mask", ones(2))
m[0].add_module("extra", nn.Tanh())
print(list(m.state_dict().keys()))
print(m[0].mask, m[0].extra)
try { m[0].register_buffer("a.b", ones(1)) } catch e { print(e.kind + ": " + e.message) }`,
			`['0', '1', '2'] 3 6 ['', '0', '1', '2', '2.0', '2.1']
['2.1.running_mean', '2.1.running_var', '2.1.num_batches_tracked'] 3
[Linear, ReLU, Linear, BatchNorm1d, Sequential, Sequential]
['0.weight', '0.bias', '0.mask', '2.0.weight', '2.0.bias', '2.1.weight', '2.1.bias', '2.1.running_mean', '2.1.running_var', '2.1.num_batches_tracked']
tensor([1., 1.]) Tanh()
KeyError: "buffer name can't contain \".\", got: a.b"`},
		{`p = tensor([1., 2.], requires_grad=true)
opt = optim.SGD([p], lr=1.0)
sch = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
lrs = []
for i in range(5) {
    opt.step()
    sch.step()
    lrs.append(sch.get_last_lr()[0])
}
print(lrs, sch.last_epoch, opt.param_groups[0]["initial_lr"])`, "[1.0, 0.5, 0.5, 0.25, 0.25] 5 1.0"},
	})
}
