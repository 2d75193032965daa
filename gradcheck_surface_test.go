package tsr_test

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// surfCase is one finite-difference check of a differentiable function as
// a tsr program calls it: expr is an expression over the f64 leaves x, y,
// z (shapes), drawn uniform in (-1, 1), in [0.5, 1.5] (in 'p') or spread
// apart so no finite difference crosses a kink or a tie (in 'd').
// Conditioning (x @ x.mT + 3 I, ...) is written into expr. noGG, when set,
// says why the second derivative is not available: differentiating the
// gradient again must then fail with an error (never be silently wrong).
type surfCase struct {
	fn     string // the covered name: "linalg.det", "nn.conv2d", "cumsum"
	expr   string
	shapes [][]int
	in     byte
	noGG   string
}

func surfCases() []surfCase {
	s1 := [][]int{{3, 4}}
	sq := [][]int{{3, 3}}
	return []surfCase{
		// elementwise and broadcasting
		{"add", "x + y * 2", [][]int{{2, 3}, {3}}, 'r', ""},
		{"sub", "sub(x, y, alpha=0.5)", [][]int{{2, 1}, {2, 3}}, 'r', ""},
		{"mul", "x * y", [][]int{{2, 3}, {2, 1}}, 'r', ""},
		{"div", "x / y", [][]int{{3}, {2, 3}}, 'p', ""},
		{"pow", "x ** y", [][]int{{4}, {4}}, 'p', ""},
		{"float_power", "float_power(x, 2.5)", s1, 'p', ""},
		{"rsub", "rsub(x, y)", [][]int{{3}, {3}}, 'r', ""},
		{"addcmul", "addcmul(x, y, z, value=0.5)", [][]int{{3}, {2, 3}, {3}}, 'r', ""},
		{"addcdiv", "addcdiv(x, y, z, value=0.5)", [][]int{{3}, {3}, {3}}, 'p', ""},
		{"lerp", "lerp(x, y, z)", [][]int{{3}, {3}, {3}}, 'r', ""},
		{"hypot", "hypot(x, y)", [][]int{{4}, {4}}, 'p', ""},
		{"atan2", "atan2(x, y)", [][]int{{4}, {4}}, 'p', ""},
		{"fmod", "fmod(x * 3, y)", [][]int{{4}, {4}}, 'p', ""},
		{"xlogy", "xlogy(x, y)", [][]int{{4}, {4}}, 'p', ""},
		{"logaddexp", "logaddexp(x, y)", [][]int{{4}, {4}}, 'r', ""},
		{"logaddexp2", "logaddexp2(x, y)", [][]int{{4}, {4}}, 'r', ""},
		{"copysign", "copysign(x, y)", [][]int{{4}, {4}}, 'd', ""},
		{"maximum", "maximum(x, y)", [][]int{{4}, {4}}, 'd', ""},
		{"fmax", "fmax(x, y)", [][]int{{4}, {4}}, 'd', ""},
		{"clamp", "clamp(x, -0.5, 0.5)", s1, 'd', ""},
		{"clamp_min", "clamp_min(x, 0.1)", s1, 'd', ""},
		{"clamp", "clamp(x, y, z)", [][]int{{4}, {4}, {4}}, 'd', ""},
		{"where", "where(x > 0, x, y)", [][]int{{2, 3}, {3}}, 'd', ""},
		{"frac", "frac(x * 3)", s1, 'd', ""},
		{"nan_to_num", "nan_to_num(x)", s1, 'r', ""},
		{"logit", "logit(x * 0.4 + 0.5)", s1, 'r', ""},
		{"special.logit", "special.logit(x * 0.4 + 0.5, eps=0.01)", s1, 'r', ""},
		{"special.expit", "special.expit(x)", s1, 'r', ""},
		{"special.entr", "special.entr(x)", s1, 'p', ""},
		{"special.ndtr", "special.ndtr(x)", s1, 'r', ""},
		{"special.erfinv", "special.erfinv(x * 0.8)", s1, 'r', ""},
		{"special.zeta", "special.zeta(tensor([2.5, 3., 4.], dtype=f64), x)", [][]int{{3}}, 'p', ""},
		{"special.multigammaln", "special.multigammaln(x + 2, 3)", s1, 'p', ""},
		{"special.xlogy", "special.xlogy(x, y)", [][]int{{4}, {4}}, 'p', ""},
		{"special.sinc", "special.sinc(x)", s1, 'r', ""},
		{"special.polygamma", "special.polygamma(2, x)", s1, 'p', ""},
		{"special.i0", "special.i0(x * 2)", s1, 'r', ""},
		{"lgamma", "lgamma(x)", s1, 'p', ""},
		{"erfinv", "erfinv(x * 0.9)", s1, 'r', ""},
		{"sigmoid", "sigmoid(x)", s1, 'r', ""},
		{"gelu", "gelu(x)", s1, 'r', ""},
		{"renorm", "renorm(x, 2, 0, 0.5)", s1, 'r', ""},
		// reductions
		{"sum", "x.sum(dim=(0, 2), keepdim=true)", [][]int{{2, 3, 4}}, 'r', ""},
		{"nansum", "nansum(x, 1)", s1, 'r', ""},
		{"mean", "x.mean(-1)", s1, 'r', ""},
		{"nanmean", "nanmean(x, 0)", s1, 'r', ""},
		{"prod", "prod(x, 1)", s1, 'r', ""},
		{"var", "var(x, 1, correction=0)", s1, 'r', ""},
		{"std", "std(x, 0, keepdim=true)", s1, 'r', ""},
		{"var_mean", "var_mean(x, 1)[0] + var_mean(x, 1)[1]", s1, 'r', ""},
		{"std_mean", "std_mean(x, 1)[0] * std_mean(x, 1)[1]", s1, 'r', ""},
		{"amax", "amax(x, 1)", s1, 'd', ""},
		{"max", "max(x, 1)[0]", s1, 'd', ""},
		{"min", "min(x, 0, keepdim=true)[0]", s1, 'd', ""},
		{"aminmax", "aminmax(x, dim=1)[0] + aminmax(x, dim=1)[1]", s1, 'd', ""},
		{"median", "median(x, 1)[0]", [][]int{{3, 5}}, 'd', ""},
		{"nanmedian", "nanmedian(x, 1)[0]", [][]int{{3, 5}}, 'd', ""},
		{"quantile", "quantile(x, 0.3, dim=1)", [][]int{{3, 5}}, 'd', ""},
		{"nanquantile", "nanquantile(x, 0.7)", [][]int{{3, 5}}, 'd', ""},
		{"mode", "mode(x, 1)[0]", s1, 'd', ""},
		{"kthvalue", "kthvalue(x, 2, 1)[0]", s1, 'd', ""},
		{"logsumexp", "logsumexp(x, 1)", s1, 'r', ""},
		{"norm", "norm(x, 3)", s1, 'r', ""},
		{"dist", "dist(x, y, 3)", [][]int{{4}, {4}}, 'r', ""},
		{"cumsum", "cumsum(x, 1)", s1, 'r', ""},
		{"cumprod", "cumprod(x, 1)", s1, 'p', ""},
		{"cummax", "cummax(x, 1)[0]", s1, 'd', ""},
		{"cummin", "cummin(x, 0)[0]", s1, 'd', ""},
		{"logcumsumexp", "logcumsumexp(x, 0)", s1, 'r', ""},
		{"diff", "diff(x, dim=1)", s1, 'r', ""},
		{"trapezoid", "trapezoid(x)", s1, 'r', ""},
		{"cumulative_trapezoid", "cumulative_trapezoid(x)", s1, 'r', ""},
		{"cov", "cov(x)", s1, 'r', ""},
		{"corrcoef", "corrcoef(x)", s1, 'r', ""},
		{"sort", "sort(x, 1)[0]", s1, 'd', ""},
		{"msort", "msort(x)", s1, 'd', ""},
		{"topk", "topk(x, 2)[0]", s1, 'd', ""},
		// views and indexing
		{"as_strided", "as_strided(x, (3, 3), (1, 1))", [][]int{{6}}, 'r', ""},
		{"Tensor.expand", "x.expand(2, 3, 4)", [][]int{{3, 1}}, 'r', ""},
		{"broadcast_to", "broadcast_to(x, (2, 3))", [][]int{{3}}, 'r', ""},
		{"Tensor.unfold", "x.unfold(0, 3, 2)", [][]int{{7}}, 'r', ""},
		{"diagonal", "diagonal(x, 1)", s1, 'r', ""},
		{"Tensor.__getitem__", "x[1:, tensor([0, 2, 2])]", s1, 'r', ""},
		{"Tensor.__getitem__", "x[x > 0]", s1, 'd', ""},
		{"Tensor.__getitem__", "x[tensor([[0, 1], [2, 0]]), 1:3]", s1, 'r', ""},
		{"index_select", "index_select(x, 1, tensor([3, 0, 3]))", s1, 'r', ""},
		{"gather", "gather(x, 1, tensor([[0, 0], [3, 1], [2, 2]]))", s1, 'r', ""},
		{"take", "take(x, tensor([0, 5, 5, 11]))", s1, 'r', ""},
		{"take_along_dim", "take_along_dim(x, tensor([[1], [0], [3]]), 1)", s1, 'r', ""},
		{"masked_select", "masked_select(x, x > 0)", s1, 'd', ""},
		{"masked_fill", "masked_fill(x, x > 0, 0.5)", s1, 'd', ""},
		{"masked_scatter", "masked_scatter(x, x > 0, y)", [][]int{{3, 4}, {12}}, 'd', ""},
		{"scatter", "scatter(x, 1, tensor([[0, 1], [2, 3], [1, 0]]), y)", [][]int{{3, 4}, {3, 2}}, 'r', ""},
		{"scatter_add", "scatter_add(x, 0, tensor([[0, 1, 2, 0]]), y)", [][]int{{3, 4}, {1, 4}}, 'r', ""},
		{"scatter_reduce", "scatter_reduce(x, 1, tensor([[0, 0], [1, 3], [2, 2]]), y, \"mean\")", [][]int{{3, 4}, {3, 2}}, 'd', ""},
		{"scatter_reduce", "scatter_reduce(x, 0, tensor([[0, 1, 2, 0], [2, 2, 0, 1]]), y, \"amax\", include_self=false)", [][]int{{3, 4}, {2, 4}}, 'd', ""},
		{"scatter_reduce", "scatter_reduce(x, 0, tensor([[0, 1, 2, 0], [2, 2, 0, 1]]), y, \"sum\")", [][]int{{3, 4}, {2, 4}}, 'r', ""},
		{"scatter_reduce", "scatter_reduce(x, 0, tensor([[0, 1, 2, 0], [2, 2, 0, 1]]), y, \"prod\")", [][]int{{3, 4}, {2, 4}}, 'p', ""},
		{"scatter_reduce", "scatter_reduce(x, 1, tensor([[0, 0], [1, 3], [2, 2]]), y, \"prod\", include_self=false)", [][]int{{3, 4}, {3, 2}}, 'p', ""},
		{"index_add", "index_add(x, 0, tensor([0, 2, 0]), y, alpha=2)", [][]int{{3, 4}, {3, 4}}, 'r', ""},
		{"index_copy", "index_copy(x, 0, tensor([2, 0]), y)", [][]int{{3, 4}, {2, 4}}, 'r', ""},
		{"index_fill", "index_fill(x, 1, tensor([1, 3]), 0.5)", s1, 'r', ""},
		{"index_put", "index_put(x, (tensor([0, 2]), tensor([1, 1])), y, accumulate=true)", [][]int{{3, 4}, {2}}, 'r', ""},
		{"index_put", "index_put(x, (tensor([0, 2]),), y)", [][]int{{3, 4}, {4}}, 'r', ""},
		{"Tensor.__setitem__", "(fn(a) { a[tensor([0, 2]), 1:3] = y; a })(x * 1)", [][]int{{3, 4}, {2, 2}}, 'r', ""},
		{"Tensor.__setitem__", "(fn(a) { a[1] = y; a })(x * 1)", [][]int{{3, 4}, {4}}, 'r', ""},
		{"Tensor.__setitem__", "(fn(a) { a[a > 0] = 0.5; a })(x * 1)", [][]int{{3, 4}}, 'd', ""},
		{"put", "put(x, tensor([1, 7]), y)", [][]int{{3, 4}, {2}}, 'r', ""},
		{"diagonal_scatter", "diagonal_scatter(x, y, 1)", [][]int{{3, 4}, {3}}, 'r', ""},
		{"select_scatter", "select_scatter(x, y, 0, 1)", [][]int{{3, 4}, {4}}, 'r', ""},
		{"slice_scatter", "slice_scatter(x, y, 1, 1, 3)", [][]int{{3, 4}, {3, 2}}, 'r', ""},
		{"roll", "roll(x, (1, -1), (0, 1))", s1, 'r', ""},
		{"flip", "flip(x, (0,))", s1, 'r', ""},
		{"rot90", "rot90(x, 1, (0, 1))", s1, 'r', ""},
		{"tril", "tril(x, -1)", s1, 'r', ""},
		{"triu", "triu(x, 1)", s1, 'r', ""},
		{"angle", "angle(x) + x", s1, 'd', ""},
		{"repeat", "x.repeat(2, 1)", s1, 'r', ""},
		{"repeat_interleave", "repeat_interleave(x, 2, 0)", s1, 'r', ""},
		{"tile", "tile(x, (2,))", [][]int{{3}}, 'r', ""},
		{"kron", "kron(x, y)", [][]int{{2, 2}, {2, 3}}, 'r', ""},
		{"block_diag", "block_diag(x, y)", [][]int{{2, 2}, {1, 3}}, 'r', ""},
		{"diag_embed", "diag_embed(x, 1)", [][]int{{2, 3}}, 'r', ""},
		{"diagflat", "diagflat(x)", [][]int{{3}}, 'r', ""},
		{"vander", "vander(x, 3)", [][]int{{3}}, 'r', ""},
		{"cartesian_prod", "cartesian_prod(x, y)", [][]int{{2}, {3}}, 'r', ""},
		{"combinations", "combinations(x, 2)", [][]int{{4}}, 'r', ""},
		// joins and splits
		{"cat", "cat((x, y), 1)", [][]int{{2, 3}, {2, 1}}, 'r', ""},
		{"stack", "stack((x, y), 0)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"hstack", "hstack((x, y)) + 0", [][]int{{3}, {2}}, 'r', ""},
		{"split", "split(x, (1, 2), 0)[1] * 2", [][]int{{3, 2}}, 'r', ""},
		{"chunk", "chunk(x, 2, 1)[1]", s1, 'r', ""},
		{"unbind", "unbind(x, 1)[2]", s1, 'r', ""},
		{"tensor_split", "tensor_split(x, 3, 1)[0]", s1, 'r', ""},
		{"meshgrid", "meshgrid(x, y, indexing=\"ij\")[0] * meshgrid(x, y, indexing=\"ij\")[1]", [][]int{{2}, {3}}, 'r', ""},
		// matrix products
		{"matmul", "x @ y", [][]int{{2, 3, 4}, {4, 2}}, 'r', ""},
		{"bmm", "bmm(x, y)", [][]int{{2, 2, 3}, {2, 3, 2}}, 'r', ""},
		{"addmm", "addmm(z, x, y, beta=0.5, alpha=2)", [][]int{{2, 3}, {3, 3}, {2, 1}}, 'r', ""},
		{"addmv", "addmv(z, x, y)", [][]int{{2, 3}, {3}, {2}}, 'r', ""},
		{"addr", "addr(z, x, y)", [][]int{{2}, {3}, {2, 3}}, 'r', ""},
		{"baddbmm", "baddbmm(z, x, y)", [][]int{{2, 2, 3}, {2, 3, 2}, {2, 2}}, 'r', ""},
		{"addbmm", "addbmm(z, x, y)", [][]int{{2, 2, 3}, {2, 3, 2}, {2, 2}}, 'r', ""},
		{"mv", "mv(x, y)", [][]int{{2, 3}, {3}}, 'r', ""},
		{"vdot", "vdot(x, y)", [][]int{{3}, {3}}, 'r', ""},
		{"inner", "inner(x, y)", [][]int{{2, 3}, {3}}, 'r', ""},
		{"tensordot", "tensordot(x, y, 1)", [][]int{{2, 3}, {3, 2}}, 'r', ""},
		{"einsum", "einsum(\"bij,bjk->bik\", x, y)", [][]int{{2, 2, 3}, {2, 3, 2}}, 'r', ""},
		{"einsum", "einsum(\"ii->i\", x)", sq, 'r', ""},
		{"chain_matmul", "chain_matmul(x, y, x.mT)", [][]int{{2, 3}, {3, 3}}, 'r', ""},
		{"cross", "cross(x, y, dim=1)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"cdist", "cdist(x, y)", [][]int{{3, 2}, {2, 2}}, 'd', ""},
		{"cosine_similarity", "cosine_similarity(x, y, 1)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"pairwise_distance", "pairwise_distance(x, y)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"trace", "trace(x)", s1, 'r', ""},
		{"matrix_power", "matrix_power(x, 3)", sq, 'r', ""},
		{"matrix_exp", "matrix_exp(x)", sq, 'r', ""},
		// softmax family and nn activations
		{"softmax", "softmax(x, 1)", s1, 'r', ""},
		{"log_softmax", "log_softmax(x, 0)", s1, 'r', ""},
		{"nn.softmin", "nn.softmin(x, 1)", s1, 'r', ""},
		{"nn.glu", "nn.glu(x, 1)", s1, 'r', ""},
		{"nn.elu", "nn.elu(x)", s1, 'd', ""},
		{"nn.celu", "nn.celu(x, 0.5)", s1, 'd', ""},
		{"nn.selu", "nn.selu(x)", s1, 'd', ""},
		{"nn.silu", "nn.silu(x)", s1, 'r', ""},
		{"nn.mish", "nn.mish(x)", s1, 'r', ""},
		{"nn.softplus", "nn.softplus(x, beta=2)", s1, 'r', ""},
		{"nn.softsign", "nn.softsign(x)", s1, 'd', ""},
		{"nn.tanhshrink", "nn.tanhshrink(x)", s1, 'r', ""},
		{"nn.logsigmoid", "nn.logsigmoid(x)", s1, 'r', ""},
		{"nn.leaky_relu", "nn.leaky_relu(x, 0.1)", s1, 'd', ""},
		{"nn.prelu", "nn.prelu(x, y)", [][]int{{2, 3, 2}, {3}}, 'd', ""},
		{"nn.hardtanh", "nn.hardtanh(x, -0.5, 0.5)", s1, 'd', ""},
		{"nn.hardswish", "nn.hardswish(x * 4)", s1, 'd', ""},
		{"nn.hardsigmoid", "nn.hardsigmoid(x * 4)", s1, 'd', ""},
		{"nn.hardshrink", "nn.hardshrink(x, 0.3)", s1, 'd', ""},
		{"nn.softshrink", "nn.softshrink(x, 0.3)", s1, 'd', ""},
		{"nn.relu6", "nn.relu6(x * 8)", s1, 'd', ""},
		{"nn.threshold", "nn.threshold(x, 0.1, -2.0)", s1, 'd', ""},
		// in-place activation functions, on a non-leaf copy
		{"relu_", "(fn(a) { relu_(a); a })(x * 1)", s1, 'd', ""},
		{"celu_", "(fn(a) { celu_(a, 0.5); a })(x * 1)", s1, 'd', ""},
		{"selu_", "(fn(a) { selu_(a); a })(x * 1)", s1, 'd', ""},
		{"threshold_", "(fn(a) { threshold_(a, 0.1, -2.0); a })(x * 1)", s1, 'd', ""},
		{"nn.relu_", "(fn(a) { nn.relu_(a); a })(x * 1)", s1, 'd', ""},
		{"nn.celu_", "(fn(a) { nn.celu_(a, 0.5); a })(x * 1)", s1, 'd', ""},
		{"nn.elu_", "(fn(a) { nn.elu_(a); a })(x * 1)", s1, 'd', ""},
		{"nn.selu_", "(fn(a) { nn.selu_(a); a })(x * 1)", s1, 'd', ""},
		{"nn.leaky_relu_", "(fn(a) { nn.leaky_relu_(a, 0.1); a })(x * 1)", s1, 'd', ""},
		{"nn.threshold_", "(fn(a) { nn.threshold_(a, 0.1, -2.0); a })(x * 1)", s1, 'd', ""},
		{"nn.normalize", "nn.normalize(x, dim=1)", s1, 'r', ""},
		{"nn.linear", "nn.linear(x, y, z)", [][]int{{2, 3}, {4, 3}, {4}}, 'r', ""},
		{"nn.layer_norm", "nn.layer_norm(x, (4,), y, z)", [][]int{{3, 4}, {4}, {4}}, 'r', ""},
		{"nn.scaled_dot_product_attention", "nn.scaled_dot_product_attention(x, y, z)", [][]int{{2, 3}, {2, 3}, {2, 3}}, 'r', ""},
		{"nn.dropout", "nn.dropout(x, 0.0)", s1, 'r', ""},
		{"nn.embedding", "nn.embedding(tensor([[0, 2], [2, 1]]), x)", [][]int{{3, 2}}, 'r', ""},
		{"nn.pixel_shuffle", "nn.pixel_shuffle(x, 2)", [][]int{{1, 4, 2, 1}}, 'r', ""},
		{"nn.pixel_unshuffle", "nn.pixel_unshuffle(x, 2)", [][]int{{1, 1, 2, 4}}, 'r', ""},
		// losses
		{"nn.mse_loss", "nn.mse_loss(x, y)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"nn.l1_loss", "nn.l1_loss(x, y, reduction=\"sum\")", [][]int{{2, 3}, {2, 3}}, 'd', ""},
		{"nn.huber_loss", "nn.huber_loss(x * 2, y, delta=0.5)", [][]int{{2, 3}, {2, 3}}, 'd', ""},
		{"nn.smooth_l1_loss", "nn.smooth_l1_loss(x * 2, y, beta=0.5)", [][]int{{2, 3}, {2, 3}}, 'd', ""},
		{"nn.soft_margin_loss", "nn.soft_margin_loss(x, y)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"nn.cross_entropy", "nn.cross_entropy(x, tensor([1, 0, 3]))", s1, 'r', ""},
		{"nn.cross_entropy", "nn.cross_entropy(x, softmax(y, 1), label_smoothing=0.1)", [][]int{{3, 4}, {3, 4}}, 'r', ""},
		{"nn.nll_loss", "nn.nll_loss(x, tensor([1, 0, 3]), weight=tensor([1., 2., 3., 4.], dtype=f64))", s1, 'r', ""},
		{"nn.kl_div", "nn.kl_div(x, y, reduction=\"batchmean\")", [][]int{{2, 3}, {2, 3}}, 'p', ""},
		{"nn.binary_cross_entropy", "nn.binary_cross_entropy(sigmoid(x), sigmoid(y))", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"nn.binary_cross_entropy_with_logits", "nn.binary_cross_entropy_with_logits(x, sigmoid(y), pos_weight=tensor([1., 2., 0.5], dtype=f64))", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		// convolution, pooling, normalisation, resampling
		{"nn.conv1d", "nn.conv1d(x, y, z, stride=2, padding=1)", [][]int{{1, 2, 5}, {3, 2, 2}, {3}}, 'r', ""},
		{"nn.conv2d", "nn.conv2d(x, y, z, stride=(2, 1), dilation=(1, 2), padding=1)", [][]int{{2, 2, 3, 4}, {3, 2, 2, 2}, {3}}, 'r', ""},
		{"nn.conv_transpose2d", "nn.conv_transpose2d(x, y, z, groups=2, stride=(1, 2))", [][]int{{1, 2, 2, 3}, {2, 2, 2, 1}, {4}}, 'r', ""},
		{"nn.conv2d", "nn.conv2d(x, y, padding=1, groups=2)", [][]int{{1, 2, 3, 3}, {2, 1, 2, 2}}, 'r', ""},
		{"nn.conv_transpose1d", "nn.conv_transpose1d(x, y, stride=2)", [][]int{{1, 2, 3}, {2, 1, 2}}, 'r', ""},
		{"nn.conv_transpose2d", "nn.conv_transpose2d(x, y, stride=2, padding=1, output_padding=1)", [][]int{{1, 1, 2, 2}, {1, 2, 2, 2}}, 'r', ""},
		{"nn.unfold", "nn.unfold(x, 2, padding=1)", [][]int{{1, 1, 3, 3}}, 'r', ""},
		{"nn.fold", "nn.fold(x, (3, 3), 2)", [][]int{{1, 4, 4}}, 'r', ""},
		{"nn.max_pool1d", "nn.max_pool1d(x, 2, 1)", [][]int{{1, 2, 5}}, 'd', ""},
		{"nn.max_pool2d", "nn.max_pool2d(x, 2, 1, padding=1)", [][]int{{1, 1, 3, 4}}, 'd', ""},
		{"nn.avg_pool1d", "nn.avg_pool1d(x, 2, 1, 1, ceil_mode=true)", [][]int{{1, 2, 5}}, 'r', ""},
		{"nn.avg_pool2d", "nn.avg_pool2d(x, 2, 1, 1, count_include_pad=false)", [][]int{{1, 1, 3, 4}}, 'r', ""},
		{"nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool1d(x, 3)", [][]int{{1, 2, 5}}, 'r', ""},
		{"nn.adaptive_avg_pool2d", "nn.adaptive_avg_pool2d(x, (2, 3))", [][]int{{1, 1, 3, 4}}, 'r', ""},
		{"nn.adaptive_max_pool1d", "nn.adaptive_max_pool1d(x, 3)", [][]int{{1, 2, 5}}, 'd', ""},
		{"nn.adaptive_max_pool2d", "nn.adaptive_max_pool2d(x, (2, 3))", [][]int{{1, 1, 3, 4}}, 'd', ""},
		{"nn.batch_norm", "nn.batch_norm(x, none, none, y, z, training=true)", [][]int{{3, 2, 2}, {2}, {2}}, 'r', ""},
		{"nn.batch_norm", "nn.batch_norm(x, tensor([0.1, -0.2], dtype=f64), tensor([1.5, 0.5], dtype=f64), y, z)", [][]int{{3, 2, 2}, {2}, {2}}, 'r', ""},
		{"nn.group_norm", "nn.group_norm(x, 2, y, z)", [][]int{{2, 4, 2}, {4}, {4}}, 'r', ""},
		{"nn.instance_norm", "nn.instance_norm(x, weight=y, bias=z)", [][]int{{2, 2, 3}, {2}, {2}}, 'r', ""},
		{"nn.interpolate", "nn.interpolate(x, scale_factor=2, mode=\"linear\")", [][]int{{1, 2, 3}}, 'r', ""},
		{"nn.interpolate", "nn.interpolate(x, size=(3, 5), mode=\"bilinear\", align_corners=true)", [][]int{{1, 1, 2, 3}}, 'r', ""},
		{"nn.interpolate", "nn.interpolate(x, scale_factor=2)", [][]int{{1, 1, 2, 3}}, 'r', ""},
		{"nn.upsample", "nn.upsample(x, scale_factor=2, mode=\"nearest\")", [][]int{{1, 1, 3}}, 'r', ""},
		{"nn.upsample_bilinear", "nn.upsample_bilinear(x, scale_factor=2)", [][]int{{1, 1, 2, 2}}, 'r', ""},
		{"nn.upsample_nearest", "nn.upsample_nearest(x, scale_factor=2)", [][]int{{1, 1, 2, 2}}, 'r', ""},
		{"nn.pad", "nn.pad(x, (1, 2))", [][]int{{2, 3}}, 'r', ""},
		{"nn.pad", "nn.pad(x, (1, 2, 2, 1), mode=\"reflect\")", [][]int{{1, 1, 3, 4}}, 'r', ""},
		{"nn.pad", "nn.pad(x, (2, 1), mode=\"replicate\")", [][]int{{1, 2, 3}}, 'r', ""},
		{"nn.pad", "nn.pad(x, (2, 1), mode=\"circular\")", [][]int{{1, 2, 3}}, 'r', ""},
		// tsr names of the table's elementwise ops, aliases and the rest
		{"abs", "abs(x)", s1, 'd', ""},
		{"absolute", "absolute(x)", s1, 'd', ""},
		{"neg", "neg(x)", s1, 'r', ""},
		{"negative", "negative(x)", s1, 'r', ""},
		{"positive", "positive(x)", s1, 'r', ""},
		{"sin", "sin(x)", s1, 'r', ""},
		{"cos", "cos(x)", s1, 'r', ""},
		{"tan", "tan(x)", s1, 'r', ""},
		{"tanh", "tanh(x)", s1, 'r', ""},
		{"sinh", "sinh(x)", s1, 'r', ""},
		{"cosh", "cosh(x)", s1, 'r', ""},
		{"atan", "atan(x)", s1, 'r', ""},
		{"arctan", "arctan(x)", s1, 'r', ""},
		{"asinh", "asinh(x)", s1, 'r', ""},
		{"arcsinh", "arcsinh(x)", s1, 'r', ""},
		{"exp", "exp(x)", s1, 'r', ""},
		{"exp2", "exp2(x)", s1, 'r', ""},
		{"expm1", "expm1(x)", s1, 'r', ""},
		{"sigmoid", "sigmoid(x)", s1, 'r', ""},
		{"relu", "relu(x)", s1, 'd', ""},
		{"square", "square(x)", s1, 'r', ""},
		{"sgn", "sgn(x)", s1, 'd', ""},
		{"sign", "sign(x)", s1, 'd', ""},
		{"ceil", "ceil(x)", s1, 'd', ""},
		{"floor", "floor(x)", s1, 'd', ""},
		{"round", "round(x)", s1, 'd', ""},
		{"trunc", "trunc(x)", s1, 'd', ""},
		{"fix", "fix(x)", s1, 'd', ""},
		{"erf", "erf(x)", s1, 'r', ""},
		{"erfc", "erfc(x)", s1, 'r', ""},
		{"sinc", "sinc(x)", s1, 'r', ""},
		{"deg2rad", "deg2rad(x)", s1, 'r', ""},
		{"rad2deg", "rad2deg(x)", s1, 'r', ""},
		{"clone", "clone(x)", s1, 'r', ""},
		{"contiguous", "contiguous(x)", s1, 'r', ""},
		{"log", "log(x)", s1, 'p', ""},
		{"log10", "log10(x)", s1, 'p', ""},
		{"log1p", "log1p(x)", s1, 'p', ""},
		{"log2", "log2(x)", s1, 'p', ""},
		{"sqrt", "sqrt(x)", s1, 'p', ""},
		{"rsqrt", "rsqrt(x)", s1, 'p', ""},
		{"reciprocal", "reciprocal(x)", s1, 'p', ""},
		{"digamma", "digamma(x)", s1, 'p', ""},
		{"acosh", "acosh(x + 1)", s1, 'p', ""},
		{"arccosh", "arccosh(x + 1)", s1, 'p', ""},
		{"i0", "i0(x)", s1, 'p', ""},
		{"asin", "asin(x * 0.8)", s1, 'r', ""},
		{"arcsin", "arcsin(x * 0.8)", s1, 'r', ""},
		{"acos", "acos(x * 0.8)", s1, 'r', ""},
		{"arccos", "arccos(x * 0.8)", s1, 'r', ""},
		{"atanh", "atanh(x * 0.8)", s1, 'r', ""},
		{"arctanh", "arctanh(x * 0.8)", s1, 'r', ""},
		{"polygamma", "polygamma(1, x)", s1, 'p', ""},
		{"ldexp", "ldexp(x, tensor([1, 2, 0, -1]))", s1, 'r', ""},
		{"remainder", "remainder(x * 3, y)", [][]int{{4}, {4}}, 'p', ""},
		{"divide", "divide(x, y, rounding_mode=none)", [][]int{{4}, {4}}, 'p', ""},
		{"true_divide", "true_divide(x, y)", [][]int{{4}, {4}}, 'p', ""},
		{"multiply", "multiply(x, y)", [][]int{{4}, {4}}, 'r', ""},
		{"subtract", "subtract(x, y)", [][]int{{4}, {4}}, 'r', ""},
		{"arctan2", "arctan2(x, y)", [][]int{{4}, {4}}, 'p', ""},
		{"minimum", "minimum(x, y)", [][]int{{4}, {4}}, 'd', ""},
		{"fmin", "fmin(x, y)", [][]int{{4}, {4}}, 'd', ""},
		{"clip", "clip(x, -0.4, 0.3)", s1, 'd', ""},
		{"clamp_max", "clamp_max(x, 0.2)", s1, 'd', ""},
		{"amin", "amin(x, (0, 1))", s1, 'd', ""},
		{"mm", "mm(x, y)", [][]int{{2, 3}, {3, 2}}, 'r', ""},
		{"dot", "dot(x, y)", [][]int{{3}, {3}}, 'r', ""},
		{"outer", "outer(x, y)", [][]int{{2}, {3}}, 'r', ""},
		{"ger", "ger(x, y)", [][]int{{2}, {3}}, 'r', ""},
		{"diag", "diag(x, 1)", [][]int{{3}}, 'r', ""},
		{"diag", "diag(x, -1)", s1, 'r', ""},
		{"adjoint", "adjoint(x) * 1", s1, 'r', ""},
		{"t", "t(x) * 1", s1, 'r', ""},
		{"transpose", "transpose(x, 0, 1) * 1", s1, 'r', ""},
		{"swapaxes", "swapaxes(x, 0, 1) * 1", s1, 'r', ""},
		{"swapdims", "swapdims(x, 0, 1) * 1", s1, 'r', ""},
		{"permute", "permute(x, (2, 0, 1)) * 1", [][]int{{2, 3, 2}}, 'r', ""},
		{"movedim", "movedim(x, 0, 2) * 1", [][]int{{2, 3, 2}}, 'r', ""},
		{"moveaxis", "moveaxis(x, 0, 2) * 1", [][]int{{2, 3, 2}}, 'r', ""},
		{"reshape", "reshape(x, (4, 3)) * 1", s1, 'r', ""},
		{"ravel", "ravel(x) * 1", s1, 'r', ""},
		{"flatten", "flatten(x, 1) * 1", [][]int{{2, 3, 2}}, 'r', ""},
		{"unflatten", "unflatten(x, 1, (2, 2)) * 1", s1, 'r', ""},
		{"squeeze", "squeeze(x) * 1", [][]int{{3, 1, 2}}, 'r', ""},
		{"unsqueeze", "unsqueeze(x, 1) * 1", s1, 'r', ""},
		{"narrow", "narrow(x, 1, 1, 2) * 1", s1, 'r', ""},
		{"select", "select(x, 0, 1) * 1", s1, 'r', ""},
		{"fliplr", "fliplr(x)", s1, 'r', ""},
		{"flipud", "flipud(x)", s1, 'r', ""},
		{"atleast_1d", "atleast_1d(x) * 1", [][]int{{}}, 'r', ""},
		{"atleast_2d", "atleast_2d(x) * 1", [][]int{{3}}, 'r', ""},
		{"atleast_3d", "atleast_3d(x) * 1", [][]int{{3}}, 'r', ""},
		{"broadcast_tensors", "broadcast_tensors(x, y)[0] * broadcast_tensors(x, y)[1]", [][]int{{2, 1}, {3}}, 'r', ""},
		{"concat", "concat((x, y))", [][]int{{2}, {3}}, 'r', ""},
		{"concatenate", "concatenate((x, y), 1)", [][]int{{2, 1}, {2, 2}}, 'r', ""},
		{"vstack", "vstack((x, y))", [][]int{{3}, {2, 3}}, 'r', ""},
		{"row_stack", "row_stack((x, y))", [][]int{{3}, {2, 3}}, 'r', ""},
		{"column_stack", "column_stack((x, y))", [][]int{{3}, {3, 2}}, 'r', ""},
		{"dstack", "dstack((x, y))", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"split_with_sizes", "split_with_sizes(x, (1, 3), 1)[1] * 2", s1, 'r', ""},
		{"hsplit", "hsplit(x, 2)[1] * 2", s1, 'r', ""},
		{"vsplit", "vsplit(x, 3)[2] * 2", [][]int{{3, 2}}, 'r', ""},
		{"dsplit", "dsplit(x, 2)[0] * 2", [][]int{{1, 2, 4}}, 'r', ""},
		{"gradient", "gradient(x, dim=1)[0]", s1, 'r', ""},
		{"trapz", "trapz(x)", s1, 'r', ""},
		{"inverse", "inverse(x + 2 * eye(3, dtype=f64))", sq, 'r', ""},
		{"cholesky", "cholesky(x @ x.mT + eye(3, dtype=f64))", sq, 'r', ""},
		{"slogdet", "slogdet(x + 2 * eye(3, dtype=f64))[1]", sq, 'r', ""},
		{"index_put_", "(fn(a) { a.index_put_((tensor([0, 2]),), y); a })(x * 1)", [][]int{{3, 4}, {4}}, 'r', ""},
		{"linalg.lowrank", "(fn(r) { r[0] @ diag(r[1]) @ r[2] })(linalg.lowrank(x, 2))", [][]int{{4, 3}}, 'r', ""},
		{"nn.gelu", "nn.gelu(x, approximate=\"tanh\")", s1, 'r', ""},
		{"nn.relu", "nn.relu(x)", s1, 'd', ""},
		{"nn.sigmoid", "nn.sigmoid(x)", s1, 'r', ""},
		{"nn.tanh", "nn.tanh(x)", s1, 'r', ""},
		{"nn.softmax", "nn.softmax(x, 0)", s1, 'r', ""},
		{"nn.log_softmax", "nn.log_softmax(x, 1)", s1, 'r', ""},
		{"nn.logsumexp", "nn.logsumexp(x, 1)", s1, 'r', ""},
		{"nn.hardtanh_", "nn.hardtanh_(x * 1, -0.5, 0.5)", s1, 'd', ""},
		{"nn.cosine_similarity", "nn.cosine_similarity(x, y)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"nn.pairwise_distance", "nn.pairwise_distance(x, y, p=3)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"nn.dropout1d", "nn.dropout1d(x, 0.0)", [][]int{{2, 3}}, 'r', ""},
		{"nn.dropout2d", "nn.dropout2d(x, 0.0)", [][]int{{2, 2, 3}}, 'r', ""},
		{"special.digamma", "special.digamma(x)", s1, 'p', ""},
		{"special.psi", "special.psi(x)", s1, 'p', ""},
		{"special.gammaln", "special.gammaln(x)", s1, 'p', ""},
		{"special.erf", "special.erf(x)", s1, 'r', ""},
		{"special.erfc", "special.erfc(x)", s1, 'r', ""},
		{"special.exp2", "special.exp2(x)", s1, 'r', ""},
		{"special.expm1", "special.expm1(x)", s1, 'r', ""},
		{"special.log1p", "special.log1p(x)", s1, 'p', ""},
		{"special.round", "special.round(x)", s1, 'd', ""},
		{"special.softmax", "special.softmax(x, 1)", s1, 'r', ""},
		{"special.log_softmax", "special.log_softmax(x, 1)", s1, 'r', ""},
		{"special.logsumexp", "special.logsumexp(x, 1)", s1, 'r', ""},
		// tensor methods without a function of the same name
		{"Tensor.expand_as", "x.expand_as(y) * y", [][]int{{3, 1}, {3, 2}}, 'r', ""},
		{"Tensor.reshape_as", "x.reshape_as(y) * y", [][]int{{2, 3}, {3, 2}}, 'r', ""},
		{"Tensor.view", "x.view(3, 2) * 1", [][]int{{2, 3}}, 'r', ""},
		{"Tensor.view_as", "x.view_as(y) * y", [][]int{{2, 3}, {6}}, 'r', ""},
		{"Tensor.sum_to_size", "x.sum_to_size(1, 3)", [][]int{{2, 3}}, 'r', ""},
		{"Tensor.to", "x.to(f64, copy=true) * 1", s1, 'r', ""},
		{"Tensor.type_as", "x.type_as(y) * y", [][]int{{3}, {3}}, 'r', ""},
		{"Tensor.copy_", "(fn(a) { a[1:].copy_(y); a })(x * 1)", [][]int{{3, 2}, {2}}, 'r', ""},
		{"Tensor.fill_", "(fn(a) { a[0].fill_(2.0); a * a })(x * 1)", [][]int{{3, 2}}, 'r', ""},
		{"Tensor.zero_", "(fn(a) { a[:, 1].zero_(); a * a })(x * 1)", [][]int{{3, 2}}, 'r', ""},
		{"Tensor.fill_diagonal_", "(fn(a) { a.fill_diagonal_(0.5); a * a })(x * 1)", sq, 'r', ""},
		{"Tensor.masked_fill_", "(fn(a) { a.masked_fill_(x > 0, 0.5); a * a })(x * 1)", s1, 'd', ""},
		{"Tensor.index_fill_", "(fn(a) { a.index_fill_(1, tensor([0, 2]), 0.5); a * a })(x * 1)", s1, 'r', ""},
		{"Tensor.acos_", "(fn(a) { a.acos_(); a })(x * 0.8)", s1, 'r', ""},
		{"Tensor.arccos_", "(fn(a) { a.arccos_(); a })(x * 0.8)", s1, 'r', ""},
		{"Tensor.asin_", "(fn(a) { a.asin_(); a })(x * 0.8)", s1, 'r', ""},
		{"Tensor.arcsin_", "(fn(a) { a.arcsin_(); a })(x * 0.8)", s1, 'r', ""},
		{"Tensor.atanh_", "(fn(a) { a.atanh_(); a })(x * 0.8)", s1, 'r', ""},
		{"Tensor.arctanh_", "(fn(a) { a.arctanh_(); a })(x * 0.8)", s1, 'r', ""},
		{"Tensor.erfinv_", "(fn(a) { a.erfinv_(); a })(x * 0.8)", s1, 'r', ""},
		{"Tensor.acosh_", "(fn(a) { a.acosh_(); a })(x + 1)", s1, 'p', ""},
		{"Tensor.arccosh_", "(fn(a) { a.arccosh_(); a })(x + 1)", s1, 'p', ""},
		{"Tensor.logit_", "(fn(a) { a.logit_(); a })(x * 0.4 + 0.5)", s1, 'r', ""},
		{"Tensor.frac_", "(fn(a) { a.frac_(); a })(x * 3)", s1, 'd', ""},
		{"Tensor.add_", "(fn(a) { a.add_(y, alpha=2); a })(x * 1)", [][]int{{2, 3}, {3}}, 'r', ""},
		{"Tensor.sub_", "(fn(a) { a.sub_(y); a })(x * 1)", [][]int{{2, 3}, {3}}, 'r', ""},
		{"Tensor.mul_", "(fn(a) { a[0].mul_(y); a })(x * 1)", [][]int{{2, 3}, {3}}, 'r', ""},
		{"Tensor.div_", "(fn(a) { a.div_(y); a })(x * 1)", [][]int{{2, 3}, {3}}, 'p', ""},
		{"Tensor.pow_", "(fn(a) { a.pow_(y); a })(x * 1)", [][]int{{3}, {3}}, 'p', ""},
		{"Tensor.fmod_", "(fn(a) { a.fmod_(y); a })(x * 3)", [][]int{{4}, {4}}, 'p', ""},
		{"Tensor.remainder_", "(fn(a) { a.remainder_(y); a })(x * 3)", [][]int{{4}, {4}}, 'p', ""},
		{"Tensor.addcmul_", "(fn(a) { a.addcmul_(y, z, value=0.5); a })(x * 1)", [][]int{{2, 3}, {3}, {2, 3}}, 'r', ""},
		{"Tensor.addmm_", "(fn(a) { a.addmm_(y, z, beta=0.5); a })(x * 1)", [][]int{{2, 2}, {2, 3}, {3, 2}}, 'r', ""},
		{"Tensor.addmv_", "(fn(a) { a.addmv_(y, z); a })(x * 1)", [][]int{{2}, {2, 3}, {3}}, 'r', ""},
		{"Tensor.addr_", "(fn(a) { a.addr_(y, z); a })(x * 1)", [][]int{{2, 3}, {2}, {3}}, 'r', ""},
		{"Tensor.baddbmm_", "(fn(a) { a.baddbmm_(y, z); a })(x * 1)", [][]int{{2, 2, 2}, {2, 2, 3}, {2, 3, 2}}, 'r', ""},
		{"Tensor.addbmm_", "(fn(a) { a.addbmm_(y, z); a })(x * 1)", [][]int{{2, 2}, {2, 2, 3}, {2, 3, 2}}, 'r', ""},
		{"Tensor.index_copy_", "(fn(a) { a.index_copy_(0, tensor([2, 0]), y); a })(x * 1)", [][]int{{3, 4}, {2, 4}}, 'r', ""},
		{"Tensor.masked_scatter_", "(fn(a) { a.masked_scatter_(x > 0, y); a })(x * 1)", [][]int{{3, 4}, {12}}, 'd', ""},
		{"Tensor.put_", "(fn(a) { a.put_(tensor([1, 7]), y, accumulate=true); a })(x * 1)", [][]int{{3, 4}, {2}}, 'r', ""},
		{"Tensor.scatter_", "(fn(a) { a.scatter_(1, tensor([[0, 1], [2, 3], [1, 0]]), y); a })(x * 1)", [][]int{{3, 4}, {3, 2}}, 'r', ""},
		{"Tensor.scatter_reduce_", "(fn(a) { a.scatter_reduce_(0, tensor([[0, 1, 2, 0]]), y, \"sum\"); a })(x * 1)", [][]int{{3, 4}, {1, 4}}, 'r', ""},
		{"Tensor.squeeze_", "(fn(a) { a.squeeze_(1); a * 1 })(x * 1)", [][]int{{3, 1, 2}}, 'r', ""},
		{"Tensor.unsqueeze_", "(fn(a) { a.unsqueeze_(0); a * 1 })(x * 1)", s1, 'r', ""},
		{"Tensor.t_", "(fn(a) { a.t_(); a * 1 })(x * 1)", s1, 'r', ""},
		{"Tensor.transpose_", "(fn(a) { a.transpose_(0, 1); a * 1 })(x * 1)", s1, 'r', ""},
		{"Tensor.swapaxes_", "(fn(a) { a.swapaxes_(0, 1); a * 1 })(x * 1)", s1, 'r', ""},
		{"Tensor.swapdims_", "(fn(a) { a.swapdims_(0, 1); a * 1 })(x * 1)", s1, 'r', ""},
		// linear algebra
		{"linalg.det", "linalg.det(x + 2 * eye(3, dtype=f64))", sq, 'r', ""},
		{"det", "det(x + 2 * eye(3, dtype=f64))", sq, 'r', ""},
		{"logdet", "logdet(x @ x.mT + eye(3, dtype=f64))", sq, 'r', ""},
		{"linalg.slogdet", "linalg.slogdet(x + 2 * eye(3, dtype=f64))[1]", sq, 'r', ""},
		{"linalg.inv", "linalg.inv(x + 2 * eye(3, dtype=f64))", [][]int{{2, 3, 3}}, 'r', ""},
		{"linalg.inv_ex", "linalg.inv_ex(x + 2 * eye(3, dtype=f64))[0]", sq, 'r', ""},
		{"linalg.solve", "linalg.solve(x + 2 * eye(3, dtype=f64), y)", [][]int{{3, 3}, {3, 2}}, 'r', ""},
		{"linalg.solve_ex", "linalg.solve_ex(x + 2 * eye(3, dtype=f64), y)[0]", [][]int{{3, 3}, {3}}, 'r', ""},
		{"linalg.cholesky", "linalg.cholesky(x @ x.mT + eye(3, dtype=f64))", sq, 'r', ""},
		{"linalg.cholesky_ex", "linalg.cholesky_ex(x @ x.mT + eye(3, dtype=f64))[0]", sq, 'r', ""},
		{"linalg.qr", "linalg.qr(x)[0] + linalg.qr(x)[1]", sq, 'r', ""},
		{"linalg.qr", "linalg.qr(x)[1]", [][]int{{4, 3}}, 'r', ""},
		{"linalg.eigh", "linalg.eigh(x + x.mT)[0]", sq, 'r', ""},
		{"linalg.eigh", "(fn(v) { v @ diag(tensor([1., 2., 3.], dtype=f64)) @ v.mT })(linalg.eigh(x + x.mT)[1])", sq, 'r', ""},
		{"linalg.eigvalsh", "linalg.eigvalsh(x + x.mT)", sq, 'r', ""},
		{"linalg.svdvals", "linalg.svdvals(x)", [][]int{{3, 4}}, 'r', ""},
		{"linalg.svd", "linalg.svd(x, full_matrices=false)[0] @ linalg.svd(x, full_matrices=false)[2]", [][]int{{4, 3}}, 'r', ""},
		{"linalg.svd", "(fn(r) { r[0] @ r[2] })(linalg.svd(x, full_matrices=false))", [][]int{{4, 3}}, 'r', ""},
		{"linalg.pinv", "linalg.pinv(x)", [][]int{{4, 3}}, 'r', ""},
		{"pinverse", "pinverse(x)", [][]int{{3, 4}}, 'r', ""},
		{"linalg.lstsq", "linalg.lstsq(x, y)[0]", [][]int{{4, 3}, {4, 2}}, 'r', ""},
		{"linalg.solve_triangular", "linalg.solve_triangular(triu(x) + 2 * eye(3, dtype=f64), y, upper=true)", [][]int{{3, 3}, {3, 2}}, 'r', ""},
		{"triangular_solve", "triangular_solve(y, tril(x) + 2 * eye(3, dtype=f64), upper=false)[0]", [][]int{{3, 3}, {3, 2}}, 'r', ""},
		{"linalg.lu_factor", "linalg.lu_factor(x + 2 * eye(3, dtype=f64))[0]", sq, 'r', ""},
		{"linalg.lu_factor", "linalg.lu_factor(x.mT * 2)[0]", [][]int{{2, 3, 3}}, 'r', ""},
		{"linalg.lu_factor", "linalg.lu_factor(x)[0]", [][]int{{2, 4}}, 'r', ""},
		{"linalg.lu_factor", "linalg.lu_factor(x)[0]", [][]int{{2, 4, 2}}, 'r', ""},
		{"linalg.lu", "(fn(r) { r[1] @ r[2] })(linalg.lu(x))", [][]int{{3, 2}}, 'r', ""},
		{"linalg.lu_factor_ex", "linalg.lu_factor_ex(x + 2 * eye(3, dtype=f64))[0]", sq, 'r', ""},
		{"linalg.lu", "linalg.lu(x + 2 * eye(3, dtype=f64))[1] + linalg.lu(x + 2 * eye(3, dtype=f64))[2]", sq, 'r', ""},
		{"linalg.lu_solve", "(fn(f) { linalg.lu_solve(f[0], f[1], y) })(linalg.lu_factor(x + 2 * eye(3, dtype=f64)))", [][]int{{3, 3}, {3, 2}}, 'r', ""},
		{"lu_unpack", "(fn(f) { lu_unpack(f[0], f[1])[2] })(linalg.lu_factor(x + 2 * eye(3, dtype=f64)))", sq, 'r', ""},
		{"cholesky_solve", "cholesky_solve(y, tril(x) + 2 * eye(3, dtype=f64))", [][]int{{3, 3}, {3, 2}}, 'r', ""},
		{"cholesky_solve", "cholesky_solve(y, triu(x) + 2 * eye(3, dtype=f64), upper=true)", [][]int{{3, 3}, {3, 2}}, 'r', ""},
		{"cholesky_inverse", "cholesky_inverse(triu(x) + 2 * eye(3, dtype=f64), upper=true)", sq, 'r', ""},
		{"cholesky_inverse", "cholesky_inverse(tril(x) + 2 * eye(3, dtype=f64))", sq, 'r', ""},
		{"linalg.matrix_norm", "linalg.matrix_norm(x)", s1, 'r', ""},
		{"linalg.matrix_norm", "linalg.matrix_norm(x, ord=\"nuc\")", s1, 'r', ""},
		{"linalg.matrix_norm", "linalg.matrix_norm(x, ord=2)", s1, 'r', ""},
		{"linalg.vector_norm", "linalg.vector_norm(x, 3, dim=1)", s1, 'r', ""},
		{"linalg.norm", "linalg.norm(x)", s1, 'r', ""},
		{"linalg.cond", "linalg.cond(x + 2 * eye(3, dtype=f64))", sq, 'r', ""},
		{"linalg.matrix_exp", "linalg.matrix_exp(x)", sq, 'r', ""},
		{"linalg.matrix_power", "linalg.matrix_power(x, -2)", [][]int{{2, 2}}, 'r', ""},
		{"linalg.multi_dot", "linalg.multi_dot((x, y, x.mT))", [][]int{{2, 3}, {3, 3}}, 'r', ""},
		{"linalg.vecdot", "linalg.vecdot(x, y)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"linalg.cross", "linalg.cross(x, y)", [][]int{{2, 3}, {2, 3}}, 'r', ""},
		{"linalg.diagonal", "linalg.diagonal(x)", s1, 'r', ""},
		{"linalg.matmul", "linalg.matmul(x, y)", [][]int{{2, 3}, {3, 2}}, 'r', ""},
		{"linalg.vander", "linalg.vander(x)", [][]int{{3}}, 'r', ""},
		{"linalg.tensorinv", "linalg.tensorinv((x + 2 * eye(4, dtype=f64)).reshape(4, 2, 2), 1)", [][]int{{4, 4}}, 'r', ""},
		{"linalg.tensorsolve", "linalg.tensorsolve((x + 2 * eye(4, dtype=f64)).reshape(2, 2, 4), y)", [][]int{{4, 4}, {2, 2}}, 'r', ""},
	}
}

func surfInput(r *rand.Rand, shape []int, kind byte) *tensor.Tensor {
	n := 1
	for _, s := range shape {
		n *= s
	}
	v := make([]float64, n)
	for i := range v {
		switch kind {
		case 'p':
			v[i] = 0.5 + r.Float64()
		case 'd':
			v[i] = (float64(i)+0.3*r.Float64())/float64(n)*2 - 0.93
		default:
			v[i] = r.Float64()*2 - 1
		}
	}
	if kind == 'd' {
		r.Shuffle(n, func(i, j int) { v[i], v[j] = v[j], v[i] })
	}
	t, err := tensor.FromFloat64s(v, shape, tensor.F64)
	if err != nil {
		panic(err)
	}
	return t
}

// surfRunner evaluates one case's program: f_ (the expression), g_ (the
// gradients of L = sum(w f_²)) and h_ (the gradients of sum_k <g_k, v_k>,
// through a nested gradient block: create_graph). Squaring makes the
// output gradient 2 w f_ depend on the inputs, so the double backward
// also differentiates each formula in its output gradient (the whole
// second derivative of a linear op).
type surfRunner struct {
	in    *tsr.Interpreter
	names []string
}

func newSurfRunner(c surfCase) (*surfRunner, error) {
	names := []string{"x", "y", "z"}[:len(c.shapes)]
	ps := strings.Join(names, ", ")
	var vs, dots []string
	for i, n := range names {
		vs = append(vs, fmt.Sprintf("v%d", i))
		dots = append(dots, fmt.Sprintf("(gs[%d] * v%d).sum()", i, i))
		_ = n
	}
	src := fmt.Sprintf(`fn f_(%[1]s) { return %[2]s }
fn g_(%[1]s, w) { return [grad(%[1]s) { o = f_(%[1]s); (o * o * w).sum() }] }
fn h_(%[1]s, w, %[3]s) { return [grad(%[1]s) { gs = g_(%[1]s, w); %[4]s }] }
`, ps, c.expr, strings.Join(vs, ", "), strings.Join(dots, " + "))
	if len(names) > 1 {
		src = strings.ReplaceAll(src, "return [grad(", "return list(grad(")
		src = strings.ReplaceAll(src, "}] }", "}) }")
	}
	in := tsr.New(tsr.Options{})
	if _, err := in.Eval(context.Background(), "gradcheck", src); err != nil {
		return nil, err
	}
	return &surfRunner{in: in, names: names}, nil
}

func (s *surfRunner) call(name string, args ...*tensor.Tensor) ([]*tensor.Tensor, error) {
	as := make([]any, len(args))
	for i, a := range args {
		as[i] = a
	}
	v, err := s.in.Call(context.Background(), name, as...)
	if err != nil {
		return nil, err
	}
	var one *tensor.Tensor
	if tsr.Convert(v, &one) == nil && one != nil {
		return []*tensor.Tensor{one}, nil
	}
	var many []*tensor.Tensor
	if err := tsr.Convert(v, &many); err != nil {
		return nil, fmt.Errorf("%s returned %s: %v", name, v.Type(), err)
	}
	return many, nil
}

func flat(ts []*tensor.Tensor) [][]float64 {
	r := make([][]float64, len(ts))
	for i, t := range ts {
		r[i] = t.ToFloat64s()
	}
	return r
}

// checkSurf runs gradcheck and gradgradcheck on one case.
func checkSurf(t *testing.T, c surfCase, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 3))
	s, err := newSurfRunner(c)
	if err != nil {
		t.Fatal(err)
	}
	ins := make([]*tensor.Tensor, len(c.shapes))
	for i, sh := range c.shapes {
		ins[i] = surfInput(r, sh, c.in)
	}
	outs, err := s.call("f_", ins...)
	if err != nil {
		t.Fatalf("forward: %v", err)
	}
	out := outs[0]
	if !out.DType().IsFloat() || out.DType() != tensor.F64 {
		t.Fatalf("forward gave dtype %s, want f64", out.DType())
	}
	w := surfInput(r, out.Shape(), 'r')
	gs, err := s.call("g_", append(slices.Clone(ins), w)...)
	if err != nil {
		t.Fatalf("backward: %v", err)
	}
	if len(gs) != len(ins) {
		t.Fatalf("%d gradients for %d inputs", len(gs), len(ins))
	}
	loss := func(args []*tensor.Tensor) float64 {
		o, err := s.call("f_", args...)
		if err != nil {
			t.Fatalf("forward: %v", err)
		}
		ov, wv := o[0].ToFloat64s(), w.ToFloat64s()
		sum := 0.0
		for i := range ov {
			sum += ov[i] * ov[i] * wv[i]
		}
		return sum
	}
	const h = 1e-6
	for k, in := range ins {
		if !slices.Equal(gs[k].Shape(), in.Shape()) {
			t.Fatalf("gradient %d has shape %v, want %v", k, gs[k].Shape(), in.Shape())
		}
		an := gs[k].ToFloat64s()
		vals := in.ToFloat64s()
		for i := range vals {
			at := func(d float64) float64 {
				pv := slices.Clone(vals)
				pv[i] += d
				args := slices.Clone(ins)
				args[k], _ = tensor.FromFloat64s(pv, in.Shape(), tensor.F64)
				return loss(args)
			}
			num := (at(h) - at(-h)) / (2 * h)
			if math.Abs(num-an[i]) > 1e-5*math.Max(1, math.Abs(num)) {
				t.Errorf("d/d%s[%d]: analytic %.9g, finite difference %.9g", s.names[k], i, an[i], num)
			}
		}
	}
	// second order: H v against (g(x + h v) - g(x - h v)) / 2h
	vs := make([]*tensor.Tensor, len(ins))
	for i, in := range ins {
		vs[i] = surfInput(r, in.Shape(), 'r')
	}
	hv, err := s.call("h_", append(append(slices.Clone(ins), w), vs...)...)
	if c.noGG != "" {
		if err == nil {
			t.Logf("second derivative listed as unavailable (%s) but ran; checking it", c.noGG)
		} else {
			if !strings.Contains(err.Error(), "NotImplementedError") && !strings.Contains(err.Error(), "not implemented") {
				t.Errorf("double backward failed with an unexpected error: %v", err)
			}
			return
		}
	} else if err != nil {
		t.Fatalf("double backward: %v", err)
	}
	const h2 = 1e-5
	shifted := func(sign float64) [][]float64 {
		args := make([]*tensor.Tensor, len(ins))
		for k, in := range ins {
			iv, vv := in.ToFloat64s(), vs[k].ToFloat64s()
			for i := range iv {
				iv[i] += sign * h2 * vv[i]
			}
			args[k], _ = tensor.FromFloat64s(iv, in.Shape(), tensor.F64)
		}
		g, err := s.call("g_", append(args, w)...)
		if err != nil {
			t.Fatalf("backward: %v", err)
		}
		return flat(g)
	}
	p, m := shifted(1), shifted(-1)
	bad := false
	for k, hk := range flat(hv) {
		for i := range hk {
			num := (p[k][i] - m[k][i]) / (2 * h2)
			if math.Abs(num-hk[i]) > 1e-4*math.Max(1, math.Abs(num)) {
				bad = true
				if c.noGG == "" {
					t.Errorf("(H v) %s[%d]: analytic %.9g, finite difference %.9g", s.names[k], i, hk[i], num)
				}
			}
		}
	}
	if c.noGG != "" && !bad {
		t.Errorf("second derivative passes: drop the exclusion %q", c.noGG)
	}
	if c.noGG != "" && bad {
		t.Errorf("second derivative is silently wrong (%s)", c.noGG)
	}
}

// inplaceCases derives, from each case whose expression is a call f(x) or
// f(x, args...) of a function whose method f_ exists, the in-place
// variant on a non-leaf copy, (fn(a) { a.f_(args...); a })(x * 1), and
// for one-argument calls also on a view of it (a row, so the write goes
// through CopySlices): "Tensor.f_".
func inplaceCases(methods map[string]bool) []surfCase {
	var out []surfCase
	for _, c := range surfCases() {
		name, rest, ok := strings.Cut(c.expr, "(x")
		if !ok || !isIdent(name) || !strings.HasSuffix(rest, ")") || !methods[name+"_"] {
			continue
		}
		args := strings.TrimSuffix(rest, ")")
		if args != "" && !strings.HasPrefix(args, ", ") {
			continue
		}
		args = strings.TrimPrefix(args, ", ")
		if name == "ldexp" || !broadcastsInto(c.shapes) {
			continue // ldexp_ refuses autograd as PyTorch's; a broadcast self cannot be written in place
		}
		ip := surfCase{fn: "Tensor." + name + "_", shapes: c.shapes, in: c.in, noGG: c.noGG}
		ip.expr = fmt.Sprintf("(fn(a) { a.%s_(%s); a })(x * 1)", name, args)
		out = append(out, ip)
		if args == "" && len(c.shapes[0]) == 2 {
			v := ip
			v.expr = fmt.Sprintf("(fn(a) { a[1].%s_(); a })(x * 1)", name)
			out = append(out, v)
		}
	}
	return out
}

// broadcastsInto reports whether every shape broadcasts to the first.
func broadcastsInto(shapes [][]int) bool {
	s0 := shapes[0]
	for _, s := range shapes[1:] {
		if len(s) > len(s0) {
			return false
		}
		for i := range s {
			if d := s[len(s)-1-i]; d != 1 && d != s0[len(s0)-1-i] {
				return false
			}
		}
	}
	return true
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// tensorMethodNames lists the callable attributes of a tensor.
func tensorMethodNames(t *testing.T, in *tsr.Interpreter) map[string]bool {
	v, err := in.Eval(context.Background(), "methods", "tensor([1.])")
	if err != nil {
		t.Fatal(err)
	}
	h, ok := v.(runtime.HasAttrs)
	if !ok {
		t.Fatalf("a tensor has no attributes")
	}
	names := map[string]bool{}
	for _, n := range h.AttrNames() {
		if a, _ := h.Attr(n); isBuiltin(a) {
			names[n] = true
		}
	}
	return names
}

// TestGradcheckSurfaceInplace runs the derived in-place cases.
func TestGradcheckSurfaceInplace(t *testing.T) {
	cs := inplaceCases(tensorMethodNames(t, tsr.New(tsr.Options{})))
	if len(cs) < 50 {
		t.Fatalf("only %d in-place cases", len(cs))
	}
	for i, c := range cs {
		t.Run(fmt.Sprintf("%s_%d", c.fn, i), func(t *testing.T) { checkSurf(t, c, uint64(i+1000)) })
	}
}

// TestGradcheckSurface checks every case of surfCases: first derivatives
// against central differences, second derivatives (create_graph) against
// central differences of the first, or, where listed, a clear error.
func TestGradcheckSurface(t *testing.T) {
	for i, c := range surfCases() {
		t.Run(fmt.Sprintf("%s_%d", c.fn, i), func(t *testing.T) { checkSurf(t, c, uint64(i+1)) })
	}
}

// surfExcluded are the callable names of the global namespace and of
// linalg, nn and special that have no surfCases case, by reason.
var surfExcluded = map[string]string{}

func init() {
	for reason, names := range map[string]string{
		"no floating-point result, or no tensor input to differentiate (predicates, integer and boolean results, creation, random sampling, utilities)": `all allclose any arange argmax argmin argsort argwhere as_tensor asarray bernoulli bin bincount binomial
			bitwise_and bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor broadcast_shapes bucketize callable chr clock
			count_nonzero device dict divmod einsum_path empty empty_like empty_strided enumerate eq equal error eye filter finfo format
			full full_like gcd ge get_default_dtype get_num_threads get_rng_state getattr greater greater_equal gt hasattr hex histc histogram
			iinfo initial_seed is_complex is_floating_point is_grad_enabled is_nonzero is_same_size is_signed is_tensor isclose isfinite isin
			isinf isinstance isnan isneginf isposinf isreal lcm le len less less_equal linspace list logical_and logical_not logical_or
			logical_xor logspace lt manual_seed map multinomial ne nonzero normal not_equal numel oct ones ones_like ord poisson print
			promote_types rand rand_like randint randint_like randn randn_like randperm range repr result_type reversed scalar_tensor
			searchsorted seed set set_grad_enabled set_num_threads set_printoptions set_rng_state shares_memory signbit sorted str tensor tril_indices
			triu_indices tuple type zeros zeros_like zip linalg.backend linalg.matrix_rank nn.one_hot`,
		"detach cuts the graph by definition (its gradient is none)":                                                                     "detach",
		"not differentiable in PyTorch 1.13 either: frexp's and unique's backward are not implemented":                                   "frexp unique unique_consecutive",
		"backward is an error, as PyTorch's (tensor/autograd TestGradcheckAllOps lists them; stdlib torch_more tests check the message)": "floor_divide heaviside nextafter",
		"complex eigen-decomposition: tsr has no complex autograd":                                                                       "linalg.eig linalg.eigvals",
		"tensor methods that read or set metadata, convert, allocate or drive autograd (no derivative of their own)": `Tensor.backward Tensor.byte
			Tensor.char Tensor.cpu Tensor.data_ptr Tensor.dim Tensor.element_size Tensor.get_device Tensor.is_contiguous Tensor.is_pinned
			Tensor.item Tensor.ndimension Tensor.nelement Tensor.new_empty Tensor.new_empty_strided Tensor.new_full Tensor.new_ones
			Tensor.new_tensor Tensor.new_zeros Tensor.pin_memory Tensor.register_hook Tensor.requires_grad_ Tensor.retain_grad Tensor.size
			Tensor.storage_offset Tensor.stride Tensor.tolist Tensor.untyped_storage`,
		"resize_ of a tensor that requires grad is an error, as PyTorch's": "Tensor.resize_",
		"in-place random fill: self's old values get no gradient (PyTorch: zeros)": `Tensor.bernoulli_ Tensor.cauchy_ Tensor.exponential_
			Tensor.geometric_ Tensor.log_normal_ Tensor.normal_ Tensor.random_ Tensor.uniform_`,
		"in-place comparison, bitwise, logical, gcd/lcm: integer-valued results (zero gradient in PyTorch) or integer dtypes": `Tensor.eq_ Tensor.ne_
			Tensor.ge_ Tensor.gt_ Tensor.le_ Tensor.lt_ Tensor.greater_ Tensor.greater_equal_ Tensor.less_ Tensor.less_equal_ Tensor.not_equal_
			Tensor.bitwise_and_ Tensor.bitwise_left_shift_ Tensor.bitwise_not_ Tensor.bitwise_or_ Tensor.bitwise_right_shift_ Tensor.bitwise_xor_
			Tensor.logical_and_ Tensor.logical_not_ Tensor.logical_or_ Tensor.logical_xor_ Tensor.gcd_ Tensor.lcm_`,
		"in-place forms whose backward is an error, as PyTorch 1.13's (ldexp_ runs mul's out= form)": "Tensor.floor_divide_ Tensor.heaviside_ Tensor.nextafter_ Tensor.ldexp_",
	} {
		for _, n := range strings.Fields(names) {
			surfExcluded[n] = reason
		}
	}
}

// TestGradcheckSurfaceCoverage requires a surfCases case, or an entry of
// surfExcluded with its reason, for every callable that tsr predeclares
// and every function of linalg, nn and special (classes aside): a new
// differentiable function without a finite-difference check fails here.
func TestGradcheckSurfaceCoverage(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range surfCases() {
		covered[c.fn] = true
	}
	in := tsr.New(tsr.Options{})
	var names []string
	for _, n := range in.Predeclared() {
		if v, _ := in.Global(n); isBuiltin(v) {
			names = append(names, n)
		}
	}
	for _, m := range []string{"linalg", "nn", "special"} {
		v, _ := in.Global(m)
		mod, ok := v.(*runtime.Module)
		if !ok {
			t.Fatalf("%s is not a module", m)
		}
		for _, n := range mod.AttrNames() {
			if a, _ := mod.Attr(n); isBuiltin(a) && !(n[0] >= 'A' && n[0] <= 'Z') {
				names = append(names, m+"."+n)
			}
		}
	}
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
		_, excl := surfExcluded[n]
		switch {
		case covered[n] && excl:
			t.Errorf("%s has a gradcheck case and an exclusion (%s)", n, surfExcluded[n])
		case !covered[n] && !excl:
			t.Errorf("%s has no gradcheck case in surfCases and no documented exclusion in surfExcluded", n)
		}
	}
	for n := range covered {
		if !seen[n] && !strings.HasPrefix(n, "Tensor.") { // methods are not enumerated
			t.Errorf("surfCases case %q names no function of tsr", n)
		}
	}
	for n := range surfExcluded {
		if !seen[n] && !strings.HasPrefix(n, "Tensor.") {
			t.Errorf("surfExcluded lists %q, which tsr does not define", n)
		}
	}
	nExcl := 0
	for _, n := range names {
		if _, ok := surfExcluded[n]; ok {
			nExcl++
		}
	}
	t.Logf("%d functions: %d with gradcheck cases (%d cases), %d excluded", len(names), len(names)-nExcl, len(surfCases()), nExcl)

	// tensor methods: one named like a function is covered with it;
	// the others need a "Tensor.name" case (written or derived in place)
	// or an exclusion
	methods := tensorMethodNames(t, in)
	for _, c := range inplaceCases(methods) {
		covered[c.fn] = true
	}
	globals := map[string]bool{}
	for _, n := range in.Predeclared() {
		globals[n] = true
	}
	nm := 0
	for _, n := range slices.Sorted(maps.Keys(methods)) {
		if globals[n] {
			continue
		}
		nm++
		_, excl := surfExcluded["Tensor."+n]
		switch {
		case covered["Tensor."+n] && excl:
			t.Errorf("Tensor.%s has a gradcheck case and an exclusion", n)
		case !covered["Tensor."+n] && !excl:
			t.Errorf("method %s has no gradcheck case (Tensor.%s) and no documented exclusion", n, n)
		}
	}
	for n := range covered {
		if m, ok := strings.CutPrefix(n, "Tensor."); ok && !methods[m] && m != "__getitem__" && m != "__setitem__" {
			t.Errorf("case %q names no tensor method", n)
		}
	}
	nmc := 0
	for n := range methods {
		if _, excl := surfExcluded["Tensor."+n]; !globals[n] && !excl {
			nmc++
		}
	}
	t.Logf("%d tensor methods not named like a function: %d with gradcheck cases, %d excluded", nm, nmc, nm-nmc)
}

func isBuiltin(v runtime.Value) bool {
	_, ok := v.(*runtime.Builtin)
	return ok
}

// TestThirdOrderThroughLinearOps: the double-backward nodes of linear ops
// (views, advanced indexing, pools) are linear too and differentiable
// again, and a convolution's gradients are recorded convolutions, so third
// derivatives are exact (hand-derived: d³/dx³ x⁴ = 24 x, times the number
// of times an index repeats).
func TestThirdOrderThroughLinearOps(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []float64
	}{
		{`x = tensor([1., 2., 3.], dtype=f64)
grad(x) { g2 = grad(x) { g1 = grad(x) { (x[1:] ** 4).sum() }; g1.sum() }; g2.sum() }`, []float64{0, 48, 72}},
		{`y = tensor([[1., 2.], [3., 4.]], dtype=f64)
grad(y) { h2 = grad(y) { h1 = grad(y) { (y[tensor([1, 0, 1])] ** 4).sum() }; h1.sum() }; h2.sum() }`, []float64{24, 48, 144, 192}},
		{`z = tensor([[[[1., 2.], [3., 4.]]]], dtype=f64)
grad(z) { h2 = grad(z) { h1 = grad(z) { (nn.max_pool2d(z, 1) ** 4).sum() + (z.flip(3) ** 4).sum() }; h1.sum() }; h2.sum() }`, []float64{48, 96, 144, 192}},
		// conv2d of y with itself is s = Σ y²; for f = s³ the third
		// derivative summed as below is 48 y (Σy)² + 48 s Σy + 96 s y
		{`y = tensor([[1., 2.], [3., 4.]], dtype=f64)
grad(y) { c2 = grad(y) { c1 = grad(y) { (nn.conv2d(y.reshape(1, 1, 2, 2), y.reshape(1, 1, 2, 2)) ** 3).sum() }; c1.sum() }; c2.sum() }`, []float64{22080, 29760, 37440, 45120}},
	} {
		in := tsr.New(tsr.Options{})
		v, err := in.Eval(context.Background(), "third", c.src)
		if err != nil {
			t.Fatalf("%s\n%v", c.src, err)
		}
		var g *tensor.Tensor
		if err := tsr.Convert(v, &g); err != nil {
			t.Fatal(err)
		}
		if got := g.ToFloat64s(); !slices.Equal(got, c.want) {
			t.Errorf("%s\n= %v, want %v", c.src, got, c.want)
		}
	}
}

// TestNoSilentHigherOrder: where tsr has no formula for a further
// derivative, differentiating again is a NotImplementedError, never a
// gradient silently treated as a constant.
func TestNoSilentHigherOrder(t *testing.T) {
	for _, src := range []string{
		// second derivative of cumprod at a zero
		`x = tensor([1., 0., 2.], dtype=f64)
grad(x) { g = grad(x) { (x.cumprod(0) ** 2).sum() }; g.sum() }`,
		// second derivative of scatter_reduce "prod" at a zero
		`x = tensor([1., 0., 2.], dtype=f64)
grad(x) { g = grad(x) { (scatter_reduce(x, 0, tensor([0, 0, 1]), x * 2, "prod") ** 2).sum() }; g.sum() }`,
	} {
		_, err := tsr.New(tsr.Options{}).Eval(context.Background(), "higher", src)
		if err == nil || !strings.Contains(err.Error(), "NotImplementedError") {
			t.Errorf("%s\ngave %v, want a NotImplementedError", src, err)
		}
	}
}
