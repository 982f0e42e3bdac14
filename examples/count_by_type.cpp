// Hooks chosen by argument type, like Cassette.jl's "OH WOW, NUMERIC ARGUMENTS!" example: the
// more constrained prehook wins for calls whose arguments are all numbers.
#include <cassette/cassette.hpp>

#include <concepts>
#include <iostream>
#include <vector>

void describe(std::vector<double> const& v) { std::cout << "vector of " << v.size(); }
void describe(auto const& x) { std::cout << x; }

//[count_by_type
template <class T>
concept number = std::integral<T> || std::floating_point<T>;

struct NumericCounter {
    int numeric = 0, other = 0;

    void prehook(auto const& f, number auto const&... xs) {
        ++numeric;
        std::cout << "OH WOW, NUMERIC ARGUMENTS! ";
        print(f, xs...);
    }
    void prehook(auto const& f, auto const&... xs) {
        ++other;
        std::cout << "calling ";
        print(f, xs...);
    }

    static void print(auto const& f, auto const&... xs) {
        std::cout << cassette::name_of(f) << '(';
        char const* separator = "";
        ((std::cout << separator, describe(xs), separator = ", "), ...);
        std::cout << ")\n";
    }
};

inline constexpr auto sum_of_squares = cassette::function<"sum_of_squares">([](auto v) {
    return cassette::sum(0, cassette::length(v), [=](auto i) { return v[i] * v[i]; });
});
//]

int main() {
    NumericCounter c;
    double const r = cassette::overdub(c, sum_of_squares, std::vector<double>{1.5, 2.5});
    std::cout << "result " << r << ": " << c.numeric << " numeric calls, " << c.other << " others\n";
}
