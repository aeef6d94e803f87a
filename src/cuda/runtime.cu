// PLACEHOLDER: the CUDA runtime part of sweep (default pool, device queries) lands with the GPU engine.
namespace sweep::detail::cuda {
int runtime_placeholder() { return 0; }
}
