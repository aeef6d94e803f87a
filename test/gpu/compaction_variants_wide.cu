// test/gpu/compaction_variants_wide.cu -- the bulk compaction path's tile geometries that are not
// the default (the two-stage kernel: support/compaction_variants.hpp) against seq, 4- and 8-byte
// values. The 1- and 2-byte values: compaction_variants_narrow.cu (split for compile time).
#include "compaction_variants.hpp"

SWEEP_COMPACTION_VARIANT_CASES(std::int32_t, "int32", 203)
SWEEP_COMPACTION_VARIANT_CASES(std::uint64_t, "int64", 204)
