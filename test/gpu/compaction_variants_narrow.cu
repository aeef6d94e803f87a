// test/gpu/compaction_variants_narrow.cu -- the bulk compaction path's tile geometries that are not
// the default (the two-stage kernel: support/compaction_variants.hpp) against seq, 1- and 2-byte
// values. The 4- and 8-byte values: compaction_variants_wide.cu (split for compile time).
#include "compaction_variants.hpp"

SWEEP_COMPACTION_VARIANT_CASES(std::int8_t, "int8", 201)
SWEEP_COMPACTION_VARIANT_CASES(std::uint16_t, "int16", 202)
