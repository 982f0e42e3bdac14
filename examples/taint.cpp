// A taint-tracking context: values from an untrusted source are tagged, every primitive
// that sees a tainted argument taints its result, and the taint flows through plain structs
// and vectors by itself. Run together with a dual-number context, each sees only its tag.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <iostream>
#include <vector>

//[taint
struct Taint {
    // Every primitive except the structural ones (which propagate tags by themselves):
    // compute on the untagged arguments, taint the result if any argument was tainted.
    template <cassette::primitive G, class... X>
        requires(!cassette::structural_primitive<G> && (cassette::tagged_by<X, Taint> || ...))
    auto overdub(G const& g, X const&... xs) {
        bool const tainted = (has_taint(xs) || ...);
        return cassette::tag(g(cassette::untag(xs, *this)...), *this, tainted);
    }

    template <class X>
    bool has_taint(X const& x) const {
        if constexpr (cassette::tagged_by<X, Taint>)
            return cassette::metadata(x, *this);
        else
            return false;
    }
};

struct Order {
    double price, quantity;
};

inline constexpr auto total = cassette::function<"total">([](auto orders, auto fee) {
    return cassette::sum(0, cassette::length(orders), [=](auto i) {
        return cassette::get<0>(orders[i]) * cassette::get<1>(orders[i]);
    }) + fee;
});
//]

int main() {
    //[taint_run
    Taint taint;
    std::vector<Order> const orders{{2.5, 4}, {10, 1}};
    // The second order's price came from an untrusted form field.
    auto const input = cassette::tag(orders, taint,
                                     cassette::elements(std::vector{cassette::fields(false, false),
                                                                    cassette::fields(true, false)}));
    auto const t = cassette::overdub(taint, total, input, 1.5);
    std::cout << "total " << cassette::untag(t, taint) << ", tainted: " << std::boolalpha
              << cassette::metadata(t, taint) << '\n';

    auto const clean = cassette::overdub(taint, total, cassette::tag(orders, taint,
        cassette::elements(std::vector{cassette::fields(false, false), cassette::fields(false, false)})), 1.5);
    std::cout << "total " << cassette::untag(clean, taint) << ", tainted: " << cassette::metadata(clean, taint) << '\n';

    // With a dual-number context inside: d total / d fee, while the taint still flows.
    cassette::ad::forward<Taint> dual{taint};
    auto const d = cassette::overdub(dual, total, input, cassette::tag(1.5, dual, 1.0));
    std::cout << "d total / d fee = " << cassette::metadata(d, dual) << ", total " << cassette::untag(cassette::untag(d, dual), taint)
              << ", tainted: " << cassette::metadata(d, taint) << '\n';
    //]
}
