// expect: deleted function
// expect: temporary tuple
// A frame made for a temporary tuple of arguments would refer to it once it is gone.
#include <cassette/cassette.hpp>

inline constexpr auto square = cassette::function<"square">([](auto x) { return x * x; });

int main() {
    cassette::null_context ctx;
    double const x = 3.0;
#ifdef CASSETTE_PASSING_TWIN
    cassette::detail::tuple<double const&> const args{{x}};
    auto const frame = cassette::body_frame(ctx, square, args);
#else
    auto const frame = cassette::body_frame(ctx, square, cassette::detail::tuple<double const&>{{x}});
#endif
    return frame.eval(decltype(square)::body<1>) == 9.0 ? 0 : 1;
}
