# Per-target warnings and sanitizers: murmur_target_options(<target>) applies them to our own code only.
function(murmur_target_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -ffp-contract=off)
  # GCC 12 reports -Wrestrict false positives inside libstdc++'s std::string operator+ at -O2
  # (GCC bug 105329); the warning says nothing about our code there.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(MURMUR_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(MURMUR_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
  if(MURMUR_FUZZ)  # coverage for libFuzzer in every library the fuzz targets link
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=all)
  endif()
endfunction()
