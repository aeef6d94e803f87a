// sweep/thrust.hpp -- public layer: Thrust interoperation. Include it (instead of, or after,
// Thrust's headers) to pass thrust::host, thrust::device and thrust::cuda::par(.on(s)) to sweep.
// Any sweep header included after a Thrust header does the same.
#pragma once

#include <thrust/execution_policy.h>

#include <sweep/sweep.hpp>
