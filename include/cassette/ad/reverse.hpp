// SPDX-License-Identifier: BSL-1.0
// Reverse-mode automatic differentiation: a context that tags every value depending on the
// input with its slot on a tape it owns, records the local partial derivatives of each call
// (the forward rules, seeded one argument at a time), and sweeps the tape backwards.
#pragma once

#include <cassette/ad/adjoint.hpp>
#include <cassette/ad/forward.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace cassette::ad {

// The tag of reverse differentiation under Parent: distinct from forward's, so forward over
// reverse (hvp) keeps the two apart.
template <class Parent>
struct reverse_tag {};

namespace detail {

// A value's place on a tape. Slot 0 collects what flows into constants: a plain value
// converted to a tagged one (a branch, an accumulator, a field of make<T>) gets it.
struct slot {
    std::uint32_t index = 0;
    friend constexpr bool operator==(slot, slot) = default;
};

template <class Partial>
struct term {
    slot from;
    Partial partial;
    friend constexpr bool operator==(term const&, term const&) = default;
};

// How many terms a value may carry before it takes a slot of its own: an expression's worth
// (a Rosenbrock term has three, an energy function nine), and few enough that the number of
// combination types, hence of instantiations of each call, stays small.
inline constexpr std::size_t max_terms = 8;

}  // namespace detail

template <class Partial>
class basic_tape;

namespace detail {

// A value computed from slotted values but not on the tape itself: d value / d slot for each
// slot it was computed from (a slot reached twice appears twice; the sweep adds both). Calls
// combine their arguments' terms, so an expression costs an edge per occurrence of a slotted
// value in it, not one per call. It takes a slot (recording its terms as edges) when it has to:
// converted to a slot (an accumulator, a branch's common type), or past max_terms.
template <class Partial, std::size_t K>
struct combination {
    basic_tape<Partial>* tape = nullptr;  // null: a constant's, all terms zero
    std::array<term<Partial>, K> terms{};
    // Implicit: the evaluator converts values where their types meet (an accumulator, a
    // branch), and that is where this value must take a slot.
    operator slot() const { return tape ? tape->record(terms) : slot{}; }
    friend constexpr bool operator==(combination const&, combination const&) = default;
};

template <class M>
inline constexpr bool is_combination = false;
template <class Partial, std::size_t K>
inline constexpr bool is_combination<combination<Partial, K>> = true;

// M with a slot for each combination: what a value brings into a traced function's body.
template <class M>
struct slotted {
    using type = M;
};
template <class Partial, std::size_t K>
struct slotted<combination<Partial, K>> {
    using type = slot;
};
template <class... M>
struct slotted<fields<M...>> {
    using type = fields<typename slotted<M>::type...>;
};
template <class M, std::size_t N>
struct slotted<elements<std::array<M, N>>> {
    using type = elements<std::array<typename slotted<M>::type, N>>;
};

template <class M>
inline constexpr std::size_t terms_in = 1;  // a slot
template <class Partial, std::size_t K>
inline constexpr std::size_t terms_in<combination<Partial, K>> = K;

}  // namespace detail

// The record of one evaluation: edges (from, to, d to / d from) into each value that took a
// slot, and the adjoints of the last sweep. Partial is double, or a value tagged by an
// enclosing forward context (forward over reverse). Its buffers keep their capacity from one
// evaluation to the next, so a tape kept by the caller allocates only while it grows.
template <class Partial>
class basic_tape {
public:
    // Forgets the last evaluation (keeping the buffers).
    void clear() noexcept {
        slots_ = 0;
        used_ = 0;
        room_ = edges_.size();
    }
    // The values that took a slot (each input leaf, and what had to), and the edges into them.
    std::size_t values() const noexcept { return slots_; }
    std::size_t edges() const noexcept { return used_; }

    detail::slot new_slot() noexcept { return {++slots_}; }

    // A new slot for a value with these terms.
    template <std::size_t K>
    CASSETTE_INLINE detail::slot record(std::array<detail::term<Partial>, K> const& terms) {
        detail::slot const to = new_slot();
        if (room_ < K) [[unlikely]]
            grow(K);
        edge* const out = edges_.data() + used_;
        [&]<std::size_t... k>(std::index_sequence<k...>) CASSETTE_INLINE_LAMBDA {
            ((out[k] = {terms[k].from, to, terms[k].partial}), ...);
        }(std::make_index_sequence<K>{});
        used_ += K;
        room_ -= K;
        return to;
    }

    // The adjoints of every slot for the output in slot `seed`, accumulated in the parent's
    // arithmetic. Sweeping the same record again (a Jacobian's next row) starts from zero again.
    template <class Arithmetic>
    std::vector<Partial> const& sweep(detail::slot seed, Arithmetic const& p) {
        adjoints_.assign(slots_ + 1, Partial(0.0));
        adjoints_[seed.index] = Partial(1.0);
        for (edge const* e = edges_.data() + used_; e != edges_.data();) {
            --e;
            adjoints_[e->from.index] =
                Partial(p(op::add, adjoints_[e->from.index], p(op::mul, e->partial, adjoints_[e->to.index])));
        }
        return adjoints_;
    }

private:
    struct edge {
        detail::slot from, to;
        Partial partial;
    };
    void grow(std::size_t k) {
        edges_.resize(cassette::detail::max_of(2 * edges_.size(), used_ + k, std::size_t{64}));
        room_ = edges_.size() - used_;
    }

    std::vector<edge> edges_;  // [0, used_) recorded
    std::size_t used_ = 0;
    std::size_t room_ = 0;  // edges_.size() - used_, kept rather than computed per record
    std::uint32_t slots_ = 0;  // slot 0 is constants'
    std::vector<Partial> adjoints_;
};

using tape = basic_tape<double>;

// The context of one reverse differentiation: values that depend on the input carry their
// slot, or the terms they are made of; a call combines its arguments' terms, each times the
// call's partial derivative with respect to that argument.
template <class Parent, class Partial>
struct reverse_context : detail::differentiation<Parent, reverse_tag<Parent>> {
    using base = detail::differentiation<Parent, reverse_tag<Parent>>;
    template <class X>
    static constexpr bool carries = base::template carries<X>;
    basic_tape<Partial>& tape;

    constexpr reverse_context(Parent& p, basic_tape<Partial>& t) noexcept : base(p), tape(t) {}

    // The rule with argument I seeded (a unit tangent; zero for the others and for constants):
    // its value and d result / d argument I.
    template <std::size_t I, class G, class... X>
    CASSETTE_INLINE constexpr auto seeded(X const&... xs) const {
        return [&]<std::size_t... J>(std::index_sequence<J...>) CASSETTE_INLINE_LAMBDA {
            return rule<G>::apply(detail::arithmetic<Parent>{this->parent},
                                  detail::seeded_dual<I == J && carries<X>>(cassette::untag(xs, *this))...);
        }(std::index_sequence_for<X...>{});
    }

    // d result / d argument I: zero if the argument carries no slot.
    template <std::size_t I, class G, class... X>
    static consteval auto partial_type() {
        if constexpr (carries<std::tuple_element_t<I, std::tuple<X...>>>)
            return std::type_identity<decltype(std::declval<reverse_context const&>()
                                                   .template seeded<I, G>(std::declval<X const&>()...)
                                                   .d)>{};
        else
            return std::type_identity<zero>{};
    }
    template <std::size_t I, class G, class... X>
    using partial_t = typename decltype(partial_type<I, G, X...>())::type;

    // Which arguments reach the result, and where each one's terms go among the result's.
    template <class G, class... X>
    struct partials {
        template <std::size_t I>
        static constexpr bool reaches = !detail::is_zero<partial_t<I, G, X...>>;
        template <std::size_t I>
        static constexpr std::size_t terms =
            reaches<I> ? detail::terms_in<std::remove_cvref_t<decltype(cassette::detail::metadata_by<tag_of<reverse_context>>(
                             std::declval<std::tuple_element_t<I, std::tuple<X...>> const&>()))>>
                       : 0;
        static constexpr std::array<std::size_t, sizeof...(X) + 1> offset = [] {
            return []<std::size_t... I>(std::index_sequence<I...>) {
                std::array<std::size_t, sizeof...(X) + 1> o{};
                std::size_t const counts[] = {terms<I>...};
                for (std::size_t k = 0; k != sizeof...(X); ++k) o[k + 1] = o[k] + counts[k];
                return o;
            }(std::index_sequence_for<X...>{});
        }();
        static constexpr std::size_t total = offset[sizeof...(X)];
    };

    // A traced function's body receives values with terms as slotted values: it is then
    // instantiated for slots only, however many terms the caller's values had (a recursion
    // would otherwise instantiate it anew for each).
    template <class X>
    CASSETTE_INLINE constexpr decltype(auto) enter(X const& x) const {
        using M = metadata_t<X, reverse_context>;
        if constexpr (!std::is_same_v<typename detail::slotted<M>::type, M>)
            return enter_slotted(x);
        else
            return (x);
    }
    template <class X>
    static auto enter_slotted(X const& x) {
        if constexpr (std::is_same_v<typename X::tag_type, typename base::tag_type>)
            return tagged<typename base::tag_type, typename X::value_type,
                          typename detail::slotted<typename X::metadata_type>::type>(x);
        else  // under another context's tag (forward over reverse): its layer rebuilt around
            return tagged<typename X::tag_type, decltype(enter_slotted(x.value)), typename X::metadata_type>(
                enter_slotted(x.value), x.meta);
    }

    template <class G, class... X>
        requires has_rule<G> && (carries<X> || ...)
    CASSETTE_INLINE constexpr auto overdub(G const&, X const&... xs) const {
        constexpr bool carrier[] = {carries<X>...};
        constexpr std::size_t first = [&] {
            std::size_t i = 0;
            while (!carrier[i]) ++i;
            return i;
        }();
        using reached = partials<G, X...>;
        // The value and the first partial from one evaluation of the rule (libm is not
        // called twice for a unary primitive).
        auto const r = seeded<first, G>(xs...);
        if constexpr (reached::total == 0) {
            return r.v;
        } else {
            cassette::detail::tuple<X const&...> const args{{xs}...};
            std::array<detail::term<Partial>, reached::total> terms;
            auto const add_terms = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) CASSETTE_INLINE_LAMBDA {
                if constexpr (reached::template reaches<K>) {
                    Partial const p = [&] {
                        if constexpr (K == first)
                            return Partial(r.d);
                        else
                            return Partial(seeded<K, G>(xs...).d);
                    }();
                    auto const& meta = cassette::detail::metadata_by<typename base::tag_type>(cassette::detail::get<K>(args));
                    constexpr std::size_t at = reached::offset[K];
                    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(meta)>, detail::slot>)
                        terms[at] = {meta, p};
                    else
                        [&]<std::size_t... j>(std::index_sequence<j...>) CASSETTE_INLINE_LAMBDA {
                            ((terms[at + j] = {meta.terms[j].from, Partial(detail::arithmetic<Parent>{this->parent}(
                                                                       op::mul, p, meta.terms[j].partial))}),
                             ...);
                        }(std::make_index_sequence<reached::template terms<K>>{});
                }
            };
            [&]<std::size_t... I>(std::index_sequence<I...>) CASSETTE_INLINE_LAMBDA {
                (add_terms(std::integral_constant<std::size_t, I>{}), ...);
            }(std::index_sequence_for<X...>{});
            using value_type = std::remove_cvref_t<decltype(r.v)>;
            if constexpr (reached::total > detail::max_terms)
                return tagged<typename base::tag_type, value_type, detail::slot>(r.v, tape.record(terms));
            else
                return tagged<typename base::tag_type, value_type, detail::combination<Partial, reached::total>>(
                    r.v, {&tape, terms});
        }
    }
};

// Reverse mode is chosen by passing ad::reverse after x (a tape made for the call), or
// ad::reverse(t) (the caller's tape t, whose buffers the next call reuses).
template <class Partial>
struct on_tape {
    basic_tape<Partial>& tape;
};
struct reverse_t {
    constexpr on_tape<double> operator()(tape& t) const noexcept { return {t}; }
};
inline constexpr reverse_t reverse{};

// Forces the static adjoint (a compile error for a body that needs the tape).
struct static_adjoint_t {};
inline constexpr static_adjoint_t static_adjoint{};

template <class M>
concept reverse_mode =
    std::is_same_v<M, reverse_t> || std::is_same_v<M, on_tape<double>> || std::is_same_v<M, static_adjoint_t>;

namespace detail {

template <class Fn>
auto with_tape(reverse_t, Fn const& fn) {
    tape t;
    return fn(t);
}
template <class Fn>
auto with_tape(static_adjoint_t, Fn const& fn) {  // jacobian: rows by sweeps of a tape
    return detail::with_tape(reverse_t{}, fn);
}
template <class Fn>
auto with_tape(on_tape<double> mode, Fn const& fn) {
    return fn(mode.tape);
}

// The metadata of an input of x's shape: a slot per leaf.
template <class T>
struct slots_of {
    using type = slot;
};
template <class T, std::size_t N>
struct slots_of<std::array<T, N>> {
    using type = elements<std::array<typename slots_of<T>::type, N>>;
};
template <class T, class A>
struct slots_of<std::vector<T, A>> {
    using type = elements<std::vector<typename slots_of<T>::type>>;
};
template <class T>
    requires std::is_aggregate_v<T> && (!cassette::detail::is_std_array<T>)
struct slots_of<T> {
    using type = decltype([]<std::size_t... I>(std::index_sequence<I...>) {
        return fields<typename slots_of<boost::pfr::tuple_element_t<I, T>>::type...>{};
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{}));
};

// fn(m, leaf) for every leaf of x and the part m of x's metadata that belongs to it.
template <class M, class T, class Fn>
void for_each_leaf_metadata(M& m, T const& x, Fn const& fn) {
    if constexpr (leaf<T>) {
        fn(m, x);
    } else if constexpr (is_vector<T>) {
        m.of.resize(x.size());
        for (std::size_t k = 0; k != x.size(); ++k) detail::for_each_leaf_metadata(m.of[k], x[k], fn);
    } else if constexpr (sequence<T>) {
        for (std::size_t k = 0; k != x.size(); ++k) detail::for_each_leaf_metadata(m.of[k], x[k], fn);
    } else {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (detail::for_each_leaf_metadata(std::get<I>(m.of), boost::pfr::get<I>(x), fn), ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    }
}

// `value` (x, or x tagged by an enclosing context) with a new slot for each leaf of `shape`, in
// order: slots 1 .. n of a cleared tape.
template <class Ctx, class V, class X>
auto with_slots(Ctx const& ctx, V const& value, X const& shape) {
    ctx.tape.clear();
    tagged<tag_of<Ctx>, V, typename slots_of<X>::type> input(value);
    detail::for_each_leaf_metadata(input.meta, shape, [&](slot& s, auto const&) { s = ctx.tape.new_slot(); });
    return input;
}

// The slots of the leaves of f's result y, in order; slot 0 for a leaf that does not depend on x.
template <class Tag, class V, class M>
void result_slots(V const& value, M const& meta, std::vector<slot>& out) {
    if constexpr (std::is_same_v<M, slot> || is_combination<M>)
        out.push_back(meta);
    else if constexpr (std::is_same_v<M, no_metadata>)
        out.insert(out.end(), detail::leaves(value), slot{});
    else if constexpr (sequence<V>)
        for (std::size_t k = 0; k != value.size(); ++k) detail::result_slots<Tag>(value[k], meta.of[k], out);
    else
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (detail::result_slots<Tag>(boost::pfr::get<I>(value), std::get<I>(meta.of), out), ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<V>>{});
}

template <class Y, class Ctx>
slot scalar_slot(Y const& y, Ctx const& ctx) {
    using value_type = std::remove_cvref_t<decltype(cassette::untag(y, ctx))>;
    static_assert(std::is_arithmetic_v<primal_t<value_type>>,
                  "cassette::ad::gradient(f, x, ad::reverse): f returns an array, a vector or an aggregate (the "
                  "value_type in this instantiation), not a number; its derivatives are a matrix: use "
                  "cassette::ad::jacobian(f, x, ad::reverse).");
    if constexpr (std::is_arithmetic_v<primal_t<value_type>> && cassette::detail::layer<tag_of<Ctx>, Y>::found)
        return cassette::detail::metadata_by<tag_of<Ctx>>(y);
    else
        return slot{};  // f does not depend on x (or the error above)
}

// Adjoints of slots 1 .. n into the leaves of a copy of x, each through `part` (the value, or
// its tangent under forward over reverse).
template <class X, class Partial, class Part>
X gradient_of(X const& x, std::vector<Partial> const& adjoints, Part const& part) {
    X g = x;
    std::size_t k = 1;
    detail::for_each_leaf(g, [&](auto& leaf) { leaf = std::remove_cvref_t<decltype(leaf)>(part(adjoints[k++])); });
    return g;
}

// f run at x in a reverse context that records on the mode's tape; then(y, ctx) reads the
// result y (and sweeps the tape).
template <class Mode, class F, class X, class Then, class... R>
auto recorded(Mode mode, F const& f, X const& x, Then const& then, R const&... rest) {
    auto const tf = detail::as_traced(f);
    return detail::with_tape(mode, [&](tape& t) {
        null_context none;
        reverse_context<null_context, double> ctx{none, t};
        return then(cassette::overdub(ctx, tf, detail::with_slots(ctx, x, x), rest...), ctx);
    });
}

}  // namespace detail

namespace detail {

// WithSelf: as ad::static_adjoint allows (self calls too), else as ad::reverse chooses.
template <class F, std::size_t Arity, bool WithSelf>
inline constexpr bool has_static_adjoint =
    static_adjoint_ok<std::remove_cvref_t<decltype(F::template body<Arity>)>, WithSelf>();

// The static adjoint: f's value by the evaluator, then the sweep from the result back to x.
// WithValue: also f's value (gradient alone does not evaluate f forwards at all).
template <bool WithValue, class F, class X, class... R>
auto static_value_and_gradient(F const&, X const& x, R const&... rest) {
    using args_type = cassette::detail::tuple<X const&, R const&...>;
    args_type const args{{x}, {rest}...};
    auto const& body = F::template body<1 + sizeof...(R)>;
    detail::enter_recursion<F, X, R...>();
    using value_type = decltype(F{}(x, rest...));
    static_assert(std::is_arithmetic_v<value_type>,
                  "cassette::ad::gradient(f, x, ad::reverse): f returns an array, a vector or an aggregate (the "
                  "value_type in this instantiation), not a number; its derivatives are a matrix: use "
                  "cassette::ad::jacobian(f, x, ad::reverse).");
    std::conditional_t<WithValue, value_type, nothing> value{};
    if constexpr (WithValue) value = F{}(x, rest...);
    X g = detail::zero_like(x);
    [[maybe_unused]] inactive data;  // rest... is not differentiated
    using params_type = cassette::detail::tuple<X&, std::conditional_t<true, inactive, R>&...>;
    params_type const params{{g}, {(void(rest), data)}...};
    auto const recomputing = cassette::body_frame(recomputing_view{recomputation_instance}, F{}, args);
    detail::sweep(body, 1.0, sweep_frame<std::remove_const_t<decltype(recomputing)>, params_type, no_adjoints>{recomputing, params, {}});
    detail::for_each_leaf(g, [](auto& leaf) { leaf = detail::signless_zero(leaf); });
    if constexpr (WithValue)
        return value_and_gradient_result<decltype(value), X>{value, g};
    else
        return g;  // not copied out of a result
}

}  // namespace detail

namespace detail {
template <bool WithValue, class F, class X, class Mode, class... R>
auto taped_value_and_gradient(F const& f, X const& x, Mode mode, R const&... rest) {
    auto const then = [&](auto const& y, auto& ctx) {
        auto const& adjoints = ctx.tape.sweep(detail::scalar_slot(y, ctx), detail::arithmetic<null_context>{ctx.parent});
        auto const signless = [](double a) { return detail::signless_zero(a); };
        using value_type = std::remove_cvref_t<decltype(cassette::untag(y, ctx))>;
        if constexpr (WithValue)
            return value_and_gradient_result<value_type, X>{cassette::untag(y, ctx),
                                                            detail::gradient_of(x, adjoints, signless)};
        else
            return detail::gradient_of(x, adjoints, signless);
    };
    return detail::recorded(mode, f, x, then, rest...);
}
}  // namespace detail

namespace detail {

// Reverse mode: generated at compile time from the body where its structure allows
// (static_adjoint_ok), else one evaluation recording a tape and one sweep back;
// ad::reverse(tape) always records, ad::static_adjoint never does. The value and the
// gradient, or (WithValue false) the gradient alone.
template <bool WithValue, class F, class X, class Mode, class... R>
auto reverse_gradient(F const& f, X const& x, Mode mode, R const&... rest) {
    static_assert(detail::differentiable_input<X>());
    using traced = std::remove_cvref_t<decltype(detail::as_traced(f))>;
    constexpr bool forced = std::is_same_v<Mode, static_adjoint_t>;
    constexpr bool can_be_static = detail::has_static_adjoint<traced, 1 + sizeof...(R), forced>;
    static_assert(can_be_static || !forced,
                  "cassette::ad::static_adjoint: f's body needs a tape (it calls a higher-order "
                  "callee, make<T> or a callable without a derivative rule, indexes a computed value, "
                  "or its fold uses the accumulator other than by + and -); use ad::reverse.");
    if constexpr (!std::is_same_v<Mode, on_tape<double>> && can_be_static)
        return detail::static_value_and_gradient<WithValue>(detail::as_traced(f), x, rest...);
    else
        return detail::taped_value_and_gradient<WithValue>(f, x, mode, rest...);
}

}  // namespace detail

// The value of f at x and its gradient by reverse mode.
template <class F, class X, reverse_mode Mode, class... R>
auto value_and_gradient(F const& f, X const& x, Mode mode, R const&... rest) {
    return detail::reverse_gradient<true>(f, x, mode, rest...);
}

template <class F, class X, reverse_mode Mode, class... R>
X gradient(F const& f, X const& x, Mode mode, R const&... rest) {
    return detail::reverse_gradient<false>(f, x, mode, rest...);
}

template <class F, class X, reverse_mode Mode, class... R>
    requires std::is_floating_point_v<X>
auto value_and_derivative(F const& f, X const& x, Mode mode, R const&... rest) {
    auto [value, derivative] = ad::value_and_gradient(f, x, mode, rest...);
    return value_and_derivative_result<decltype(value), X>{value, derivative};
}

// J[i][j] = d f_i / d x_j: one evaluation, one sweep per leaf of f's result.
template <class F, class X, reverse_mode Mode, class... R>
auto jacobian(F const& f, X const& x, Mode mode, R const&... rest) {
    static_assert(detail::differentiable_input<X>());
    auto const then = [&](auto const& y, auto& ctx) {
        using Y = std::remove_cvref_t<decltype(cassette::untag(y, ctx))>;
        std::vector<detail::slot> outputs;
        detail::result_slots<tag_of<decltype(ctx)>>(cassette::untag(y, ctx),
                                                    cassette::detail::metadata_by<tag_of<decltype(ctx)>>(y), outputs);
        std::size_t const n = detail::leaves(x);
        auto J = detail::make_matrix<detail::static_leaves<Y>(), detail::static_leaves<X>()>(outputs.size(), n);
        for (std::size_t i = 0; i != outputs.size(); ++i) {
            auto const& adjoints = ctx.tape.sweep(outputs[i], detail::arithmetic<null_context>{ctx.parent});
            for (std::size_t j = 0; j != n; ++j) J[i][j] = detail::signless_zero(adjoints[j + 1]);
        }
        return J;
    };
    return detail::recorded(mode, f, x, then, rest...);
}

namespace detail {

// Forward over reverse: x carries the tangent `direction` (set by `seed`) in an outer forward
// context, and the reverse sweep runs in that context's arithmetic, so each adjoint's tangent
// is a directional derivative of the gradient.
using tangent_partial = tagged<tag_of<forward<null_context>>, double, double>;

template <class F, class X, class Seed, class... R>
X gradient_tangent(basic_tape<tangent_partial>& t, F const& tf, X const& x, Seed const& seed, R const&... rest) {
    using partial = tangent_partial;
    null_context none;
    forward<null_context> outer{none};
    auto const x_outer = seed(outer);
    reverse_context<forward<null_context>, partial> ctx{outer, t};
    auto const y = cassette::overdub(ctx, tf, detail::with_slots(ctx, x_outer, x), rest...);
    auto const& adjoints = t.sweep(detail::scalar_slot(y, ctx), detail::arithmetic<forward<null_context>>{outer});
    return detail::gradient_of(x, adjoints, [](partial const& a) { return detail::signless_zero(a.meta); });
}

}  // namespace detail

// The Hessian-vector product H(x) v, by forward over reverse: one evaluation and one sweep,
// each on values that carry a tangent.
template <class F, class X, class... R>
X hvp(F const& f, X const& x, X const& v, R const&... rest) {
    static_assert(detail::differentiable_input<X>());
    basic_tape<detail::tangent_partial> tangent_tape;
    return detail::gradient_tangent(tangent_tape, detail::as_traced(f), x, [&](auto const& outer) {
        auto x_outer = detail::seeded<1>(outer, x, x, detail::leaves(x));  // every tangent 0
        std::vector<double> direction;
        detail::for_each_leaf(v, [&](auto const& vi) { direction.push_back(double(vi)); });
        std::size_t k = 0;
        detail::for_each_leaf_metadata(x_outer.meta, x, [&](double& t, auto const&) { t = direction[k++]; });
        return x_outer;
    }, rest...);
}

// H[i][j] = d2 f / d x_i d x_j, row by row by forward over reverse.
template <class F, class X, reverse_mode Mode, class... R>
auto hessian(F const& f, X const& x, Mode, R const&... rest) {
    static_assert(detail::differentiable_input<X>());
    auto const tf = detail::as_traced(f);
    std::size_t const n = detail::leaves(x);
    auto H = detail::make_matrix<detail::static_leaves<X>(), detail::static_leaves<X>()>(n, n);
    basic_tape<detail::tangent_partial> tangent_tape;  // one for all the rows: its buffers are reused
    for (std::size_t i = 0; i != n; ++i) {
        X const row = detail::gradient_tangent(
            tangent_tape, tf, x, [&](auto const& outer) { return detail::seeded<1>(outer, x, x, i); }, rest...);
        std::size_t j = 0;
        detail::for_each_leaf(row, [&](auto const& h) { H[i][j++] = double(h); });
    }
    return H;
}

}  // namespace cassette::ad

// Values with different numbers of terms meet (in a branch, an accumulator) as slotted values.
template <class Partial, std::size_t K, std::size_t L>
    requires(K != L)
struct std::common_type<cassette::ad::detail::combination<Partial, K>, cassette::ad::detail::combination<Partial, L>> {
    using type = cassette::ad::detail::slot;
};
