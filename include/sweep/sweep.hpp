// sweep/sweep.hpp -- the umbrella header: every public family of sweep.
#pragma once

#include <sweep/copy_if.hpp>
#include <sweep/errors.hpp>
#include <sweep/execution.hpp>
#include <sweep/functional.hpp>
#include <sweep/partition.hpp>
#include <sweep/radix_sort.hpp>
#include <sweep/scan.hpp>
#include <sweep/segmented_scan.hpp>
