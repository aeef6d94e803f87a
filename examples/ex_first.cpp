// examples/ex_first.cpp -- the README's first example: a running total, on one thread and on all cores.
#include <cstdio>
#include <numeric>
#include <vector>

#include <sweep/sweep.hpp>

int main() {
    std::vector<int> sales = {3, 1, 4, 1, 5, 9, 2, 6};
    std::vector<int> running(sales.size());

    sweep::inclusive_scan(sweep::par, sales.begin(), sales.end(), running.begin());
    // running == {3, 4, 8, 9, 14, 23, 25, 31}

    std::vector<int> expected(sales.size());
    std::inclusive_scan(sales.begin(), sales.end(), expected.begin());
    for (int x : running) std::printf("%d ", x);
    std::printf("\n");
    return running == expected ? 0 : 1;
}
