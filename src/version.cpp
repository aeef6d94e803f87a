// src/version.cpp -- runtime: the library's version, so that the archive is never empty.
namespace sweep {
const char* version() noexcept { return "0.1.0"; }
}  // namespace sweep
