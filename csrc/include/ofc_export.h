/*
 * ofc_export.h -- OFC_API, the mark of every public declaration of the ofc_fast
 * headers (functions, and the tables ofc_inline.h reads).
 *
 * Building the shared library (CMake defines OFC_FAST_EXPORTS, and compiles with
 * -fvisibility=hidden under gcc / clang), it exports them and nothing else:
 * __declspec(dllexport) on Windows, visibility("default") elsewhere.  A program using
 * the Windows DLL defines OFC_FAST_SHARED (the ofc_fast::ofc_fast_shared CMake target
 * does it for its users), so that they are __declspec(dllimport): the tables of
 * ofc_inline.h need it.  Anything else (the static library, the sources compiled into
 * a program or the Python extension) leaves OFC_API empty.
 *
 * Example
 * -------
 * @code
 * // ofc_fast.h declares `OFC_API uint32_t ofc_version_number(void);`: a program built
 * // against the shared library calls it there (on Windows with OFC_FAST_SHARED).
 * assert(ofc_version_number() == OFC_VERSION_NUMBER);
 * @endcode
 */
#ifndef OFC_EXPORT_H
#define OFC_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(OFC_FAST_EXPORTS)
#define OFC_API __declspec(dllexport)
#elif defined(OFC_FAST_SHARED)
#define OFC_API __declspec(dllimport)
#else
#define OFC_API
#endif
#elif defined(OFC_FAST_EXPORTS) && (defined(__GNUC__) || defined(__clang__))
#define OFC_API __attribute__((visibility("default")))
#else
#define OFC_API
#endif

#endif /* OFC_EXPORT_H */
