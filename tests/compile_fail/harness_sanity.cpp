// expect: cassette harness sanity
// Sanity case for the compile-fail harness itself (no cassette involved): the failing
// branch must be rejected with the message above, and the passing twin must compile.
template <class T>
inline constexpr bool false_v = false;

#ifdef CASSETTE_PASSING_TWIN
static_assert(!false_v<int>, "cassette harness sanity");
#else
static_assert(false_v<int>, "cassette harness sanity");
#endif

int main() {}
