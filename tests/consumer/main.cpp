// Compiles against the installed umbrella header; run by the install_consumer test.
#include <cassette/cassette.hpp>

int main() {}
