// expect: cassette::ad: a value being differentiated reached a primitive with no derivative rule
// expect: cassette::ad::forward
// A dual-tagged value reaching a primitive without a rule is a compile error naming the
// primitive (G in the instantiation), never a silently wrong derivative.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

struct opaque_t {
    double operator()(double v) const { return v * v; }
};

#ifdef CASSETTE_PASSING_TWIN
template <>
struct cassette::ad::rule<opaque_t> {
    static constexpr auto apply(auto const& p, auto const& x) {
        return ad::dual{p(opaque_t{}, x.v), p.mul(x.d, p(cassette::op::mul, 2.0, x.v))};
    }
};
#endif

inline constexpr auto f = cassette::function<"f">([](auto x) { return cassette::call(opaque_t{}, x) + x; });

int main() { return cassette::ad::derivative(f, 1.0) == 3.0 ? 0 : 1; }
