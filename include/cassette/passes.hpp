// SPDX-License-Identifier: BSL-1.0
// Ready passes: constexpr function objects mapping a body to a new body, for a context's
// `static constexpr auto pass = ...;`.
#pragma once

#include <cassette/detail/slot.hpp>
#include <cassette/detail/type_name.hpp>
#include <cassette/function.hpp>
#include <cassette/transform.hpp>

#include <boost/hana/at.hpp>
#include <boost/hana/unpack.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <utility>

namespace cassette::passes {

// Every call to `from` becomes a call to `to`, with the same arguments. Callees of an empty
// type are matched by type; callees with state (function pointers, lambdas with captures)
// by value, through an if_ decided at compile time: `from` is a value, not a type.
template <class From, class To>
constexpr auto replace(From const& from, To const& to) {
    static_assert(std::is_empty_v<From> || std::equality_comparable<From>,
                  "cassette::passes::replace(from, to): `from` carries state but cannot be compared "
                  "with ==, so the pass cannot tell its calls from calls to other objects of its type. "
                  "Give the callee an operator==, or pass a function pointer or a stateless object.");
    return [=](auto const& body) {  // `from` is read only when it carries state
        return ir::transform(body, [&]<class... A>(ir::call<From, A...> const& c) {
            auto replaced = boost::hana::unpack(c.args, [&](auto const&... args) { return ir::make_call(to, args...); });
            if constexpr (std::is_empty_v<From>)
                return replaced;
            else
                return ir::conditional<ir::constant<bool>, decltype(replaced), ir::call<From, A...>>{
                    {}, ir::constant<bool>(c.fn == from), replaced, c};
        });
    };
}

namespace detail {
template <class Body>
constexpr auto apply_in_order(Body const& body) {
    return body;
}
template <class Body, class P, class... Rest>
constexpr auto apply_in_order(Body const& body, P const& p, Rest const&... rest) {
    return detail::apply_in_order(p(body), rest...);
}
}  // namespace detail

// p1 first, then p2, ...
template <class... P>
constexpr auto compose(P const&... p) {
    return [p...](auto const& body) { return detail::apply_in_order(body, p...); };
}

// The callees fold_constants evaluates at compile time: the primitives computed as constant
// expressions on every compiler (op::computation: the operators, min, max, square).
// Specialise it for your own constexpr callables.
template <class F>
inline constexpr bool constant_foldable = op::computed_by<F> == op::computation::constant_expression;

// A call whose arguments are all constants becomes the constant it computes.
struct fold_constants_t {
    struct rule {
        template <class F, class T, class... Ts>
            requires constant_foldable<F>
        constexpr auto operator()(ir::call<F, ir::constant<T>, ir::constant<Ts>...> const& c) const {
            return boost::hana::unpack(c.args, [&](auto const&... k) { return c.fn(k.value...); });
        }
    };

    template <class Body>
    constexpr auto operator()(Body const& body) const {
        return ir::transform(body, rule{});
    }
};
inline constexpr fold_constants_t fold_constants{};

// pow(x, 2) to square(x): x * x in pow's result type, with no call to pow. The exponent is a
// value, not a type, so the rewrite is a decided if_: `if_(constant true/false, square, pow)`,
// whose dead branch the evaluator never takes and the optimiser removes; listings show the
// live one. pow(x, 0.5) is left alone: sqrt(x) differs from it at -0 and -inf.
struct strength_reduction_t {
    struct rule {
        template <class X, class E>
        constexpr auto operator()(ir::call<op::pow_t, X, ir::constant<E>> const& c) const {
            auto const squared = op::square(boost::hana::at_c<0>(c.args));
            return ir::conditional<ir::constant<bool>, decltype(squared), ir::call<op::pow_t, X, ir::constant<E>>>{
                {}, ir::constant<bool>(boost::hana::at_c<1>(c.args).value == 2), squared, c};
        }
    };

    template <class Body>
    constexpr auto operator()(Body const& body) const {
        return ir::transform(body, rule{});
    }
};
inline constexpr strength_reduction_t strength_reduction{};

// Purity, as common-subexpression elimination assumes it: the same arguments give the same
// result, and evaluating the call once instead of twice changes nothing the program relies
// on. Built-in primitives are taken as pure; calls through a higher-order parameter and
// other callables are not, unless specialised to true. A traced function is pure when its
// body is (for the number of arguments of the call), whatever this trait says of it; a self
// call is pure so that a recursive body can be, though cse never binds one (choose_bindings).
template <class F>
inline constexpr bool is_pure = cassette::primitive<F> || std::is_same_v<F, ir::self_t>;

namespace detail {

template <class Call, class... Lists>
struct calls_then {
    using type = boost::mp11::mp_append<Lists..., boost::mp11::mp_list<Call>>;
};
// A unary and a binary call's by pattern: mp_append deduces eleven lists each time (GCC 12,
// cse on 1,600 calls: 145 MB of the compiler's allocations).
template <class Call, class... X, class... Y>
struct calls_then<Call, boost::mp11::mp_list<X...>, boost::mp11::mp_list<Y...>> {
    using type = boost::mp11::mp_list<X..., Y..., Call>;
};
template <class Call, class... X, class... Y, class... Z>
struct calls_then<Call, boost::mp11::mp_list<X...>, boost::mp11::mp_list<Y...>, boost::mp11::mp_list<Z...>> {
    using type = boost::mp11::mp_list<X..., Y..., Z..., Call>;
};

// A hash of a type's structure, by which choose_bindings tells calls apart. A call's is its
// region_facts' hash, its parts each mixed in whole by SplitMix64's finaliser, not byte by
// byte: every call computes one, and eight rounds of FNV-1a per part cost Clang 16's constant
// evaluator 0.26 of cse's 15.7 billion instructions on 800 calls (GCC 12: 0.17 of 14.1).
constexpr std::uint64_t combine(std::initializer_list<std::uint64_t> parts) {
    std::uint64_t h = 0xcbf29ce484222325u;
    for (std::uint64_t part : parts) {
        h ^= part;
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
        h ^= h >> 31;
    }
    return h;
}
constexpr std::uint64_t hash_text(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325u;  // FNV-1a
    for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3u;
    return h;
}
// An enumerator, not std::integral_constant's static data member: every node's hash is a class
// of its own, and an integral_constant costs Clang 16 its members and, at each use, its `value`
// handed to code generation again (cse's pass on 800 calls: 3% of Clang's instructions).
template <std::uint64_t H>
struct hash_constant {
    enum : std::uint64_t { value = H };
};
template <class T>
struct type_hash : hash_constant<detail::hash_text(cassette::detail::type_name<T>())> {};
template <std::size_t I>
struct type_hash<ir::param<I>> : hash_constant<detail::combine({1, I})> {};
template <class Id, std::size_t K>
struct type_hash<ir::var<Id, K>> : hash_constant<detail::combine({2, type_hash<Id>::value, K})> {};

// What CSE asks of every node of a region, worked out bottom up in one class per node (six
// classes per node before, one per question: Clang 16's cse on 1,600 calls spent a tenth of its
// time on them): its region's calls in evaluation order (the callee's, each argument's, then
// the call itself; a special form is a region of its own, and lists none), its number of nodes
// (a special form counts one), its hash (type_hash), whether a call in it is impure, whether it
// has a special form, and whether it has state: a constant, a special form, a callee or other
// leaf with members or with no default value (same-typed trees can then differ, or the type has
// no value of its own; a tree without state is its type's default value). A special form's
// impurity is its children's, which cse asks again of each of them as a region: the answers
// are shared.
template <class N>
struct stateless_leaf : cassette::detail::bool_constant<std::is_empty_v<N> && std::is_default_constructible_v<N>> {};
template <std::size_t I>
struct stateless_leaf<ir::param<I>> : cassette::detail::true_type {};
template <class Id, std::size_t K>
struct stateless_leaf<ir::var<Id, K>> : cassette::detail::true_type {};
template <class N>
struct region_facts {  // a leaf, or a callee that is not an expression
    using calls = boost::mp11::mp_list<>;
    using count = cassette::detail::size_constant<1>;
    using hash = type_hash<N>;
    using impure = cassette::detail::false_type;
    using forms = cassette::detail::false_type;
    using state = cassette::detail::bool_constant<!stateless_leaf<N>::value>;
};

// A special form's, from its children's, each staged as a body of its own (call_height counts
// the form as a leaf).
template <class N, class Children>
struct form_facts;
template <class N, class... C>
struct form_facts<N, boost::mp11::mp_list<C...>> {
    static_assert((true && ... && cassette::detail::stage_for<region_facts, C>::value));
    using calls = boost::mp11::mp_list<>;
    using count = cassette::detail::size_constant<1>;
    using hash = type_hash<N>;
    using impure = cassette::detail::bool_constant<(region_facts<C>::impure::value || ...)>;
    using forms = cassette::detail::true_type;
    using state = cassette::detail::true_type;
};
template <ir::form_node N>
struct region_facts<N> : form_facts<N, ir::children_of<N>> {};

template <class F, std::size_t Arity>
constexpr bool pure_callee();
template <class F, class... A>
struct region_facts<ir::call<F, A...>> {
    using calls = typename calls_then<ir::call<F, A...>, typename region_facts<F>::calls, typename region_facts<A>::calls...>::type;
    using count = cassette::detail::size_constant<1 + (region_facts<A>::count::value + ... + 0)>;
    using hash = hash_constant<detail::combine({4, region_facts<F>::hash::value, region_facts<A>::hash::value...})>;
    using impure = cassette::detail::bool_constant<!detail::pure_callee<F, sizeof...(A)>() || region_facts<F>::impure::value ||
                                                   (region_facts<A>::impure::value || ...)>;
    using forms = cassette::detail::bool_constant<region_facts<F>::forms::value || (region_facts<A>::forms::value || ...)>;
    using state = cassette::detail::bool_constant<region_facts<F>::state::value || (region_facts<A>::state::value || ...)>;
};

template <class F, std::size_t Arity>
constexpr bool pure_callee() {
    if constexpr (traced_function<F>)
        return !region_facts<typename F::template body_type<Arity>>::impure::value;  // a tree with no impure call
    else
        return is_pure<F>;
}

template <std::size_t N>
struct bindings {
    std::array<std::size_t, N> index{};  // into the region's calls: each binding's first occurrence
    std::size_t count = 0;
};

// The subtrees CSE binds: the largest pure call type calling no self that occurs at least twice
// in the region, then the largest that still does once its occurrences but the first are gone
// (the first stays, as the value, so a subtree it shares with the rest is bound too), and so on
// (ties: the first to occur); listed by first occurrence. Types are told apart
// by their hash, in one constant evaluation: comparing them as types would instantiate a trait
// for every pair. Two types with one hash could only cost a binding, never change a result: a
// bound type whose hash a call of another type has is not held (collision). Linear in the
// region's calls, in the steps Clang's constant evaluator counts
// (at most 2^20): a counting sort by size, and a table of the types seen, by hash. In built-in
// arrays: both constant evaluators call std::array's operator[] as a function, and in
// std::arrays the choice cost twice (Clang 16) and four times (GCC 12) the instructions it
// costs now (800 calls: 0.42 and 0.58 billion, against 0.19 and 0.14, for running it alone).
template <class... T>
constexpr auto choose_bindings(boost::mp11::mp_list<T...>) {
    constexpr std::size_t n = sizeof...(T);
    bindings<n> chosen;
    if constexpr (n != 0) {
        constexpr std::uint64_t hash[] = {region_facts<T>::hash::value...};
        constexpr std::size_t size[] = {region_facts<T>::count::value...};
        constexpr std::size_t calls[] = {ir::call_count_of<T>::value...};  // each one's span in its region's calls
        // Pure, and calling no self: a self call's value has the enclosing function's result
        // type, still being worked out while the region is evaluated.
        constexpr bool bindable[] = {(!region_facts<T>::impure::value && !cassette::detail::call_height<T>::calls_self::value)...};
        constexpr std::size_t largest = cassette::detail::max_of(region_facts<T>::count::value...);

        // The bindable calls by decreasing size, in order of occurrence within a size.
        std::size_t next_of[largest + 2]{};  // next_of[s]: where the next call of size s goes
        for (std::size_t i = 0; i != n; ++i) next_of[size[i]] += bindable[i];
        std::size_t candidates = 0;
        for (std::size_t s = largest + 1; s-- != 0;) {
            std::size_t const count = next_of[s];
            next_of[s] = candidates;
            candidates += count;
        }
        std::size_t order[n]{};
        for (std::size_t i = 0; i != n; ++i)
            if (bindable[i]) order[next_of[size[i]]++] = i;

        bool covered[n]{};  // inside an occurrence already bound
        constexpr std::size_t slots = 2 * n;
        std::size_t table[slots]{};  // open addressing by hash: a call of each type seen
        for (std::size_t& slot : table) slot = n;
        std::size_t first[n]{};  // the first uncovered occurrence of each call's type
        std::size_t occurrences[n]{};
        // Same-typed calls have the same size, and binding a type removes only smaller calls.
        for (std::size_t group = 0, end = 0; group != candidates; group = end) {
            while (end != candidates && size[order[end]] == size[order[group]]) ++end;
            for (std::size_t p = group; p != end; ++p) {
                std::size_t const i = order[p];
                if (covered[i]) continue;
                std::size_t h = hash[i] % slots;
                while (table[h] != n && hash[table[h]] != hash[i]) h = (h + 1) % slots;
                if (table[h] == n) table[h] = i;
                first[i] = table[h];
                ++occurrences[table[h]];
            }
            for (std::size_t p = group; p != end; ++p) {
                std::size_t const i = order[p];
                if (!covered[i] && first[i] == i && occurrences[i] >= 2) chosen.index[chosen.count++] = i;
            }
            // Every occurrence but the first is gone; the first's subtree stays, as the value.
            for (std::size_t p = group; p != end; ++p) {
                std::size_t const j = order[p];
                if (!covered[j] && first[j] != j && occurrences[first[j]] >= 2)
                    for (std::size_t k = j + 1 - calls[j]; k != j + 1; ++k) covered[k] = true;
            }
        }

        // Listed by first occurrence: in evaluation order, so a bound type's value is made after
        // those of the bound types it holds.
        bool bound_first[n]{};
        for (std::size_t b = 0; b != chosen.count; ++b) bound_first[chosen.index[b]] = true;
        chosen.count = 0;
        for (std::size_t i = 0; i != n; ++i)
            if (bound_first[i]) chosen.index[chosen.count++] = i;
    }
    return chosen;
}

// A constant of its own, computed once per region type (and not again inside the pass, where
// Clang would count it against its constant-evaluation step limit).
template <class Calls>
inline constexpr auto bindings_in = detail::choose_bindings(Calls{});

// A class deriving from one indexed_type<I, T> per type of a list: the I-th type is deduced
// from it (type_at<I>), where Boost.Mp11's mp_at_c, without the built-in GCC 12 lacks, builds
// a map and searches it per lookup (GCC 12, cse on 1,600 calls: 130 MB of the compiler's
// allocations and 0.4 s).
template <std::size_t I, class T>
struct indexed_type {};
template <class Indices, class... T>
struct indexed_types;
template <std::size_t... I, class... T>
struct indexed_types<std::index_sequence<I...>, T...> : indexed_type<I, T>... {};
template <std::size_t I, class T>
T type_at(indexed_type<I, T> const*);  // only named in decltype

// The types choose_bindings picked, in the order they are bound.
template <class Calls>
struct bound_types;
template <class... T>
struct bound_types<boost::mp11::mp_list<T...>> {
    static constexpr auto const& chosen = bindings_in<boost::mp11::mp_list<T...>>;
    using all = indexed_types<std::index_sequence_for<T...>, T...> const*;
    template <std::size_t... K>
    static auto pick(std::index_sequence<K...>)
        -> boost::mp11::mp_list<decltype(detail::type_at<chosen.index[K]>(all{}))...>;
    using type = decltype(pick(std::make_index_sequence<chosen.count>{}));
};

// The size of the smallest type in a list.
template <class List>
struct smallest;
template <class... S>
struct smallest<boost::mp11::mp_list<S...>> : cassette::detail::size_constant<cassette::detail::min_of(region_facts<S>::count::value...)> {};

// The position of the element of type T in a tuple of distinct types, deduced from the base
// that holds it: mp_find compares T with every element type, once per bound type in cse.
template <class T, std::size_t I>
std::integral_constant<std::size_t, I> position_in(cassette::detail::leaf<I, T> const&);  // only named in decltype

// The bound types as bases of one class: whether a node is bound is whether its leaf is a base,
// asked by overload resolution, which instantiates no trait per node (as mp_set_contains does).
// Not by a requires-expression over a cast: Clang 16 writes out the message of each requirement
// that fails, here both classes' names, every bound type spelled in full (cse's pass on 800
// calls: 6% of Clang's instructions).
template <class S>
struct bound_leaf {};
template <class Bound>
struct bound_set;
template <class... S>
struct bound_set<boost::mp11::mp_list<S...>> : bound_leaf<S>... {};
template <class N>
cassette::detail::true_type is_bound(bound_leaf<N> const*);  // only named in decltype
template <class N>
cassette::detail::false_type is_bound(void const*);
template <class N, class Bound>
concept bound_in = decltype(detail::is_bound<N>(static_cast<bound_set<Bound> const*>(nullptr)))::value;

// Whether a node not bound itself holds no sought type (those with state: needs_occurrence): a
// form (its children are regions of their own), a leaf, a call without state, or a call smaller
// than every bound type (unless its callee is an expression).
template <class N, class Bound>
concept holds_none = !cassette::detail::is(ir::node_kind_of<N>::value, ir::node_kind::call) || !region_facts<N>::state::value ||
                     (!ir::expression<decltype(N::fn)> && region_facts<N>::count::value <= smallest<Bound>::value);

// A bound type needs an occurrence to make its value from if same-typed trees can differ, or
// if it has no default value to stand for all of them: both are state (stateless_leaf).
template <class S>
struct needs_occurrence : region_facts<S>::state {};

// Records the first occurrence of each bound type that needs one (Sought...) in a walk of the
// region that descends only into calls that may hold one. A deep body's staged calls are each
// walked on their own (Top), lowest first, so that the walk stays within the constant
// evaluator's depth: not in evaluation order, where any occurrence would do.
template <class Sought>
struct first_occurrences;
template <class... S>
struct first_occurrences<boost::mp11::mp_list<S...>> {
    using sought = boost::mp11::mp_list<S...>;
    cassette::detail::tuple<cassette::detail::made_once<S>...>& first;

    template <bool Top, class N>
    constexpr void walk(N const& n) const {
        if constexpr (bound_in<N, sought>) {
            constexpr std::size_t k = decltype(detail::position_in<cassette::detail::made_once<N>>(first))::value;
            static_cast<cassette::detail::leaf<k, cassette::detail::made_once<N>>&>(first).value.make(n);
        }
        if constexpr (!holds_none<N, sought> && (Top || !ir::detail::is_staged<N>::value)) {
            if constexpr (ir::expression<decltype(n.fn)>) walk<false>(n.fn);
            walk_arguments(n.args);
        }
    }
    template <std::size_t... I, class... A>
    constexpr void walk_arguments(cassette::detail::tuple_impl<std::index_sequence<I...>, A...> const& args) const {
        (walk<false>(static_cast<cassette::detail::leaf<I, A> const&>(args).value), ...);
    }

    template <class R, class... Staged>
    constexpr void walk_region(R const& region, boost::mp11::mp_list<Staged...> staged) const {
        auto const where = ir::detail::locate_staged(region, staged);
        [&]<std::size_t... K>(std::index_sequence<K...>) {
            (walk<true>(*cassette::detail::get<K>(where)), ...);
        }(std::index_sequence_for<Staged...>{});
        if constexpr (!ir::detail::is_staged<R>::value) walk<true>(region);
    }
    template <class R>
    constexpr void walk_region(R const& region, boost::mp11::mp_list<>) const {
        walk<true>(region);
    }
};

// Every call in a tree, special forms' children included.
template <class N>
struct all_calls;
template <class N>
using all_calls_t = typename all_calls<N>::type;
template <class N>
struct all_calls {
    using type = boost::mp11::mp_list<>;
};
template <ir::form_node N>
struct all_calls<N> {
    using type = boost::mp11::mp_flatten<boost::mp11::mp_transform<all_calls_t, ir::children_of<N>>>;
};
template <class F, class... A>
struct all_calls<ir::call<F, A...>> {
    using type = typename calls_then<ir::call<F, A...>, typename all_calls<F>::type, typename all_calls<A>::type...>::type;
};

// Where the value of a call is held: its bound type's slot, found by the type's hash, and
// whether an occurrence is compared with the one the value was made from. A class per hash and
// slot that the form's frame types name: naming the bound types themselves would spell each of
// them in the name of every function evaluated in the region. No other call of the region has
// a bound type's hash (collision), and each special form's children are regions of their own
// (own_region), so the hash names the type wherever it is asked.
template <std::uint64_t H, std::size_t Slot, bool Compares>
struct hash_slot {};
inline constexpr std::size_t no_slot = std::size_t(-1);
template <class... H>
struct hash_slots : H... {};
template <std::size_t Slot, bool Compares>
struct slot_found {
    enum : std::size_t { slot = Slot };
    enum : bool { compares = Compares };
};
template <std::uint64_t H, std::size_t Slot, bool Compares>
slot_found<Slot, Compares> slot_of_hash(hash_slot<H, Slot, Compares> const*);  // only named in decltype
template <std::uint64_t H>
slot_found<no_slot, false> slot_of_hash(void const*);
template <class Slots, class N>
struct slot_in : decltype(detail::slot_of_hash<region_facts<N>::hash::value>(static_cast<Slots const*>(nullptr))) {};

// The slot of a bound type whose hash a call of the region of another type has, if any (else
// no_slot): that call would read the bound type's value.
template <class Slots, class Bound, class T, std::size_t Slot = slot_in<Slots, T>::slot>
struct names_its_slot : cassette::detail::bool_constant<std::is_same_v<T, decltype(detail::type_at<Slot>(Bound{}))>> {};
template <class Slots, class Bound, class T>
struct names_its_slot<Slots, Bound, T, no_slot> : cassette::detail::true_type {};
template <class Slots, class Bound, class... T>
constexpr std::size_t collision(boost::mp11::mp_list<T...>) {
    // Arrays, not folds: Clang nests a fold no deeper than 256.
    bool const named[] = {true, names_its_slot<Slots, Bound, T>::value...};
    std::size_t const slot[] = {no_slot, slot_in<Slots, T>::slot...};
    for (std::size_t i = 0; i != sizeof...(T) + 1; ++i)
        if (!named[i]) return slot[i];
    return no_slot;
}

// The slots of bound types S..., in order, and the types themselves indexed (for type_at).
template <class Indices, class... S>
struct slots_for;
template <std::size_t... I, class... S>
struct slots_for<std::index_sequence<I...>, S...> {
    using type = hash_slots<hash_slot<region_facts<S>::hash::value, I, region_facts<S>::state::value>...>;
    using bound = indexed_types<std::index_sequence<I...>, S...> const*;
};
template <class... S>
using slots_of = slots_for<std::index_sequence_for<S...>, S...>;
// The slot of the first of S... whose hash a call among Calls of another type has, or no_slot.
template <class Calls, class... S>
inline constexpr std::size_t taken_among = detail::collision<typename slots_of<S...>::type, typename slots_of<S...>::bound>(Calls{});

// What a region's frame reads its held values from: each bound type's value, and the
// occurrence it was made from. Reached by pointers to a base, so that the frame's type names
// neither the values' types (worked out in that frame) nor the bound types.
template <std::size_t Count>
struct held_state {
    cassette::detail::slot_base const* values[Count];
    ir::node_base const* made_from[Count];
};

// The Id a region's frame binds its held values with (see cassette::detail::sharing_of).
template <class Slots>
struct held_by_cse {
    using holds_values = void;
    template <class N>
    using holds = cassette::detail::bool_constant<slot_in<Slots, N>::slot != no_slot>;

    // An occurrence whose constants or callees differ from those its bound type's value was
    // made from is computed as that value was, by the same instantiation.
    template <class N, class Fr>
    CASSETTE_INLINE static constexpr decltype(auto) read(N const& n, Fr const& fr) {
        using found = slot_in<Slots, N>;
        using value_type = std::remove_cvref_t<typename cassette::detail::computed_result<N, typename cassette::detail::early_frame<Fr>::type>::type>;
        auto const& held = fr.template values_of<held_by_cse>();
        auto const& value =
            cassette::detail::held_value(static_cast<cassette::detail::value_storage<value_type> const&>(*held.values[found::slot]));
        if constexpr (!found::compares) {
            return value;
        } else {
            if (ir::equal(n, static_cast<N const&>(*held.made_from[found::slot]))) return value_type(value);
            return value_type(cassette::detail::engine::make(n, fr));
        }
    }
};

template <class B, class... V>
constexpr auto hold_rewritten(B const& body, cassette::detail::tuple<V...> const& rewritten_then_as_made);

// A region's body with the values of its bound types S... (each made, in order, from an
// occurrence: made_from), which its evaluation makes first and then reads wherever it meets
// one of those types. The body is the region's as written: rewriting it instead, to read each
// value through a variable, made a type for every call above a bound one, and evaluated that.
template <class Body, class Slots, class... S>
struct held_values : ir::symbolic<held_values<Body, Slots, S...>> {
    Body body;
    cassette::detail::tuple<S...> made_from;
    static constexpr std::string_view name = "let";

    // The body, then the values' occurrences: a pass run after cse rewrites both.
    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return [&]<std::size_t... I>(std::index_sequence<I...>) -> decltype(auto) {
            return fn(body, cassette::detail::get<I>(made_from)...);
        }(std::index_sequence_for<S...>{});
    }
    // A body another pass has changed reads the values as the pass rewrote them wherever it
    // holds their types, in a special form the pass made too (strength_reduction's decided if_):
    // see rewritten_order.
    template <class B, class... M>
    constexpr auto with_children(B const& b, M const&... m) const {
        if constexpr (std::is_same_v<B, Body> && std::is_same_v<boost::mp11::mp_list<M...>, boost::mp11::mp_list<S...>>)
            return held_values<B, Slots, S...>{{}, b, {{m}...}};
        else
            return [&]<std::size_t... I>(std::index_sequence<I...>) {
                return detail::hold_rewritten(b, cassette::detail::tuple<M..., S...>{{m}..., {cassette::detail::get<I>(made_from)}...});
            }(std::index_sequence_for<S...>{});
    }

    // Listed as a let is: each value's statements, then the body reading them.
    template <class Lister>
    auto list(Lister& l) const {
        return l.with_held(made_from, [&] { return l.operand(body); });
    }

    // The values are made in order, each reading those made before it; then the body reads them.
    template <class Fr>
    constexpr auto evaluate(Fr const& fr) const {
        [[maybe_unused]] auto const form = fr.region(region_kind::let);
        held_state<sizeof...(S)> held{};
        auto const inside = fr.template bind<held_by_cse<Slots>>(held);
        using inside_frame = typename cassette::detail::early_frame<std::remove_const_t<decltype(inside)>>::type;  // as read names it
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            cassette::detail::tuple<cassette::detail::value_storage<
                std::remove_cvref_t<typename cassette::detail::computed_result<S, inside_frame>::type>>...>
                values{};
            ((held.values[I] = &cassette::detail::get<I>(values), held.made_from[I] = &cassette::detail::get<I>(made_from)), ...);
            (cassette::detail::get<I>(values).make(cassette::detail::engine::make(cassette::detail::get<I>(made_from), inside)), ...);
            return inside.eval(body);
        }(std::index_sequence_for<S...>{});
    }
};

// A special form's child that holds no value of its own: a region all the same, in which the
// values of the region around the form are not read.
struct own_region_id {};
template <class Body>
struct own_region : ir::symbolic<own_region<Body>> {
    Body body;
    static constexpr std::string_view name = "region";

    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return fn(body);
    }
    template <class B>
    constexpr auto with_children(B const& b) const {
        return own_region<B>{{}, b};
    }

    template <class Lister>
    auto list(Lister& l) const {
        return l.without_held([&] { return l.operand(body); });
    }

    // What the body gives, a reference too: the frame binds nothing it could refer to.
    template <class Fr>
    constexpr decltype(auto) evaluate(Fr const& fr) const {
        cassette::detail::tuple<> const none{};
        return fr.template bind<own_region_id>(none).eval(body);
    }
};

template <class N>
inline constexpr bool cse_output = false;
template <class Body, class Slots, class... S>
inline constexpr bool cse_output<held_values<Body, Slots, S...>> = true;
template <class Body>
inline constexpr bool cse_output<own_region<Body>> = true;

// A bound type's occurrence to make its value from: the first one, if it needs one, else its
// default value.
template <class S, class First>
constexpr S made_from(First const& first) {
    if constexpr (needs_occurrence<S>::value)
        return cassette::detail::get<decltype(detail::position_in<cassette::detail::made_once<S>>(first))::value>(first).value;
    else
        return S{};
}

template <class Slots, class R, class... Sought, class... S>
constexpr auto hold_from(R const& region, boost::mp11::mp_list<Sought...>, boost::mp11::mp_list<S...>) {
    cassette::detail::tuple<cassette::detail::made_once<Sought>...> first{};
    if constexpr (sizeof...(Sought) != 0)
        first_occurrences<boost::mp11::mp_list<Sought...>>{first}.walk_region(region, typename cassette::detail::staged_calls<R>::type{});
    return held_values<R, Slots, S...>{{}, region, {{detail::made_from<S>(first)}...}};
}

// Holds the values of a region's repeated subtrees (choose_bindings), but any whose hash another
// call of the region has: a collision costs a value, not a result.
template <class R, class... S>
constexpr auto hold_values(R const& region, boost::mp11::mp_list<S...> bound) {
    if constexpr (sizeof...(S) == 0) {
        return region;
    } else if constexpr (constexpr std::size_t taken = taken_among<typename region_facts<R>::calls, S...>; taken == no_slot) {
        return detail::hold_from<typename slots_of<S...>::type>(
            region, boost::mp11::mp_copy_if<decltype(bound), needs_occurrence>{}, bound);
    } else {
        return detail::hold_values(region, boost::mp11::mp_erase_c<decltype(bound), taken, taken + 1>{});
    }
}

// The values a pass run after cse rewrote (the first half of V...), for the body it rewrote
// (its calls, at any depth: Calls), each held while the body has calls of its type: each that
// is still a call; else the value as cse made it (the second half: strength_reduction turns
// pow(x, 0.5) into an if_ whose live branch calls it; the evaluator reads no form's value).
// A value's calls are then the body's too, which the hashes are checked against. Each type once,
// fewest calls at any depth first, so that each value reads only values made before it: a value
// holds more calls than any it contains, in a form the pass made too (where it is read: a node
// count, which counts a form as one, once made a value that read one not yet made).
template <class Calls, class... V>
consteval auto rewritten_order() {
    constexpr std::size_t n = sizeof...(V) / 2;
    bool const call[] = {cassette::detail::is(ir::node_kind_of<V>::value, ir::node_kind::call)...};
    bool const occurs[] = {boost::mp11::mp_contains<Calls, V>::value...};
    std::uint64_t const hash[] = {region_facts<V>::hash::value...};
    std::size_t const size[] = {boost::mp11::mp_size<typename all_calls<V>::type>::value...};
    bindings<n> kept;
    for (std::size_t k = 0; k != n; ++k) {
        std::size_t const i = call[k] ? k : n + k;
        bool first = call[i] && occurs[i];
        for (std::size_t j = 0; j != kept.count; ++j) first = first && hash[kept.index[j]] != hash[i];
        if (!first) continue;
        std::size_t at = kept.count++;
        for (; at != 0 && size[kept.index[at - 1]] > size[i]; --at) kept.index[at] = kept.index[at - 1];
        kept.index[at] = i;
    }
    return kept;
}
// Holds the values K... of those rewritten for a body, but any whose hash a call of the body of
// another type has, at any depth: the pass may have put calls into forms of its own, which read
// the values too.
template <class B, class... M, std::size_t... K>
constexpr auto hold_kept(B const& body, cassette::detail::tuple<M...> const& values, boost::mp11::mp_list<boost::mp11::mp_size_t<K>...> kept) {
    using all = indexed_types<std::index_sequence_for<M...>, M...> const*;
    if constexpr (sizeof...(K) == 0) {
        return body;
    } else if constexpr (constexpr std::size_t taken = taken_among<typename all_calls<B>::type, decltype(detail::type_at<K>(all{}))...>;
                         taken == no_slot) {
        using slots = typename slots_of<decltype(detail::type_at<K>(all{}))...>::type;
        return held_values<B, slots, decltype(detail::type_at<K>(all{}))...>{{}, body, {{cassette::detail::get<K>(values)}...}};
    } else {
        return detail::hold_kept(body, values, boost::mp11::mp_erase_c<decltype(kept), taken, taken + 1>{});
    }
}
template <class B, class... V>
constexpr auto hold_rewritten(B const& body, cassette::detail::tuple<V...> const& values) {
    constexpr auto kept = detail::rewritten_order<typename all_calls<B>::type, V...>();
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
        return detail::hold_kept(body, values, boost::mp11::mp_list<boost::mp11::mp_size_t<kept.index[J]>...>{});
    }(std::make_index_sequence<kept.count>{});
}

template <class R>
constexpr auto cse_region(R const& region) {
    // The region's facts asked of its staged calls first (cassette::detail::call_height).
    static_assert(cassette::detail::stage_for<region_facts, R>::value);
    using bound = typename bound_types<typename region_facts<R>::calls>::type;
    return detail::hold_values(region, bound{});
}

// A special form's child, a region of its own: own_region if it has calls but holds no value.
template <class R>
constexpr auto form_region(R const& child) {
    if constexpr (cse_output<R> || boost::mp11::mp_empty<typename region_facts<R>::calls>::value) {
        return child;
    } else {
        auto const region = detail::cse_region(child);
        if constexpr (cse_output<std::remove_const_t<decltype(region)>>)
            return region;
        else
            return own_region<R>{{}, child};
    }
}

}  // namespace detail

// Common-subexpression elimination: in each region (the body outside special forms, and each
// child of a special form), a pure subtree that occurs twice or more is evaluated once, at
// the start of the region, and its uses read the value. Hooks then see one call instead of
// several, earlier than before. Valid for pure callees only (see is_pure).
struct cse_t {
    struct rule {
        template <class N>
            requires(ir::special_form_of<N>::value && !detail::cse_output<N>)
        constexpr auto operator()(N const& n) const {
            return ir::map_children(n, [](auto const& child) { return detail::form_region(child); });
        }
    };

    template <class Body>
    constexpr auto operator()(Body const& body) const {
        static_assert(cassette::detail::stage_for<detail::region_facts, Body>::value);  // see cse_region
        if constexpr (detail::region_facts<Body>::forms::value)
            return detail::cse_region(ir::transform(body, rule{}));
        else
            return detail::cse_region(body);  // a walk that would change nothing, not taken
    }
};
inline constexpr cse_t cse{};


}  // namespace cassette::passes
