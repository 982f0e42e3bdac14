// Tagging: the laws of tag/untag/metadata, nesting, and metadata flowing through
// overdubbed bodies by the structural primitives, with no context code.
#include <cassette/cassette.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

namespace tag_tests {

struct taint {};  // a context with no members: only the engine propagates its tags
struct other {};
struct custom {
    using tag_type = other;  // tags as `other` does
};

struct point {
    double x, y;
};
struct segment {
    point a, b;
};

inline constexpr auto first_x = cassette::function([](auto s) { return cassette::get<0>(cassette::get<0>(s)); });
inline constexpr auto swap = cassette::function([](auto p) {
    return cassette::make<point>(cassette::get<1>(p), cassette::get<0>(p));
});

}  // namespace tag_tests

using namespace tag_tests;

TEST_CASE("tag, untag and metadata obey their laws", "[tag][law]") {
    taint const ctx;
    auto const t = cassette::tag(2.5, ctx, true);
    CHECK(cassette::untag(t, ctx) == 2.5);
    CHECK(cassette::metadata(t, ctx) == true);
    STATIC_REQUIRE(cassette::is_tagged(t, ctx));
    STATIC_REQUIRE(cassette::has_metadata(t, ctx));
    STATIC_REQUIRE(std::is_same_v<cassette::untag_t<decltype(t), taint>, double>);
    STATIC_REQUIRE(std::is_same_v<cassette::metadata_t<decltype(t), taint>, bool>);
    // A value ctx has not tagged.
    double const plain = 1.5;
    CHECK(cassette::untag(plain, ctx) == 1.5);
    STATIC_REQUIRE(!cassette::is_tagged(plain, ctx));
    STATIC_REQUIRE(std::is_same_v<decltype(cassette::metadata(plain, ctx)), cassette::no_metadata>);
    // Tagged without metadata.
    auto const bare = cassette::tag(3, ctx);
    STATIC_REQUIRE(cassette::is_tagged(bare, ctx));
    STATIC_REQUIRE(!cassette::has_metadata(bare, ctx));
    // A context's own tag_type.
    auto const o = cassette::tag(1.0, custom{}, 7);
    STATIC_REQUIRE(cassette::is_tagged(o, other{}));
    CHECK(cassette::metadata(o, other{}) == 7);
}

TEST_CASE("nested tags: each context sees and removes only its own", "[tag]") {
    taint const a;
    other const b;
    auto const both = cassette::tag(cassette::tag(4.0, a, true), b, 9);
    STATIC_REQUIRE(cassette::is_tagged(both, a));
    STATIC_REQUIRE(cassette::is_tagged(both, b));
    CHECK(cassette::metadata(both, a) == true);  // found under b's layer
    CHECK(cassette::metadata(both, b) == 9);
    auto const without_a = cassette::untag(both, a);
    STATIC_REQUIRE(!cassette::is_tagged(without_a, a));
    CHECK(cassette::metadata(without_a, b) == 9);
    CHECK(cassette::untag(without_a, b) == 4.0);
    CHECK(cassette::untag(cassette::untag(both, b), a) == 4.0);
}

TEST_CASE("get<I> and make<T> carry field metadata through plain aggregates", "[tag][propagation]") {
    taint ctx;
    segment const s{{1.0, 2.0}, {3.0, 4.0}};
    auto const tagged_s = cassette::tag(s, ctx, cassette::fields(cassette::fields(true, false), cassette::no_metadata{}));
    STATIC_REQUIRE(std::is_same_v<decltype(cassette::metadata(tagged_s, ctx)), cassette::no_metadata>);
    auto const x = cassette::overdub(ctx, first_x, tagged_s);
    CHECK(cassette::untag(x, ctx) == 1.0);
    CHECK(cassette::metadata(x, ctx) == true);

    // make<point> from a tagged and a plain argument tags only the first field.
    auto const p = cassette::tag(point{5.0, 6.0}, ctx, cassette::fields(cassette::no_metadata{}, true));
    auto const q = cassette::overdub(ctx, swap, p);
    point const qv = cassette::untag(q, ctx);
    CHECK(qv.x == 6.0);
    CHECK(qv.y == 5.0);
    constexpr auto qx = cassette::function([](auto v) { return cassette::get<0>(v); });
    constexpr auto qy = cassette::function([](auto v) { return cassette::get<1>(v); });
    CHECK(cassette::metadata(cassette::overdub(ctx, qx, q), ctx) == true);
    auto const y = cassette::overdub(ctx, qy, q);
    STATIC_REQUIRE(!cassette::is_tagged(y, ctx));
}

TEST_CASE("indexing carries element metadata; length and comparisons see through tags", "[tag][propagation]") {
    taint ctx;
    std::vector<double> const v{1.0, -2.0, 3.0};
    auto const tv = cassette::tag(v, ctx, cassette::elements(std::vector<bool>{false, true, false}));
    constexpr auto second = cassette::function([](auto x) { return x[1]; });
    auto const e = cassette::overdub(ctx, second, tv);
    CHECK(cassette::untag(e, ctx) == -2.0);
    CHECK(cassette::metadata(e, ctx) == true);
    constexpr auto size_and_sign = cassette::function([](auto x) {
        return cassette::make<std::array<double, 2>>(cassette::length(x) * 1.0, cassette::if_(x[1] < 0, -1.0, 1.0));
    });
    auto const r = cassette::overdub(ctx, size_and_sign, tv);
    STATIC_REQUIRE(std::is_same_v<decltype(r), std::array<double, 2> const>);
    CHECK(r == std::array<double, 2>{3.0, -1.0});
}

TEST_CASE("any other primitive falls back on untagged arguments and returns an untagged result", "[tag]") {
    taint ctx;
    constexpr auto wave = cassette::function([](auto x) { return cassette::sin(x) * 2.0; });
    auto const r = cassette::overdub(ctx, wave, cassette::tag(0.5, ctx, true));
    STATIC_REQUIRE(std::is_same_v<decltype(r), double const>);
    CHECK(r == std::sin(0.5) * 2.0);
}
