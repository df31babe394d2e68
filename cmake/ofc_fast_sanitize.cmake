# The flags of OFC_FAST_SANITIZE for a compiler (CMakeLists.txt includes this;
# tests/test_cmake.py also runs it in script mode, cmake -P, for compilers not at hand).
#
#   ofc_fast_sanitize_flags(<sanitizers> <compiler id> <frontend variant>
#                           <compile var> <link var>)
#
# sets <compile var> and <link var> (lists, in the caller's scope) to the compile and
# link options of the sanitizers <sanitizers> (OFC_FAST_SANITIZE's value; empty, OFF, 0,
# FALSE: none)
# for a compiler of CMAKE_C_COMPILER_ID <compiler id> and
# CMAKE_C_COMPILER_FRONTEND_VARIANT <frontend variant>:
#   GCC and Clang (a GNU-style command line): any sanitizers they take ("address,undefined",
#     "thread", ...): -fsanitize=<sanitizers> -fno-omit-frame-pointer -g (and
#     -fno-sanitize-recover=all, but for "thread") to compile, -fsanitize=<sanitizers>
#     to link;
#   MSVC (cl): "address" only: /fsanitize=address to compile, nothing to link (the
#     objects name their runtime to the linker);
#   any other value or compiler (clang-cl among them): a FATAL_ERROR naming what is
#   supported.
function(ofc_fast_sanitize_flags sanitizers compiler_id frontend compile_var link_var)
    set(compile "")
    set(link "")
    set(supported "GCC and Clang (-fsanitize=..., e.g. address,undefined or thread), ")
    string(APPEND supported "MSVC's cl (address only: /fsanitize=address)")
    if(NOT sanitizers)  # ("", OFF, 0, FALSE: none, as before)
    elseif(compiler_id MATCHES "GNU|Clang" AND NOT frontend STREQUAL "MSVC")
        set(compile -fsanitize=${sanitizers} -fno-omit-frame-pointer -g)
        if(NOT sanitizers STREQUAL "thread")
            list(APPEND compile -fno-sanitize-recover=all)
        endif()
        set(link -fsanitize=${sanitizers})
    elseif(compiler_id STREQUAL "MSVC")
        if(NOT sanitizers STREQUAL "address")
            message(FATAL_ERROR "OFC_FAST_SANITIZE=${sanitizers}: MSVC has AddressSanitizer only: "
                "use OFC_FAST_SANITIZE=address (/fsanitize=address). Supported: ${supported}.")
        endif()
        set(compile /fsanitize=address)
    else()
        if(frontend STREQUAL "MSVC")
            set(compiler_id "${compiler_id} with the MSVC command line (clang-cl)")
        endif()
        message(FATAL_ERROR "OFC_FAST_SANITIZE=${sanitizers}: not supported with the C compiler "
            "${compiler_id}. Supported: ${supported}.")
    endif()
    set(${compile_var} "${compile}" PARENT_SCOPE)
    set(${link_var} "${link}" PARENT_SCOPE)
endfunction()
