// Memoised fibonacci through a member overdub and cassette::recurse, as in Cassette's docs.
#include <cassette/cassette.hpp>

#include <iostream>
#include <map>

//[memo
inline constexpr auto fib = cassette::function<"fib">([](auto n) {
    return cassette::if_(n < 2, n, cassette::self(n - 1) + cassette::self(n - 2));
});

struct Memo {
    std::map<long, long> cache;
    long calls = 0;     // calls to fib seen by the prehook
    long computed = 0;  // bodies actually run

    void prehook(decltype(fib) const&, long) { ++calls; }

    long overdub(decltype(fib) const& f, long n) {
        if (auto it = cache.find(n); it != cache.end()) return it->second;
        ++computed;
        long r = cassette::recurse(*this, f, n);  // the body, its calls overdubbed in *this
        cache.emplace(n, r);
        return r;
    }
};
//]

int main() {
    //[memo_run
    cassette::contexts::call_counter plain;
    long const a = cassette::overdub(plain, fib, 25L);
    std::cout << "fib(25) = " << a << '\n';
    std::cout << "without memoisation: " << plain.count("fib") << " calls to fib\n";

    Memo memo;
    long const b = cassette::overdub(memo, fib, 25L);
    std::cout << "fib(25) = " << b << '\n';
    std::cout << "with memoisation: " << memo.calls << " calls to fib, " << memo.computed << " computed\n";
    //]
}
