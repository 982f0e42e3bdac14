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

namespace detail {

// Ids of the variables CSE introduces, distinct from any lambda's closure type: numbered, not
// named by the subtrees they hold, because every evaluator function is named with its frame,
// which spells the Id of each enclosing form. Each region numbers its form above any number
// it already uses (region_facts: cse_numbers), so a variable never shadows one still in use.
template <std::size_t K>
struct cse_variable {};

}  // namespace detail

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
template <std::size_t K>
struct type_hash<cse_variable<K>> : hash_constant<detail::combine({3, K})> {};

// One more than the number of a CSE variable (0 for any other node).
template <class N>
struct cse_number : cassette::detail::size_constant<0> {};
template <std::size_t K, std::size_t I>
struct cse_number<ir::var<cse_variable<K>, I>> : cassette::detail::size_constant<K + 1> {};

// What CSE asks of every node of a region, worked out bottom up in one class per node (six
// classes per node before, one per question: Clang 16's cse on 1,600 calls spent a tenth of its
// time on them): its region's calls in evaluation order (the callee's, each argument's, then
// the call itself; a special form is a region of its own, and lists none), its number of nodes
// (a special form counts one), its hash (type_hash), whether a call in it is impure, one more
// than the largest number of a CSE variable in it (0 if none), whether it has a special form,
// and whether it has a constant (same-typed trees then can differ). A special form's last four
// are its children's, which cse asks again of each of them as a region: the answers are shared.
template <class N>
struct region_facts {  // a leaf, or a callee that is not an expression
    using calls = boost::mp11::mp_list<>;
    using count = cassette::detail::size_constant<1>;
    using hash = type_hash<N>;
    using impure = cassette::detail::false_type;
    using cse_numbers = cse_number<N>;
    using forms = cassette::detail::false_type;
    using constants = ir::is_constant_node<N>;
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
    using cse_numbers = cassette::detail::size_constant<cassette::detail::max_of(region_facts<C>::cse_numbers::value...)>;
    using forms = cassette::detail::true_type;
    using constants = cassette::detail::bool_constant<(region_facts<C>::constants::value || ...)>;
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
    using cse_numbers = cassette::detail::size_constant<cassette::detail::max_of(region_facts<F>::cse_numbers::value,
                                                                                 region_facts<A>::cse_numbers::value...)>;
    using forms = cassette::detail::bool_constant<region_facts<F>::forms::value || (region_facts<A>::forms::value || ...)>;
    using constants = cassette::detail::bool_constant<region_facts<F>::constants::value || (region_facts<A>::constants::value || ...)>;
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
    std::array<bool, N> reads{};         // whether its value holds another bound type, and reads it
    std::size_t count = 0;
};

// The subtrees CSE binds: the largest pure call type calling no self that occurs at least twice
// in the region, then the largest that still does once its occurrences but the first are gone
// (the first stays, as the value, so a subtree it shares with the rest is bound too), and so on
// (ties: the first to occur); listed by first occurrence, the last first. Types are told apart
// by their hash, in one constant evaluation: comparing them as types would instantiate a trait
// for every pair. Two types with one hash could only cost a binding, never change a result: the rewrite
// replaces the bound type's occurrences, matched as types, and a value bound and read once is
// still the value. Linear in the region's calls, in the steps Clang's constant evaluator counts
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
        bool counted[n]{};       // an occurrence the rewrite meets: in a first occurrence, not in any other
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
                counted[i] = true;
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

        // Listed by first occurrence, the last first, each with whether it holds a bound type
        // where the rewrite meets one (a value holds only types whose first occurrence is earlier).
        bool bound_first[n]{};  // the first occurrence of a bound type
        for (std::size_t b = 0; b != chosen.count; ++b) bound_first[chosen.index[b]] = true;
        std::size_t bound_before[n + 1]{};  // how many occurrences of bound types the rewrite meets before each call
        for (std::size_t k = 0; k != n; ++k) bound_before[k + 1] = bound_before[k] + (counted[k] && bound_first[first[k]]);
        chosen.count = 0;
        for (std::size_t i = n; i-- != 0;) {
            if (!bound_first[i]) continue;
            chosen.reads[chosen.count] = bound_before[i] != bound_before[i + 1 - calls[i]];
            chosen.index[chosen.count++] = i;
        }
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
    template <std::size_t... K>
    static auto pick_reads(std::index_sequence<K...>) -> std::integer_sequence<bool, chosen.reads[K]...>;
    using type = decltype(pick(std::make_index_sequence<chosen.count>{}));
    using reads = decltype(pick_reads(std::make_index_sequence<chosen.count>{}));  // whether each one's value reads another
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

// Whether a node not bound itself is kept whole: a form (its children are regions of their
// own), a leaf, or a call smaller than every bound type, which holds none (unless its callee is
// an expression).
template <class N, class Bound>
concept kept_whole = !cassette::detail::is(ir::node_kind_of<N>::value, ir::node_kind::call) ||
                     (!ir::expression<decltype(N::fn)> && region_facts<N>::count::value <= smallest<Bound>::value);

// What a subtree's evaluation gives in a frame, as a value.
template <class N, class Fr>
using value_type_in = std::remove_cvref_t<decltype(std::declval<Fr const&>().eval(std::declval<N const&>()))>;

// An occurrence of a bound type that holds constants: a use of var<Id, K> if its constants
// are those the bound value was computed from, else its own expression, evaluated outside the
// form that binds Id, where the bound values are, so that the compiler instantiates its
// evaluation once, for the value's.
template <class Id, std::size_t K, class S>
struct shared_or_own : ir::symbolic<shared_or_own<Id, K, S>> {
    bool shared;
    S own;
    static constexpr std::string_view name = "shared";

    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return fn(own);
    }
    template <class O>
    constexpr auto with_children(O const& o) const {
        return shared_or_own<Id, K, O>{{}, shared, o};
    }

    template <class Lister>
    auto list(Lister& l) const {
        return shared ? l.operand(ir::var<Id, K>{}) : l.operand(own);
    }

    template <class Fr>
    constexpr auto evaluate(Fr const& fr) const -> std::remove_cvref_t<decltype(fr.eval(ir::var<Id, K>{}))> {
        if (shared) return fr.eval(ir::var<Id, K>{});
        return fr.template outside<Id>().eval(own);
    }
};

// The top-down rule (see ir::transform) that replaces each occurrence of a bound type S with a
// use of the variable bound to its value, the value of the first occurrence seen, which it
// records (a copy: a deep body's stages are rewritten from copies). A class rather than a
// lambda in cse_region, whose type would name the whole region in every function the walk
// instantiates. An occurrence inside a larger one replaced is gone with it.
template <class Bound, std::size_t Number>
struct uses_of;
template <class... S, std::size_t Number>
struct uses_of<boost::mp11::mp_list<S...>, Number> {
    using bound = boost::mp11::mp_list<S...>;
    cassette::detail::tuple<cassette::detail::made_once<S>...>& first;

    // Any other node is walked into: a viable overload says so, where an overload resolution
    // that failed would have Clang write out why (see ir::descend).
    template <class N>
    ir::descend before(N const&) const;  // only named in decltype

    template <class N>
        requires(bound_in<N, bound> || kept_whole<N, bound>)
    constexpr auto before(N const& s) const {
        if constexpr (!bound_in<N, bound>) {
            return s;  // kept whole
        } else {
            constexpr std::size_t k = decltype(detail::position_in<cassette::detail::made_once<N>>(first))::value;
            cassette::detail::made_once<N>& f = static_cast<cassette::detail::leaf<k, cassette::detail::made_once<N>>&>(first).value;
            f.make(s);
            // The values are evaluated in the order of their first occurrences: the reverse.
            constexpr std::size_t slot = sizeof...(S) - 1 - k;
            if constexpr (region_facts<N>::constants::value)
                return shared_or_own<cse_variable<Number>, slot, N>{{}, ir::equal(s, f.value), s};
            else
                return ir::var<cse_variable<Number>, slot>{};
        }
    }
};

// The frame a value is evaluated in: outside the form, or inside, where the values before it are.
template <bool Outside, class Fr, class Inside>
constexpr auto const& frame_for(Fr const& outside, Inside const& inside) {
    if constexpr (Outside)
        return outside;
    else
        return inside;
}

// The values CSE binds in one region, in the order of their first occurrences, then the
// region's body, with the i-th bound to var<cse_variable<K>, i>: one form for all of a region's
// bindings. With a let per binding, the evaluator instantiated each value in a frame of its
// own, and every node of the body in a frame that spelled each binding's Id and type. A value
// may read those before it: each is made in turn, in storage the form's frame reads from the
// start, so each has the type of the subtree it replaces (in Originals) evaluated outside the
// form. A value that reads none is that subtree itself, and is evaluated there too, as an
// occurrence that is not shared is (shared_or_own): both are then one instantiation.
template <std::size_t K, class Body, class Originals, class... S>
struct shared_values : ir::symbolic<shared_values<K, Body, Originals, S...>> {
    cassette::detail::tuple<S...> values;
    Body body;
    static constexpr std::string_view name = "let";

    template <class Fn>
    constexpr decltype(auto) visit_children(Fn&& fn) const {
        return boost::hana::unpack(values, [&](S const&... v) -> decltype(auto) { return fn(v..., body); });
    }
    template <class... C>
    constexpr auto with_children(C const&... c) const {
        cassette::detail::tuple<C const&...> const all{{c}...};
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            using children = boost::mp11::mp_list<C...>;
            return shared_values<K, boost::mp11::mp_back<children>, Originals, boost::mp11::mp_at_c<children, I>...>{
                {}, {{cassette::detail::get<I>(all)}...}, cassette::detail::get<sizeof...(S)>(all)};
        }(std::index_sequence_for<S...>{});
    }

    // Listed as lets are: each value's statements, then the body reading them.
    template <class Lister>
    auto list(Lister& l) const {
        return l.template with_values<cse_variable<K>>(values, [&] { return l.operand(body); });
    }

    template <class Fr>
    constexpr auto evaluate(Fr const& fr) const {
        [[maybe_unused]] auto const form = fr.region(region_kind::let);
        return evaluate_each(fr, Originals{}, std::index_sequence_for<S...>{});
    }
    template <class Fr, class... O, std::size_t... I>
    constexpr auto evaluate_each(Fr const& fr, boost::mp11::mp_list<O...>, std::index_sequence<I...>) const {
        cassette::detail::tuple<cassette::detail::value_storage<value_type_in<O, Fr>>...> slots{};
        auto const inside = fr.template bind<cse_variable<K>>(slots);
        (cassette::detail::get<I>(slots).make(detail::frame_for<std::is_same_v<S, O>>(fr, inside).eval(cassette::detail::get<I>(values))), ...);
        return inside.eval(body);
    }
};

// A bound type's value: its first occurrence, with the bound types in it read from their
// values where it has any (Reads).
template <bool Reads, class S, class Rule>
constexpr auto value_from(S const& first, Rule const& rule) {
    if constexpr (Reads)
        return ir::map_children(first, [&](auto const& child) { return ir::transform(child, rule); });
    else
        return first;
}

// Binds each repeated subtree (choose_bindings) once at the region's root, in one walk, then
// rewrites the values, the last to occur first: a value's rewrite records the bound types met
// only inside it, which occur earlier. Same-typed subtrees are the same expression unless their
// constants differ: such an occurrence keeps its own expression (shared_or_own).
template <class R, class... S, std::size_t... I, bool... Reads>
constexpr auto bind_region(R const& region, boost::mp11::mp_list<S...>, std::index_sequence<I...>, std::integer_sequence<bool, Reads...>) {
    if constexpr (sizeof...(S) == 0) {
        return region;
    } else {
        using bound = boost::mp11::mp_list<S...>;
        constexpr std::size_t number = region_facts<R>::cse_numbers::value;
        cassette::detail::tuple<cassette::detail::made_once<S>...> first{};
        uses_of<bound, number> const rule{first};
        auto const uses = ir::transform(region, rule);
        cassette::detail::tuple<decltype(detail::value_from<Reads>(cassette::detail::get<I>(first).value, rule))...> const values{
            {detail::value_from<Reads>(cassette::detail::get<I>(first).value, rule)}...};
        constexpr std::size_t last = sizeof...(S) - 1;
        return shared_values<number, std::remove_const_t<decltype(uses)>, boost::mp11::mp_reverse<bound>,
                             std::remove_cvref_t<decltype(cassette::detail::get<last - I>(values))>...>{
            {}, {{cassette::detail::get<last - I>(values)}...}, uses};
    }
}

template <class R>
constexpr auto cse_region(R const& region) {
    // The region's facts asked of its staged calls first (cassette::detail::call_height).
    static_assert(cassette::detail::stage_for<region_facts, R>::value);
    using bound = bound_types<typename region_facts<R>::calls>;
    return detail::bind_region(region, typename bound::type{}, std::make_index_sequence<boost::mp11::mp_size<typename bound::type>::value>{},
                               typename bound::reads{});
}

}  // namespace detail

// Common-subexpression elimination: in each region (the body outside special forms, and each
// child of a special form), a pure subtree that occurs twice or more is evaluated once, at
// the start of the region, and its uses read the value. Hooks then see one call instead of
// several, earlier than before. Valid for pure callees only (see is_pure).
struct cse_t {
    struct rule {
        template <class N>
            requires ir::special_form_of<N>::value
        constexpr auto operator()(N const& n) const {
            return ir::map_children(n, [](auto const& child) { return detail::cse_region(child); });
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
