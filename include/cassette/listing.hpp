// SPDX-License-Identifier: BSL-1.0
// code_lowered and code_overdubbed: a body as numbered statements, like Julia's @code_lowered.
#pragma once

#include <cassette/detail/print.hpp>
#include <cassette/detail/type_name.hpp>
#include <cassette/overdub.hpp>
#include <cassette/transform.hpp>

#include <boost/hana/unpack.hpp>

#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace cassette::detail {

// Writes one statement per call; returns each node's operand text (%n, _n, a constant, a
// variable). With `hooks`, each call is written as Cassette's prehook/overdub/posthook triple.
class lister {
public:
    lister(std::string_view self_name, bool overdubbed, bool hooks)
        : self_name_(self_name), overdubbed_(overdubbed), hooks_(hooks) {}

    template <std::size_t I>
    std::string operand(ir::param<I> const&) {
        return "_" + std::to_string(I + 1);
    }

    template <class T>
    std::string operand(ir::constant<T> const& c) {
        return detail::to_string(c.value);
    }

    template <class Id, std::size_t K>
    std::string operand(ir::var<Id, K> const&) {
        for (auto it = vars_.rbegin(); it != vars_.rend(); ++it)
            if (it->id == detail::type_id<Id>() && it->index == K) return it->text;
        return "?";
    }

    template <class F, class... A>
    std::string operand(ir::call<F, A...> const& c) {
        for (held const& h : held_)
            if (h.id == detail::type_id<ir::call<F, A...>>() && ir::equal(c, *static_cast<ir::call<F, A...> const*>(h.made_from)))
                return h.text;
        std::string const callee = callee_text(c.fn);
        std::string args;
        boost::hana::unpack(c.args, [&](auto const&... a) { ((args += ", " + operand(a)), ...); });
        std::string const result = "%" + std::to_string(next_++);
        if (overdubbed_) {
            if (hooks_) line("prehook(ctx, " + callee + args + ")");
            line(result + " = overdub(ctx, " + callee + args + ")");
            if (hooks_) line("posthook(ctx, " + result + ", " + callee + args + ")");
        } else {
            line(result + " = " + callee + "(" + (args.empty() ? args : args.substr(2)) + ")");
        }
        return result;
    }

    // Forms (if_, let, fold, node kinds of a library's own) list themselves, with operand,
    // number, text, line, nested and with_variables.
    template <ir::form_node N>
    std::string operand(N const& n) {
        return n.list(*this);
    }

    // fn() with var<Id, K> written as texts[K], at this level: a let of several values.
    template <class Id, class Fn>
    std::string with_variables(std::vector<std::string> texts, Fn&& fn) {
        std::size_t const count = texts.size();
        for (std::size_t k = 0; k != count; ++k) vars_.push_back({detail::type_id<Id>(), k, std::move(texts[k])});
        std::string result = without_held(fn);  // a form that binds variables is a region of its own
        vars_.resize(vars_.size() - count);
        return result;
    }
    // fn() with each call equal to one of made_from (a tuple of calls of distinct types) written
    // as the operand that one was listed as, each listed in turn, and no call of an enclosing
    // region so (passes::cse).
    template <class MadeFrom, class Fn>
    std::string with_held(MadeFrom const& made_from, Fn&& fn) {
        std::vector<held> outside = std::exchange(held_, {});
        boost::hana::unpack(made_from, [&](auto const&... m) {
            ((held_.push_back({detail::type_id<std::remove_cvref_t<decltype(m)>>(), &m, operand(m)})), ...);
        });
        std::string result = fn();
        held_ = std::move(outside);
        return result;
    }
    template <class Fn>
    std::string without_held(Fn&& fn) {
        return with_held(boost::hana::make_basic_tuple(), fn);
    }

    void line(std::string const& text) { out_ << std::string(2 * depth_, ' ') << text << '\n'; }
    std::string str() const { return out_.str(); }
    std::size_t number() { return next_++; }
    // A number as text (the IR's forms are written without naming std::string, so that
    // including the IR does not include <string>).
    std::string text(std::size_t n) const { return std::to_string(n); }

    // Runs fn one level deeper, with var<Id, K> written as `text`.
    template <class Id, std::size_t K, class Fn>
    void with_variable(std::string text, Fn&& fn) {
        vars_.push_back({detail::type_id<Id>(), K, std::move(text)});
        without_held([&] {
            nested(fn);
            return std::string();
        });
        vars_.pop_back();
    }

    template <class Fn>
    void nested(Fn&& fn) {
        ++depth_;
        fn();
        --depth_;
    }

private:
    template <class F>
    std::string callee_text(F const& fn) {
        if constexpr (std::is_same_v<F, ir::self_t>)
            return std::string(self_name_);
        else if constexpr (ir::expression<F>)
            return operand(fn);
        else
            return std::string(cassette::name_of(fn));
    }

    struct bound {
        void const* id;  // detail::type_id of the binding's Id
        std::size_t index;
        std::string text;
    };

    std::string_view self_name_;
    bool overdubbed_, hooks_;
    std::ostringstream out_;
    std::size_t next_ = 1;
    std::size_t depth_ = 1;
    std::vector<bound> vars_;

    struct held {
        void const* id;  // detail::type_id of the call's type
        void const* made_from;
        std::string text;
    };
    std::vector<held> held_;
};

// ", ::double, ::int"
template <class... A>
std::string argument_types() {
    std::string s;
    ((s += ", ::", s += detail::type_name<A>()), ...);
    return s;
}

template <class Body>
std::string list_body(std::string header, Body const& body, std::string_view self_name, bool overdubbed, bool hooks) {
    lister l(self_name, overdubbed, hooks);
    l.line("return " + l.operand(body));
    return header + l.str();
}

}  // namespace cassette::detail

namespace cassette {

// The body of f for these argument types, as numbered statements: `%3 = sin(_2)`.
// Parameters are _1, _2, ...; let variables read as the value they name; fold variables
// are i<n> and acc<n>.
template <traced_function F, class... A>
std::string code_lowered(F const& f, A const&...) {
    std::string const name(cassette::name_of(f));
    std::string const types = detail::argument_types<A...>();
    return detail::list_body(name + "(" + (types.empty() ? types : types.substr(2)) + ")\n",
                             F::template body<sizeof...(A)>, name, false, true);
}

// The body ctx runs for f: after ctx's pass, each call written as
// prehook(ctx, g, xs...); %n = overdub(ctx, g, xs...); posthook(ctx, %n, g, xs...),
// or the overdub line alone under disable_hooks(ctx).
template <class Ctx, traced_function F, class... A>
std::string code_overdubbed(Ctx const&, F const& f, A const&...) {
    using context = typename detail::context_of<Ctx>::type;
    std::string const name(cassette::name_of(f));
    std::string const header = "overdub(ctx::" + std::string(detail::type_name<context>()) + ", " + name +
                               detail::argument_types<A...>() + ")\n";
    return detail::list_body(header, detail::body_under<context, F, sizeof...(A)>(), name, true,
                             std::is_same_v<context, Ctx>);
}

}  // namespace cassette
