// A pass that removes every call to a logging primitive from the bodies a context runs,
// leaving the logged value in its place: Cassette's program slicing, in spirit.
#include <cassette/cassette.hpp>

#include <iostream>
#include <string_view>

//[slicing
struct log_t {
    static constexpr std::string_view name = "log";
    double operator()(double v) const {
        std::cout << "log: " << v << '\n';
        return v;
    }
};
inline constexpr log_t log_value{};

inline constexpr auto poly = cassette::function<"poly">([](auto x) {
    auto y = cassette::call(log_value, x * x);
    return cassette::call(log_value, y + 1.0) * 2.0;
});

struct Sliced {
    static constexpr auto pass = [](auto const& body) {
        return cassette::ir::transform(body, []<class X>(cassette::ir::call<log_t, X> const& c) {
            return boost::hana::at_c<0>(c.args);  // log(v) becomes v
        });
    };
};

int main() {
    double const plain = poly(3.0);  // logs twice
    Sliced sliced;
    double const quiet = cassette::overdub(sliced, poly, 3.0);
    std::cout << "plain: " << plain << ", sliced: " << quiet << '\n';
    std::cout << cassette::code_overdubbed(cassette::disable_hooks(sliced), poly, 3.0);
}
//]
