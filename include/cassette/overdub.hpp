// SPDX-License-Identifier: BSL-1.0
// overdub: runs a traced function's body under a context, turning every call node
// g(xs...) into prehook; overdub; posthook, recursively.
#pragma once

#include <cassette/detail/config.hpp>
#include <cassette/detail/slot.hpp>
#include <cassette/detail/tuple.hpp>
#include <cassette/dsl.hpp>
#include <cassette/tag.hpp>
#include <cassette/transform.hpp>

#include <cstddef>
#include <cstdlib>
#include <type_traits>
#include <utility>

namespace cassette {

// A view of a context whose prehook/posthook injection is removed at compile time;
// its overdub and fallback members still apply.
// Ctx is a reference to the viewed context, or the context itself when the view was made
// from a temporary (`overdub(disable_hooks(Ctx{}), f, x)`), which the view then keeps.
template <class Ctx>
struct hooks_disabled {
    Ctx context;
};

template <class Ctx>
constexpr hooks_disabled<Ctx> disable_hooks(Ctx&& ctx) {
    return {std::forward<Ctx>(ctx)};
}

}  // namespace cassette

namespace cassette::detail {

template <class Ctx, bool Hooks>
struct context_ref {
    using context_type = Ctx;
    static constexpr bool hooks = Hooks;
    Ctx& ctx;
};

// null_context has no state, so a reference to it is not carried through the evaluation.
template <bool Hooks>
struct context_ref<null_context, Hooks> {
    using context_type = null_context;
    static constexpr bool hooks = Hooks;
    static constexpr null_context ctx{};
    constexpr context_ref(null_context const&) noexcept {}
};

template <class F>
inline constexpr F instance{};

template <class Ctx>
constexpr context_ref<Ctx, true> as_ref(Ctx& ctx) noexcept {
    return {ctx};
}
template <class Ctx>
constexpr context_ref<std::remove_reference_t<Ctx>, false> as_ref(hooks_disabled<Ctx>& view) noexcept {
    return {view.context};
}
// A const view: of a context it refers to, that context; of one it holds, a const one.
template <class Ctx>
constexpr context_ref<std::conditional_t<std::is_reference_v<Ctx>, std::remove_reference_t<Ctx>, Ctx const>, false> as_ref(
    hooks_disabled<Ctx> const& view) noexcept {
    return {view.context};
}

// The body a context runs: its pass applied once per (context, function, arity).
template <class Ctx>
concept has_pass = requires { Ctx::pass; };

template <class Ctx, class Body>
constexpr auto checked_pass(Body const& body) {
    using result = decltype(Ctx::pass(body));
    static_assert(ir::expression<result>,
                  "cassette: the pass of the context named in this instantiation returned something "
                  "that is not an IR expression; a pass maps a body to a body (build nodes with "
                  "ir::transform, operators, cassette::call or ir::constant).");
    return Ctx::pass(body);
}

template <class Ctx, class F, std::size_t N>
inline constexpr auto passed_body = detail::checked_pass<Ctx>(F::template body<N>);

template <class Ctx, class F, std::size_t N>
constexpr auto const& body_under() noexcept {
    if constexpr (has_pass<Ctx>)
        return passed_body<Ctx, F, N>;
    else
        return F::template body<N>;
}

// Evaluation state: the context, the running traced function (for self), its arguments
// (by reference) and the variables bound by enclosing let/fold forms.

// The enclosing forms' Ids, outermost first, and a pointer to each one's values (a tuple of
// references). Flat, so that a variable is found by a trait over the Ids: looked up through
// nested scopes, a use k forms deep instantiated k functions, each named with its scope.
template <class Ids, class Values>
struct scope {
    Values values;
};
using no_scope = scope<boost::mp11::mp_list<>, tuple<>>;

template <class Id, class... Ids, std::size_t... I, class... P, class V>
CASSETTE_INLINE constexpr auto extend(scope<boost::mp11::mp_list<Ids...>, tuple_impl<std::index_sequence<I...>, P...>> const& s,
                                      V const& values) {
    return scope<boost::mp11::mp_list<Ids..., Id>, tuple<P..., V const*>>{{{detail::get<I>(s.values)}..., {&values}}};
}

// Where the innermost form that binds Id is in a scope.
template <class Id, class Scope>
struct binding_index;
template <class Id, class... Ids, class Values>
struct binding_index<Id, scope<boost::mp11::mp_list<Ids...>, Values>> {
    static constexpr std::size_t from_inside = boost::mp11::mp_find<boost::mp11::mp_reverse<boost::mp11::mp_list<Ids...>>, Id>::value;
    static_assert(from_inside != sizeof...(Ids), "cassette: a let/fold variable is used outside the form that binds it.");
    static constexpr std::size_t value = sizeof...(Ids) - 1 - from_inside;
};

// Values held for a region (passes::cse): a form that holds the values of some of its body's
// calls binds an Id with `holds<N>` (a bool_constant: whether it holds the value of a call of
// type N) and `read(n, frame)`, which gives it. The evaluator asks the innermost binding form's
// Id only, so each binding form's body is a region of its own; a scope whose innermost Id has
// no `holds` answers with an alias, which instantiates no class per node.
template <class Id, class = void>
struct sharing_of {
    template <class N>
    using holds = detail::false_type;
};
template <class Id>
struct sharing_of<Id, std::void_t<typename Id::holds_values>> {
    using id = Id;
    template <class N>
    using holds = typename Id::template holds<N>;
};
template <class Scope>
struct sharing_in : sharing_of<void> {};
template <class Id0, class... Ids, class Values>
struct sharing_in<scope<boost::mp11::mp_list<Id0, Ids...>, Values>> : sharing_of<boost::mp11::mp_back<boost::mp11::mp_list<Id0, Ids...>>> {};
template <class N, class Fr>
using held_in = typename sharing_in<typename Fr::scope_type>::template holds<N>;

// Whether a call's subtree has a call that goes to the context's overdub member (read from its
// eval_result; any other node: no).
template <class Result, class = void>
struct calls_member_overdub : detail::false_type {};
template <class Result>
struct calls_member_overdub<Result, std::void_t<typename Result::member_overdubs>> : Result::member_overdubs {};

// The context as the flattened outlined functions see it: its overdub member called, not
// forced inline (engine::member_overdub, engine::eval_flattened).
template <class Ref>
struct late_ref : Ref {};
template <class Ref>
inline constexpr bool is_late = false;
template <class Ref>
inline constexpr bool is_late<late_ref<Ref>> = true;

// What evaluating a node gives, a reference or a value: a class, so it is computed once, and
// once for an outlined function's frame and the frame it is called from (early_frame).
template <class Node, class Fr, ir::node_kind = ir::node_kind_of<Node>::value>
struct eval_result_of;
template <class Ref, class Self, class Args, class Scope>
struct frame;
template <class Fr>
struct early_frame {
    using type = Fr;
};
template <class Ref, class Self, class Args, class Scope>
struct early_frame<frame<late_ref<Ref>, Self, Args, Scope>> {
    using type = frame<Ref, Self, Args, Scope>;
};
template <class Node, class Fr>
using eval_result = eval_result_of<Node, typename early_frame<Fr>::type>;
template <class Node, class Fr>
struct staged_result;
template <class Call, class Fr>
struct computed_result;
// A call whose value a form holds: what reading it gives.
template <class Call, class Fr>
struct held_result {
    using type = decltype(sharing_in<typename Fr::scope_type>::id::read(std::declval<Call const&>(), std::declval<Fr const&>()));
};
template <class Fr, class Then, class Else>
struct branch_type;
template <class Fr, class Id, class Index, class Init, class Body>
struct accumulator_type;

template <class T>
CASSETTE_INLINE constexpr bool truth(T const& x) {
    return static_cast<bool>(detail::primal(x));  // branches look through every tag
}

// What a context's region member returns, when it has none.
struct no_region {};

// Where a node is evaluated, and what a form (an if_, a let, a fold, a node kind of a
// library's own: ir::form_node) evaluates its children with, in its evaluate member.
template <class Ref, class Self, class Args, class Scope>
struct frame {
    using ref_type = Ref;
    using scope_type = Scope;
    Ref ref;
    Self const& self;
    Args const& args;
    Scope scope;

    // A child's value, the child run through the context.
    template <class N>
    CASSETTE_INLINE constexpr auto eval(N const& n) const -> typename staged_result<N, frame>::type;

    // This frame with var<Id, K> reading get<K>(values), a tuple of references (let, fold), or
    // with what a form that holds values (passes::cse) reads them from.
    template <class Id, class Values>
    CASSETTE_INLINE constexpr auto bind(Values const& values) const {
        using bound = decltype(detail::extend<Id>(scope, values));
        return frame<Ref, Self, Args, bound>{ref, self, args, detail::extend<Id>(scope, values)};
    }

    // What the innermost form that binds Id bound.
    template <class Id>
    CASSETTE_INLINE constexpr auto const& values_of() const {
        return *detail::get<binding_index<Id, Scope>::value>(scope.values);
    }

    // This frame under another context, with hooks on or off as here (ad::derivative runs
    // its body under forward mode).
    template <class Ctx>
    CASSETTE_INLINE constexpr auto under(Ctx& ctx) const {
        return frame<context_ref<Ctx, Ref::hooks>, Self, Args, Scope>{{ctx}, self, args, scope};
    }

    // ctx.region(kind, bounds...) if the context has it and hooks are on, to be held until the
    // form is left.
    template <class... B>
    CASSETTE_INLINE constexpr auto region(region_kind kind, B const&... bounds) const {
        if constexpr (Ref::hooks && requires { ref.ctx.region(kind, bounds...); })
            return ref.ctx.region(kind, bounds...);
        else
            return no_region{};
    }

    // Branches and loop bounds look through every tag.
    template <class T>
    CASSETTE_INLINE static constexpr bool truth(T const& x) {
        return detail::truth(x);
    }
    template <class T>
    CASSETTE_INLINE static constexpr decltype(auto) primal(T const& x) {
        return detail::primal(x);
    }

    // An if_'s result type, spelled out so that a branch calling self need not be evaluated
    // to find it; a fold's accumulator type.
    template <class Then, class Else>
    using branch_type = typename detail::branch_type<frame, Then, Else>::type;
    template <class Id, class Index, class Init, class Body>
    using accumulator_type = typename detail::accumulator_type<frame, Id, Index, Init, Body>::type;
};

// The frame a body of the traced function F starts in: its arguments, no variables bound.
template <class F, class Ref, class Args>
CASSETTE_INLINE constexpr frame<Ref, F, Args, no_scope> body_frame(Ref ref, Args const& args) {
    return {ref, instance<F>, args, {}};
}

// A call whose callee returns void yields `nothing`, so hooks always see a result.
template <class Fn>
CASSETTE_INLINE constexpr decltype(auto) value_of(Fn&& fn) {
    if constexpr (std::is_void_v<decltype(fn())>) {
        fn();
        return nothing{};
    } else {
        return fn();
    }
}

// Calls fn if the scope it guards is left by an exception: disarm on the normal path.
template <class Fn>
struct on_unwind {
    Fn fn;
    bool armed = true;

    template <class T>
    CASSETTE_INLINE constexpr T&& disarm(T&& result) noexcept {
        armed = false;
        return static_cast<T&&>(result);
    }
    constexpr ~on_unwind() {
        if (armed) fn();
    }
};
template <class Fn>
on_unwind(Fn) -> on_unwind<Fn>;

// g(xs...), or for a member pointer g what std::invoke makes of it: the member of the first
// argument, an object of g's class or a pointer to one. (Not std::invoke: <functional> would
// be a third of what including the evaluator costs.)
template <class C, class X>
CASSETTE_INLINE constexpr auto object_of(X const& x) -> decltype(*x) {
    return *x;
}
template <class C, class X>
    requires std::is_base_of_v<C, X>
CASSETTE_INLINE constexpr X const& object_of(X const& x) noexcept {
    return x;
}
template <class G, class... X>
CASSETTE_INLINE constexpr auto invoke(G const& g, X const&... xs) -> decltype(g(xs...)) {
    return g(xs...);
}
template <class M, class C, class X>
CASSETTE_INLINE constexpr auto invoke(M C::*g, X const& x) -> decltype(detail::object_of<C>(x).*g) {
    return detail::object_of<C>(x).*g;
}
template <class M, class C, class X, class... Y>
    requires std::is_function_v<M>
CASSETTE_INLINE constexpr auto invoke(M C::*g, X const& x, Y const&... ys) -> decltype((detail::object_of<C>(x).*g)(ys...)) {
    return (detail::object_of<C>(x).*g)(ys...);
}

// A call's arguments as the context's fallback passes them: without its tag.
template <class Ref, class X>
using untagged = std::remove_cvref_t<decltype(detail::untag_by<tag_of<typename Ref::context_type>>(std::declval<X const&>()))>;

// Whether a primitive call goes to the tag-propagating implementation (tag.hpp): it is one
// of those primitives and the context has tagged one of its arguments.
template <class Ref, class G, class... X>
inline constexpr bool propagates =
    propagates_tags<G> && (layer<tag_of<typename Ref::context_type>, X>::found || ...);

// While a recursive body's result type is worked out, its self calls are replaced by
// assumed<R, Args...> nodes, never evaluated: a self call with the arguments' types the body
// was entered with is taken to return R (unknown_result: "not known yet"); one with other
// types is dispatched as any call, so grow(int) calling self(double) returns grow(double)'s type.
struct unknown_result {};
template <class R, class... Args>
struct assumed : ir::symbolic<assumed<R, Args...>> {
    detail::tuple<Args...> args;
};
template <class Node>
struct is_unknown : detail::false_type {};
template <class... Args>
struct is_unknown<assumed<unknown_result, Args...>> : detail::true_type {};

template <class R>
struct self_returns {
    template <class... A>
    constexpr assumed<R, A...> operator()(ir::call<ir::self_t, A...> const& c) const {
        return {{}, c.args};
    }
};

template <class R, class Fr, class... Y>
struct assumed_result;
template <class Ref, class F, class... X>
struct body_result;

// The steps of a call's dispatch, in the order the contract fixes (see engine). overdub
// starts at member_overdub, recurse at body, fallback at member_fallback.
enum class step : unsigned char { member_overdub, body, propagation, member_fallback, direct_call, uncallable };

// A call's: whether it goes to the member (Plan: its dispatch plan) or one among its arguments'
// calls does (Results: theirs); an alias, so that asking nothing costs nothing.
template <bool Flattens>
struct member_overdubs_when {
    template <class Plan, class... Results>
    using of = detail::false_type;
};
template <>
struct member_overdubs_when<true> {
    template <class Plan, class... Results>
    using of = detail::bool_constant<detail::is(Plan::which, step::member_overdub) || (calls_member_overdub<Results>::value || ...)>;
};

// Which step a call takes and its result type, decided once, in one place: the call itself
// (engine::run) and every question about its type read them from here.
template <step From, class Ref, class G, class... X>
struct plan;
template <step From, class Ref, class G, class... X>
struct plan_result;

// What a traced function's body receives for an argument of type X: X, or what the
// context's enter member makes of it (a context that keeps the types bodies are instantiated
// for few, as reverse mode gives values with terms a slot of their own).
template <class Ref, class X>
struct entered {
    using type = X;
};
template <class Ref, class X>
    requires requires(Ref ref, X const& x) { ref.ctx.enter(x); }
struct entered<Ref, X> {
    using type = std::remove_cvref_t<decltype(std::declval<Ref>().ctx.enter(std::declval<X const&>()))>;
};
template <class Ref, class X>
using entered_t = typename entered<Ref, X>::type;

// What engine::callee gives for a call's fn: the enclosing traced function for self, the
// value of a node (higher order), else fn itself. A class, so that the result type of every
// call naming it costs no overload resolution of callee (Clang 16, a hooked context, 200
// calls: 1.4% fewer instructions).
template <class F, class Fr, bool = ir::expression<F>>
struct callee_type {
    using type = F const&;
};
template <class Fr>
struct callee_type<ir::self_t, Fr, false> {
    using type = decltype((std::declval<Fr const&>().self));
};
template <class F, class Fr>
struct callee_type<F, Fr, true> {
    using type = typename eval_result<F, Fr>::type;
};
template <class F, class Fr>
using callee_t = std::remove_cvref_t<typename callee_type<F, Fr>::type>;

template <class Ref, class G, class... X>
using dispatch_plan = plan<step::member_overdub, Ref, G, X...>;
template <class Ref, class G, class... X>
using dispatch_result = plan_result<step::member_overdub, Ref, G, X...>;

// The result type of a call that cannot be made; the static_assert in plan_result says why.
struct uncallable {};

template <class Node, class Fr>
using eval_t = std::remove_cvref_t<typename eval_result<Node, Fr>::type>;
// The same for a form's child, or a body: staged (staged_result).
template <class Node, class Fr>
using staged_t = std::remove_cvref_t<typename staged_result<Node, Fr>::type>;

// Whether a call's subtree's count of calls passes a multiple of Step that no argument's
// reaches: cut at such calls, a body falls into pieces of about Step calls, whatever its shape
// (Step 0: never). Classes, not variable templates, for the reason given at ir::node_kind_of.
template <class N, std::size_t Step>
struct cut_here : detail::false_type {};
template <class F, class... A, std::size_t Step>
    requires(Step != 0)
struct cut_here<ir::call<F, A...>, Step>
    : detail::bool_constant<ir::call_count_of<ir::call<F, A...>>::value >= Step &&
                            ((ir::call_count_of<ir::call<F, A...>>::value / Step > ir::call_count_of<A>::value / Step) &&
                             ...)> {};

// Whether a call is evaluated in a function of its own (CASSETTE_OUTLINE_CALLS, config.hpp),
// holding about outline_calls calls. Never under null_context: a plain call compiles to the
// hand-written code at any size (and outlining would not make it compile faster: its cost is
// in building the body's types).
template <class N, class Fr>
struct outlined
    : cut_here<N, std::is_same_v<typename Fr::ref_type::context_type, null_context> ? 0 : outline_calls> {};

// Whether an outlined call that is flattened is also kept apart from the flattened function
// that calls it (CASSETTE_KEEP_APART), so that none holds many more than keep_apart_calls.
// Each boundary costs the optimiser its sight across it: a gradient of 3,200 calls ran 3% more
// instructions and compiled 18% faster, one of 1,600 ran and compiled the same (GCC 12; every
// 512 calls: 5 to 6% more instructions at both sizes, no faster).
inline constexpr std::size_t keep_apart_calls = 16 * outline_calls;
template <class N>
using kept_apart = cut_here<N, keep_apart_calls>;

// The base of a call node's I-th argument in its tuple.
template <std::size_t I, class Call>
using argument_leaf = leaf<I, ir::argument_t<Call, I>>;

// The evaluator and the dispatch of one call, in the order the contract fixes:
//   1. ctx.prehook(g, xs...)                  if viable and hooks are on;
//   2. ctx.overdub(g, xs...)                  if viable, else
//      the body of g under ctx                if g is a traced function, else
//      the tag-propagating implementation    for get, make, getindex, length, comparisons
//                                             on arguments ctx has tagged, else
//      ctx.fallback(g, xs...)                 if viable, else
//      g(xs...)                               on the arguments with ctx's tag removed;
//   3. ctx.posthook(result, g, xs...)         if viable and hooks are on; if step 2 throws,
//      ctx.unwound(g, xs...) instead            if viable and hooks are on, and the exception
//                                             goes on unchanged.
// Arguments are evaluated left to right, depth first, before the call.
struct engine {
    // Step 2: the step plan<From, ...> chose.
    template <step From, class Ref, class G, class... X>
    CASSETTE_INLINE static constexpr auto run(Ref ref, G const& g, X const&... xs) ->
        typename plan_result<From, Ref, G, X...>::type {
        constexpr step which = plan<From, Ref, G, X...>::which;
        if constexpr (detail::is(which, step::member_overdub)) {
            if constexpr (is_late<Ref>)
                return engine::member_overdub(ref.ctx, g, xs...);
            else
                return detail::value_of([&]() CASSETTE_INLINE_LAMBDA -> decltype(auto) { return ref.ctx.overdub(g, xs...); });
        } else if constexpr (detail::is(which, step::body)) {
            return engine::run_body(ref, g, xs...);
        } else if constexpr (detail::is(which, step::propagation)) {
            return propagation<tag_of<typename Ref::context_type>>::apply(g, xs...);
        } else if constexpr (detail::is(which, step::member_fallback)) {
            return detail::value_of([&]() CASSETTE_INLINE_LAMBDA -> decltype(auto) { return ref.ctx.fallback(g, xs...); });
        } else if constexpr (detail::is(which, step::direct_call)) {
            using tag = tag_of<typename Ref::context_type>;
            return detail::value_of([&]() CASSETTE_INLINE_LAMBDA -> decltype(auto) {
                return detail::invoke(g, detail::untag_by<tag>(xs)...);
            });
        } else {
            return uncallable{};  // plan_result has said why
        }
    }

    // A context's overdub, in an outlined function: not forced inline, so that the compiler
    // optimises it once per callee and argument types, and the outlined function, flattened,
    // inlines it at each call (see eval_flattened).
    template <class Ctx, class G, class... X>
    static constexpr auto member_overdub(Ctx& ctx, G const& g, X const&... xs) {
        return detail::value_of([&]() CASSETTE_INLINE_LAMBDA -> decltype(auto) { return ctx.overdub(g, xs...); });
    }

    template <class Ref, class G, class... X>
    CASSETTE_INLINE static constexpr auto hooked(Ref ref, G const& g, X const&... xs) ->
        typename dispatch_result<Ref, G, X...>::type {
        if constexpr (Ref::hooks && requires { ref.ctx.prehook(g, xs...); })
            ref.ctx.prehook(g, xs...);
        using R = typename dispatch_result<Ref, G, X...>::type;
        if constexpr (Ref::hooks && requires(R const& r) { ref.ctx.posthook(r, g, xs...); }) {
            decltype(auto) r = engine::guarded(ref, g, xs...);
            ref.ctx.posthook(std::as_const(r), g, xs...);
            return r;
        } else {
            return engine::guarded(ref, g, xs...);
        }
    }

    // dispatch, telling a context that asks for it when the call exits by an exception, so
    // that it can close what its prehook opened (tracer, profiler).
    template <class Ref, class G, class... X>
    CASSETTE_INLINE static constexpr auto guarded(Ref ref, G const& g, X const&... xs) ->
        typename dispatch_result<Ref, G, X...>::type {
        if constexpr (Ref::hooks && requires { ref.ctx.unwound(g, xs...); }) {
            detail::on_unwind guard{[&]() noexcept { ref.ctx.unwound(g, xs...); }};
            return guard.disarm(engine::run<step::member_overdub>(ref, g, xs...));
        } else {
            return engine::run<step::member_overdub>(ref, g, xs...);
        }
    }

    // --- evaluation of each node kind ---------------------------------------------------

    // One entry for every node kind, dispatched on ir::kind_of rather than by overloading:
    // overload resolution over the kinds would deduce against every node's whole type. The
    // return type is spelled out (eval_result), so asking for it instantiates no body.
    // A call of up to three arguments is evaluated here: the compiler builds, names and inlines
    // every function a node instantiates, and that work, not the node's, dominates the
    // compilation of a large body (GCC 12, 1,600 calls: 2x faster with a hooked context than
    // through a function per call and one per argument).
    // A large body is cut into functions of its own where `outlined` says (Apart: this is one).
    template <bool Apart = false, class N, class Fr>
    CASSETTE_INLINE static constexpr auto eval(N const& n, Fr const& fr) -> typename eval_result<N, Fr>::type {
        constexpr ir::node_kind kind = ir::node_kind_of<N>::value;
        constexpr std::size_t arity = ir::arity_of<N>::value;
        if constexpr (detail::is(kind, ir::node_kind::call) && held_in<N, Fr>::value) {
            return sharing_in<typename Fr::scope_type>::id::read(n, fr);
        } else if constexpr (!Apart && outlined<N, Fr>::value) {
            return engine::eval_apart(n, fr);
        } else if constexpr (detail::is(kind, ir::node_kind::call) && arity > 3) {
            return engine::eval_call(n, fr, std::make_index_sequence<arity>{});
        } else if constexpr (detail::is(kind, ir::node_kind::call)) {
            // Arguments left to right (a braced list), each reached by a cast (detail/tuple.hpp),
            // their values in one tuple, as in eval_call (GCC 12 vectorises a forward gradient
            // worse from separate locals: 1,095 rather than 964 instructions, Rosenbrock n = 10).
            // The tuple's type is named where it is used, not by a typedef per node (call_result).
            decltype(auto) g = engine::callee(n.fn, fr);
            if constexpr (arity == 0) {
                return engine::hooked(fr.ref, g);
            } else if constexpr (arity == 1) {
                typename eval_result<N, Fr>::values_type const v{{engine::eval(static_cast<argument_leaf<0, N> const&>(n.args).value, fr)}};
                return engine::hooked(fr.ref, g, detail::get<0>(v));
            } else if constexpr (arity == 2) {
                typename eval_result<N, Fr>::values_type const v{{engine::eval(static_cast<argument_leaf<0, N> const&>(n.args).value, fr)},
                                                                 {engine::eval(static_cast<argument_leaf<1, N> const&>(n.args).value, fr)}};
                return engine::hooked(fr.ref, g, detail::get<0>(v), detail::get<1>(v));
            } else {
                typename eval_result<N, Fr>::values_type const v{{engine::eval(static_cast<argument_leaf<0, N> const&>(n.args).value, fr)},
                                                                 {engine::eval(static_cast<argument_leaf<1, N> const&>(n.args).value, fr)},
                                                                 {engine::eval(static_cast<argument_leaf<2, N> const&>(n.args).value, fr)}};
                return engine::hooked(fr.ref, g, detail::get<0>(v), detail::get<1>(v), detail::get<2>(v));
            }
        } else if constexpr (detail::is(kind, ir::node_kind::param) || detail::is(kind, ir::node_kind::constant) ||
                             detail::is(kind, ir::node_kind::var))
            return engine::eval_leaf(n, fr);
        else if constexpr (detail::is(kind, ir::node_kind::other))
            return engine::eval_assumed(n, fr);
        else
            return n.evaluate(fr);  // a form: if_, let, fold, or a node kind of a library's own
    }

    // The frame goes to the outlined function by its parts, so that the caller's does not
    // escape: Clang otherwise reloads the context's address from it after every call that
    // might have changed it, and a prehook counting calls kept every increment (a chain of 200
    // calls: 670 instructions, not 224).
    template <class N, class Ref, class Self, class Args, class Scope>
    CASSETTE_INLINE static constexpr auto eval_apart(N const& n, frame<Ref, Self, Args, Scope> const& fr) ->
        typename eval_result<N, frame<Ref, Self, Args, Scope>>::type {
        // Never without flattening: member_overdubs is then false (member_overdubs_when).
        constexpr bool flattened = calls_member_overdub<eval_result<N, frame<Ref, Self, Args, Scope>>>::value;
        if constexpr (flattened && kept_apart<N>::value)
            return engine::eval_kept_apart(n, fr.ref, fr.self, fr.args, fr.scope);
        else if constexpr (flattened)
            return engine::eval_flattened(n, fr.ref, fr.self, fr.args, fr.scope);
        else
            return engine::eval_outlined(n, fr.ref, fr.self, fr.args, fr.scope);
    }
    // Not forced inline: the compiler optimises it once, as a function of its own.
    template <class N, class Ref, class Self, class Args, class Scope>
    static constexpr auto eval_outlined(N const& n, Ref ref, Self const& self, Args const& args, Scope scope) ->
        typename eval_result<N, frame<Ref, Self, Args, Scope>>::type {
        return engine::eval<true>(n, frame<Ref, Self, Args, Scope>{ref, self, args, scope});
    }
    // The same where a context's overdub member takes calls: that member is inlined here, at
    // each call (late: see member_overdub), with every call below it.
    template <class N, class Ref, class Self, class Args, class Scope>
    CASSETTE_FLATTEN static constexpr auto eval_flattened(N const& n, Ref ref, Self const& self, Args const& args, Scope scope) ->
        typename eval_result<N, frame<Ref, Self, Args, Scope>>::type {
        using late = std::conditional_t<is_late<Ref>, Ref, late_ref<Ref>>;  // the outermost made it late
        return engine::eval<true>(n, frame<late, Self, Args, Scope>{late{ref}, self, args, scope});
    }
    // The same, where a flattened function calling it would take in too much (kept_apart).
    template <class N, class Ref, class Self, class Args, class Scope>
    CASSETTE_KEEP_APART static constexpr auto eval_kept_apart(N const& n, Ref ref, Self const& self, Args const& args, Scope scope) ->
        typename eval_result<N, frame<Ref, Self, Args, Scope>>::type {
        return engine::eval_flattened(n, ref, self, args, scope);
    }

    template <std::size_t I, class Fr>
    CASSETTE_INLINE static constexpr decltype(auto) eval_leaf(ir::param<I> const&, Fr const& fr) {
        return detail::get<I>(fr.args);
    }

    // Only named in types; Clang instantiates the bodies that name it, so it has a definition.
    template <class R, class... A, class Fr>
    [[noreturn]] static auto eval_assumed(assumed<R, A...> const&, Fr const&) -> typename assumed_result<R, Fr, A...>::type {
        std::abort();
    }

    template <class T, class Fr>
    CASSETTE_INLINE static constexpr T const& eval_leaf(ir::constant<T> const& n, Fr const&) {
        return n.value;
    }

    template <class Id, std::size_t K, class Fr>
    CASSETTE_INLINE static constexpr decltype(auto) eval_leaf(ir::var<Id, K> const&, Fr const& fr) {
        return detail::get<K>(*detail::get<binding_index<Id, decltype(fr.scope)>::value>(fr.scope.values));
    }

    template <class F, class Fr>
    CASSETTE_INLINE static constexpr auto callee(F const& fn, Fr const& fr) -> typename callee_type<F, Fr>::type {
        if constexpr (std::is_same_v<F, ir::self_t>)
            return (fr.self);
        else if constexpr (ir::expression<F>)
            return engine::eval(fn, fr);
        else
            return (fn);
    }

    // A call's value computed, not read where a form holds it (passes::cse makes the values it
    // holds so): its arguments read as anywhere.
    // The lambda returns the declared type, as eval does: a value where the result refers into
    // the arguments' values, which are gone when it returns.
    template <class F, class... Args, class Fr>
    CASSETTE_INLINE static constexpr auto make(ir::call<F, Args...> const& n, Fr const& fr) ->
        typename computed_result<ir::call<F, Args...>, typename early_frame<Fr>::type>::type {
        using result = computed_result<ir::call<F, Args...>, typename early_frame<Fr>::type>;
        decltype(auto) g = engine::callee(n.fn, fr);
        return [&]<std::size_t... I>(std::index_sequence<I...>) CASSETTE_INLINE_LAMBDA -> typename result::type {
            typename result::values_type const values{{fr.eval(detail::get<I>(n.args))}...};
            return engine::hooked(fr.ref, g, detail::get<I>(values)...);
        }(std::index_sequence_for<Args...>{});
    }

    // A call of any arity.
    template <class F, class... Args, class Fr, std::size_t... I>
    CASSETTE_INLINE static constexpr auto eval_call(ir::call<F, Args...> const& n, Fr const& fr, std::index_sequence<I...>) ->
        typename eval_result<ir::call<F, Args...>, Fr>::type {
        decltype(auto) g = engine::callee(n.fn, fr);
        typename eval_result<ir::call<F, Args...>, Fr>::values_type const values{{engine::eval(detail::get<I>(n.args), fr)}...};
        return engine::hooked(fr.ref, g, detail::get<I>(values)...);
    }

    // Small trivially copyable arguments are passed by value, as a hand-written function
    // would take them: a recursive body then keeps them in registers.
    template <class X>
    using pass_t = std::conditional_t<std::is_trivially_copyable_v<X> && sizeof(X) <= 2 * sizeof(void*), X, X const&>;

    // The body receives each argument as the context's enter member makes it, if it has one.
    template <class Ref, class X>
    CASSETTE_INLINE static constexpr decltype(auto) entered(Ref ref, X const& x) {
        if constexpr (requires { ref.ctx.enter(x); })
            return ref.ctx.enter(x);
        else
            return (x);
    }

    template <class Ref, class F, class... X>
    CASSETTE_INLINE static constexpr auto run_body(Ref ref, F const&, X const&... xs) ->
        typename body_result<Ref, F, entered_t<Ref, X>...>::type {
        return engine::run_body_as<Ref, F, pass_t<entered_t<Ref, X>>...>(ref, engine::entered(ref, xs)...);
    }

    // The return type is spelled out so that a self call inside the body can name it
    // while the body is still being instantiated (Clang instantiates constexpr bodies eagerly).
    // Traced functions are empty, so the callee hooks see for self is a static instance.
    template <class Ref, class F, class... P>
    static constexpr auto run_body_as(Ref ref, P... xs) -> typename body_result<Ref, F, std::remove_cvref_t<P>...>::type {
        detail::stop_speculative_folding();
        using args_type = detail::tuple<std::remove_cvref_t<P> const&...>;
        args_type const args{{xs}...};
        return detail::body_frame<F>(ref, args).eval(body_under<typename Ref::context_type, F, sizeof...(P)>());
    }

    // Instantiates the evaluation of a deep node's staged calls, lowest first (see
    // detail::call_height): Clang instantiates a constexpr function where it is named,
    // inside its caller's instantiation, and 500 levels of them exhaust its stack.
    template <class Fr, class... Calls>
    static consteval bool stage_evaluation(boost::mp11::mp_list<Calls...>) {
        return (true && ... && (static_cast<void>(&engine::eval<false, Calls, Fr>), true));
    }
};

// What frame.eval(n) gives, its staged calls' result types worked out first, lowest first
// (detail::call_height): frame.eval is where a body's evaluation starts, and a form's children's.
template <class Node, class Fr>
struct staged_result {
    template <class N>
    using result_in_frame = eval_result<N, Fr>;
    static_assert(detail::stage_for<result_in_frame, Node>::value);
    using type = typename eval_result<Node, Fr>::type;
};

// A form's: what its evaluate member returns (the member's return type, where it spells one).
template <class Node, class Fr, ir::node_kind>
struct eval_result_of {
    using type = decltype(std::declval<Node const&>().evaluate(std::declval<Fr const&>()));
};

// Specialised by kind rather than chosen in a function, so that a node's result type costs one
// level of template instantiation: a deep body stays within the compilers' depth limits. The
// other type computations here are consteval functions named in decltype: never compiled as
// code. A call's: its result and its arguments' value types, from a class over what decides
// them (the context, the callee and what its arguments give), which all such calls share.
// Member typedefs per node cost GCC 12 the square of the body's size: each typedef is a
// variant of the type it names, and GCC finds a type's const variant by walking them all (a
// plain call of 3,200 nodes: 9% of its time, 7.6 -> 6.9 s with this class and no typedef per
// node in engine::eval).
template <class Ref, class G, class... R>
struct call_result {
    using result = typename dispatch_result<Ref, G, std::remove_cvref_t<R>...>::type;
    // A call's result stays a reference only if every argument refers to storage that
    // outlives the call (parameters, constants, bound variables); otherwise it is a value.
    // (Not a static data member: GCC names each one, and a node's name spells its subtree.)
    using type = std::conditional_t<(!std::is_reference_v<R> || ...) && std::is_reference_v<result>, std::remove_cvref_t<result>, result>;
    using values_type = detail::tuple<R...>;
};
template <class F, class Fr, class... Args>
using call_result_in = call_result<typename Fr::ref_type, callee_t<F, Fr>, typename eval_result<Args, Fr>::type...>;
// What a call gives where its value is held (a form's read), or else computed: chosen by an
// alias, which a body no form holds a value in pays for with no class per call (a constrained
// partial specialisation cost Clang 16 0.1% more of a plain call of 800 nodes).
template <bool Held>
struct result_when {
    template <class F, class Fr, class... Args>
    using of = call_result_in<F, Fr, Args...>;
};
template <>
struct result_when<true> {
    template <class F, class Fr, class... Args>
    using of = held_result<ir::call<F, Args...>, Fr>;
};
template <class F, class... Args, class Fr>
struct eval_result_of<ir::call<F, Args...>, Fr, ir::node_kind::call>
    : result_when<held_in<ir::call<F, Args...>, Fr>::value>::template of<F, Fr, Args...> {
    // Whether this call or one among its arguments goes to the context's overdub member.
    // Worked out with the result type, so that a deep body's is staged as its result types are;
    // only where outlined functions are flattened (config.hpp).
    using member_overdubs = typename member_overdubs_when<flattens>::template of<
        dispatch_plan<typename Fr::ref_type, callee_t<F, Fr>, eval_t<Args, Fr>...>, eval_result<Args, Fr>...>;
};
// A call's value as computed (engine::make), where a form holds it.
template <class F, class... Args, class Fr>
struct computed_result<ir::call<F, Args...>, Fr> : call_result_in<F, Fr, Args...> {};

template <class Node, class Fr>
struct eval_result_of<Node const, Fr, ir::node_kind::call> : eval_result_of<Node, Fr, ir::node_kind::call> {};
template <class Node, class Fr>
struct eval_result_of<Node, Fr, ir::node_kind::param> {
    using type = decltype(engine::eval_leaf(std::declval<Node const&>(), std::declval<Fr const&>()));
};
template <class Node, class Fr>
struct eval_result_of<Node, Fr, ir::node_kind::constant> : eval_result_of<Node, Fr, ir::node_kind::param> {};
template <class Node, class Fr>
struct eval_result_of<Node, Fr, ir::node_kind::var> : eval_result_of<Node, Fr, ir::node_kind::param> {};
template <class Node, class Fr>
struct eval_result_of<Node, Fr, ir::node_kind::other> {  // assumed<R, ...>, in a recursive body's type
    using type = decltype(engine::eval_assumed(std::declval<Node const&>(), std::declval<Fr const&>()));
};

// T, Step<T>, Step<Step<T>>, ... up to the first type Step maps to itself, within Steps
// applications; void if there is none.
template <template <class> class Step, class T, int Steps>
consteval auto find_fixed_point() {
    if constexpr (std::is_same_v<Step<T>, T>)
        return std::type_identity<T>{};
    else if constexpr (Steps == 0)
        return std::type_identity<void>{};
    else
        return detail::find_fixed_point<Step, Step<T>, Steps - 1>();
}
template <template <class> class Step, class T, int Steps>
using fixed_point = typename decltype(detail::find_fixed_point<Step, T, Steps>())::type;

template <class Ref, class F, class... X>
struct body_result {
    using body_type = std::remove_cvref_t<decltype(body_under<typename Ref::context_type, F, sizeof...(X)>())>;
    using frame_type = frame<Ref, F, detail::tuple<X const&...>, no_scope>;
    // The body's type with its self calls taken to return R.
    template <class R>
    using with_self = staged_t<decltype(ir::transform(std::declval<body_type const&>(), self_returns<R>{})), frame_type>;

    // R widened to hold what the body makes of it too, where they have a common type (a
    // context whose metadata type changes from one call to the next, as reverse mode's terms
    // do, settles on the common one).
    template <class R>
    static consteval auto widen() {
        if constexpr (requires { typename std::common_type<R, with_self<R>>::type; })
            return std::common_type<R, with_self<R>>{};
        else
            return std::type_identity<with_self<R>>{};
    }
    template <class R>
    using widened = typename decltype(widen<R>())::type;

    // A recursive body's result type is a fixed point: first from the base case alone (the
    // branches that call self are left out), then with self calls returning that, until it
    // settles (a plain base case and a tagged recursive branch take two steps; each nesting
    // of differentiation adds one).
    static consteval auto pick() {
        if constexpr (!ir::calls_self<body_type>) {
            return std::type_identity<staged_t<body_type, frame_type>>{};
        } else {
            using base = with_self<unknown_result>;
            static_assert(!std::is_same_v<base, unknown_result>,
                          "cassette::self: the traced function F in this instantiation always calls itself; "
                          "give it a base case: if_(condition, base_value, self(...)).");
            using settled = fixed_point<widened, base, 8>;
            static_assert(!std::is_void_v<settled>,
                          "cassette: the result type of the recursive traced function F in this "
                          "instantiation does not settle: its base case and its recursive branch give "
                          "types that keep changing. Make both branches of its if_ one type.");
            return std::type_identity<settled>{};
        }
    }
    using type = typename decltype(pick())::type;
};

template <class Ref, class Self, class Args, class Scope>
template <class N>
CASSETTE_INLINE constexpr auto frame<Ref, Self, Args, Scope>::eval(N const& n) const -> typename staged_result<N, frame>::type {
    static_assert(engine::stage_evaluation<frame>(typename detail::staged_calls<N>::type{}));
    return engine::eval(n, *this);
}

template <class T>
using void_as_nothing = std::conditional_t<std::is_void_v<T>, nothing, T>;

template <step From, class Ref, class G, class... X>
struct plan {
    // Asked only when the plan starts there: recurse asks nothing of a member overdub, whose
    // return type may itself depend on this call's (a context that recurses from it).
    static constexpr bool member_overdub_viable() {
        if constexpr (From <= step::member_overdub)
            return requires(Ref ref, G const& g, X const&... xs) { ref.ctx.overdub(g, xs...); };
        else
            return false;
    }
    static constexpr step pick() {
        if constexpr (member_overdub_viable())
            return step::member_overdub;
        else if constexpr (From <= step::body && traced_function<G>)
            return step::body;
        else if constexpr (From <= step::propagation && propagates<Ref, G, X...>)
            return step::propagation;
        else if constexpr (requires(Ref ref, G const& g, X const&... xs) { ref.ctx.fallback(g, xs...); })
            return step::member_fallback;
        else if constexpr (requires(G const& g, untagged<Ref, X> const&... xs) { detail::invoke(g, xs...); })
            return step::direct_call;
        else
            return step::uncallable;
    }
    static constexpr step which = pick();
};

// The result type of the step plan chose: computed without instantiating any body, so a
// recursive body can name it while it is being instantiated. Apart from plan, so that which
// step a self call takes can be asked while its body's result type is being worked out.
template <step From, class Ref, class G, class... X>
struct plan_result {
    static constexpr step which = plan<From, Ref, G, X...>::which;
    static consteval auto result() {
        using tag = tag_of<typename Ref::context_type>;
        if constexpr (detail::is(which, step::member_overdub))
            return std::type_identity<decltype(std::declval<Ref>().ctx.overdub(std::declval<G const&>(),
                                                                               std::declval<X const&>()...))>{};
        else if constexpr (detail::is(which, step::body))
            return std::type_identity<typename body_result<Ref, G, entered_t<Ref, X>...>::type>{};
        else if constexpr (detail::is(which, step::propagation))
            return std::type_identity<decltype(propagation<tag>::apply(std::declval<G const&>(), std::declval<X const&>()...))>{};
        else if constexpr (detail::is(which, step::member_fallback))
            return std::type_identity<decltype(std::declval<Ref>().ctx.fallback(std::declval<G const&>(),
                                                                                std::declval<X const&>()...))>{};
        else if constexpr (detail::is(which, step::direct_call))
            return std::type_identity<decltype(detail::invoke(std::declval<G const&>(), std::declval<untagged<Ref, X> const&>()...))>{};
        else {
            // Here, where the call's type is first needed, so that this is the first error.
            static_assert(!(std::is_same_v<X, nothing> || ...),
                          "cassette: an argument of this call is cassette::nothing, the result of a call "
                          "that returned void: a context's overdub or fallback member (or a callee) "
                          "returns void where its value is used. Return the value.");
            static_assert((std::is_same_v<X, nothing> || ...),
                          "cassette: a call node's callee cannot be called with its arguments (see G and X "
                          "in this instantiation), and the context has no overdub or fallback member for "
                          "them. Inside a body, the builder or the context's pass wrote this call; in "
                          "cassette::overdub(ctx, f, args...), f must be a traced function, a primitive or "
                          "a callable that takes args.");
            return std::type_identity<uncallable>{};
        }
    }
    // A call whose callee returns void yields `nothing`, so hooks always see a result.
    using type = void_as_nothing<typename decltype(result())::type>;
};

// The type of a self call while its body's type is worked out: R for the arguments' types the
// body was entered with, unless the context overdubs that call; else what dispatch gives.
template <class R, class Fr, class... Args>
struct assumed_result {
    template <class... Y>
    static constexpr auto pick(std::type_identity<Y>...) {
        constexpr bool same_arguments =
            std::is_same_v<std::remove_cvref_t<decltype(std::declval<Fr const&>().args)>,
                           detail::tuple<entered_t<ref_type, Y> const&...>>;
        if constexpr (same_arguments && !detail::is(dispatch_plan<ref_type, self_type, Y...>::which, step::member_overdub))
            return std::type_identity<R>{};
        else
            return std::type_identity<typename dispatch_result<ref_type, self_type, Y...>::type>{};
    }
    using ref_type = std::remove_cvref_t<decltype(std::declval<Fr const&>().ref)>;
    using self_type = std::remove_cvref_t<decltype(std::declval<Fr const&>().self)>;
    using type = typename decltype(pick(std::type_identity<eval_t<Args, Fr>>{}...))::type;
};

template <class Fr, class Then, class Else>
struct branch_type {
    static_assert(!(ir::any_node_of<is_unknown, Then>::value && ir::any_node_of<is_unknown, Else>::value),
                  "cassette::if_: both branches call cassette::self; one of them must be a "
                  "base case that gives the function its result type.");
    static consteval auto pick() {
        if constexpr (ir::any_node_of<is_unknown, Then>::value)
            return std::type_identity<staged_t<Else, Fr>>{};
        else if constexpr (ir::any_node_of<is_unknown, Else>::value)
            return std::type_identity<staged_t<Then, Fr>>{};
        else
            return std::common_type<staged_t<Then, Fr>, staged_t<Else, Fr>>{};
    }
    using type = typename decltype(pick())::type;
};

// The accumulator takes the common type of init and the body's result: fold(0, n, 0, acc + x[i])
// accumulates doubles.
template <class Fr, class Id, class Index, class Init, class Body>
struct accumulator_type {
    template <class Acc>
    using step = staged_t<Body, decltype(std::declval<Fr const&>().template bind<Id>(
                                  std::declval<detail::tuple<Index const&, Acc const&> const&>()))>;
    // Wide enough for init and for what the body makes of it: a plain init where the body
    // tags, or a tagged init where the body's calls fall back and drop the tag.
    template <class Acc>
    using widen = std::common_type_t<Acc, step<Acc>>;
    using type = fixed_point<widen, Init, 8>;
    static_assert(!std::is_void_v<type>,
                  "cassette::fold: the accumulator's type does not settle; make the body return "
                  "the same type whatever the accumulator's type.");
};

template <class F, class... A>
CASSETTE_INLINE constexpr auto evaluate(F const& f, A const&... args) {
    null_context ctx;
    return std::remove_cvref_t<decltype(engine::run_body(detail::as_ref(ctx), f, args...))>(
        engine::run_body(detail::as_ref(ctx), f, args...));
}

// The context a view stands for.
template <class Ctx>
struct context_of {
    using type = Ctx;
};
template <class Ctx>
struct context_of<hooks_disabled<Ctx>> {
    using type = std::remove_reference_t<Ctx>;
};

}  // namespace cassette::detail

namespace cassette {

// Runs f(args...) in ctx: ctx's member overdub if viable, else as recurse.
// The top-level call itself gets no prehook/posthook, as in Cassette.
template <class Ctx, class F, class... A>
CASSETTE_INLINE constexpr auto overdub(Ctx&& ctx, F const& f, A const&... args) {
    using R = decltype(detail::engine::run<detail::step::member_overdub>(detail::as_ref(ctx), f, args...));
    return std::remove_cvref_t<R>(detail::engine::run<detail::step::member_overdub>(detail::as_ref(ctx), f, args...));
}

// The frame f's body runs in under ctx (a context, or a view of one made by disable_hooks)
// for `args`: a cassette::detail::tuple of references to the arguments. Both outlive the
// frame, so neither may be a temporary, but for a view that refers to its context. For a
// library that walks a body itself and evaluates its nodes with frame.eval(node) as overdub
// would (automatic differentiation's reverse sweep).
template <class Ctx, traced_function F, class Args>
CASSETTE_INLINE constexpr auto body_frame(Ctx& ctx, F const&, Args const& args) {
    return detail::body_frame<F>(detail::as_ref(ctx), args);
}
template <class Ctx, traced_function F, class Args>
    requires std::is_lvalue_reference_v<Ctx>  // the view refers to a context that outlives the frame
CASSETTE_INLINE constexpr auto body_frame(hooks_disabled<Ctx> view, F const&, Args const& args) {
    return detail::body_frame<F>(detail::as_ref(view), args);
}
template <class Ctx, class F, class Args>
void body_frame(Ctx&&, F const&, Args const&&) = delete;  // the frame would refer to a temporary tuple
template <class Ctx, class F, class Args>
void body_frame(Ctx const&&, F const&, Args const&) = delete;  // or to a temporary context

// overdub under a value-initialised Ctx.
template <class Ctx, class F, class... A>
    requires(!std::is_convertible_v<F const&, Ctx>)
constexpr auto overdub(F const& f, A const&... args) {
    Ctx ctx{};
    return cassette::overdub(ctx, f, args...);
}

// The default behaviour, ignoring a member overdub for this call: a traced function's body
// runs under ctx (so its calls are overdubbed), anything else goes to fallback.
template <class Ctx, class F, class... A>
CASSETTE_INLINE constexpr auto recurse(Ctx&& ctx, F const& f, A const&... args) {
    using R = decltype(detail::engine::run<detail::step::body>(detail::as_ref(ctx), f, args...));
    return std::remove_cvref_t<R>(detail::engine::run<detail::step::body>(detail::as_ref(ctx), f, args...));
}

// ctx's member fallback if viable, else f called on the arguments.
template <class Ctx, class F, class... A>
CASSETTE_INLINE constexpr auto fallback(Ctx&& ctx, F const& f, A const&... args) {
    using R = decltype(detail::engine::run<detail::step::member_fallback>(detail::as_ref(ctx), f, args...));
    return std::remove_cvref_t<R>(detail::engine::run<detail::step::member_fallback>(detail::as_ref(ctx), f, args...));
}

}  // namespace cassette
