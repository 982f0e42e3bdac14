// SPDX-License-Identifier: BSL-1.0
// Tagging: values carry metadata with respect to a context's tag, through overdubbed bodies.
#pragma once

#include <cassette/detail/config.hpp>
#include <cassette/fwd.hpp>
#include <cassette/primitives.hpp>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <boost/pfr/core.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

// Indices are the user's, and what was a literal in their source (x[0]) is a variable here:
// -Wsign-conversion would report, in this header, a conversion C++ makes silently for a literal.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"

namespace cassette {

// What metadata(x, ctx) returns for a value ctx has not tagged (or tagged field by field).
struct no_metadata {
    friend constexpr bool operator==(no_metadata, no_metadata) noexcept { return true; }
};

// Metadata given field by field to an aggregate (fields(m0, m1, ...); an mi may itself be
// fields(...) for a nested aggregate), or element by element to an array or vector.
//
// Metadata of one shape converts to another's part by part where each part does: what a
// branch or an accumulator holds when a context's metadata types are finer than the shape
// (the AD context's tangents record which inputs they depend on).
template <class... M>
struct fields {
    std::tuple<M...> of;
    constexpr fields() = default;
    constexpr explicit fields(M... ms) : of(std::move(ms)...) {}
    template <class... N>
        requires(sizeof...(N) == sizeof...(M) && !(std::is_same_v<N, M> && ...) &&
                 (std::is_convertible_v<N const&, M> && ...))
    constexpr fields(fields<N...> const& other) : of(other.of) {}
    friend constexpr bool operator==(fields const&, fields const&) = default;
};

template <class Range>
struct elements {
    Range of{};
    constexpr elements() = default;
    constexpr explicit elements(Range ms) : of(std::move(ms)) {}
    template <class N, std::size_t Size, class M = typename Range::value_type>
        requires(std::is_same_v<Range, std::array<M, Size>> && !std::is_same_v<N, M> && std::is_convertible_v<N const&, M>)
    constexpr elements(elements<std::array<N, Size>> const& other)
        : of([&]<std::size_t... I>(std::index_sequence<I...>) {
              return Range{M(other.of[I])...};
          }(std::make_index_sequence<Size>{})) {}
    friend constexpr bool operator==(elements const&, elements const&) = default;
};

// A value tagged with respect to Tag: the plain value (itself possibly tagged by another
// context's tag) and its metadata. A plain value converts to a tagged one with
// value-initialised metadata: what an untouched accumulator or branch carries.
template <class Tag, class T, class M>
struct tagged {
    using tag_type = Tag;
    using value_type = T;
    using metadata_type = M;

    T value{};
    [[no_unique_address]] M meta{};

    constexpr tagged() = default;
    constexpr tagged(T v, M m) : value(std::move(v)), meta(std::move(m)) {}
    template <class U>
        requires(!std::is_same_v<std::remove_cvref_t<U>, tagged> && std::is_constructible_v<T, U const&> &&
                 std::is_default_constructible_v<M>)
    constexpr tagged(U const& v) : value(v), meta{} {}
    template <class U, class N>
        requires(!std::is_same_v<tagged<Tag, U, N>, tagged> && std::is_convertible_v<U const&, T> &&
                 std::is_convertible_v<N const&, M>)
    constexpr tagged(tagged<Tag, U, N> const& other) : value(other.value), meta(other.meta) {}

    friend constexpr bool operator==(tagged const&, tagged const&) = default;
};

namespace detail {

template <class X>
inline constexpr bool is_tagged_value = false;
template <class Tag, class T, class M>
inline constexpr bool is_tagged_value<tagged<Tag, T, M>> = true;

template <class M>
inline constexpr bool is_structured = false;
template <class... M>
inline constexpr bool is_structured<fields<M...>> = true;
template <class R>
inline constexpr bool is_structured<elements<R>> = true;

}  // namespace detail

// The tag a context tags with: its own type unless it declares `using tag_type = ...;`.
template <class Ctx>
struct context_tag {
    using type = Ctx;
};
template <class Ctx>
    requires requires { typename Ctx::tag_type; }
struct context_tag<Ctx> {
    using type = typename Ctx::tag_type;
};
template <class Ctx>
using tag_of = typename context_tag<std::remove_cvref_t<Ctx>>::type;

namespace detail {

// The layer of X tagged with Tag, at any depth under other tags.
template <class Tag, class X>
struct layer {
    static constexpr bool found = false;
    using untagged = X;
    using metadata = no_metadata;
};
template <class Tag, class T, class M>
struct layer<Tag, tagged<Tag, T, M>> {
    static constexpr bool found = true;
    using untagged = T;
    using metadata = M;
};
template <class Tag, class Other, class T, class M>
    requires(!std::is_same_v<Tag, Other>)
struct layer<Tag, tagged<Other, T, M>> {
    static constexpr bool found = layer<Tag, T>::found;
    using untagged = std::conditional_t<found, tagged<Other, typename layer<Tag, T>::untagged, M>, tagged<Other, T, M>>;
    using metadata = typename layer<Tag, T>::metadata;
};

template <class Tag, class X>
CASSETTE_INLINE constexpr decltype(auto) untag_by(X const& x) {
    if constexpr (!layer<Tag, X>::found)
        return (x);
    else if constexpr (std::is_same_v<typename X::tag_type, Tag>)
        return (x.value);
    else
        return tagged<typename X::tag_type, typename layer<Tag, X>::untagged::value_type, typename X::metadata_type>(
            detail::untag_by<Tag>(x.value), x.meta);
}

template <class Tag, class X>
constexpr decltype(auto) metadata_by(X const& x) {
    if constexpr (!layer<Tag, X>::found)
        return no_metadata{};
    else if constexpr (std::is_same_v<typename X::tag_type, Tag>)
        return (x.meta);
    else
        return detail::metadata_by<Tag>(x.value);
}

// Every tag removed: what comparisons and branches look at.
template <class X>
constexpr decltype(auto) primal(X const& x) {
    if constexpr (is_tagged_value<X>)
        return detail::primal(x.value);
    else
        return (x);
}

}  // namespace detail

template <class X, class Ctx>
using untag_t = typename detail::layer<tag_of<Ctx>, std::remove_cvref_t<X>>::untagged;
template <class X, class Ctx>
using metadata_t = typename detail::layer<tag_of<Ctx>, std::remove_cvref_t<X>>::metadata;

// x tagged with respect to ctx's tag, with metadata m (value-initialised if omitted).
template <class X, class Ctx, class M>
constexpr auto tag(X const& x, Ctx const&, M const& m) {
    return tagged<tag_of<Ctx>, X, M>(x, m);
}
template <class X, class Ctx>
constexpr auto tag(X const& x, Ctx const& ctx) {
    return cassette::tag(x, ctx, no_metadata{});
}

// x without ctx's layer (x itself if ctx has not tagged it).
template <class X, class Ctx>
constexpr decltype(auto) untag(X const& x, Ctx const&) {
    return detail::untag_by<tag_of<Ctx>>(x);
}

template <class X, class Ctx>
constexpr decltype(auto) metadata(X const& x, Ctx const&) {
    if constexpr (detail::is_structured<metadata_t<X, Ctx>>)
        return no_metadata{};  // only its fields or elements carry some
    else
        return detail::metadata_by<tag_of<Ctx>>(x);
}

template <class X, class Ctx>
constexpr bool is_tagged(X const&, Ctx const&) noexcept {
    return detail::layer<tag_of<Ctx>, X>::found;
}

template <class X, class Ctx>
constexpr bool has_metadata(X const& x, Ctx const& ctx) noexcept {
    return !std::is_same_v<std::remove_cvref_t<decltype(cassette::metadata(x, ctx))>, no_metadata>;
}

namespace detail {

// The primitives that carry metadata through with no context code (op::primitive_base):
// indexing and field access hand out the element's or field's metadata, make<T> gathers its
// arguments' metadata field by field, and length and comparisons look through every tag.
template <class G>
inline constexpr bool propagates_tags = false;
template <class G>  // not by the concept primitive, whose convertibility test costs Clang 16 0.2% of cse
    requires std::is_base_of<op::primitive_base, G>::value
inline constexpr bool propagates_tags<G> = G::sees_through_tags;

// A part of a tagged whole: tagged with its metadata, or plain if it has none.
template <class Tag, class T, class M>
constexpr auto part(T const& value, M const& meta) {
    if constexpr (std::is_same_v<M, no_metadata>)
        return value;
    else
        return tagged<Tag, T, M>(value, meta);
}

template <class T>
inline constexpr bool is_std_array = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array<std::array<T, N>> = true;

// Tangents wider than 32 bytes are loaded again for each x[i] (see hide_from_optimizer).
template <class M, class I>
CASSETTE_INLINE constexpr void reload_each_time(I& index) {
    if constexpr (sizeof(M) > 32) detail::hide_from_optimizer(index);
}

template <class Tag>
struct propagation;

// x[i] and get<I>(x) on a whole that other contexts may still tag: each layer hands out
// its part's metadata in turn.
template <class Whole, class Index>
constexpr auto element_of(Whole const& whole, Index const& i) {
    if constexpr (is_tagged_value<Whole>)
        return propagation<typename Whole::tag_type>::apply(op::getindex, whole, i);
    else
        return whole[i];
}
template <std::size_t I, class Whole>
constexpr auto field_of(Whole const& whole) {
    if constexpr (is_tagged_value<Whole>)
        return propagation<typename Whole::tag_type>::apply(op::get<I>, whole);
    else
        return op::get_t<I>::apply(whole);
}

// The first tag among xs, if any: make<T> is rebuilt layer by layer.
template <class... X>
struct first_tag {
    using type = void;
};
template <class X, class... Rest>
struct first_tag<X, Rest...> : first_tag<Rest...> {};
template <class Tag, class T, class M, class... Rest>
struct first_tag<tagged<Tag, T, M>, Rest...> {
    using type = Tag;
};

// The tag-propagating implementations of the primitives above, for values tagged by Tag.
template <class Tag>
struct propagation {
    template <class G, class... X>
    static constexpr auto apply(G const& g, X const&... xs) -> decltype(g(detail::primal(xs)...)) {
        return g(detail::primal(xs)...);  // length and comparisons
    }

    template <class X, class I>
    static constexpr auto apply(op::getindex_t, X const& x, I const& i) {
        auto index = detail::primal(i);
        auto const& meta = detail::metadata_by<Tag>(x);
        if constexpr (is_structured<std::remove_cvref_t<decltype(meta)>>)
            detail::reload_each_time<decltype(meta.of[index])>(index);
        auto element = detail::element_of(detail::untag_by<Tag>(x), index);
        if constexpr (is_structured<std::remove_cvref_t<decltype(meta)>>)
            return detail::part<Tag>(element, meta.of[index]);
        else
            return element;
    }

    template <std::size_t I, class P>
    static constexpr auto apply(op::get_t<I>, P const& p) {
        auto const& meta = detail::metadata_by<Tag>(p);
        using meta_type = std::remove_cvref_t<decltype(meta)>;
        auto field = detail::field_of<I>(detail::untag_by<Tag>(p));
        if constexpr (!is_structured<meta_type>)
            return field;
        else if constexpr (requires { std::get<I>(meta.of); })
            return detail::part<Tag>(field, std::get<I>(meta.of));
        else
            return detail::part<Tag>(field, meta.of[I]);
    }

    template <class T, class... X>
    static constexpr auto apply(op::make_t<T>, X const&... xs) {
        auto value = make_value<T>(detail::untag_by<Tag>(xs)...);
        if constexpr (is_std_array<T>) {
            // One metadata type for all elements: the tagged arguments' common one, which the
            // plain arguments' elements take value-initialised, as a plain value converted to a
            // tagged one does.
            using M = boost::mp11::mp_apply<
                std::common_type_t,
                boost::mp11::mp_remove<boost::mp11::mp_list<std::remove_cvref_t<decltype(detail::metadata_by<Tag>(xs))>...>,
                                       no_metadata>>;
            using all = std::array<M, sizeof...(X)>;
            return tagged<Tag, decltype(value), elements<all>>(value, elements(all{element_metadata<M>(xs)...}));
        } else {
            using all = fields<std::remove_cvref_t<decltype(detail::metadata_by<Tag>(xs))>...>;
            return tagged<Tag, decltype(value), all>(value, all(detail::metadata_by<Tag>(xs)...));
        }
    }

private:
    template <class M, class X>
    static constexpr M element_metadata(X const& x) {
        if constexpr (layer<Tag, X>::found)
            return M(detail::metadata_by<Tag>(x));
        else
            return M{};
    }

    template <class T, class... X>
    static constexpr auto make_value(X const&... xs) {
        using next = typename first_tag<X...>::type;
        if constexpr (std::is_void_v<next>)
            return T{xs...};
        else
            return propagation<next>::apply(op::make<T>, xs...);
    }
};

}  // namespace detail

// The primitives that carry metadata with no context code (get, make, getindex, length,
// comparisons): a context's catch-all rule usually leaves them to the engine.
template <class G>
concept structural_primitive = detail::propagates_tags<std::remove_cvref_t<G>>;

// Whether x carries ctx's tag at any depth, as a compile-time trait.
template <class X, class Ctx>
inline constexpr bool tagged_by = detail::layer<tag_of<Ctx>, std::remove_cvref_t<X>>::found;

}  // namespace cassette

// The common type of a tagged value and a plain one is tagged: an if_ whose branches differ
// only by a tag, or an accumulator initialised with a plain value.
template <class Tag, class T, class M, class U>
    requires(!cassette::detail::is_tagged_value<U> && requires { typename std::common_type<T, U>::type; })
struct std::common_type<cassette::tagged<Tag, T, M>, U> {
    using type = cassette::tagged<Tag, std::common_type_t<T, U>, M>;
};
template <class U, class Tag, class T, class M>
    requires(!cassette::detail::is_tagged_value<U> && requires { typename std::common_type<T, U>::type; })
struct std::common_type<U, cassette::tagged<Tag, T, M>> {
    using type = cassette::tagged<Tag, std::common_type_t<T, U>, M>;
};
// Two values tagged by the same tag: their values' and their metadata's common types.
template <class Tag, class T, class M, class U, class N>
    requires requires {
        typename std::common_type<T, U>::type;
        typename std::common_type<M, N>::type;
    }
struct std::common_type<cassette::tagged<Tag, T, M>, cassette::tagged<Tag, U, N>> {
    using type = cassette::tagged<Tag, std::common_type_t<T, U>, std::common_type_t<M, N>>;
};
template <class... M, class... N>
    requires(sizeof...(M) == sizeof...(N) && requires { typename cassette::fields<std::common_type_t<M, N>...>; })
struct std::common_type<cassette::fields<M...>, cassette::fields<N...>> {
    using type = cassette::fields<std::common_type_t<M, N>...>;
};
template <class M, class N, std::size_t Size>
    requires requires { typename std::common_type<M, N>::type; }
struct std::common_type<cassette::elements<std::array<M, Size>>, cassette::elements<std::array<N, Size>>> {
    using type = cassette::elements<std::array<std::common_type_t<M, N>, Size>>;
};

#pragma GCC diagnostic pop
