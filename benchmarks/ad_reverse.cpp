// The reverse-mode rows of ad_workloads.hpp (with values and derivatives together), timed as
// ad.cpp times the others, in a binary of their own: each row's inlining depends on what else
// its translation unit holds.
#define AD_WORKLOADS_REVERSE
#include "ad.cpp"
