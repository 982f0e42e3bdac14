// The gradient of the energy of a plain struct of particles: the structs stay plain structs
// of doubles, and the gradient comes back with their type and shape.
#include <cassette/ad.hpp>
#include <cassette/cassette.hpp>

#include <iostream>
#include <vector>

//[particles
struct Particle {
    double x, y;
};

// Unit springs between neighbours, and unit gravity.
inline constexpr auto energy = cassette::function<"energy">([](auto ps) {
    using cassette::get;
    auto springs = cassette::sum(0, cassette::length(ps) - 1, [=](auto i) {
        auto dx = get<0>(ps[i + 1]) - get<0>(ps[i]);
        auto dy = get<1>(ps[i + 1]) - get<1>(ps[i]);
        return 0.5 * (dx * dx + dy * dy);
    });
    return springs + cassette::sum(0, cassette::length(ps), [=](auto i) { return get<1>(ps[i]); });
});

int main() {
    std::vector<Particle> const ps{{0, 0}, {1, 0}, {1, 2}};
    std::cout << "energy " << energy(ps) << '\n';
    std::vector<Particle> const force = cassette::ad::gradient(energy, ps);
    for (Particle const& f : force) std::cout << "dE/dp = (" << f.x << ", " << f.y << ")\n";
}
//]
