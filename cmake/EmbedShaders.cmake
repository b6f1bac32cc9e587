# Script mode: writes OUTPUT, a C++ file embedding every file in SHADERS as a raw string literal.
# cmake -DOUTPUT=... -DSHADER_DIR=... -DSHADERS="a;b" -DSTYLE_DIR=... -DSTYLE_SHADERS="c;d" -P EmbedShaders.cmake
# (SHADERS named relative to SHADER_DIR, shaders/; STYLE_SHADERS relative to STYLE_DIR, src/: styles/<name>/<name>.glsl)
set(body "")
set(paths "")
foreach(path ${SHADERS})
  list(APPEND paths "${SHADER_DIR}|${path}")
endforeach()
foreach(path ${STYLE_SHADERS})
  list(APPEND paths "${STYLE_DIR}|${path}")
endforeach()
foreach(entry ${paths})
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 base)
  list(GET entry 1 path)
  file(RELATIVE_PATH name ${base} ${path})
  file(READ ${path} text)
  string(APPEND body "    {\"${name}\", R\"murmur_glsl(${text})murmur_glsl\"},\n")
endforeach()
file(WRITE ${OUTPUT}.new "// Generated from shaders/ and src/styles/ by cmake/EmbedShaders.cmake; do not edit.\n"
  "#include \"gl/embedded_shaders.hpp\"\n\nnamespace murmur::gl {\n"
  "std::span<const EmbeddedShader> embeddedShaders() {\n"
  "    static const EmbeddedShader shaders[] = {\n${body}    };\n    return shaders;\n}\n}  // namespace murmur::gl\n")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
